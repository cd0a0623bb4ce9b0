"""Stage 19: per-head context: weights · values (values permuted first)."""

from manim import DOWN

from scenes.base import StageScene
from scenes.components.labels import shape_text
from scenes.components.motions import batched_results, permute_last_two
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadContext"]


class MultiheadContext(StageScene):
    number = 19
    follows_mask = True
    slug = "multihead_context"
    title = "Multi-head context vectors"
    summary = "values permuted 9×18×8 → 9×8×18 on screen, then one matmul per head: 9×8×18"
    code = ("multihead_values = multihead_values.permute(0, 2, 1)\n"
            "multihead_context_vectors = multihead_attention_weights.matmul(multihead_values)")
    view = (0.5, 0.3)

    def storyboard(self):
        weights = self.trace["s18_multihead_attention_weights"]
        values = self.trace["s16_multihead_values"]
        permuted = self.trace["s19_multihead_values_permuted"]
        context = self.trace["s19_multihead_context_vectors"]
        size = dict(cube_size=0.1, gap=0.025)
        w = self.tensor_grid("s18_multihead_attention_weights", **size).move_to([-4.6, 0.0, 0])
        v = self.tensor_grid("s16_multihead_values", **size).move_to([-1.4, 0.0, 0])
        v.align_cell((0, 0, 0), [v.cell_center(0, 0)[0], w.cell_center(0, 0, 0)[1], w.cell_center(0, 0, 0)[2]])
        w_label = self.label(w, "attention weights", weights.shape, DOWN, buff=0.35)
        v_label = self.label(v, "multihead_values", values.shape, DOWN, buff=0.35)
        self.step("operands")
        self.say(f"weights {shape_text(weights.shape)} and values {shape_text(values.shape)}: "
                 "the shapes do not fit yet")
        self.play(appear(w), appear(v), appear(w_label), appear(v_label))
        self.show_colorbar("values", values)

        self.step("permute")
        self.say(f"permute(0, 2, 1): each head's value slice turns, "
                 f"{shape_text(values.shape[1:])} → {shape_text(permuted.shape[1:])}")
        self.play(vanish(v_label), run_time=0.3)
        v = permute_last_two(self, v, permuted)
        v_label = self.label(v, "values permuted", permuted.shape, DOWN, buff=0.35)
        self.play(appear(v_label), run_time=0.4)

        self.step("batched matmul")
        self.say(f"per head: {shape_text(weights.shape[1:])} weights · {shape_text(permuted.shape[1:])} values "
                 f"= {shape_text(context.shape[1:])} context")
        result = self.tensor_grid("s19_multihead_context_vectors", **size).move_to([3.6, 0.0, 0])
        result.align_cell((0, 0, 0), [result.cell_center(0, 0)[0], w.cell_center(0, 0, 0)[1],
                                      w.cell_center(0, 0, 0)[2]])
        batched_results(self, [w, v], result)
        self.play(appear(self.label(result, "multihead_context_vectors", context.shape, DOWN, buff=0.35)))
        self.show_colorbar("context", context)
        self.say(f"one {shape_text(context.shape[1:])} context matrix per head")
