"""U · Xᵀ as a matmul, then the transpose shown as the block turning (stages 7-9)."""

from manim import DOWN

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.labels import NAME_SIZE, shape_text
from scenes.layout import Margins, ghost
from scenes.motions.matmul import MatmulMotion
from scenes.motions.turns import before_and_after, transpose_turn, turn_sign

__all__ = ["ProjectionStage"]


class ProjectionStage(StageScene):
    """U · Xᵀ as a matmul, then the transpose shown as the block turning."""

    weight_key = result_key = ""  # a stage names its tensors ...
    weight_name = result_name = role = ""  # ... and how the picture calls them
    first_of = ""  # the stage whose storyboard this one repeats ("" for the first)
    speed = 1.0
    rows: int | None = None  # of the later rows, how many show their products (a repeat: the rest swept)

    def storyboard(self):
        before = self.trace[self.result_key + "_before_transpose"]
        result_values = self.trace[self.result_key]
        left = self.block(self.weight_key, self.weight_name)
        right = self.block("s02_embedded_sentence", "Xᵀ", transposed=True)
        name = f"{self.weight_name}·Xᵀ"
        motion = MatmulMotion(self, self.layout, self.viewpoint, left, right, before,
                              matmul_products(left.values[0], right.values[0]), say=self.say,
                              names=(self.weight_name, "Xᵀ", name), speed=self.speed, rows=self.rows)
        self.step("operands")
        if self.first_of:
            self.say(f"as stage {self.first_of}, with {self.weight_name}: every token (a column of Xᵀ) "
                     f"projected to its {self.role}")
        else:
            self.say(f"{self.weight_name} projects every token (a column of Xᵀ) to its {self.role}")
        motion.arrange()  # the opening shot: A · B = C, every block named, C empty
        self.wait(0.6)

        self.step("matmul")
        self.say(motion.rule())
        done = motion.fill()
        product = done.result

        self.step("transpose")
        # park the product so that, once turned, the result fits too
        side = max(result_values.shape)  # its label stays under it: a label changing sides would cross it
        self.say(f".T: column i of {name} lies down as row i, one after another: one row per token")
        self.close_on(product, left, right, left.label, right.label, done.signs,
                      margins=Margins(left=self.layout.word_room(self.cfg.sentence)), room_for=(1, side, side))
        # the turning block keeps its name until half-way, then takes the result's, under the room the
        # turn sweeps (both shapes from the same first cell): never over the block, never without a name
        renamed = self.layout.renamed(product.label, self.result_name, result_values.shape,
                                      ghost(product, (1, side, side)))
        # each column's token word rides with it and lands beside its row
        result = transpose_turn(self, product, result_values, run_time=3.0 / self.speed,
                                axis_color=self.theme.accent, keep=product.label, renamed=renamed,
                                words=lambda grid: self.layout.word_labels(grid, self.cfg.sentence))
        self.before_and_after(product, before, result, name, renamed, *result.row_words)

    def before_and_after(self, product, before, result, name, shown_label, *words):
        """The closing shot that keeps the transpose in view (:func:`~scenes.motions.turns.before_and_after`):
        ``name`` (the product) before ``.T``, the result after it."""
        self.layout.name(result, self.result_name, DOWN)
        before_and_after(self, self.layout, self.viewpoint, result, before, name, product.dims, self.cfg.sentence,
                         turn_sign(self.theme, ".T", NAME_SIZE, bold=True), leaving=[shown_label, *words],
                         say=lambda: self.say(f"{self.result_name}: {shape_text(result.source_shape)}, token i's "
                                              f"{self.role} in row i (column i of {name})"))
