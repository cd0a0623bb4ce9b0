"""U · Xᵀ as a matmul, then the transpose shown as the block turning (stages 7-9)."""

from manim import LEFT, UP

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.labels import LABEL_CHAR, shape_text
from scenes.layout import LABEL_ROOM, NOTE_ROOM, Margins
from scenes.storyboards.matmul import OWN_COLORS
from scenes.motions.matmul import matmul
from scenes.motions.turns import transpose_turn
from scenes.components.fades import appear, vanish

__all__ = ["ProjectionStage"]


class ProjectionStage(StageScene):
    """U · Xᵀ as a matmul, then the transpose shown as the block turning."""

    weight_key = result_key = ""  # a stage names its tensors ...
    weight_name = result_name = role = ""  # ... and how the picture calls them

    def storyboard(self):
        u = self.trace[self.weight_key]
        x = self.trace["s02_embedded_sentence"]
        before = self.trace[self.result_key + "_before_transpose"]
        result_values = self.trace[self.result_key]
        left = self.tensor_grid(self.weight_key)
        right = self.tensor_grid("s02_embedded_sentence", transposed=True)
        self.layout.row(left, right, names=(f"{self.weight_name} {shape_text(u.shape)}", OWN_COLORS),
                     margins=Margins(top=LABEL_ROOM + NOTE_ROOM))
        labels = [self.layout.label(left, self.weight_name, u.shape),
                  self.layout.label(right, "Xᵀ", x.T.shape, own_scale=True)]
        self.step("operands")
        self.say(f"project every token (a column of Xᵀ) with {self.weight_name}")
        self.play(appear(left), appear(right), *map(appear, labels))
        self.legend.show(self.weight_name, u)

        self.step("matmul")
        self.play(*map(vanish, labels), run_time=0.3)
        done = matmul(self, self.layout, self.legend, self.viewpoint, left, right, before,
                      matmul_products(u, x.T), say=self.say, one_by_one=1,
                      names=(self.weight_name, "Xᵀ", f"{self.weight_name}·Xᵀ"))
        product = done.result
        # park the product so that, once turned, the result fits too
        side = max(result_values.shape)
        name = f"{self.weight_name}·Xᵀ"
        beside = max(self.layout.word_room(self.cfg.sentence), LABEL_CHAR * len(name) + 0.3)
        self.close_on(product, left, right, *done.labels, margins=Margins(left=beside, top=LABEL_ROOM),
                      room_for=(1, side, side))
        shape_label = self.layout.label(product, name, before.shape, LEFT)
        self.play(appear(shape_label), run_time=0.4)

        self.step("transpose")
        self.say(f".T: the block turns about its diagonal - one row per token, one {self.role} each")
        self.play(vanish(shape_label), run_time=0.3)
        result = transpose_turn(self, product, result_values)
        words = self.layout.word_labels(result, self.cfg.sentence)
        label = self.layout.label(result, self.result_name, result_values.shape, UP)
        self.play(appear(words), appear(label),
                  *self.legend.swap(self.result_name.split()[0], result_values))
