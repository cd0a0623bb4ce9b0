"""Softmax along the rows of a score matrix, step by step, with an optional causal mask (stages 4, 11)."""

import numpy as np
from manim import UP, Create, Square, VGroup

from tensors import softmax_steps
from scenes.base import StageScene
from scenes.layout import LABEL_ROOM, Margins
from scenes.motions.softmax import mask_later_tokens, softmax_rows
from scenes.components.fades import appear, vanish


SUM_ROOM = 1.5  # right of the block: the rows' "Σ = 1.000"

__all__ = ["RowSoftmaxStage"]


class RowSoftmaxStage(StageScene):
    scores_key = masked_key = weights_key = ""  # a stage names its tensors
    scores_name = "ω"
    weights_name = "A (attention weights)"
    inset_share = 0.0  # of the stage area's width, right, kept for an inset of an earlier stage

    def show_scores(self, grid, label):
        """Hook: stage 11 scales the scores first. Returns the scores and their label."""
        return self.trace[self.scores_key], label

    def storyboard(self):
        scores = self.trace[self.scores_key]
        weights = self.trace[self.weights_key]
        grid = self.tensor_grid(self.scores_key)
        inset = self.inset_share * self.layout.area().width
        self.layout.fit([grid], margins=Margins(left=self.layout.word_room(self.cfg.sentence, 20),
                                                 right=SUM_ROOM + inset, top=LABEL_ROOM), max_pitch=0.45)
        rows = self.layout.word_labels(grid, self.cfg.sentence, font_size=20)
        label = self.layout.label(grid, self.scores_name, scores.shape, UP)
        self.step("scores")
        self.say(f"the scores {self.scores_name}: row i = how token i matches every token")
        self.play(appear(grid), appear(rows), appear(label))
        self.legend.show(self.scores_name, scores)
        scores, label = self.show_scores(grid, label)
        mark = None
        if self.cfg.mask == "causal":
            self.step("mask")
            self.say("causal mask: a token may not look ahead, so the scores of later tokens become −∞")
            mark = mask_later_tokens(self, self.layout, [grid])
            scores = self.trace[self.masked_key]

        self.step("softmax")
        weights_range = (float(weights.min()), float(weights.max()))
        softmax_rows(self, self.layout, self.legend, grid, softmax_steps(scores), weights_range,
                     explicit_rows=((0, 0), (0, 1)), say=self.say)
        if mark is not None:
            self.say("exp(−∞) = 0: each token's weights spread over itself and earlier tokens only")
            self.play(vanish(mark), run_time=0.5)
        self.relabel(label, grid, self.weights_name, weights.shape, UP)
        self.step("maxima")
        self.point_out_maxima(grid, weights)

    def point_out_maxima(self, grid, weights):
        best = weights.argmax(axis=-1)
        frames = VGroup(*[
            Square(side_length=grid.pitch * 1.02, color=self.theme.ink, stroke_width=3)
            .move_to(grid.cell_center(row, int(col)) + grid.cube_edge / 2 * np.array([0, 0, 1.0]))
            for row, col in enumerate(best)
        ])
        on_diagonal = int(np.sum(best == np.arange(len(best))))
        self.say(f"framed: the largest weight of each row ({on_diagonal} of {len(best)} on the diagonal)")
        self.play(Create(frames), run_time=1.2)
