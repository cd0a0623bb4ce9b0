"""U · Xᵀ as a matmul, then the transpose shown as the block turning (stages 7-9)."""

from manim import DOWN, ORIGIN, RIGHT, Arrow, Text, VGroup

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.fades import appear, at_once, vanish
from scenes.components.labels import NAME_SIZE, TEXT_FONT, TEXT_SIZE, shape_text
from scenes.components.projection import FRONT
from scenes.layout import Margins, ghost
from scenes.motions.matmul import MatmulMotion, frame_around
from scenes.motions.turns import transpose_turn

__all__ = ["ProjectionStage"]

MAX_GROWTH = 2.5  # the turned result's cubes at most this much larger than the block before .T


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
        name = f"{self.weight_name}·Xᵀ"
        motion = MatmulMotion(self, self.layout, self.viewpoint, left, right, before,
                              matmul_products(left.values[0], right.values[0]), say=self.say,
                              names=(self.weight_name, "Xᵀ", name), speed=self.speed)
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
        self.say(f".T turns {name} about its diagonal: column i becomes row i, one row per token")
        self.close_on(product, left, right, left.label, right.label, done.signs,
                      margins=Margins(left=self.layout.word_room(self.cfg.sentence)), room_for=(1, side, side))
        # the turning block keeps its name until half-way, then takes the result's, under the room the
        # turn sweeps (both shapes from the same first cell): never over the block, never without a name
        renamed = self.layout.renamed(product.label, self.result_name, result_values.shape,
                                      ghost(product, (1, side, side)))
        result = transpose_turn(self, product, result_values, run_time=3.0 / self.speed,
                                axis_color=self.theme.accent, keep=product.label, renamed=renamed)
        self.before_and_after(product, before, result, name, renamed)

    def before_and_after(self, product, before, result, name, shown_label):
        """The closing shot that keeps the transpose in view: the block
        before ``.T`` (a token in each column, the first one's word over it)
        beside the turned one (a token in each row, drawn large enough for
        every row's word beside it), column 0 and row 0 framed alike."""
        words = self.cfg.sentence
        twin = product.like(before, product.value_range, dims=product.dims)
        self.layout.name(twin, name, DOWN, scale=False)  # the same colors as the result's: one legend for both
        self.layout.name(result, self.result_name, DOWN)
        goal = result.copy()
        room = self.layout.word_room(words)
        for _ in range(3):  # the result drawn larger where its rows need it for every word (the row keeps the ratio)
            self.layout.row(twin, goal, gap=room + 1.0, view=FRONT, bind=False,
                            margins=Margins(top=self.layout.word_room(words[:1], columns=True)))
            grow = 1.0 / self.layout.row_text_scale(goal, TEXT_SIZE, view=FRONT)  # as it will be seen
            if grow < 1.0 + 1e-3 or goal.pitch * grow > twin.pitch * MAX_GROWTH:
                break
            goal.scale(grow * 1.02)
        twin.label.hang = -1  # a name wider than the block reaches left, away from the result's row words
        # the turn's label leaves at once (the block moves away from it); both blocks are named once placed
        self.play(vanish(shown_label, rate_func=at_once), self.viewpoint.turn(*FRONT), result.animate.become(goal),
                  run_time=1.0)
        self.layout.place(twin)
        self.layout.place(result)
        sign = VGroup(Text(".T", font=TEXT_FONT, font_size=NAME_SIZE, weight="BOLD", color=self.theme.ink),
                      Arrow(ORIGIN, RIGHT * 0.7, buff=0, color=self.theme.ink)).arrange(DOWN, buff=0.05)
        gap = self.layout.screen_box([result])[0] - self.layout.screen_box([twin])[2]
        self.layout.beside([twin], sign, RIGHT, buff=(gap - room - sign.width) / 2)
        self.layout.upright(sign)
        self.play(appear(twin), appear(twin.label), appear(result.label), appear(sign), run_time=0.6)
        columns = self.layout.column_words(twin, words[:1])  # over the framed column: the token it is
        rows = self.layout.word_labels(result, words)
        self.say(f"{self.result_name}: {shape_text(result.source_shape)}, token i's {self.role} in row i "
                 f"(column i of {name})")
        self.play(appear(columns), appear(rows))
        # as this closing shot has drawn them since it was made: tighter and heavier than the matmul's
        frames = [frame_around(self.layout, twin, (0, slice(None), 0), pad=0.12, stroke=3),
                  frame_around(self.layout, result, (0, 0), pad=0.12, stroke=3)]
        self.play(*[appear(f) for f in frames], run_time=0.6)
        self.wait(1.0)
