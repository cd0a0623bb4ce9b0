"""Stage 11: divide by √d_k, then softmax along rows; compare with stage 4."""

import numpy as np
from manim import DOWN

from scenes.components.fades import appear, swap
from scenes.components.numbers import shown_value, tick_values
from scenes.storyboards.row_softmax import RowSoftmaxStage

__all__ = ["ScaledSoftmax"]

ONE_HOT = 0.95  # a row whose largest weight is at least this is one-hot to the eye: that cell red, the rest purple


class ScaledSoftmax(RowSoftmaxStage):
    number = 11
    title = "Scaled softmax"
    summary = "divide ω′ by √d_k = √17 (the same pattern on a narrower scale), softmax along rows into α′; compare with stage 4"
    code = "attention_weights = F.softmax(omegas / d_k**0.5, dim=-1)"
    formula_tex = r"\alpha'_{ij} = \mathrm{softmax}_j\!\left(\omega'_{ij} / \sqrt{d_k}\right)"
    mask_code = "attention_weights = F.softmax((omegas / d_k**0.5).masked_fill(mask, float('-inf')), dim=-1)"
    scores_key = "s10_omegas"
    masked_key = "s11_masked_scaled_omegas"
    weights_key = "s11_attention_weights"
    scores_name = "ω′"
    weights_name = "α′"
    inset_share = 0.22

    def scaled_name(self):
        return f"ω′ / √{self.cfg.d_k}"

    def scale_note_for(self):
        return f"/√{self.cfg.d_k}"

    def show_scores(self, scores):
        scaled = self.trace["s11_scaled_omegas"]
        self.step("scale")
        d_k = self.cfg.d_k
        root = d_k ** 0.5
        before = tick_values(scores.value_range)
        after_range = (float(np.min(scaled)), float(np.max(scaled)))
        after = tick_values(after_range)
        self.say(f"÷ √{d_k} = {root:.3g}: the same pattern, every score {root:.3g}× smaller: "
                 f"{before[0]} … {before[1]} becomes {after[0]} … {after[1]}")
        old = scores.label
        # on its own colors, as every block (and stage 18): the pattern stays, the scale's numbers shrink;
        # on ω′'s colors it washed out to one green, and its rows on the bench with it
        scores.value_range = after_range
        self.layout.name(scores, self.scaled_name(), DOWN, values=scaled)
        self.layout.place(scores)
        self.play(scores.animate.recolor(scaled, after_range), *swap(old, scores.label), run_time=2.0)
        self.scale_note = f"/√{d_k}"
        self.wait(0.6)
        self.say(self.why_scale(scaled))
        self.wait(1.6)
        return scaled

    def why_scale(self, scaled) -> str:
        """What ÷√d_k does to these numbers, said from them: the median lead
        of a row's top score over its runner-up, before and after."""
        ordered = np.sort(scaled, axis=-1)
        lead = float(np.median(ordered[:, -1] - ordered[:, -2]))
        before = lead * self.cfg.d_k ** 0.5
        top = np.exp(-lead)  # the runner-up's weight beside the top's, at the median lead
        if top < 1 - ONE_HOT:
            return (f"a row's top still leads by ~{shown_value(lead)} (was ~{shown_value(before)}): "
                    f"exp keeps it far ahead: nearly all the weight on one token")
        return (f"a row's top leads by ~{shown_value(lead)}, not ~{shown_value(before)}: "
                f"the runner-up keeps {top:.0%} of its weight")

    def compared(self, before, weights) -> str:
        """How stage 4's weights and these differ, said from the numbers:
        the rows that put at least :data:`ONE_HOT` on one token (a red cell
        in a purple row), in each."""
        there, here = (int((np.max(w, axis=-1) >= ONE_HOT).sum()) for w in (before, weights))
        rows = len(weights)
        return (f"rows with ≥ {ONE_HOT:g} on one token (one red cell): {here} of {rows} here, "
                f"{there} of {rows} in stage 4's α (no projections, no ÷√d_k)")

    def point_out_maxima(self, grid, weights):
        super().point_out_maxima(grid, weights)
        other = self.inset("s04_attention_weights", "stage 4: α", self.inset_share, beside=grid)
        self.say(self.compared(self.trace["s04_attention_weights"], weights))
        self.play(appear(other), appear(other.label))
