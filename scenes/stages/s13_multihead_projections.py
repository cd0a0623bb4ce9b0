"""Stage 13: the multi-head projection tensors, the head axis in depth."""

from manim import DOWN

from scenes.base import StageScene
from scenes.components.labels import shape_text
from scenes.layout import NOTE_ROOM, STACKED_LABEL_ROOM, Margins
from scenes.motions.heads import spread_heads
from scenes.components.fades import appear, vanish

__all__ = ["MultiheadProjections"]


class MultiheadProjections(StageScene):
    number = 13
    title = "Multi-head projection tensors"
    summary = "three 3D blocks (9×17×16, 9×17×16, 9×18×16), heads in depth; the query block's heads pulled apart"
    code = ("multihead_U_query = torch.rand(h, d_k, d)  # h = {heads}\n"
            "multihead_U_key = torch.rand(h, d_k, d); multihead_U_value = torch.rand(h, d_v, d)")
    paper_code = ("multihead_U_query = torch.rand(h, d // h, d)  # W_Q ({d}×{d}) cut into h = {heads} blocks\n"
                  "multihead_U_key = torch.rand(h, d // h, d); multihead_U_value = torch.rand(h, d // h, d)")
    view = (0.35, 0.25)

    def storyboard(self):
        keys = ("s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value")
        names = ("multihead_U_query", "multihead_U_key", "multihead_U_value")
        heads = self.cfg.heads
        blocks = [self.tensor_grid(k) for k in keys]
        # three long names: each over its shape, to leave the blocks room
        self.layout.row(*blocks, names=names, gap=0.8, margins=Margins(bottom=STACKED_LABEL_ROOM + NOTE_ROOM))
        # the bar describes the query block; the other two say their own ranges
        labels = [self.layout.label(b, n, self.trace[k].shape, DOWN, stacked=True, own_scale=n != names[0])
                  for b, n, k in zip(blocks, names, keys)]
        self.step("blocks")
        if self.paper(self.cfg):
            d = self.cfg.d
            self.say(f"the paper: one {d}×{d} matrix W_Q, cut into h = {heads} heads of {d}/{heads} = "
                     f"{self.cfg.head_k} rows each")
        else:
            self.say(f"one projection matrix per head, stacked along a new first axis: h = {heads}")
        self.play(*[appear(b) for b in blocks], *[appear(l) for l in labels], run_time=1.2)
        self.legend.show(names[0], self.trace[keys[0]])

        self.step("heads")
        q, k, v = (self.trace[key].shape[1:] for key in keys)
        self.say(f"{names[0]} pulled apart along its first axis: {heads} slices of {shape_text(q)}")
        self.play(*[vanish(b) for b in blocks[1:]], *map(vanish, labels), run_time=0.6)
        spread_heads(self, self.layout, self.viewpoint, blocks[0], name=names[0])
        self.say(f"each head has its own {shape_text(q)} query, {shape_text(k)} key "
                 f"and {shape_text(v)} value matrix")
        self.wait(1.0)
