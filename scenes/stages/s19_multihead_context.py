"""Stage 19: per-head context: weights · values (the values turned first)."""

from manim import DOWN

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.fades import appear
from scenes.components.labels import shape_text
from scenes.components.projection import FRONT
from scenes.layout import LABEL_BUFF, ghost
from scenes.motions.heads import focus_heads, role_lines
from scenes.motions.matmul import batched_matmul
from scenes.motions.turns import permute_last_two

__all__ = ["MultiheadContext"]


class MultiheadContext(StageScene):
    code_steps = {"permute": (0,), "matmul per head": (1,)}
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
        w_name, v_name = "multihead_attention_weights", "multihead_values"
        w = self.block("s18_multihead_attention_weights", w_name, direction=DOWN)
        v = self.block("s16_multihead_values", v_name, direction=DOWN)
        side = max(values.shape[1:])
        room = ghost(v, (heads, side, side))  # the values turn in place: room for both shapes
        room.label = v.label
        self.layout.row(w, room, gap=1.2)
        v.scale(room.pitch / v.pitch).align_cell((0, 0, 0), room.cell_center(0, 0, 0))
        self.step("operands")
        self.say(f"stage 12's α′ · V once per head: weights {shape_text(weights.shape)} and values "
                 f"{shape_text(values.shape)}, whose shapes do not fit yet")
        self.layout.beside([room], v.label, DOWN, buff=LABEL_BUFF, hang=v.label.hang)  # under the turn's room
        self.layout.upright(v.label)
        self.play(appear(w), appear(v), appear(self.layout.place(w)), appear(v.label))
        self.wait(0.6)

        self.step("permute")
        # seen face on, the turn of the front slice is a flat 18×8 → 8×18 flip, as stage 9's .T (seen at an
        # angle, the nine turning slices read as a sheared block: 19_0063, the 32nd and 33rd readers)
        # the row laid out again for the face-on view (kept as it was, the names ran into each other)
        w_there, room_there = w.copy(), room.copy()
        w_there.label, room_there.label = w.label, v.label
        self.layout.row(w_there, room_there, gap=1.2, view=FRONT)
        w.label.row = v.label.row = None
        v_there = v.copy().scale(room_there.pitch / v.pitch).align_cell((0, 0, 0), room_there.cell_center(0, 0, 0))
        label_there = v.label.copy()
        self.layout.beside([room_there], label_there, DOWN, buff=LABEL_BUFF, view=FRONT)
        self.layout.inside(label_there, view=FRONT)
        room.become(room_there)
        self.play(self.viewpoint.turn(*FRONT), w.animate.become(w_there), v.animate.become(v_there),
                  self.layout.follow(w, w_there, view=FRONT), v.label.animate.move_to(label_there), *self.saying(
                      f"permute(0, 2, 1): in each head's value slice, column j lies down as row j, "
                      f"{shape_text(values.shape[1:])} → {shape_text(permuted.shape[1:])} (seen face on: the front "
                      f"slice, head 0)"),
                  run_time=0.8)
        old = v.label
        # the new shape's label takes the old one's place half-way through the turn, where it was
        new = self.layout.renamed(old, v_name, permuted.shape, room)
        v = permute_last_two(self, v, permuted, run_time=2.6, axis_color=self.theme.accent, keep=old, renamed=new)
        self.layout.bind(v, new)
        self.say(f"{v_name}: now {shape_text(permuted.shape)}, row j of every head is token j's value")
        self.wait(0.8)

        self.step("matmul per head")
        result = batched_matmul(self, self.layout, self.viewpoint, w, v, context,
                                matmul_products(weights[0], permuted[0]),
                                names=(w_name, v_name, "multihead_context_vectors"), say=self.say,
                                view=self.view, cells=2).block  # stage 12's matmul again, per head
        self.step("heads")
        self.say(f"one {shape_text(context.shape[1:])} context matrix per head: "
                 f"row i mixes the values by token i's weights")
        focus_heads(self, self.layout, self.viewpoint, result, "multihead_context_vectors", self.cfg.sentence,
                    rows_are_tokens=True, columns_are_tokens=False, roles=role_lines(self.trace.roles()))
        self.wait(0.9)
