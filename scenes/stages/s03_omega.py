"""Stage 3: ω = X·Xᵀ, every token's dot product with every token."""

from scenes.storyboards.matmul import MatmulStage

__all__ = ["Omega"]


class Omega(MatmulStage):
    number = 3
    title = "Scores ω = X · Xᵀ"
    summary = "matmul: row i of X meets column j of Xᵀ at cell (i, j) of the 8×8 scores"
    code = "omega_mat = embedded_sentence.matmul(embedded_sentence.T)"
    formula_tex = r"\omega_{ij} = x^{(i)\top} x^{(j)}"
    left_key = right_key = "s02_embedded_sentence"
    right_transposed = True
    result_key = "s03_omega"
    names = ("X", "Xᵀ", "ω")
    intro = "X: one row per token ({left}); Xᵀ: the same numbers, turned ({right})"
    outro = "ω[i, j]: how strongly token i matches token j (before softmax)"
    columns_are_tokens = True
