"""Xᵀ broadcast along the head axis, the batched matmul per head, an optional transpose (stages 14-16)."""

from manim import DOWN, UP, Dot

from tensors import matmul_products
from scenes.base import StageScene
from scenes.components.projection import project
from scenes.layout import LABEL_ROOM, NOTE_ROOM, STACKED_LABEL_ROOM, Margins, ghost
from scenes.motions.broadcast import broadcast_copies
from scenes.motions.matmul import batched_matmul
from scenes.motions.turns import permute_last_two
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadProjectionStage"]


class MultiheadProjectionStage(StageScene):
    """Broadcast Xᵀ along the head axis, batched matmul, optional transpose."""

    weight_key = before_key = result_key = ""  # a stage names its tensors ...
    weight_name = result_name = transpose_code = ""  # ... and what the picture calls them
    view = (0.5, 0.3)

    def storyboard(self):
        u = self.trace[self.weight_key]
        x = self.trace["s02_embedded_sentence"]
        before = self.trace[self.before_key]
        heads = self.cfg.heads
        weight = self.tensor_grid(self.weight_key)
        xt = self.tensor_grid("s02_embedded_sentence", transposed=True)
        # room for what Xᵀ becomes: one copy per head, along the head axis
        stack_room = ghost(xt, (heads,) + x.T.shape)
        # long names: each over its shape
        self.layout.row(weight, stack_room, names=(self.weight_name, "Xᵀ broadcast"), gap=1.4,
                     margins=Margins(bottom=STACKED_LABEL_ROOM + NOTE_ROOM, top=LABEL_ROOM))
        xt.scale(stack_room.pitch / xt.pitch).align_cell((0, 0, 0), stack_room.cell_center(0, 0, 0))
        w_label = self.layout.label(weight, self.weight_name, u.shape, DOWN, stacked=True)
        x_label = self.layout.label(xt, "Xᵀ", x.T.shape, DOWN, stacked=True, own_scale=True)
        self.step("operands")
        self.say(f"{self.weight_name} has {heads} heads; Xᵀ is a single 2D matrix")
        self.play(appear(weight), appear(xt), appear(w_label), appear(x_label))
        self.legend.show(self.weight_name, u)

        self.step("broadcast")
        self.say("broadcasting: Xᵀ is copied along the head axis, once per head")
        counter_at = self.layout.beside([stack_room], Dot(), UP, buff=0.25).get_center()
        counter_at = project(self.camera, counter_at[None])[0]
        copied = broadcast_copies(self, self.layout, xt, heads, [*counter_at, 0.0])
        stack, counter = copied.block, copied.counter
        x_label = self.relabel(x_label, stack, "Xᵀ broadcast", (heads,) + x.T.shape, DOWN, stacked=True,
                               own_scale=True)

        self.step("batched matmul")
        self.play(vanish(w_label), vanish(x_label), vanish(counter), run_time=0.4)
        result = batched_matmul(self, self.layout, self.legend, self.viewpoint, weight, stack, before,
                                matmul_products(u[0], x.T), names=(self.weight_name, "Xᵀ", self.result_name),
                                say=self.say)
        self.legend.show(self.result_name, before)
        self.finish(result)

    def settle(self, result, room_for=None):
        """Back to the stage's view, the result block alone, fitted."""
        self.close_on(result, margins=Margins(bottom=LABEL_ROOM), view=self.view, room_for=room_for,
                      run_time=1.2)

    def finish(self, result):
        final = self.trace[self.result_key]
        self.settle(result, room_for=(final.shape[0], max(final.shape[1:]), max(final.shape[1:])))
        r_label = self.layout.label(result, self.result_name, result.grid_shape, DOWN)
        self.play(appear(r_label), run_time=0.4)
        self.step("transpose")
        self.say(f"{self.transpose_code}: every head's slice turns about its diagonal")
        self.play(vanish(r_label), run_time=0.3)
        turned = permute_last_two(self, result, final)
        self.play(appear(self.layout.label(turned, self.result_name, final.shape, DOWN)))
        self.say(f"{self.result_name}: {final.shape[0]} heads × {final.shape[1]} tokens × {final.shape[2]}")
