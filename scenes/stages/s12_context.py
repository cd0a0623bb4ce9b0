"""Stage 12: context vectors A · V, compared with stage 5."""

import numpy as np

from scenes.storyboards.row_softmax import ONE_TOKEN, mixing_rows
from scenes.storyboards.matmul import MatmulStage

__all__ = ["ScaledContext"]


class ScaledContext(MatmulStage):
    number = 12
    title = "Context vectors Z′ = α′ · V"
    summary = "matmul α′ (8×8) · V (8×18) = 8×18 context vectors Z′; compare with Z of stage 5"
    code = "context_vectors = attention_weights.matmul(values)"
    formula_tex = r"z'^{(i)} = \textstyle\sum_j \alpha'_{ij}\, v^{(j)}"  # inline sum: no tall limits to scale down
    left_key, right_key, result_key = "s11_attention_weights", "s09_values", "s12_context_vectors"
    names = ("α′", "V", "Z′")
    intro = "the attention weights α′ ({left}) and the values V ({right})"
    outro = "row i of Z′: the rows of V mixed by row i of α′"
    compare_key, compare_name = "s05_context_vectors", "stage 5: Z = α·X"
    cells, rows = 3, 3  # stage 5's matmul again: a few cells and rows shown whole, the rest faster

    def remark(self):
        """Say whether α′ mixes, counted from its rows (the first scene where tokens mix went unsaid: 12_0566,
        the 42nd reader), against stage 5's α where that one mixed little, none of its rows (said "mixed none"
        here, "little mixing" there, two words for one fact read as a contradiction: G7 of the 51st reader)."""
        weights = self.trace[self.left_key]
        rows = len(weights)
        mixing = mixing_rows(weights)
        if not mixing:
            return f"here every row of α′ gives one token {ONE_TOKEN:.0%} or more: little mixing"
        unmixed = np.diag(self.trace["s04_attention_weights"]).min() >= ONE_TOKEN
        return (f"here {mixing} of {rows} rows of α′ mix tokens: their largest weight is under {ONE_TOKEN:.0%}"
                + (" (stage 5's α: no such row, little mixing)" if unmixed else ""))
