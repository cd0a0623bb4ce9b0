"""Stages 14-16: multi-head Q, K, V by broadcasting Xᵀ across the heads."""

from manim import DOWN

from scenes.base import StageScene
from scenes.components.motions import batched_results, broadcast_copies, permute_last_two
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadQueries", "MultiheadProjectionStage"]


class MultiheadProjectionStage(StageScene):
    """Broadcast Xᵀ along the head axis, batched matmul, optional transpose."""

    weight_key = "s13_multihead_U_query"
    before_key = "s14_multihead_queries_before_swap"
    result_key = "s14_multihead_queries"
    weight_name = "multihead_U_query"
    result_name = "multihead_queries"
    transpose_code = "swapaxes(1, 2)"
    view = (0.5, 0.3)

    def storyboard(self):
        u = self.trace[self.weight_key]
        x = self.trace["s02_embedded_sentence"]
        before = self.trace[self.before_key]
        heads = self.cfg.heads
        size = dict(cube_size=0.11, gap=0.028)
        weight = self.tensor_grid(self.weight_key, **size).move_to([-4.0, 0.1, 0])
        xt = self.tensor_grid("s02_embedded_sentence", transposed=True, **size).move_to([-0.6, 0.1, 0])
        xt.align_cell((0, 0, 0), [xt.cell_center(0, 0)[0], weight.cell_center(0, 0, 0)[1], weight.cell_center(0, 0, 0)[2]])
        w_label = self.label(weight, self.weight_name, u.shape, DOWN, buff=0.45)
        x_label = self.label(xt, "Xᵀ", x.T.shape, DOWN, buff=0.35)
        self.step("operands")
        self.say(f"{self.weight_name} has {heads} heads; Xᵀ is a single 2D matrix")
        self.play(appear(weight), appear(xt), appear(w_label), appear(x_label))
        self.show_colorbar(self.weight_name.replace("multihead_", ""), u)

        self.step("broadcast")
        self.say("broadcasting: Xᵀ is copied along the head axis, once per head")
        stack, counter = broadcast_copies(self, xt, heads, [-0.6, 2.2, 0], self.theme)
        self.relabel(x_label, stack, "Xᵀ broadcast", (heads,) + x.T.shape, DOWN, buff=0.35)

        self.step("batched matmul")
        self.say(f"batched matmul: head h of {self.weight_name} times copy h of Xᵀ")
        result = self.tensor_grid(self.before_key, **size).move_to([3.3, 0.1, 0])
        result.align_cell((0, 0, 0), [result.cell_center(0, 0)[0], weight.cell_center(0, 0, 0)[1],
                                      weight.cell_center(0, 0, 0)[2]])
        r_label = self.label(result, "U·Xᵀ", before.shape, DOWN, buff=0.35)
        batched_results(self, [weight, stack], result)
        self.play(appear(r_label), vanish(counter), run_time=0.4)
        self.show_colorbar(self.result_name.replace("multihead_", ""), before)
        self.finish(result, r_label)

    def finish(self, result, r_label):
        final = self.trace[self.result_key]
        self.step("transpose")
        self.say(f"{self.transpose_code}: every head's slice turns about its diagonal")
        self.play(vanish(r_label), run_time=0.3)
        turned = permute_last_two(self, result, final)
        self.play(appear(self.label(turned, self.result_name, final.shape, DOWN, buff=0.35)))
        self.say(f"{self.result_name}: {final.shape[0]} heads × {final.shape[1]} tokens × {final.shape[2]}")


class MultiheadQueries(MultiheadProjectionStage):
    number = 14
    slug = "multihead_queries"
    title = "Multi-head queries"
    summary = "Xᵀ (16×8) copied ×9 along the head axis; batched matmul 9×17×8; swapaxes(1,2) → 9×8×17"
    code = ("multihead_queries = multihead_U_query.matmul(embedded_sentence.T)\n"
            "multihead_queries = multihead_queries.swapaxes(1, 2)")
