"""Stage 21: Linear(162, 18): cut per head, one matmul per head, the parts summed, then the bias on every row."""

import numpy as np
from manim import DOWN, UP

from tensors import matmul_products, per_head_projection
from scenes.base import StageScene
from scenes.components.cubegrid import CubeGrid
from scenes.components.fades import appear, swap, vanish
from scenes.components.labels import shape_text
from scenes.components.numbers import shown_value
from scenes.components.projection import FRONT
from scenes.layout import Margins
from scenes.motions.bias import add_bias_rows
from scenes.motions.matmul import batched_matmul

__all__ = ["LinearProjection"]

APART = 2.5  # pitches between two heads' parts while they are summed
SIMILAR = 0.995  # two output rows whose cosine is at least this are said to be alike


def _columns(name: str, h: int, width: int) -> str:
    return f"{name}[:, {h * width}:{(h + 1) * width}]"


def _rows(name: str, h: int, width: int) -> str:
    return f"{name}[{h * width}:{(h + 1) * width}]"


class LinearProjection(StageScene):
    number = 21
    title = "Output projection: Linear({concat}, {d_out})"
    paper_title = "Output projection W_O: Linear({concat}, {d_out})"
    summary = ("multihead_flattened (8×162) · Wᵀ (162×18) cut per head: 9 matmuls 8×18 · 18×18 summed, "
               "then the bias added to every row: 8×18 like stage 12")
    code = ("linear = torch.nn.Linear(h*d_v, d_v)  # ({concat}, {d_out}); W = linear.weight\n"
            "output = linear(multihead_flattened)  # multihead_flattened @ W.T + linear.bias")
    paper_code = ("W_O = torch.nn.Linear(d, d)  # ({concat}, {d_out}), h × d/h = d; W = W_O.weight\n"
                  "output = W_O(multihead_flattened)  # multihead_flattened @ W.T + W_O.bias")
    formula_tex = r"\mathrm{output} = \mathrm{flattened}\; W^{\top} + b"
    view = (0.5, 0.3)

    def storyboard(self):
        flat = self.trace["s20_multihead_flattened"]
        weight = self.trace["s21_linear_weight"]
        bias = self.trace["s21_linear_bias"]
        before = self.trace["s21_before_bias"]
        output = self.trace["s21_output"]
        heads = self.cfg.heads
        parts = per_head_projection(flat, weight, heads)
        inputs, blocks, partials = parts["inputs"], parts["blocks"], parts["partials"]
        tokens, width = flat.shape
        head_v, d_out = blocks.shape[1:]

        self.step("operands")
        self.viewpoint.look_from(FRONT)  # the wide block reads flat; the camera turns for the matmul
        wide = self.block("s20_multihead_flattened", "multihead_flattened", direction=DOWN)
        self.layout.fit([wide], view=FRONT, margins=Margins(top=0.6, bottom=wide.label.height + 0.3))
        self.say(f"output = multihead_flattened · Wᵀ + bias: {tokens}×{width} · {width}×{d_out}, "
                 f"a long inner axis of {width}")
        self.play(appear(wide), appear(self.layout.place(wide)), run_time=1.0)
        self.wait(0.8)

        self.step("cut per head")
        self.say(f"cut where the heads meet: every {head_v} columns of multihead_flattened, "
                 f"every {head_v} rows of W.T")
        stack = CubeGrid(inputs, value_range=wide.value_range,
                         dims=("heads",) + self.trace.axes("s19_multihead_context_vectors")[1:])
        w_blocks = CubeGrid(blocks, value_range=(float(weight.min()), float(weight.max())))
        self.layout.name(stack, f"multihead_flattened cut in {heads}", DOWN, shape=inputs.shape)
        self.layout.name(w_blocks, f"W.T cut in {heads}", DOWN, shape=blocks.shape)
        self.layout.row(stack, w_blocks, gap=1.2, view=self.view)
        pieces = [wide.subgrid((0, slice(None), slice(h * head_v, (h + 1) * head_v)), values_shape=(tokens, head_v))
                  for h in range(heads)]
        self.remove(wide)
        self.add(*pieces)
        stack.label.hang = 0
        self.play(vanish(wide.label), self.viewpoint.turn(*self.view),
                  *[p.animate.become(t) for p, t in zip(pieces, stack.split(axis=0))], run_time=2.0)
        self.remove(*pieces)
        self.add(stack)
        self.play(appear(w_blocks), appear(self.layout.place(stack)), appear(self.layout.place(w_blocks)),
                  run_time=0.8)

        self.step("matmul per head")
        result = batched_matmul(self, self.layout, self.viewpoint, stack, w_blocks, partials,
                                matmul_products(inputs[0], blocks[0]),
                                names=("multihead_flattened", "W.T", "part"), say=self.say, view=self.view,
                                slice_names=(lambda n, h: _columns(n, h, head_v), lambda n, h: _rows(n, h, head_v),
                                             lambda n, h: f"{n}[{h}]"))
        self.close_on(result, view=self.view, run_time=1.0)

        self.step("sum")
        self.add_up(result, partials, before)

        self.step("bias")
        self.add_bias(before, bias, output)

    def add_up(self, result, partials, before):
        """The parts, pulled apart along the head axis, added to the front one, one after another."""
        heads = partials.shape[0]
        self.say(f"multihead_flattened @ W.T = part[0] + part[1] + … + part[{heads - 1}]: "
                 f"the {heads} parts added up")
        slices = result.split(axis=0)
        self.remove(result)
        self.add(*slices)
        _, _, back = result.axis_vectors()
        self.play(*[s.animate.shift(back * result.pitch * (APART - 1) * h) for h, s in enumerate(slices)],
                  run_time=1.0)
        sums = np.cumsum(partials, axis=0)
        front = slices[0]
        label = result.label
        for h in range(1, heads):
            run = max(0.35, 1.2 * 0.8 ** h)
            new_name = "part[0] + part[1]" if h == 1 else f"part[0] + … + part[{h}]"
            value_range = (float(sums[h].min()), float(sums[h].max()))
            front.value_range = value_range
            self.layout.name(front, new_name, DOWN, shape=partials.shape[1:], values=sums[h])
            self.layout.place(front)
            self.play(slices[h].animate.move_to(front.get_center()).set_opacity(0.0),
                      front.animate.recolor(sums[h], value_range), *swap(label, front.label), run_time=run)
            self.remove(slices[h])
            label = front.label
            if h == 1:
                self.say(f"cell [0, 0]: {shown_value(partials[0, 0, 0])} + {shown_value(partials[1, 0, 0])} = "
                         f"{shown_value(sums[1, 0, 0])}, and so on for every cell")
        old = front.label
        total = front.like(before, (float(before.min()), float(before.max())),
                           dims=(None,) + self.trace.axes("s21_output"))
        total.align_cell((0, 0, 0), front.cell_center(0, 0))
        self.layout.name(total, "multihead_flattened @ W.T", DOWN)
        self.remove(front)
        self.add(total)
        self.layout.place(total)
        self.play(*swap(old, total.label), run_time=0.4)
        self.say(f"= multihead_flattened @ W.T: {shape_text(before.shape)}, "
                 f"cell [0, 0] = {shown_value(before[0, 0])}")
        self.total = total
        self.wait(0.8)

    def add_bias(self, before, bias, output):
        """The bias row over the result, dropped onto every row (a broadcast add)."""
        total = self.total
        words = self.cfg.sentence
        self.close_on(total, margins=Margins(left=self.layout.word_room(words), top=1.2), run_time=1.0)
        self.say(f"+ bias: one row of {bias.shape[0]}, added to every row (broadcast)")
        bias_row = total.like(bias[None, :], (float(bias.min()), float(bias.max())),
                              dims=(None,) + self.trace.axes("s21_linear_bias"))
        bias_row.next_to(total, UP, buff=0.9)
        self.layout.name(bias_row, "bias", UP)
        self.play(appear(bias_row), appear(self.layout.place(bias_row)))
        self.wait(0.6)
        old = total.label
        total.value_range = (float(output.min()), float(output.max()))
        self.layout.name(total, "output", DOWN, values=output)
        self.layout.place(total)
        add_bias_rows(self, total, bias_row, output, total.value_range)
        self.play(vanish(bias_row), vanish(bias_row.label), *swap(old, total.label), run_time=0.6)
        self.play(appear(self.layout.word_labels(total, words)), run_time=0.5)
        self.say(self.remark(output))
        self.wait(1.0)

    def remark(self, output) -> str:
        """What the output's rows show, said from the numbers."""
        unit = output / np.linalg.norm(output, axis=1, keepdims=True)
        cos = unit @ unit.T
        np.fill_diagonal(cos, -1.0)
        i, j = np.unravel_index(np.argmax(cos), cos.shape)
        words = self.cfg.sentence
        if cos[i, j] >= SIMILAR:
            return (f"rows \"{words[i]}\" and \"{words[j]}\" come out alike (cosine {cos[i, j]:.3f}): "
                    f"their attention chose the same tokens")
        if self.paper(self.cfg):
            return f"the output: {shape_text(output.shape)}, the shape of the input X (a residual can add them)"
        return f"the output: {shape_text(output.shape)}; the blog maps to d_v, the paper back to d"
