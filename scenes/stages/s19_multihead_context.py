"""Stage 19: per-head context: weights · values (values permuted first)."""

from manim import DOWN

from scenes.base import StageScene
from scenes.components.labels import shape_text
from tensors import matmul_products
from scenes.layout import LABEL_ROOM, NOTE_ROOM, STACKED_LABEL_ROOM, Margins, ghost
from scenes.motions.matmul import batched_matmul
from scenes.motions.turns import permute_last_two
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadContext"]


class MultiheadContext(StageScene):
    number = 19
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
        heads = weights.shape[0]
        w = self.tensor_grid("s18_multihead_attention_weights")
        v = self.tensor_grid("s16_multihead_values")
        side = max(values.shape[1:])
        room = ghost(v, (heads, side, side))  # the values turn in place: room for both shapes
        w_name, v_name = "multihead_attention_weights", "multihead_values"
        self.layout.row(w, room, names=(w_name, f"{v_name} (permuted)"), gap=1.0,
                     margins=Margins(bottom=STACKED_LABEL_ROOM + NOTE_ROOM))
        v.scale(room.pitch / v.pitch).align_cell((0, 0, 0), room.cell_center(0, 0, 0))
        w_label = self.layout.label(w, w_name, weights.shape, DOWN, stacked=True, own_scale=True)
        v_label = self.layout.label(room, v_name, values.shape, DOWN, stacked=True)  # stays put as v turns
        self.step("operands")
        self.say(f"weights {shape_text(weights.shape)} and values {shape_text(values.shape)}: "
                 "the shapes do not fit yet")
        self.play(appear(w), appear(v), appear(w_label), appear(v_label))
        self.legend.show(v_name, values)

        self.step("permute")
        self.say(f"permute(0, 2, 1): each head's value slice turns, "
                 f"{shape_text(values.shape[1:])} → {shape_text(permuted.shape[1:])}")
        v = permute_last_two(self, v, permuted)  # its label stays under it while it turns
        v_label = self.relabel(v_label, room, f"{v_name} (permuted)", permuted.shape, DOWN, stacked=True)

        self.step("batched matmul")
        self.play(vanish(w_label), vanish(v_label), run_time=0.3)
        self.legend.show(w_name, weights)
        result = batched_matmul(self, self.layout, self.legend, self.viewpoint, w, v, context,
                                matmul_products(weights[0], permuted[0]), names=("weights", "values", "context"),
                                say=self.say)
        self.legend.show("multihead_context_vectors", context)
        self.close_on(result, margins=Margins(bottom=LABEL_ROOM), view=self.view, run_time=1.2)
        self.play(appear(self.layout.label(result, "multihead_context_vectors", context.shape, DOWN)))
        self.say(f"one {shape_text(context.shape[1:])} context matrix per head")
