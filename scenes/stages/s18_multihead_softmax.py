"""Stage 18: scale and softmax along the rows of every head, every head at once.

Stage 11 showed the softmax row by row; here every head goes through the same
three states together, so a block never holds two meanings at once: the
scores ÷ √d_k, their exponentials (each row ÷ its largest, its own scale),
the weights. Head 0 is large with its words; head 0's row 0 is written out.
"""

import numpy as np
from manim import DOWN, LEFT

from tensors import softmax_steps
from scenes.base import StageScene
from scenes.components.colorbar import MASKED_SIGN
from scenes.components.fades import appear, swap, vanish
from scenes.components.labels import note_text
from scenes.components.numbers import row_numbers
from scenes.motions.heads import focus_heads
from scenes.layout import Margins
from scenes.motions.softmax import mask_later_tokens

__all__ = ["MultiheadSoftmax"]

DIM = 0.3


class MultiheadSoftmax(StageScene):
    number = 18
    title = "Multi-head attention weights"
    summary = "scale by √d_k and softmax along the rows of every head: 9 weight maps, each row summing to 1"
    code = "multihead_attention_weights = F.softmax(multihead_omegas / d_k**0.5, dim=-1)"
    paper_code = "multihead_attention_weights = F.softmax(multihead_omegas / (d // h)**0.5, dim=-1)"
    mask_code = ("multihead_attention_weights = F.softmax(\n"
                 "    (multihead_omegas / d_k**0.5).masked_fill(mask, float('-inf')), dim=-1)")
    view = (0.5, 0.3)

    def storyboard(self):
        omegas = self.trace["s17_multihead_omegas"]
        heads, tokens = omegas.shape[:2]
        head_k = self.cfg.head_k
        block = self.block("s17_multihead_omegas", "multihead_omegas", direction=DOWN)
        self.layout.fit([block], margins=Margins(bottom=block.label.height + 0.3))
        self.step("scores")
        self.say(f"the scores of all {heads} heads, from stage 17")
        self.play(appear(block), appear(self.layout.place(block)))
        self.play(vanish(block.label), run_time=0.3)
        shown = focus_heads(self, self.layout, self.viewpoint, block, "multihead_omegas", self.cfg.sentence)
        maps = [shown.focus, *shown.others]

        self.step("scale")
        what = f"d/h = {head_k}" if self.paper(self.cfg) else f"d_k = {head_k}"
        self.say(f"÷ √({what}) = {head_k ** 0.5:.3g} in every head: every score smaller, the same patterns")
        scaled = self.trace["s18_multihead_scaled_omegas"]
        self.show_all(maps, shown, scaled, "multihead_omegas{} / √" + str(head_k), run_time=1.2)
        values = scaled
        if self.cfg.mask == "causal":
            self.step("mask")
            self.say(f"causal mask in every head: later tokens' scores become {MASKED_SIGN}")
            mark = mask_later_tokens(self, self.layout, maps)
            values = self.trace["s18_multihead_masked_scaled_omegas"]
            self.show_all(maps, shown, values, "multihead_omegas{} / √" + str(head_k), run_time=0.4)
            self.play(vanish(mark), run_time=0.4)

        self.step("softmax")
        steps = softmax_steps(values)
        focus = shown.focus
        self.play(focus.animate.highlight((0, 0), DIM), run_time=0.4)
        self.say(row_numbers(f"head 0, row 0: scores / √{head_k}", values[0, 0]))
        self.wait(1.4)
        exp_shown = steps["exp"] / steps["exp"].max(axis=-1, keepdims=True)
        self.say(row_numbers("exp(score)", np.exp(np.where(np.isfinite(values[0, 0]), values[0, 0], -np.inf)),
                             total="sum"))
        self.show_all(maps, shown, exp_shown, "exp ÷ row max", run_time=1.0, value_range=(0.0, 1.0),
                      index=False)
        self.wait(1.2)
        weights = self.trace["s18_multihead_attention_weights"]
        self.say(row_numbers("÷ the sum: weights", weights[0, 0], total="Σ"))
        self.show_all(maps, shown, weights, "multihead_attention_weights{}", run_time=1.0)
        self.play(focus.animate.clear_highlight(), run_time=0.3)
        sums = weights.sum(axis=-1)
        low, high = (f"{v:.4f}" for v in (sums.min(), sums.max()))
        self.say(f"every row of every head sums to 1: the {heads * tokens} row sums are "
                 + (low if low == high else f"{low} to {high}"))
        self.wait(1.4)
        self.step("roles")
        self.say(self.roles_said(self.trace.roles()))
        self.wait(1.0)

    def show_all(self, maps, shown, values, name: str, run_time: float, value_range=None, index=True):
        """Every head's map recolored to ``values`` (one scale for all heads),
        renamed in the same play: head 0 ``name`` with ``[0]`` where ``{}``
        stands (or ", head 0" without ``index``), the others with ``[1:]``:
        a block never shows two meanings."""
        finite = values[np.isfinite(values)]
        value_range = value_range or (float(finite.min()), float(finite.max()))
        focus = shown.focus
        old = focus.label
        focus.value_range = value_range
        self.layout.name(focus, name.format("[0]") if index else f"{name}, head 0", DOWN, scale_of="all heads",
                         values=np.where(np.isfinite(values[0]), values[0], 0.0))
        self.layout.place(focus)
        swaps = swap(old, focus.label)
        if shown.others_label is not None:
            text = note_text(name.format("[1:]") if index else f"{name}, heads 1 to {len(maps) - 1}", self.theme)
            text.move_to(shown.others_label).align_to(shown.others_label, LEFT)
            self.layout.fixed(text)
            for piece in shown.others:
                piece.label = text
            swaps += swap(shown.others_label, text)
            shown.others_label = text
        anims = [m.animate.recolor(np.where(np.isfinite(values[h]), values[h], 0.0), value_range)
                 for h, m in enumerate(maps)]
        self.play(*anims, *swaps, run_time=run_time)

    def roles_said(self, roles) -> str:
        """What the heads look at, said from the weights (see :mod:`tensors.roles`)."""
        named = [r for r in roles if r.role]
        if not named:
            return f"no head has a clear role: the projections are {self.weights_words(self.cfg)}"
        parts = ", ".join(f"head {r.head} {r.name}" for r in named[:4])
        return f"what the heads look at: {parts}" + (" …" if len(named) > 4 else "")
