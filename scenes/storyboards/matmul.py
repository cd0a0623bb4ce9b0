"""A stage whose operation is one matmul: the operands side by side, the matmul box, the result's closing shot."""

from manim import UP

from tensors import matmul_products
from scenes.base import StageScene
from scenes.layout import LABEL_ROOM, NOTE_ROOM, Margins
from scenes.components.labels import shape_text
from scenes.motions.matmul import matmul
from scenes.components.fades import appear, vanish


OWN_COLORS = "own colors: −0.00 to 0.000"  # how wide that label line is, for the layout
INSET_SHARE = 0.3  # of the stage area's width, right, for the inset of an earlier stage

__all__ = ["MatmulStage"]


class MatmulStage(StageScene):
    """A stage whose operation is one matmul; subclasses name the tensors."""

    left_key = right_key = result_key = ""
    names = ("A", "B", "C")
    intro = ""  # {left} and {right}: the operands' shapes
    outro = ""
    result_rows_are_tokens = True
    left_transposed = right_transposed = False
    compare_key: str | None = None
    compare_name = ""

    def operand(self, key, transposed):
        values = self.trace[key]
        return values.T if transposed else values

    def storyboard(self):
        left_values = self.operand(self.left_key, self.left_transposed)
        right_values = self.operand(self.right_key, self.right_transposed)
        result_values = self.trace[self.result_key]
        left_range = (float(self.trace[self.left_key].min()), float(self.trace[self.left_key].max()))
        right_range = (float(self.trace[self.right_key].min()), float(self.trace[self.right_key].max()))
        left = self.tensor_grid(self.left_key, self.left_transposed, value_range=left_range)
        right = self.tensor_grid(self.right_key, self.right_transposed, value_range=right_range)
        self.layout.row(left, right, names=(OWN_COLORS, self.names[1]), margins=Margins(top=LABEL_ROOM + NOTE_ROOM))
        labels = [self.layout.label(left, self.names[0], left_values.shape, own_scale=True),
                  self.layout.label(right, self.names[1], right_values.shape)]
        self.step("operands")
        self.say(self.intro.format(left=shape_text(left_values.shape), right=shape_text(right_values.shape)))
        self.play(appear(left), appear(right), *map(appear, labels))
        self.legend.show(self.names[1], right_range)
        self.wait(0.4)

        self.step("matmul")
        self.play(*map(vanish, labels), run_time=0.3)
        done = matmul(self, self.layout, self.legend, self.viewpoint, left, right, result_values,
                      matmul_products(left_values, right_values), say=self.say, names=self.names)
        result = done.result
        self.step("result")
        margins = Margins(left=self.layout.word_room(self.cfg.sentence) if self.result_rows_are_tokens else 0.0,
                          top=LABEL_ROOM,
                          right=INSET_SHARE * self.layout.area().width if self.compare_key else 0.0)
        self.close_on(result, left, right, *done.labels, margins=margins)
        extras = [self.layout.label(result, self.names[2], result_values.shape, UP)]
        if self.result_rows_are_tokens:
            extras.append(self.layout.word_labels(result, self.cfg.sentence))
        self.say(self.outro)
        self.play(*map(appear, extras))
        self.compare(result)
        if remark := self.remark():
            self.wait(0.8)
            self.say(remark)

    def remark(self) -> str:
        """What the numbers of this example show, said after the outro ("" for nothing)."""
        return ""

    def compare(self, result):
        if not self.compare_key:
            return
        other, caption = self.inset(self.compare_key, self.compare_name, INSET_SHARE, beside=result)
        self.play(appear(other), appear(caption))
