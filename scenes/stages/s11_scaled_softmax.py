"""Stage 11: divide by √d_k, then softmax along rows; compare with stage 4."""

from manim import UP

from scenes.storyboards.row_softmax import RowSoftmaxStage
from scenes.components.fades import appear


__all__ = ["ScaledSoftmax"]


class ScaledSoftmax(RowSoftmaxStage):
    number = 11
    title = "Scaled softmax"
    summary = "divide ω by √d_k = √17 (all cubes recolor), softmax along rows; compare with stage 4"
    code = "attention_weights = F.softmax(omegas / d_k**0.5, dim=-1)"
    formula_tex = r"\alpha_{ij} = \mathrm{softmax}_j\!\left(\omega_{ij} / \sqrt{d_k}\right)"
    mask_code = "attention_weights = F.softmax((omegas / d_k**0.5).masked_fill(mask, float('-inf')), dim=-1)"
    scores_key = "s10_omegas"
    masked_key = "s11_masked_scaled_omegas"
    weights_key = "s11_attention_weights"
    scores_name = "ω"
    inset_share = 0.24

    def show_scores(self, grid, label):
        scaled = self.trace["s11_scaled_omegas"]
        self.step("scale")
        root = self.cfg.d_k ** 0.5
        name = f"ω / √{self.cfg.d_k}"
        self.say(f"÷ √d_k = √{self.cfg.d_k} = {root:.3g}: every score {root:.3g}× smaller, the same pattern")
        self.play(grid.animate.recolor(scaled), *self.legend.swap(name, scaled), run_time=1.5)
        label = self.relabel(label, grid, name, scaled.shape, UP)
        self.wait(0.8)
        return scaled, label

    def point_out_maxima(self, grid, weights):
        super().point_out_maxima(grid, weights)
        other, label = self.inset("s04_attention_weights", "stage 4: A", self.inset_share, beside=grid)
        self.say("compare stage 4 (no projections, no ÷√d_k): other weights")
        self.play(appear(other), appear(label))
