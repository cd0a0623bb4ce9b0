"""Stage 21: Linear(162, 18) - matmul with Wᵀ, then the bias on every row."""

from manim import DOWN, LEFT, RIGHT, UP

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.labels import shape_text
from scenes.components.motions import FRONT_VIEW, add_bias_rows, camera_turn, matmul
from scenes.components.fades import appear, vanish

__all__ = ["LinearProjection"]

RESULT_PITCH = 0.3  # the 8×18 output, large enough to read after the tiny matmul box


class LinearProjection(StageScene):
    number = 21
    follows_mask = True
    slug = "linear"
    title = "Output projection: Linear({concat}, {d_out})"
    paper_title = "Output projection W_O: Linear({concat}, {d_out})"
    summary = "matmul flattened (8×162) · Wᵀ (162×18), then the bias added to every row: 8×18 like stage 12"
    code = "linear = torch.nn.Linear(h*d_v, d_v)  # ({concat}, {d_out})\noutput = linear(multihead_flattened)"
    paper_code = "W_O = torch.nn.Linear(d, d)  # ({concat}, {d_out}), h × d/h = d\noutput = W_O(multihead_flattened)"
    formula_tex = r"Y = X_{\mathrm{flat}}\, W^{\top} + b"

    def storyboard(self):
        flat = self.trace["s20_multihead_flattened"]
        weight = self.trace["s21_linear_weight"]
        bias = self.trace["s21_linear_bias"]
        before = self.trace["s21_before_bias"]
        output = self.trace["s21_output"]
        size = dict(cube_size=0.05, gap=0.012)
        left = self.tensor_grid("s20_multihead_flattened", **size).move_to([-3.0, 1.0, 0])
        right = self.tensor_grid("s21_linear_weight", transposed=True, **size)
        right.move_to([3.0, -0.2, 0])
        labels = [self.label(left, "multihead_flattened", flat.shape),
                  self.label(right, "Wᵀ = linear.weight.T", weight.T.shape, LEFT)]
        self.step("operands")
        self.say(f"the concatenated heads ({flat.shape[0]}×{flat.shape[1]}) and the weight, turned")
        self.play(appear(left), appear(right), *map(appear, labels))
        self.show_colorbar("weight", weight)

        self.step("matmul")
        self.play(*map(vanish, labels), run_time=0.3)
        result, face_labels = matmul(self, left, right, before, matmul_products(flat, weight.T),
                                     caption=self.say, one_by_one=1, names=("flattened", "Wᵀ", None))
        self.play(vanish(left), vanish(right), vanish(face_labels), camera_turn(self, *FRONT_VIEW),
                  result.animate.move_to([-0.6, 0.0, 0]).scale(RESULT_PITCH / result.pitch), run_time=1.4)
        self.show_colorbar("x · Wᵀ", before)

        self.step("bias")
        self.say(f"+ bias: one row of {bias.shape[0]}, broadcast - the same row added to every token")
        bias_row = result.like(bias[None, :], (float(bias.min()), float(bias.max())),
                               dims=(None,) + self.trace.axes("s21_linear_bias"))
        bias_row.next_to(result, UP, buff=0.9)
        b_label = self.label(bias_row, "bias", bias.shape, RIGHT)
        self.play(appear(bias_row), appear(b_label))
        add_bias_rows(self, result, bias_row, output, (float(output.min()), float(output.max())))
        self.show_colorbar("output", output)
        words = self.word_labels(result, self.cfg.sentence)
        label = self.label(result, "output", output.shape, DOWN)
        same = "the input X" if self.paper(self.cfg) else "stage 12's context vectors"
        self.say(f"the output: {shape_text(output.shape)}, the same shape as {same}")
        self.play(appear(words), appear(label), vanish(b_label), bias_row.animate.set_opacity(0.3))
