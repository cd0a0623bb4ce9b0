"""Stage 17: per-head scores Q · Kᵀ, one matmul per head."""

from manim import DOWN

from scenes.base import StageScene
from scenes.components.labels import shape_text
from scenes.components.motions import spread_heads
from scenes.components.motions import batched_results
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadOmegas"]


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
