"""Stage 8: the keys, the queries' storyboard with U_key."""

from scenes.storyboards.projection import ProjectionStage

__all__ = ["Keys"]


class Keys(ProjectionStage):
    number = 8
    title = "Keys K = (U_key · Xᵀ)ᵀ"
    summary = "matmul U_key (17×16) · Xᵀ (16×8) = 17×8, then .T turns it into K (8×17)"
    code = "keys = U_key.matmul(embedded_sentence.T).T"
    weight_key, result_key = "s06_U_key", "s08_keys"
    weight_name, result_name, role = "U_key", "K", "key"
    # a repeat of stage 7, short (the same clip three times: 08, 09 for the 39th and the 48th to 51st readers):
    # one cell of row 0 formed, its rest against all of Xᵀ at once, every other row swept
    first_of, speed, rows, cells = "7", 1.5, 0, 1
