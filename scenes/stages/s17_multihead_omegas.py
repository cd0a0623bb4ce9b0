"""Stage 17: per-head scores Q · Kᵀ, one matmul per head."""

import numpy as np
from manim import DOWN

from tensors import matmul_products
from scenes.base import StageScene
from scenes.layout import NOTE_ROOM, STACKED_LABEL_ROOM, Margins
from scenes.motions.heads import spread_heads
from scenes.motions.matmul import batched_matmul
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadOmegas"]


class MultiheadOmegas(StageScene):
    number = 17
    title = "Multi-head scores ω = Q · Kᵀ per head"
    summary = "one matmul per head: 9×8×17 · 9×17×8 = 9×8×8; each head's scores differ (compare 10)"
    code = "multihead_omegas = multihead_queries.matmul(multihead_keys.swapaxes(1, 2))"
    view = (0.5, 0.3)

    def storyboard(self):
        q = self.trace["s14_multihead_queries"]
        k = self.trace["s15_multihead_keys"]
        omegas = self.trace["s17_multihead_omegas"]
        keys_t_values = np.swapaxes(k, 1, 2)
        queries = self.tensor_grid("s14_multihead_queries")
        keys_t = self.tensor_grid("s15_multihead_keys", transposed=True)
        q_name, k_name = "multihead_queries", "multihead_keys.swapaxes(1, 2)"
        self.layout.row(queries, keys_t, names=(q_name, k_name), gap=1.0,
                     margins=Margins(bottom=STACKED_LABEL_ROOM + NOTE_ROOM))
        labels = [self.layout.label(queries, q_name, q.shape, DOWN, stacked=True),
                  self.layout.label(keys_t, k_name, keys_t_values.shape, DOWN, stacked=True, own_scale=True)]
        self.step("operands")
        self.say("per head: the queries and the keys turned, Kᵀ")
        self.play(appear(queries), appear(keys_t), *map(appear, labels))
        self.legend.show(q_name, q)

        self.step("batched matmul")
        self.play(*map(vanish, labels), run_time=0.3)
        result = batched_matmul(self, self.layout, self.legend, self.viewpoint, queries, keys_t, omegas,
                                matmul_products(q[0], keys_t_values[0]), names=("Q", "Kᵀ", "ω"), say=self.say)
        r_label = self.layout.label(result, "multihead_omegas", omegas.shape, DOWN)
        self.play(appear(r_label), *self.legend.swap("multihead_omegas", omegas), run_time=0.5)

        self.step("heads")
        self.say("the heads side by side: each head's own scores (from random projections)")
        self.play(vanish(r_label), run_time=0.3)
        area = self.layout.area()
        slices = spread_heads(self, self.layout, self.viewpoint, result, name="multihead_omegas",
                              area=area.part(0.0, 1 - INSET_SHARE), words=self.cfg.sentence).slices
        other, caption = self.inset("s10_omegas", "stage 10: Q·Kᵀ", INSET_SHARE, max_pitch=slices[0].pitch)  # as a head
        self.say("right: stage 10's scores (one-head attention), on their own colors")
        self.play(appear(other), appear(caption))
        self.wait(0.6)
        self.say("if the heads look alike: their projections are torch.rand, not trained")


INSET_SHARE = 0.28  # of the stage area's width, right, for stage 10's single-head scores
