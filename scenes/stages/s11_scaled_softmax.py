"""Stage 11: divide by √d_k, then softmax along rows; compare with stage 4."""

import numpy as np
from manim import DOWN

from scenes.components.fades import appear, swap
from scenes.components.numbers import format_value, shown_value, tick_values
from scenes.storyboards.row_softmax import ONE_TOKEN, RowSoftmaxStage, on_one_token

__all__ = ["ScaledSoftmax"]



class ScaledSoftmax(RowSoftmaxStage):
    number = 11
    title = "Scaled softmax"
    summary = ("divide ω′ by √d_k = √17 (beside ω′, on its colors: every score shrinks toward 0, every row's order "
               "kept), softmax along rows into α′; compare with softmax(ω′) unscaled and with stage 4")
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

    INSETS = (("s11_unscaled_weights", "softmax(ω′)"), ("s04_attention_weights", "stage 4: α"))

    def inset_room(self):
        """At least the inset share, and room for the insets' labels whole."""
        widest = max(self.layout.sized_label(name, self.trace[key].shape, DOWN, stacked=True,
                                             value_range=(float(np.min(self.trace[key])),
                                                          float(np.max(self.trace[key])))).width
                     for key, name in self.INSETS)
        return max(super().inset_room(), widest + 0.3)

    def bench_label(self, scores):
        return self.layout.sized_label(self.scaled_name(), scores.source_shape, DOWN, value_range=scores.value_range,
                                       scale_of=self.scores_name)

    def show_scores(self, scores, bench):
        scaled = self.trace["s11_scaled_omegas"]
        self.step("scale")
        d_k = self.cfg.d_k
        root = d_k ** 0.5
        before = tick_values(scores.value_range)
        after = tick_values((float(np.min(scaled)), float(np.max(scaled))))
        # ω′ / √d_k beside ω′, on ω′'s colors: every cube slides toward the middle color (0). On the bench's
        # place, between ω′ and the weights
        divided = scores.like(self.trace[self.scores_key], scores.value_range, dims=scores.dims)
        divided.is_map = True
        at = bench.bench.cell_center(0, 0)
        spot = [at[0], scores.cell_center(0, 0)[1], at[2]]
        there = divided.copy().align_cell((0, 0, 0), spot)
        self.layout.name(there, self.scaled_name(), bench.bench_side, values=scaled, scale_of=self.scores_name)
        there.label.hang = bench.bench_hang
        self.layout.place(there)
        self.layout.bind(divided, there.label, scaled)
        divided.align_cell((0, 0, 0), scores.cell_center(0, 0))
        self.say(f"÷ √{d_k} (√{d_k} ≈ {root:.3g}): every score shrinks toward 0, "
                 f"{before[0]} … {before[1]} becomes {after[0]} … {after[1]}")
        self.add(divided)
        self.play(divided.animate.align_cell((0, 0, 0), spot)
                  .recolor(scaled, scores.value_range), appear(divided.label), run_time=1.6)
        self.wait(1.8)
        # kept on ω′'s colors from here to the softmax: the shrink seen at every still after it (recolored on its
        # own range, the divided block looked just like ω′: 11_0148, the 60th, 62nd and 63rd readers)
        self.say(f"still on ω′'s colors ({before[0]} … {before[1]}): every cube nearer the middle color, 0's; "
                 "every row's order kept")
        self.wait(1.4)
        # the divided scores take ω′'s place: the softmax works on them
        old = scores.label
        self.layout.name(scores, self.scaled_name(), DOWN, values=scaled, scale_of=self.scores_name)
        self.layout.place(scores)
        self.play(scores.animate.recolor(scaled, scores.value_range), *swap(old, scores.label),
                  divided.animate.align_cell((0, 0, 0), scores.cell_center(0, 0)).set_opacity(0.0),
                  *swap(divided.label, None), run_time=1.0)
        self.remove(divided)
        self.scale_note = f"/√{d_k}"
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
        # the lead after, from the lead before as written: the two agree on screen (6.12 ÷ √17 = 1.48, where the
        # lead rounded on its own read 1.49: two readers)
        lead = float(format_value(before)) / self.cfg.d_k ** 0.5
        # the median lead, said as a typical row's ("median row" is no row's of an even count: 11_0148, the 53rd
        # reader; "the median over the rows" was not understood: 11_0148, the 56th)
        if top < 1 - ONE_TOKEN:
            return (f"in a typical row the top score leads the next by ~{shown_value(lead)} (~{shown_value(before)} "
                    f"before ÷√{self.cfg.d_k}): still nearly all the weight on one token")
        return (f"in a typical row the top score leads the next by ~{shown_value(lead)} (~{shown_value(before)} "
                f"before ÷√{self.cfg.d_k}): the next gets {top:.0%} of the top's weight")

    def compared(self, before, unscaled, weights) -> str:
        """How stage 4's weights, the unscaled scores' and these differ, said
        from the numbers: the rows that put at least :data:`ONE_TOKEN` on one
        token, in each."""
        there, plain, here = (on_one_token(w) for w in (before, unscaled, weights))
        rows = len(weights)
        return (f"rows with ≥ {ONE_TOKEN:.0%} on one token: {here} of {rows} here, "
                f"{plain} of {rows} in softmax(ω′) without ÷√{self.cfg.d_k}, {there} of {rows} in stage 4's α")

    def point_out_maxima(self, grid, weights):
        super().point_out_maxima(grid, weights)
        area = self.layout.area()  # right of the weights, their words and their label
        clear = self.layout.right_edge(grid, grid.label, grid.column_words) + 0.1
        share = (area.right - clear) / area.width + 0.04  # inset() starts its part 0.04 in
        plain, other = (self.inset(key, name, share, beside=grid, band=band)
                        for (key, name), band in zip(self.INSETS, ((0.0, 0.5), (0.5, 1.0))))
        self.say(self.compared(self.trace["s04_attention_weights"], self.trace["s11_unscaled_weights"], weights))
        self.play(*[appear(m) for m in (plain, plain.label, other, other.label)])
