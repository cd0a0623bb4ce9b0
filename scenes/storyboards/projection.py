"""U · Xᵀ as a matmul, then the transpose shown as the block turning (stages 7-9)."""

from manim import RIGHT, UP

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.fades import appear, vanish
from scenes.components.labels import shape_text
from scenes.layout import Margins
from scenes.motions.matmul import matmul
from scenes.motions.turns import transpose_turn

__all__ = ["ProjectionStage"]


class ProjectionStage(StageScene):
    """U · Xᵀ as a matmul, then the transpose shown as the block turning."""

    weight_key = result_key = ""  # a stage names its tensors ...
    weight_name = result_name = role = ""  # ... and how the picture calls them
    first_of = ""  # the stage whose storyboard this one repeats ("" for the first)
    speed = 1.0

    def storyboard(self):
        before = self.trace[self.result_key + "_before_transpose"]
        result_values = self.trace[self.result_key]
        left = self.block(self.weight_key, self.weight_name)
        right = self.block("s02_embedded_sentence", "Xᵀ", transposed=True)
        self.layout.row(left, right)
        self.step("operands")
        if self.first_of:
            self.say(f"as stage {self.first_of}, with {self.weight_name}: every token (a column of Xᵀ) "
                     f"projected to its {self.role}")
        else:
            self.say(f"{self.weight_name} projects every token (a column of Xᵀ) to its {self.role}")
        self.play(appear(left), appear(right), appear(self.layout.place(left)), appear(self.layout.place(right)))
        self.wait(0.6)

        self.step("matmul")
        name = f"{self.weight_name}·Xᵀ"
        done = matmul(self, self.layout, self.viewpoint, left, right, before,
                      matmul_products(left.values[0], right.values[0]), say=self.say,
                      names=(self.weight_name, "Xᵀ", name), speed=self.speed)
        product = done.result

        self.step("transpose")
        # park the product so that, once turned, the result fits too
        side = max(result_values.shape)
        product.label.side = RIGHT
        self.close_on(product, left, right, left.label, right.label, done.signs,
                      margins=Margins(left=self.layout.word_room(self.cfg.sentence)), room_for=(1, side, side))
        self.say(f".T turns {name} about its diagonal: column i becomes row i, one row per token")
        self.play(vanish(product.label), run_time=0.3)
        result = transpose_turn(self, product, result_values, run_time=3.0 / self.speed,
                                axis_color=self.theme.accent)
        self.layout.name(result, self.result_name, UP)
        self.close_on(result, margins=Margins(left=self.layout.word_room(self.cfg.sentence)), run_time=1.0)
        words = self.layout.word_labels(result, self.cfg.sentence)
        self.say(f"{self.result_name}: {shape_text(result_values.shape)}, token i's {self.role} in row i")
        self.play(appear(words))
