"""U · Xᵀ as a matmul, then the transpose shown as the block turning (stages 7-9)."""

from manim import DOWN

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.labels import NAME_SIZE, shape_text
from scenes.motions.matmul import MatmulMotion
from scenes.motions.turns import transpose_beside, turn_sign

__all__ = ["ProjectionStage"]


class ProjectionStage(StageScene):
    """U · Xᵀ as a matmul, then the transpose shown as the block turning."""

    weight_key = result_key = ""  # a stage names its tensors ...
    weight_name = result_name = role = ""  # ... and how the picture calls them
    first_of = ""  # the stage whose storyboard this one repeats ("" for the first)
    speed = 1.0
    rows: int | None = None  # of the later rows, how many show their products (a repeat: the rest swept)
    cells: int | None = None  # of row 0, how many cells are formed one by one (all by default; a repeat: fewer)

    def storyboard(self):
        before = self.trace[self.result_key + "_before_transpose"]
        result_values = self.trace[self.result_key]
        left = self.block(self.weight_key, self.weight_name)
        right = self.block("s02_embedded_sentence", "Xᵀ", transposed=True)
        name = f"{self.weight_name}·Xᵀ"
        motion = MatmulMotion(self, self.layout, self.viewpoint, left, right, before,
                              matmul_products(left.values[0], right.values[0]), say=self.say,
                              names=(self.weight_name, "Xᵀ", name), speed=self.speed, rows=self.rows,
                              cells=self.cells, cell_note=f", stage 6's {self.role[0]}⁽⁰⁾[0]")
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
        shape = shape_text(result_values.shape)
        transpose_beside(
            self, self.layout, self.viewpoint, product, result_values,
            lambda grid: self.layout.name(grid, self.result_name, DOWN), name, self.cfg.sentence,
            turn_sign(self.theme, ".T", NAME_SIZE, bold=True),
            leaving=[left, right, left.label, right.label, *done.signs], speed=self.speed,
            # the code's ".T" not opening the caption (a leading period read as a typo: 09_0279, the 65th and
            # 66th readers)
            told_move=lambda: self.saying(f"{self.result_name} = ({name}).T: every column laid down as a row"),
            told=lambda: self.saying(f"column 0 of {name} (token 0, \"{self.cfg.sentence[0]}\") becomes row 0 "
                                     f"of {self.result_name}"),
            told_rest=lambda: self.saying(f"column i becomes row i, one after another: {shape}"),
            say_end=lambda: self.say(f"{self.result_name}: {shape}, token i's {self.role} in row i "
                                     f"(column i of {name})"))
