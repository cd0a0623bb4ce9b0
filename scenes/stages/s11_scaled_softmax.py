"""Stage 11: divide by √d_k, then softmax along rows; compare with stage 4."""

from manim import DOWN, RIGHT

from scenes.stages.s04_softmax import SoftmaxRows
from scenes.components.fades import appear

__all__ = ["ScaledSoftmax"]


class ScaledSoftmax(SoftmaxRows):
    number = 11
    slug = "scaled_softmax"
    title = "Scaled softmax"
    summary = "divide ω by √d_k = √17 (all cubes recolor), softmax along rows; compare with stage 4"
    code = "attention_weights = F.softmax(omegas / d_k**0.5, dim=-1)"
    formula_tex = r"\alpha_{ij} = \mathrm{softmax}_j\!\left(\omega_{ij} / \sqrt{d_k}\right)"
    mask_code = "attention_weights = F.softmax((omegas / d_k**0.5).masked_fill(mask, float('-inf')), dim=-1)"
    scores_key = "s10_omegas"
    masked_key = "s11_masked_scaled_omegas"
    weights_key = "s11_attention_weights"
    scores_name = "ω"

    def show_scores(self, grid):
        scaled = self.trace["s11_scaled_omegas"]
        self.say(f"÷ √d_k = √{self.cfg.d_k}: colors kept on ω's scale, so every cube moves to the middle")
        self.play(grid.animate.recolor(scaled, grid.value_range), run_time=1.5)
        return scaled

    def point_out_maxima(self, grid, weights):
        super().point_out_maxima(grid, weights)
        basic = self.trace["s04_attention_weights"]
        other = self.tensor_grid("s04_attention_weights", cube_size=0.13, gap=0.03)
        other.next_to(grid, RIGHT, buff=1.4 + self.guide_room(grid, RIGHT))
        label = self.label(other, "stage 4", basic.shape, DOWN, sides=("bottom", "right"))
        self.say("compare stage 4: the projections (random here) and ÷√d_k give other weights")
        self.play(appear(other), appear(label))
