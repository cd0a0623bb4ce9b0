"""Stage 13: the multi-head projection tensors, the head axis in depth."""

from manim import DOWN, UP, LaggedStart, VGroup

from scenes.base import StageScene
from scenes.components.labels import note_text, shape_text
from scenes.components.motions import camera_turn
from scenes.components.fades import appear

__all__ = ["MultiheadProjections"]


class MultiheadProjections(StageScene):
    number = 13
    slug = "multihead_projections"
    title = "Multi-head projection tensors"
    summary = "three 3D blocks (9×17×16, 9×17×16, 9×18×16), heads in depth; the camera turns to count them"
    code = ("multihead_U_query = torch.rand(h, d_k, d)  # h = {heads}\n"
            "multihead_U_key = torch.rand(h, d_k, d); multihead_U_value = torch.rand(h, d_v, d)")
    paper_code = ("multihead_U_query = torch.rand(h, d // h, d)  # W_Q ({d}×{d}) cut into h = {heads} blocks\n"
                  "multihead_U_key = torch.rand(h, d // h, d); multihead_U_value = torch.rand(h, d // h, d)")
    view = (0.35, 0.25)

    def storyboard(self):
        keys = ("s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value")
        names = ("multihead_U_query", "multihead_U_key", "multihead_U_value")
        heads = self.cfg.heads
        blocks = [self.tensor_grid(k, cube_size=0.12, gap=0.03) for k in keys]
        for block, x in zip(blocks, (-4.0, -0.4, 3.2)):
            block.move_to([x, -0.3, -0.6])
        labels = [self.label(b, n.replace("multihead_", ""), self.trace[k].shape, DOWN, buff=0.3)
                  for b, n, k in zip(blocks, names, keys)]
        self.step("blocks")
        if self.paper(self.cfg):
            d = self.cfg.d
            self.say(f"the paper: one {d}×{d} matrix W_Q, cut into h = {heads} heads of {d}/{heads} = "
                     f"{self.cfg.head_k} rows each")
        else:
            self.say(f"one projection matrix per head, stacked along a new first axis: h = {heads}")
        self.play(*[appear(b) for b in blocks], *[appear(l) for l in labels], run_time=1.2)
        self.show_colorbar("U_query", self.trace[keys[0]])

        self.step("orbit")
        self.say(f"turn to the side: {heads} slices, one per head, in depth")
        counter = VGroup()
        for h in range(heads):
            text = note_text(str(h), self.theme, font_size=16, color=self.theme.accent)
            text.move_to(blocks[0].cell_center(0, 0, h) + 0.3 * UP)
            counter.add(text)
        self.upright(*counter)
        self.play(camera_turn(self, 1.05, 0.3), run_time=2.4)
        self.play(LaggedStart(*map(appear, counter), lag_ratio=0.2), run_time=1.2)
        q, k, v = (self.trace[key].shape[1:] for key in keys)
        self.say(f"each head has its own {shape_text(q)} query, {shape_text(k)} key "
                 f"and {shape_text(v)} value matrix")
        self.wait(1.0)
        self.play(camera_turn(self, *self.view), counter.animate.set_opacity(0.0), run_time=2.0)
        self.remove(counter)
