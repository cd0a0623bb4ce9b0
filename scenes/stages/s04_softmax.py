"""Stage 4: softmax along each row of ω gives the attention weights."""

from scenes.storyboards.row_softmax import RowSoftmaxStage

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
