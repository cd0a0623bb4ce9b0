"""Softmax along the rows of a score matrix, the weights built row by row (stages 4, 11).

The scores stand on the left, the weights' empty slots on the right, both
with the tokens' words on their rows and columns. Each row of scores slides
onto a bench between them, becomes its exponentials (on their own scale),
is divided by its sum (now on the weights' scale, summing to 1) and slides
on into its row of the weights: the first two rows slowly with their
numbers, the others one after another, faster. A causal mask, where asked,
first turns the scores of later tokens to −∞.
"""

import numpy as np
from manim import DOWN, UP, Create, Square, VGroup

from tensors import softmax_steps
from scenes.base import StageScene
from scenes.components.colorbar import MASKED_SIGN
from scenes.components.cubegrid import CubeGrid
from scenes.components.fades import appear, swap, vanish
from scenes.components.numbers import row_numbers
from scenes.layout import Margins, ghost
from scenes.motions.matmul import SLOT_OPACITY
from scenes.motions.softmax import mask_later_tokens

__all__ = ["RowSoftmaxStage"]

DIM = 0.25


class RowSoftmaxStage(StageScene):
    scores_key = masked_key = weights_key = ""  # a stage names its tensors
    scores_name = "ω"
    weights_name = "α"
    scale_note = ""  # how the scores were scaled, written after a row's index: "/√17"
    inset_share = 0.0  # of the stage area's width, right, kept for an inset of an earlier stage

    def show_scores(self, scores: CubeGrid) -> np.ndarray:
        """Hook: stage 11 scales the scores first. Returns the scores the softmax takes."""
        return self.trace[self.scores_key]

    def scaled_name(self) -> str | None:
        """Hook: the name the scores take once scaled (room is kept for it), or None."""
        return None

    def storyboard(self):
        words = self.cfg.sentence
        weights_values = self.trace[self.weights_key]
        scores = self.block(self.scores_key, self.scores_name, direction=DOWN)
        weights = scores.like(weights_values, (float(weights_values.min()), float(weights_values.max())),
                              dims=scores.dims)
        self.layout.name(weights, self.weights_name, DOWN)
        bench = ghost(scores, (1, 1, scores.grid_shape[2]))  # room for one row between them
        room = self.layout.word_room(words)
        area = self.layout.area()
        tokens = scores.grid_shape[1]
        widest = max((self.layout.sized_label(n, (tokens,), DOWN) for n in (
            f"{self.weights_name}[{tokens - 1}]  Σ = 1.000", self.exp_name(tokens - 1))), key=lambda m: m.width)
        scaled = self.scaled_name()
        self.layout.row(scores, bench, weights, gap=0.5, margins=Margins(
            left=room, top=self.layout.word_room(words, columns=True), right=self.inset_share * area.width),
            room_for=[self.layout.sized_label(scaled, scores.source_shape, DOWN) if scaled else None, widest, None])
        bench.align_cell((0, 0, 0), [bench.cell_center(0, 0)[0], scores.cell_center(0, 0)[1], 0.0])
        words_on = [self.layout.word_labels(scores, words), self.layout.column_words(scores, words),
                    self.layout.column_words(weights, words)]
        weights.row_words = scores.row_words  # the weights' rows are level with the scores' and their words
        scores.is_map = weights.is_map = True
        weights.set_cell_opacity(SLOT_OPACITY)
        self.step("scores")
        self.say(f"the scores {self.scores_name}: row i = how token i matches every token")
        self.play(appear(scores), appear(self.layout.place(scores)), *map(appear, words_on))
        self.play(appear(weights), appear(self.layout.place(weights)), run_time=0.5)
        values = self.show_scores(scores)
        if self.cfg.mask == "causal":
            self.step("mask")
            self.say(f"causal mask: a token may not look ahead: later tokens' scores become {MASKED_SIGN}")
            mark = mask_later_tokens(self, self.layout, [scores])
            old = scores.label
            self.layout.name(scores, scores.label.tensor_name, DOWN)
            self.layout.place(scores)
            self.play(*swap(old, scores.label), run_time=0.4)
            self.play(vanish(mark), run_time=0.4)
            values = self.trace[self.masked_key]

        self.step("softmax")
        steps = softmax_steps(values)
        self.say(f"softmax, row by row: exp, then ÷ the row's sum, so each row of {self.weights_name} sums to 1")
        for row in range(scores.grid_shape[1]):
            self.soften(scores, weights, bench, row, values[row], steps["weights"][row], first=row == 0,
                        run_time=max(0.8, 3.2 * 0.6 ** row))
        self.play(scores.animate.clear_highlight(), run_time=0.3)
        self.step("maxima")
        self.point_out_maxima(weights, weights_values)

    def soften(self, scores, weights, bench, row: int, row_scores, row_weights, first: bool, run_time: float):
        """Row ``row`` of the scores over the bench, through exp and ÷ sum, into the weights."""
        piece = scores.subgrid((0, row))
        piece.part_of = scores
        piece.set_cell_opacity(1.0)  # the row in play is lit, whatever the last highlight left
        name = self.weights_name
        at = bench.cell_center(0, 0)
        self.add(piece)
        self.play(scores.animate.highlight((0, row), DIM), weights.animate.set_cell_opacity(0.45, (0, row)),
                  piece.animate.align_cell((0, 0, 0), [at[0], scores.cell_center(row, 0)[1], at[2]]),
                  run_time=0.3 * run_time)
        if first:
            self.say(row_numbers(f"row {row}: {self.scores_name}[{row}]{self.scale_note}", row_scores))
            self.wait(1.0)
        shown = row_scores[np.isfinite(row_scores)]
        overflow = shown.max() > 700  # exp of the true score would not fit a float: shown ÷ its row max
        exp = np.where(np.isfinite(row_scores), np.exp(row_scores - (shown.max() if overflow else 0.0)), 0.0)
        exp_name = self.exp_name(row, overflow)
        piece.part_of, piece.value_range = None, (float(exp.min()), float(exp.max()))
        side = DOWN if row < scores.grid_shape[1] / 2 else UP
        label = self.layout.name(piece, exp_name, side, shape=(len(row_scores),), values=exp)
        self.layout.place(piece)
        self.play(piece.animate.paint((0, 0), exp, piece.value_range), *swap(None, label), run_time=0.3 * run_time)
        if first:
            self.say(row_numbers("exp(score)" + (" ÷ e^max" if overflow else ""), exp, total="sum"))
            self.wait(1.2)
        target = weights.value_range
        piece.value_range = target
        new = self.layout.name(piece, f"{name}[{row}]  Σ = {row_weights.sum():.3f}", side, shape=(len(row_scores),),
                               values=row_weights, scale_of=name)
        self.layout.place(piece)
        self.play(piece.animate.paint((0, 0), row_weights, target), *swap(label, new), run_time=0.3 * run_time)
        if first:
            self.say(row_numbers("÷ the sum: weights", row_weights, total="Σ"))
            self.wait(1.2)
            self.say("the next rows the same way, faster")
        self.remove(new)  # the row leaves the bench: its label goes at once
        self.play(piece.animate.align_cell((0, 0, 0), weights.cell_center(row, 0)).set_opacity(0.0),
                  weights.animate.set_cell_opacity(1.0, (0, row)), run_time=0.25 * run_time)
        self.remove(piece)

    def exp_name(self, row: int, overflow: bool = False) -> str:
        """The bench's label while row ``row`` is exponentiated."""
        inner = f"{self.scores_name}[{row}]{self.scale_note}"
        return f"exp({inner} − max)" if overflow else f"exp({inner})"

    def point_out_maxima(self, grid, weights):
        best = weights.argmax(axis=-1)
        frames = VGroup(*[
            Square(side_length=grid.pitch * 1.02, color=self.theme.ink, stroke_width=3)
            .move_to(grid.cell_center(row, int(col)) + grid.cube_edge / 2 * np.array([0, 0, 1.0]))
            for row, col in enumerate(best)
        ])
        on_diagonal = int(np.sum(best == np.arange(len(best))))
        self.say(f"framed: each row's largest weight ({on_diagonal} of {len(best)} on the diagonal)")
        self.play(Create(frames), run_time=1.2)
