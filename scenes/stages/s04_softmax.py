"""Stage 4: softmax along each row of ω gives the attention weights."""

import numpy as np

from scenes.storyboards.row_softmax import ONE_TOKEN, RowSoftmaxStage, on_one_token

__all__ = ["SoftmaxRows"]


class SoftmaxRows(RowSoftmaxStage):
    number = 4
    title = "Attention weights α = softmax(ω)"
    summary = "softmax along each row of ω into α: exponentiate, divide by the row sum, each row sums to 1"
    code = "attention_weights = F.softmax(omega_mat, dim=1)"
    formula_tex = r"\alpha_{ij} = \frac{\exp(\omega_{ij})}{\sum_{j'} \exp(\omega_{ij'})}"
    mask_code = "attention_weights = F.softmax(omega_mat.masked_fill(mask, float('-inf')), dim=1)"
    scores_key = "s03_omega"
    masked_key = "s04_masked_omega"
    weights_key = "s04_attention_weights"

    def point_out_maxima(self, grid, weights):
        """Each row's largest weight framed, then why the diagonal wins where it does."""
        super().point_out_maxima(grid, weights)
        self.wait(0.2)
        self.say(self.why_diagonal(weights))
        self.wait(1.0)

    def why_diagonal(self, weights) -> str:
        """Said from the numbers: how many rows the diagonal wins, and how
        many rows give one token nearly all their weight (counted, as the
        red cells are: "median top weight" read as jargon, 04_0343)."""
        tokens = len(weights)
        mine = int((weights.argmax(axis=-1) == np.arange(tokens)).sum())
        sharp = on_one_token(weights)
        if self.cfg.mask == "causal" or mine < tokens:
            return (f"{mine} of {tokens} rows weigh their own token most; {sharp} of {tokens} give one token "
                    f"≥ {ONE_TOKEN:.0%} of their weight")
        return (f"here every row's largest score happens to be its own, ω[i, i] = |x⁽ⁱ⁾|², by far; exp "
                f"sharpens that: {sharp} of {tokens} rows give it ≥ {ONE_TOKEN:.0%}")
