"""A stage whose operation is one matmul: the operands, ``A · B = C`` filled in, the result's closing shot."""

from manim import RIGHT

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.fades import appear
from scenes.components.labels import shape_text
from scenes.layout import Margins
from scenes.motions.matmul import MatmulMotion

__all__ = ["MatmulStage", "INSET_SHARE"]

INSET_SHARE = 0.3  # of the stage area's width, right, for the inset of an earlier stage


class MatmulStage(StageScene):
    """A stage whose operation is one matmul; subclasses name the tensors."""

    left_key = right_key = result_key = ""
    names = ("A", "B", "C")
    intro = ""  # {left} and {right}: the operands' shapes
    outro = ""
    columns_are_tokens = False  # the result is an attention map: words on its columns too
    left_transposed = right_transposed = False
    compare_key: str | None = None
    compare_name = ""
    rows: int | None = None  # of the later rows, how many show their products (a repeat: the rest swept)
    cells: int | None = None  # of row 0, how many cells are formed one by one (all by default)

    def storyboard(self):
        left = self.block(self.left_key, self.names[0], self.left_transposed)
        shared = left.value_range if self.right_key == self.left_key else None
        right = self.block(self.right_key, self.names[1], self.right_transposed, value_range=shared)
        result_values = self.trace[self.result_key]
        motion = MatmulMotion(self, self.layout, self.viewpoint, left, right, result_values,
                              matmul_products(left.values[0], right.values[0]), say=self.say, names=self.names,
                              rows=self.rows, cells=self.cells)
        self.step("operands")
        self.say(self.intro.format(left=shape_text(left.source_shape), right=shape_text(right.source_shape)))
        motion.arrange()  # the opening shot: A · B = C, every block named, C empty
        self.wait(0.6)

        self.step("matmul")
        self.say(motion.rule())
        done = motion.fill()
        result = done.result

        self.step("result")
        words = self.cfg.sentence
        result.label.side = RIGHT
        margins = Margins(left=self.layout.word_room(words),
                          top=self.layout.word_room(words, columns=True) if self.columns_are_tokens else 0.0,
                          right=INSET_SHARE * self.layout.area().width if self.compare_key else 0.0)
        self.close_on(result, left, right, left.label, right.label, done.signs, margins=margins)
        extras = [self.layout.word_labels(result, words)]
        if self.columns_are_tokens:
            result.is_map = True  # an attention map: words on its rows and its columns
            extras.append(self.layout.column_words(result, words))
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
        other = self.inset(self.compare_key, self.compare_name, INSET_SHARE, beside=result)
        self.play(appear(other), appear(other.label))
