"""Stage 5: context vectors Z = A·X."""

import numpy as np

from scenes.components.numbers import format_value
from scenes.storyboards.matmul import MatmulStage
from scenes.storyboards.row_softmax import ONE_TOKEN, mixing_rows

__all__ = ["ContextVectors"]


class ContextVectors(MatmulStage):
    number = 5
    title = "Context vectors Z = α · X"
    summary = "matmul α (8×8) · X (8×16): each row of Z is a weighted mix of the token rows of X"
    code = "context_vectors = torch.matmul(attention_weights, embedded_sentence)"
    formula_tex = r"z^{(i)} = \textstyle\sum_j \alpha_{ij}\, x^{(j)}"  # inline sum: no tall limits to scale down
    left_key, right_key, result_key = "s04_attention_weights", "s02_embedded_sentence", "s05_context_vectors"
    names = ("α", "X", "Z")
    intro = "the attention weights α ({left}) and the embeddings X ({right})"
    outro = "row i of Z: the rows of X mixed by row i of α"
    compare_key, compare_name = "s02_embedded_sentence", "stage 2: X"

    def remark(self):
        """Say plainly when A is nearly the identity, so Z is nearly X (the default example)."""
        own = np.diag(self.trace[self.left_key])
        if own.min() >= ONE_TOKEN:
            # (a note that Z's bar has X's very ends read as obscure: 05_0719); where the scaled weights of
            # stage 11 do mix, the viewer is told where to see it (the scene meant to show mixing showed none,
            # with no word of where it happens: the 42nd reader's weakest five); made in stage 11, seen mixing in 12
            # ("stage 12's scaled weights" read as a wrong stage: 05_0854, the 45th reader)
            scaled = self.trace["s11_attention_weights"]
            if mixing := mixing_rows(scaled):
                return (f"here α ≈ identity (diagonal ≥ {format_value(own.min())}), so Z ≈ X, little mixing; "
                        f"the scaled α′ of stage 11 mixes {mixing} of {len(scaled)} rows (seen in stage 12)")
            return (f"here α ≈ identity (diagonal ≥ {format_value(own.min())}), so Z ≈ X: each token keeps "
                    f"its own row, little mixing")
        return f"here a token keeps {own.mean():.0%} of its own row on average, the rest from the others"

