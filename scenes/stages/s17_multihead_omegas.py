"""Stage 17: per-head scores Q · Kᵀ, one matmul per head."""

from manim import DOWN

from tensors import matmul_products
from tensors.roles import heads_alike
from scenes.base import StageScene
from scenes.components.fades import appear
from scenes.motions.heads import focus_heads, role_lines
from scenes.motions.matmul import batched_matmul, head_slice

__all__ = ["MultiheadOmegas"]


class MultiheadOmegas(StageScene):
    number = 17
    title = "Multi-head scores, one Q · Kᵀ per head"
    summary = "one matmul per head: 9×8×17 · 9×17×8 = 9×8×8; each head's scores (compare ω′ of stage 10)"
    code = "multihead_omegas = multihead_queries.matmul(multihead_keys.swapaxes(1, 2))"
    view = (0.5, 0.3)

    def storyboard(self):
        omegas = self.trace["s17_multihead_omegas"]
        queries = self.block("s14_multihead_queries", "multihead_queries", direction=DOWN)
        keys_t = self.block("s15_multihead_keys", "multihead_keys.swapaxes(1, 2)", transposed=True, direction=DOWN)
        self.layout.row(queries, keys_t, gap=1.4)
        self.step("operands")
        # why the keys turn again (turned by stage 15 only to be turned back, read the 58th reader: 17_0059):
        # they lie a token per row, as stage 10's K did
        self.say("stage 10's ω′ = Q · Kᵀ once per head: the keys lie a token per row, as K did; swapaxes(1, 2) "
                 "is stage 10's .T, for every head")
        self.play(appear(queries), appear(keys_t), appear(self.layout.place(queries)),
                  appear(self.layout.place(keys_t)))

        self.step("matmul per head")
        result = batched_matmul(self, self.layout, self.viewpoint, queries, keys_t, omegas,
                                matmul_products(queries.values[0], keys_t.values[0]),
                                names=("multihead_queries", "multihead_keys.swapaxes(1, 2)", "multihead_omegas"),
                                say=self.say, view=self.view, cells=2,  # stage 10's matmul again, per head
                                # head h's slice of keys.swapaxes(1, 2) is keys[h] transposed: written so, shorter
                                slice_names=(head_slice, lambda name, h: f"multihead_keys[{h}].T", head_slice)).block

        self.step("heads")
        self.say("every head's scores side by side: head 0 large, with its words")
        focus_heads(self, self.layout, self.viewpoint, result, "multihead_omegas", self.cfg.sentence,
                    roles=role_lines(self.trace.roles()))
        self.say(self.remark(omegas))
        self.wait(1.0)

    def remark(self, omegas) -> str:
        """How alike the heads' score patterns are, said from the numbers."""
        if omegas.shape[0] < 2:
            return "one head: the same scores as ω′ of stage 10, in the paper's sizes"
        # what is correlated, said (a bare "correlation 0.93" left the reader asking of what: 17_0585, the 42nd)
        mean = heads_alike(omegas)
        cells = omegas[0].size
        if mean > 0.8:
            if self.cfg.init == "torch-rand" and self.cfg.weights is None:
                return (f"heads alike: two heads' {cells} scores correlate {mean:.2f} on average; torch.rand is "
                        f"never negative, so all heads share one large part")
            return (f"the heads' score maps look alike: two heads' {cells} scores correlate {mean:.2f} on average "
                    f"(1 = identical maps)")
        return (f"each head scores its own way: two heads' {cells} scores correlate {mean:.2f} on average "
                f"(1 = identical maps)")
