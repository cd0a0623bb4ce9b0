"""Stage 21: Linear(162, 18): cut per head, one matmul per head, the parts summed, then the bias on every row."""

import re

import numpy as np
from manim import DOWN, RIGHT, UP, LaggedStart, Rectangle, VGroup

from tensors import matmul_products, per_head_projection
from scenes.base import StageScene
from scenes.components.cubegrid import CubeGrid
from scenes.components.fades import appear, at_once, halfway, swap, vanish
from scenes.components.labels import note_text, shape_text
from scenes.components.numbers import shown_sum, shown_value, tick_values
from scenes.components.projection import FRONT
from scenes.layout import LABEL_ROOM, TAG_ROOM, Margins, Together, head_columns
from scenes.motions.bias import add_bias_rows
from scenes.motions.matmul import batched_matmul
from scenes.motions.heads import TAG_GAP, form_rows_together

__all__ = ["LinearProjection"]

GRID_SHARE = 0.56  # of the stage area's width, left: the parts side by side; right: their sum
BIAS_ROOM = 1.2  # above the result: the bias row and its gap
SIMILAR = 0.995  # two output rows whose cosine is at least this are said to be alike


def _columns(name: str, h: int, width: int) -> str:
    return f"{name}[:, {h * width}:{(h + 1) * width}]"


def _rows(name: str, h: int, width: int) -> str:
    return f"{name}[{h * width}:{(h + 1) * width}]"


class LinearProjection(StageScene):
    code_steps = {"operands": (0,), "cut per head": (1,)}
    number = 21
    title = "Output projection: Linear({concat}, {d_out})"
    paper_title = "Output projection W_O: Linear({concat}, {d_out})"
    summary = ("multihead_flattened (8×162) · Wᵀ (162×18) cut per head: 9 matmuls 8×18 · 18×18 summed, "
               "then the bias added to every row: 8×18 like stage 12")
    code = ("linear = torch.nn.Linear(h*d_v, d_v)  # {concat} in, {d_out} out; W = linear.weight: {d_out}×{concat}\n"
            "output = linear(multihead_flattened)  # multihead_flattened @ W.T + linear.bias")
    paper_code = ("W_O = torch.nn.Linear(d, d)  # {concat} in (h × d/h = d), {d_out} out; W = W_O.weight: "
                  "{d_out}×{concat}\n"
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
        # texts and the blocks that come whole, at once (half-faded labels and blocks: 21_0097): the pieces
        # under their whole's name as they part, the cut's name once they stand in it
        self.play(self.viewpoint.turn(*self.view),
                  *[p.animate.become(t) for p, t in zip(pieces, stack.split(axis=0))], run_time=2.0)
        self.remove(*pieces)
        self.add(stack)
        self.play(*swap(wide.label, self.layout.place(stack), rate_func=at_once),
                  *[appear(m, rate_func=at_once) for m in (w_blocks, self.layout.place(w_blocks))], run_time=0.8)

        self.step("matmul per head")
        result = batched_matmul(self, self.layout, self.viewpoint, stack, w_blocks, partials,
                                matmul_products(inputs[0], blocks[0]),
                                names=("multihead_flattened", "W.T", "part"), say=self.say, view=self.view,
                                slice_names=(lambda n, h: _columns(n, h, head_v), lambda n, h: _rows(n, h, head_v),
                                             lambda n, h: f"{n}[{h}]"),
                                scales_of=("all heads", "all of W", "all parts"), cells=3,  # of 18
                                together=True, stack=False)  # part[0]'s row 0 worked; the rest formed at once

        self.add_up(result.block, partials, before, leaving=result.leaving)  # its steps: "parts", "sum"

        self.step("bias")
        self.add_bias(before, bias, output)

    def add_up(self, result, partials, before, leaving=()):
        """The parts side by side (each tagged; ``leaving``, the matmul's
        operands, go as they move), formed all at once, row after row, where
        not formed yet (part[0]'s later rows with every row of the others:
        the batched matmul seen as one, as stages 14-16); then added into
        one block one after another."""
        heads, tokens, d_out = partials.shape
        forming = bool(result.cube_empty.any())
        self.say(f"part: {shape_text(partials.shape)}, one {shape_text((tokens, d_out))} part per head"
                 + ("; part[0]'s row 0 is formed, the rest next" if forming else ""))
        slices = result.split(axis=0)
        for piece in slices:
            piece.part_of = result
        self.remove(result)
        self.add(*slices)
        area = self.layout.area()
        grid_part, sum_part = area.part(0.0, GRID_SHARE), area.part(GRID_SHARE + 0.04, 1.0)
        targets = [piece.copy() for piece in slices]
        least = note_text(f"part[{heads - 1}]", self.theme).width + TAG_GAP  # the tags never meet
        columns = head_columns(heads, d_out, tokens, grid_part.inset(Margins(bottom=LABEL_ROOM)), least=least)
        self.layout.grid_of_blocks(targets, columns, area=grid_part, margins=Margins(top=TAG_ROOM, bottom=LABEL_ROOM),
                                   least=least)
        total = slices[0].like(partials[0], (float(partials[0].min()), float(partials[0].max())),
                               dims=(None,) + self.trace.axes("s21_output"))
        self.layout.name(total, "part[0]", DOWN)
        self.layout.fit([total], view=FRONT, area=sum_part, margins=Margins(
            bottom=self.layout.sized_label("part[0] + … + part[8]", (tokens, d_out), DOWN).height + 0.3, top=0.4))
        self.remove(result.label)  # named part[0] while its row 0 formed: no second name over it
        # part[0] goes to its place alone, the empty slots of the others come in theirs as it stands there
        # (nine grey slots flying through each other read as a smear: 15_0294)
        waiting = slices[1:] if forming else []
        self.remove(*waiting)
        self.play(*[vanish(m, rate_func=at_once) for m in leaving], self.viewpoint.turn(*FRONT),
                  LaggedStart(*[p.animate.become(t) for p, t in zip(slices, targets) if p not in waiting],
                              lag_ratio=0.08), run_time=1.0 if forming else 1.6)
        for piece, target in zip(waiting, targets[1:]):
            piece.become(target)
        tags = VGroup(*[note_text(f"part[{h}]", self.theme, color=self.theme.muted) for h in range(heads)])
        for tag, piece in zip(tags, slices):
            self.layout.beside([piece], tag, UP, buff=0.08, view=FRONT)
        self.layout.fixed(*tags)
        label = note_text(f"part: one {tokens}×{d_out} part per head", self.theme)
        self.layout.beside(slices, label, DOWN, buff=0.2)
        self.layout.fixed(label)
        together = Together(label)
        for piece in slices:
            piece.part_of = together
        when = {"rate_func": at_once} if forming else {}  # with the slots, at once: never a slot half-named
        self.play(*[appear(m, **when) for m in (tags, label, *waiting)], run_time=0.4)
        self.step("parts")
        if forming:
            form_rows_together(self, self.layout, slices, min(6.0, 1.5 + 0.4 * tokens), told=self.saying(
                f"the batched matmul: row i of all {heads} parts forms at once, part[h]'s from its own slices of "
                f"multihead_flattened and W.T, row after row"))
            self.wait(0.4)
        self.step("sum")
        self.say(f"multihead_flattened @ W.T = part[0] + part[1] + … + part[{heads - 1}]: "
                 f"the {heads} parts added up")
        sums = np.cumsum(partials, axis=0)
        for h in range(heads):
            # time to read each sum's caption (at 0.4 s a part, the captions changed too fast to read)
            run = 1.2 if h < 2 else max(0.8, 1.2 * 0.93 ** h)
            name = "part[0]" if h == 0 else ("part[0] + part[1]" if h == 1 else f"part[0] + … + part[{h}]")
            old = total.label if h else None
            value_range = (float(sums[h].min()), float(sums[h].max()))
            total.value_range = value_range
            self.layout.name(total, name, DOWN, values=sums[h])
            self.layout.place(total)
            moving = slices[h]
            there = moving.copy().scale(total.pitch / moving.pitch).move_to(total.get_center())
            if h == 0:
                self.play(moving.animate.become(there), vanish(tags[0], rate_func=at_once),
                          appear(total.label, rate_func=at_once), run_time=run)
                total.recolor(sums[0], value_range)
                self.remove(moving)
                self.add(total)
                continue
            # cell [0, 0] of the sum this play makes, as the label names it, written to add up (a counter):
            # said in this play, the colors, the name and the caption changing in one frame (said before it,
            # the caption added part[7] beside a label still at part[6]: 21_0727)
            last = [vanish(label, rate_func=at_once)] if h == heads - 1 else []  # with the last part: never
            # a name over an empty place (21_0667)
            self.play(moving.animate.become(there).set_opacity(0.0), vanish(tags[h], rate_func=at_once), *last,
                      total.animate(rate_func=halfway).recolor(sums[h], value_range), *swap(old, total.label),
                      *self.saying(self.cell_sum(h, sums[h - 1, 0, 0], partials[h, 0, 0], sums[h, 0, 0])),
                      run_time=run)
            self.remove(moving)
        old = total.label
        total.value_range = (float(before.min()), float(before.max()))
        self.layout.name(total, "multihead_flattened @ W.T", DOWN, values=before)
        self.layout.place(total)
        # the same numbers (the sum of the parts, rounded in another order): the block shows the trace's own
        self.play(*([vanish(label, rate_func=at_once)] if heads == 1 else []), *swap(old, total.label),
                  total.animate.recolor(before, total.value_range), run_time=0.4)
        # cell [0, 0] written as the last sum wrote it (0.700, not 0.7 after a counter to the thousandth)
        written = (re.split(" [=≈] ", shown_sum([sums[-2, 0, 0], partials[-1, 0, 0]], sums[-1, 0, 0]))[-1]
                   if heads > 1 else shown_value(before[0, 0]))
        self.say(f"the parts' sum is multihead_flattened @ W.T: {shape_text(before.shape)}, "
                 f"cell [0, 0] = {written}")
        self.total = total
        self.wait(0.8)

    def add_bias(self, before, bias, output):
        """The bias row over the result, on the result's colors (its size
        beside the sum's seen), dropped onto every row (a broadcast add)."""
        total = self.total
        words = self.cfg.sentence
        self.close_on(total, margins=Margins(left=self.layout.word_room(words), top=BIAS_ROOM), run_time=1.0)
        low, high = tick_values((float(bias.min()), float(bias.max())))
        sum_low, sum_high = tick_values(total.value_range)
        self.say(f"+ bias: one row of {bias.shape[0]}, {low} … {high}: beside the sum's {sum_low} … {sum_high} "
                 f"nearly 0, so on the sum's colors it is nearly all green")
        bias_row = total.like(bias[None, :], total.value_range, dims=(None,) + self.trace.axes("s21_linear_bias"))
        bias_row.align_cell((0, 0, 0), total.cell_center(0, 0) + UP * total.pitch * 2.0)
        self.layout.name(bias_row, "bias", RIGHT, scale_of="the sum")
        self.play(appear(bias_row), appear(self.layout.place(bias_row)))
        self.wait(1.6)
        old = total.label
        total.value_range = (float(output.min()), float(output.max()))
        self.layout.name(total, "output", DOWN, values=output)
        self.layout.place(total)
        self.say(f"added to every row (broadcast): cell [0, 0] = {shown_sum([before[0, 0], bias[0]], output[0, 0])}; "
                 f"no cell changes by more than {shown_value(float(np.abs(bias).max()))}")
        # renamed "output" half-way through the add, in the play that recolors it
        add_bias_rows(self, total, bias_row, output, total.value_range, naming=swap(old, total.label))
        # the bias stays over the output it was added to, on its colors: the closing shot shows what made it
        old_bias = bias_row.label
        bias_row.value_range = total.value_range
        self.layout.name(bias_row, "bias", RIGHT, scale_of="output")
        self.layout.place(bias_row)
        self.play(*swap(old_bias, bias_row.label),
                  bias_row.animate.recolor(bias[None, :], total.value_range), run_time=0.6)
        self.wait(1.0)
        self.close_on(total, margins=Margins(left=self.layout.word_room(words), top=BIAS_ROOM,
                                             right=bias_row.label.width + 0.3),
                      run_time=0.8, riders=[bias_row])  # room for every word, the bias's label beside its row
        self.play(appear(self.layout.word_labels(total, words)), run_time=0.5)
        self.say(self.remark(output))
        alike = self.alike(output)
        if alike is not None:
            frames = VGroup(*[self.row_frame(total, row) for row in alike])
            self.play(appear(frames), run_time=0.6)
        self.wait(0.9)

    @staticmethod
    def cell_sum(h: int, before: float, part: float, total: float) -> str:
        """Cell [0, 0] once part ``h`` is added: the sum so far plus part
        ``h``'s cell, written to add up on screen.

        >>> LinearProjection.cell_sum(1, 0.6544, 0.2283, 0.8827)
        'cell [0, 0]: part[0] + part[1] = 0.6544 + 0.2283 = 0.8827'
        >>> LinearProjection.cell_sum(3, 1.25, -0.5, 0.75)
        'cell [0, 0]: (part[0] + … + part[2]) + part[3] = 1.25 + (−0.50) = 0.75'
        """
        so_far = "part[0]" if h == 1 else ("(part[0] + part[1])" if h == 2 else f"(part[0] + … + part[{h - 1}])")
        return f"cell [0, 0]: {so_far} + part[{h}] = {shown_sum([before, part], total)}"

    def row_frame(self, grid, row: int) -> Rectangle:
        left, bottom, right, top = self.layout.screen_box([grid.subgrid((0, row))])
        pad = 0.2 * grid.pitch
        frame = Rectangle(width=right - left + 2 * pad, height=top - bottom + 2 * pad, stroke_width=2.5,
                          color=self.theme.ink).move_to([(left + right) / 2, (bottom + top) / 2, 0.0])
        self.layout.fixed(frame)
        return frame

    def alike(self, output):
        """The two most alike rows of the output, if they are alike enough to say so."""
        unit = output / np.linalg.norm(output, axis=1, keepdims=True)
        cos = unit @ unit.T
        np.fill_diagonal(cos, -1.0)
        i, j = np.unravel_index(np.argmax(cos), cos.shape)
        return (int(i), int(j)) if cos[i, j] >= SIMILAR else None

    def remark(self, output) -> str:
        """What the output's rows show, said from the numbers."""
        unit = output / np.linalg.norm(output, axis=1, keepdims=True)
        cos = unit @ unit.T
        np.fill_diagonal(cos, -1.0)
        i, j = np.unravel_index(np.argmax(cos), cos.shape)
        words = self.cfg.sentence
        if cos[i, j] >= SIMILAR:
            return (f"rows \"{words[i]}\" and \"{words[j]}\" come out alike (same direction, cosine {cos[i, j]:.3f}): "
                    f"their attention chose the same tokens")
        if self.paper(self.cfg):
            return f"the output: {shape_text(output.shape)}, the shape of the input X (a residual can add them)"
        return f"the output: {shape_text(output.shape)}; the blog maps to d_v, the paper back to d"
