"""Stage 17: per-head scores Q · Kᵀ, one matmul per head."""

import numpy as np
from manim import DOWN, UP, LaggedStart, VGroup

from scenes.base import StageScene
from scenes.components.labels import note_text, shape_text
from scenes.components.motions import FRONT_VIEW, batched_results, camera_turn
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadOmegas", "spread_heads"]


HEAD_GAP = (0.55, 0.45)  # between head slices: across, and down (room for the tags)
TAG_ROOM = 0.3


def spread_heads(scene, block, columns: int = 3, scale: float = 1.0, center=(-0.4, -0.22, 0.0),
                 room=(9.0, 5.6)):
    """Split a (h, r, c) block into its head slices laid out in a grid, front view.

    The slices grow to ``scale`` times their size, less if the grid and its
    tags would not fit in ``room`` (width, height: between the caption and
    the code line) around ``center``.
    """
    heads = block.grid_shape[0]
    slices = block.split(axis=0)
    scene.remove(block)
    scene.add(*slices)
    rows = int(np.ceil(heads / columns))
    columns = min(columns, heads)
    width, height = block.grid_shape[2] * block.pitch, block.grid_shape[1] * block.pitch
    scale = min(scale, (room[0] - (columns - 1) * HEAD_GAP[0]) / (columns * width),
                (room[1] - (rows - 1) * HEAD_GAP[1] - TAG_ROOM) / (rows * height))
    width, height = width * scale, height * scale
    center = np.asarray(center, float) - np.array([0.0, TAG_ROOM / 2, 0.0])
    targets = []
    for h in range(heads):
        r, c = divmod(h, columns)
        targets.append(center + np.array([(c - (columns - 1) / 2) * (width + HEAD_GAP[0]),
                                          -(r - (rows - 1) / 2) * (height + HEAD_GAP[1]), 0.0]))
    scene.play(camera_turn(scene, *FRONT_VIEW),
               LaggedStart(*[s.animate.scale(scale).move_to(t) for s, t in zip(slices, targets)],
                           lag_ratio=0.08), run_time=2.2)
    tags = VGroup(*[note_text(f"head {h}", scene.theme, font_size=16, color=scene.theme.muted)
                    .next_to(s, UP, buff=0.08) for h, s in enumerate(slices)])
    scene.fixed(*tags)
    scene.play(appear(tags), run_time=0.5)
    return slices, tags


class MultiheadOmegas(StageScene):
    number = 17
    slug = "multihead_omegas"
    title = "Multi-head scores ω = Q · Kᵀ per head"
    summary = "one matmul per head: 9×8×17 · 9×17×8 = 9×8×8; each head's scores differ (compare 10)"
    code = "multihead_omegas = multihead_queries.matmul(multihead_keys.swapaxes(1, 2))"
    view = (0.5, 0.3)

    def storyboard(self):
        q = self.trace["s14_multihead_queries"]
        omegas = self.trace["s17_multihead_omegas"]
        size = dict(cube_size=0.12, gap=0.03)
        queries = self.tensor_grid("s14_multihead_queries", **size).move_to([-3.8, 0.0, 0])
        keys_t = self.tensor_grid("s15_multihead_keys", transposed=True, **size)
        keys_t.move_to([-0.3, 0.0, 0])
        result = self.tensor_grid("s17_multihead_omegas", **size).move_to([3.3, 0.0, 0])
        for grid in (keys_t, result):
            grid.align_cell((0, 0, 0), [grid.cell_center(0, 0)[0], queries.cell_center(0, 0, 0)[1],
                                        queries.cell_center(0, 0, 0)[2]])
        labels = [self.label(queries, "multihead_queries", q.shape, DOWN, buff=0.35),
                  self.label(keys_t, "keys.swapaxes(1, 2)", keys_t.grid_shape, DOWN, buff=0.35)]
        self.step("operands")
        self.say("per head: the queries and the keys turned, Kᵀ")
        self.play(appear(queries), appear(keys_t), *map(appear, labels))
        self.show_colorbar("queries", q)

        self.step("batched matmul")
        self.say(f"one {shape_text(q.shape[1:])} · {shape_text(keys_t.grid_shape[1:])} matmul per head, all heads at once")
        batched_results(self, [queries, keys_t], result)
        r_label = self.label(result, "multihead_omegas", omegas.shape, DOWN, buff=0.35)
        self.play(appear(r_label), run_time=0.4)
        self.show_colorbar("ω (heads)", omegas)

        self.step("heads")
        self.say("side by side: every head scores the tokens differently (compare stage 10)")
        self.play(vanish(queries), vanish(keys_t), *map(vanish, labels), vanish(r_label), run_time=0.6)
        self.spread(result)

    def spread(self, result):
        spread_heads(self, result)
