"""Stage 19: per-head context: weights · values (the values turned first)."""

from manim import DOWN

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.fades import appear, at_once, vanish
from scenes.components.labels import shape_text
from scenes.components.projection import FRONT
from scenes.layout import LABEL_BUFF, ghost
from scenes.motions.heads import focus_heads, role_lines
from scenes.motions.matmul import batched_matmul
from scenes.motions.turns import transpose_beside, turn_sign

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
        # the permute seen on the values alone, face on, as a copy: the block before it left, column j of every
        # head's slice laid down as row j of the block after it (a turn in place read as a T-shaped glitch at
        # every still: 19_0062, the 36th reader); then the values take their place beside the weights again
        w_there, room_there = w.copy(), room.copy()
        w_there.label, room_there.label = w.label, v.label
        self.layout.row(w_there, room_there, gap=1.2, view=FRONT)
        w.label.row = v.label.row = None
        shape = shape_text(permuted.shape)
        v, beside = transpose_beside(
            self, self.layout, self.viewpoint, v, permuted,
            lambda grid: self.layout.name(grid, v_name, DOWN, note="after permute(0, 2, 1)"),
            v_name, self.cfg.sentence, turn_sign(self.theme, "permute(0, 2, 1)"), leaving=[w, w.label],
            before_note="before permute(0, 2, 1)",
            told_move=lambda: self.saying("permute(0, 2, 1): in each head's slice, column j becomes row j"),
            told=lambda: self.saying(f"column 0 (token 0, \"{self.cfg.sentence[0]}\") becomes row 0, in every "
                                     f"head's slice (head 0 in front)"),
            told_rest=lambda: self.saying(f"column j becomes row j, one after another: "
                                          f"{shape_text(values.shape)} → {shape}"),
            say_end=lambda: self.say(f"{v_name}: now {shape}, row j of every head is token j's value"))
        w.become(w_there)
        self.layout.place(w)
        there = v.copy().scale(room_there.pitch / v.pitch).align_cell((0, 0, 0), room_there.cell_center(0, 0, 0))
        label_there = v.label.copy()  # under the room both shapes take, as at the opening (under a narrow
        self.layout.beside([room_there], label_there, DOWN, buff=LABEL_BUFF, view=FRONT)  # block, a long name
        self.layout.inside(label_there, view=FRONT)  # reached under the weights' name)
        self.play(*[vanish(m, rate_func=at_once) for m in (*beside, v.row_words)], v.animate.become(there),
                  v.label.animate.move_to(label_there), run_time=0.8)
        self.play(appear(w), appear(w.label, rate_func=at_once), run_time=0.4)

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
