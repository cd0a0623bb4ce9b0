"""Stage 10: ω = Q · Kᵀ, compared with stage 3's X · Xᵀ."""

import numpy as np

from scenes.components.numbers import shown_value
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

    def remark(self):
        """Said from the numbers: ω′ is not symmetric, unlike ω = X·Xᵀ (a query
        and a key are different vectors of one token), with the pair that
        differs most."""
        scores = self.trace[self.result_key]
        gap = np.nan_to_num(np.abs(scores - scores.T), nan=0.0, posinf=0.0)  # a masked pair is no pair
        i, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
        if gap[i, j] <= 1e-6 * max(1.0, float(np.abs(scores).max())):
            return "ω′ is symmetric here, as ω = X·Xᵀ is: ω′[i, j] = ω′[j, i]"
        return (f"unlike ω = X·Xᵀ, ω′ is not symmetric: a token's query and key differ, "
                f"ω′[{i}, {j}] = {shown_value(scores[i, j])} but ω′[{j}, {i}] = {shown_value(scores[j, i])}")
