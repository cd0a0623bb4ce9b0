"""Stage 9: the values, the queries' storyboard with U_value."""

from scenes.storyboards.projection import ProjectionStage

__all__ = ["Values"]


class Values(ProjectionStage):
    number = 9
    title = "Values V = (U_value · Xᵀ)ᵀ"
    summary = "matmul U_value (18×16) · Xᵀ (16×8) = 18×8, then .T turns it into V (8×18)"
    code = "values = U_value.matmul(embedded_sentence.T).T"
    weight_key, result_key = "s06_U_value", "s09_values"
    weight_name, result_name, role = "U_value", "V", "value"
    # a repeat of stage 7, short (the same clip three times: 08, 09 for the 39th and the 48th to 51st readers):
    # one cell of row 0 formed, its rest against all of Xᵀ at once, every other row swept
    first_of, speed, rows, cells = "7", 1.5, 0, 1
