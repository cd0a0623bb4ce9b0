"""Softmax along the rows of a score matrix, the weights built row by row (stages 4, 11).

The storyboard of :func:`scenes.motions.softmax.soften_rows`: the scores,
the weights' empty slots, a causal mask first where asked, every row over
the bench into the weights, then each row's largest weight framed.
"""

import numpy as np
from manim import DOWN, Square, VGroup

from scenes.base import StageScene
from scenes.components.colorbar import MASKED_SIGN
from scenes.components.cubegrid import CubeGrid
from scenes.components.fades import appear, swap, vanish
from scenes.motions.softmax import SoftmaxBench, bench_between, mask_later_tokens, soften_rows

__all__ = ["RowSoftmaxStage", "ONE_TOKEN", "on_one_token", "mixing_rows"]

ONE_TOKEN = 0.95  # a row giving one token at least this share is "on one token" (one-hot to the eye: that cell red,
# the rest purple); under it, the row mixes. One line for every scene that counts rows (95 % in 4 and 11, 90 % in 5
# and 12: "2 of 8" on one token and "5 of 8" mixing did not add up to 8, G9 of the 49th reader)


def on_one_token(weights) -> int:
    """How many rows of ``weights`` give one token :data:`ONE_TOKEN` or more."""
    return int((np.asarray(weights).max(axis=-1) >= ONE_TOKEN).sum())


def mixing_rows(weights) -> int:
    """How many rows of ``weights`` mix: under :data:`ONE_TOKEN` on every token (the rest of the rows)."""
    return len(weights) - on_one_token(weights)


class RowSoftmaxStage(StageScene):
    scores_key = masked_key = weights_key = ""  # a stage names its tensors
    scores_name = "ω"
    weights_name = "α"
    scale_note = ""  # how the scores were scaled, written after a row's index: "/√17"
    inset_share = 0.0  # of the stage area's width, right, kept for an inset of an earlier stage

    def show_scores(self, scores: CubeGrid, bench: SoftmaxBench) -> np.ndarray:
        """Hook: stage 11 scales the scores first (on the bench's place, free
        until the softmax). Returns the scores the softmax takes."""
        return self.trace[self.scores_key]

    def scaled_name(self) -> str | None:
        """Hook: the name the scores take once scaled (room is kept for it), or None."""
        return None

    def storyboard(self):
        words = self.cfg.sentence
        weights_values = self.trace[self.weights_key]
        scores = self.block(self.scores_key, self.scores_name, direction=DOWN)
        scaled = self.scaled_name()
        room = None
        if scaled or self.cfg.mask == "causal":  # the name it takes later: scaled, masked (a swatch for −∞)
            room = self.layout.sized_label(scaled or self.scores_name, scores.source_shape, DOWN,
                                           value_range=scores.value_range, masked=self.cfg.mask == "causal",
                                           scale_of=self.scores_name if scaled else None)
        bench = bench_between(self.layout, scores, weights_values, self.scores_name, self.weights_name, words,
                              scale_note=self.scale_note_for(), right=self.inset_room(),
                              scores_room=room, bench_room=self.bench_label(scores))
        weights = bench.weights
        self.step("scores")
        self.say(f"the scores {self.scores_name}: row i = how token i matches every token")
        self.play(appear(scores), appear(self.layout.place(scores)), *map(appear, bench.words_on))
        self.play(appear(weights), appear(self.layout.place(weights)), run_time=0.5)
        values = self.show_scores(scores, bench)
        if self.cfg.mask == "causal":
            self.step("mask")
            self.say(f"causal mask: a token may not look ahead: later tokens' scores become {MASKED_SIGN}")
            mark = mask_later_tokens(self, self.layout, [scores])
            old = scores.label
            self.layout.name(scores, scores.label.tensor_name, DOWN, scale_of=scores.label.scale_of)
            self.layout.place(scores)
            self.play(*swap(old, scores.label), run_time=0.4)
            self.play(vanish(mark), run_time=0.4)
            values = self.trace[self.masked_key]

        self.step("softmax")
        soften_rows(self, self.layout, bench, values, weights_values, saying=self.saying,
                    scale_note=self.scale_note)
        self.step("maxima")
        self.point_out_maxima(weights, weights_values)

    def inset_room(self) -> float:
        """The width kept free on the right for insets (frame units)."""
        return self.inset_share * self.layout.area().width

    def bench_label(self, scores: CubeGrid):
        """Hook: the label of a block :meth:`show_scores` shows on the
        bench's place (room is kept for it), or None."""
        return None

    def scale_note_for(self) -> str:
        """How the rows will be named once scaled (room is kept for it)."""
        return ""

    def point_out_maxima(self, grid, weights):
        best = weights.argmax(axis=-1)
        frames = VGroup(*[
            Square(side_length=grid.pitch * 1.02, color=self.theme.ink, stroke_width=3)
            .move_to(grid.cell_center(row, int(col)) + grid.cube_edge / 2 * np.array([0, 0, 1.0]))
            for row, col in enumerate(best)
        ])
        on_diagonal = int(np.sum(best == np.arange(len(best))))
        self.say(f"framed: each row's largest weight ({on_diagonal} of {len(best)} on the diagonal)")
        self.play(appear(frames), run_time=1.2)
