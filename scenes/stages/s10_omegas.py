"""Stage 10: ω = Q · Kᵀ, compared with stage 3's X · Xᵀ."""

from scenes.storyboards.matmul import MatmulStage

__all__ = ["QueryKeyScores"]


class QueryKeyScores(MatmulStage):
    number = 10
    title = "Scores ω′ = Q · Kᵀ"
    summary = "matmul Q (8×17) · Kᵀ (17×8) = 8×8 scores ω′; compare with ω of stage 3"
    code = "omegas = queries.matmul(keys.T)"
    formula_tex = r"\omega'_{ij} = q^{(i)\top} k^{(j)}"
    left_key, right_key, result_key = "s07_queries", "s08_keys", "s10_omegas"
    right_transposed = True
    names = ("Q", "Kᵀ", "ω′")
    intro = "the queries Q ({left}) and the keys turned, Kᵀ ({right})"
    outro = "ω′[i, j]: how well token i's query matches token j's key"
    compare_key, compare_name = "s03_omega", "stage 3: ω = X·Xᵀ"
    columns_are_tokens = True
