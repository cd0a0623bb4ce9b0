"""Stage 21: Linear(162, 18) - matmul with Wᵀ, then the bias on every row."""

from manim import DOWN, RIGHT, UP, LaggedStart

from tensors import matmul_products, per_head_projection
from scenes.base import StageScene
from scenes.components.labels import shape_text
from scenes.components.cubegrid import CubeGrid
from scenes.components.projection import FRONT
from scenes.layout import LABEL_ROOM, NOTE_ROOM, Margins
from scenes.motions.bias import add_bias_rows
from scenes.motions.matmul import SUM_FLATTEN, batched_matmul
from scenes.components.fades import appear, vanish

__all__ = ["LinearProjection"]

BIAS_ROOM = 0.9  # above the result: the bias row before it drops onto every row


class LinearProjection(StageScene):
    number = 21
    title = "Output projection: Linear({concat}, {d_out})"
    paper_title = "Output projection W_O: Linear({concat}, {d_out})"
    summary = ("flattened (8×162) · Wᵀ (162×18) cut per head: 9 matmuls 8×18 · 18×18 summed, "
               "then the bias added to every row: 8×18 like stage 12")
    code = "linear = torch.nn.Linear(h*d_v, d_v)  # ({concat}, {d_out})\noutput = linear(multihead_flattened)"
    paper_code = "W_O = torch.nn.Linear(d, d)  # ({concat}, {d_out}), h × d/h = d\noutput = W_O(multihead_flattened)"
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
        wide = self.tensor_grid("s20_multihead_flattened")
        self.layout.fit([wide], view=FRONT, margins=Margins(top=LABEL_ROOM, bottom=LABEL_ROOM))
        wide_label = self.layout.label(wide, "multihead_flattened", flat.shape, UP)
        self.say(f"output = flattened · Wᵀ + bias: {tokens}×{width} · {width}×{d_out}, a long inner axis")
        self.play(appear(wide), appear(wide_label), run_time=1.0)
        self.legend.show("multihead_flattened", flat)

        self.step("cut per head")
        self.say(f"cut both where the heads meet: every {head_v} columns of flattened, "
                 f"every {head_v} rows of Wᵀ")
        stack = CubeGrid(inputs, value_range=wide.value_range, dims=("heads",) + self.trace.axes("s19_multihead_context_vectors")[1:])
        w_blocks = CubeGrid(blocks, value_range=(float(weight.min()), float(weight.max())))
        names = (f"multihead_flattened, per head {shape_text(inputs.shape)}", f"Wᵀ, per head {shape_text(blocks.shape)}")
        self.layout.row(stack, w_blocks, names=names, gap=1.2, view=self.view,
                     margins=Margins(bottom=LABEL_ROOM + NOTE_ROOM))
        pieces = [wide.subgrid((0, slice(None), slice(h * head_v, (h + 1) * head_v)), values_shape=(tokens, head_v))
                  for h in range(heads)]
        self.remove(wide)
        self.add(*pieces)
        self.play(vanish(wide_label), self.viewpoint.turn(*self.view),
                  LaggedStart(*[p.animate.become(t) for p, t in zip(pieces, stack.split(axis=0))],
                              lag_ratio=0.1), run_time=2.0)
        self.remove(*pieces)
        self.add(stack)
        labels = [self.layout.label(stack, "multihead_flattened, per head", inputs.shape, DOWN),
                  self.layout.label(w_blocks, "Wᵀ, per head", blocks.shape, DOWN, own_scale=True)]
        self.play(appear(w_blocks), *map(appear, labels), run_time=0.8)

        self.step("per head")
        self.play(*map(vanish, labels), run_time=0.3)
        partial = batched_matmul(self, self.layout, self.legend, self.viewpoint, stack, w_blocks, partials,
                                 matmul_products(inputs[0], blocks[0]), names=("flattened", "Wᵀ", "head"),
                                 say=self.say)
        products_label = self.layout.label(partial, "head products", partials.shape, DOWN)
        self.play(appear(products_label), *self.legend.swap("head products", partials), run_time=0.5)

        self.step("sum")
        self.say(f"flattened · Wᵀ = the sum of the {heads} per-head products")
        result = partial.like(before, dims=(None,) + self.trace.axes("s21_output"))
        result.align_cell((0, 0, 0), partial.cell_center(0, 0, 0))
        front = partial.cell_center(0, 0, 0)
        self.play(vanish(products_label),
                  partial.animate.stretch(SUM_FLATTEN, 2, about_point=front).set_opacity(0.0), appear(result),
                  *self.legend.swap("flattened · Wᵀ", before), run_time=1.4)
        self.remove(partial)
        self.close_on(result, margins=Margins(left=self.layout.word_room(self.cfg.sentence), top=BIAS_ROOM,
                                              bottom=LABEL_ROOM), run_time=1.2)
        sum_label = self.layout.label(result, "flattened · Wᵀ", before.shape, DOWN)
        self.play(appear(sum_label), run_time=0.4)

        self.step("bias")
        self.say(f"+ bias: one row of {bias.shape[0]}, on the same colors - a small correction to every row")
        bias_row = result.like(bias[None, :], result.value_range,
                               dims=(None,) + self.trace.axes("s21_linear_bias"))
        bias_row.next_to(result, UP, buff=BIAS_ROOM - bias_row.height - 0.1)
        b_label = self.layout.label(bias_row, "bias", bias.shape, RIGHT)
        self.play(appear(bias_row), appear(b_label))
        add_bias_rows(self, result, bias_row, output, (float(output.min()), float(output.max())))
        self.play(vanish(bias_row), vanish(b_label), *self.legend.swap("output", output), run_time=0.6)
        words = self.layout.word_labels(result, self.cfg.sentence)
        self.relabel(sum_label, result, "output", output.shape, DOWN)
        if self.paper(self.cfg):
            self.say(f"the output: {shape_text(output.shape)}, the shape of the input X (a residual can add them)")
        else:
            self.say(f"the output: {shape_text(output.shape)}; the blog maps to d_v, the paper back to d")
        self.play(appear(words))
