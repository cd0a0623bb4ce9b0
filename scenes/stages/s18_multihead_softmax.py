"""Stage 18: scale and softmax along the rows of every head."""

from manim import DOWN, Group

from tensors import softmax_steps
from scenes.base import StageScene
from scenes.layout import LABEL_ROOM, Margins
from scenes.motions.heads import spread_heads
from scenes.motions.softmax import mask_later_tokens, softmax_rows
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadSoftmax"]


class MultiheadSoftmax(StageScene):
    number = 18
    title = "Multi-head attention weights"
    summary = "scale by √d_k and softmax along the rows of every head: 9 different 8×8 patterns"
    code = "multihead_attention_weights = F.softmax(multihead_omegas / d_k**0.5, dim=-1)"
    view = (0.5, 0.3)
    mask_code = ("multihead_attention_weights = F.softmax(\n"
                 "    (multihead_omegas / d_k**0.5).masked_fill(mask, float('-inf')), dim=-1)")

    def storyboard(self):
        omegas = self.trace["s17_multihead_omegas"]
        scaled = self.trace["s18_multihead_scaled_omegas"]
        weights = self.trace["s18_multihead_attention_weights"]
        block = self.tensor_grid("s17_multihead_omegas")
        self.layout.fit([block], margins=Margins(bottom=LABEL_ROOM))
        label = self.layout.label(block, "multihead_omegas", omegas.shape, DOWN)
        self.step("scores")
        self.say(f"the scores of all {self.cfg.heads} heads")
        self.play(appear(block), appear(label))
        self.legend.show("multihead_omegas", omegas)
        self.play(vanish(label), run_time=0.3)
        spread = spread_heads(self, self.layout, self.viewpoint, block, name="multihead_omegas", words=self.cfg.sentence)
        slices = spread.slices

        self.step("scale")
        d_k = f"d/h = {self.cfg.head_k}" if self.paper(self.cfg) else f"d_k = {self.cfg.head_k}"
        root = self.cfg.head_k ** 0.5
        self.say(f"÷ √({d_k}) = {root:.3g} in every head: the same patterns, {root:.3g}× smaller")
        scaled_range = (float(scaled.min()), float(scaled.max()))
        self.play(*[s.animate.recolor(scaled[h], scaled_range) for h, s in enumerate(slices)],
                  *self.legend.swap(f"multihead_omegas / √{self.cfg.head_k}", scaled_range), run_time=1.2)
        self.wait(0.6)
        mark = None
        if self.cfg.mask == "causal":
            self.step("mask")
            self.say("causal mask in every head: the scores of later tokens become −∞")
            mark = mask_later_tokens(self, self.layout, slices)
            scaled = self.trace["s18_multihead_masked_scaled_omegas"]

        self.step("softmax")
        weights_range = (float(weights.min()), float(weights.max()))
        softmax_rows(self, self.layout, self.legend, slices[0], softmax_steps(scaled[0]), weights_range,
                     explicit_rows=((0, 0),), say=self.say, sum_labels=False,
                     weights_name="multihead_attention_weights", run_time=0.8)
        others = list(enumerate(slices[1:], start=1))
        if others:
            self.say("then the rows of all the other heads at once")
            steps = softmax_steps(scaled)
            row_max = steps["exp"].max(axis=-1, keepdims=True)
            self.play(*[s.animate.recolor(steps["exp"][h] / row_max[h], (0.0, 1.0)) for h, s in others],
                      *self.legend.swap("exp, each row ÷ its max", (0.0, 1.0)), run_time=0.8)
        self.play(*[s.animate.recolor(weights[h], weights_range) for h, s in others],
                  *self.legend.swap("multihead_attention_weights", weights), run_time=0.9)
        self.relabel(spread.label, Group(*slices), "multihead_attention_weights", weights.shape, DOWN)
        if mark is not None:
            self.play(vanish(mark), run_time=0.4)
        row_sums = weights.sum(axis=-1)
        low, high = (f"{v:.4f}" for v in (row_sums.min(), row_sums.max()))
        sums = low if low == high else f"{low} to {high}"
        self.say(f"every row of every head now sums to 1: the {weights.shape[0] * weights.shape[1]} "
                 f"row sums are {sums}")
