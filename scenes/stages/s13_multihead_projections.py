"""Stage 13: one projection matrix per head, stacked along a new first axis into a 3D block.

Head 0's query, key and value matrices first, flat and large (stage 6's
three matrices, once per head); then each next head's three matrices come
in behind the last, one head at a time, counted, as the camera turns to see
the head axis in depth: the three 3D blocks ``multihead_U_query`` …, head 0
in front. Every slice is opaque; nothing is dimmed or seen through.
"""

from manim import DOWN, Text

from scenes.base import StageScene
from scenes.components.fades import appear, at_once, swap, vanish
from scenes.components.labels import NAME_SIZE, TEXT_FONT, shape_text
from scenes.components.projection import FRONT
from scenes.layout import Margins

__all__ = ["MultiheadProjections"]

COUNTER_ROOM = 0.7  # above the blocks: the head counter


class MultiheadProjections(StageScene):
    number = 13
    title = "Multi-head projection tensors"
    summary = ("one query, key and value matrix per head (head 0's flat first), stacked along a new first axis "
               "into three 3D blocks 9×17×16, 9×17×16, 9×18×16, counted head by head")
    code = ("multihead_U_query = torch.rand(h, d_k, d)  # h = {heads}\n"
            "multihead_U_key = torch.rand(h, d_k, d)\nmultihead_U_value = torch.rand(h, d_v, d)")
    paper_code = ("multihead_U_query = torch.rand(h, d // h, d)  # W_Q ({d}×{d}) in h = {heads} heads\n"
                  "multihead_U_key = torch.rand(h, d // h, d)\nmultihead_U_value = torch.rand(h, d // h, d)")
    view = (-0.55, 0.32)

    def storyboard(self):
        keys = ("s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value")
        names = ("multihead_U_query", "multihead_U_key", "multihead_U_value")
        heads = self.cfg.heads
        tensors = [self.trace[k] for k in keys]
        # where the three blocks end, seen from the scene's view, room above for the counter
        blocks = [self.block(k, n, direction=DOWN, stacked=True) for k, n in zip(keys, names)]
        self.layout.row(*blocks, gap=0.9, margins=Margins(top=COUNTER_ROOM), view=self.view)
        # head 0's three matrices, flat and face on, as large as the stage area allows
        firsts = []
        for block, name, values in zip(blocks, names, tensors):
            first = block.like(values[0], block.value_range, dims=(None,) + tuple(block.dims[1:]))
            self.layout.name(first, f"{name}[0]", DOWN, stacked=True,
                             scale_of="all heads" if heads > 1 else None)
            firsts.append(first)
        self.viewpoint.look_from(FRONT)
        self.layout.row(*firsts, gap=1.2, view=FRONT, margins=Margins(left=0.2, right=0.2), flip=True)

        self.step("head 0")
        if self.paper(self.cfg):
            d = self.cfg.d
            self.say(f"the paper: W_Q ({d}×{d}) cut into h = {heads} heads of {d}/{heads} = {self.cfg.head_k} "
                     f"rows; head 0's query, key and value matrices")
        else:
            q, k, v = (t.shape[1:] for t in tensors)
            self.say(f"head 0's own query, key and value matrices ({shape_text(q)}, {shape_text(k)}, "
                     f"{shape_text(v)}), as stage 6's")
        self.play(*map(appear, firsts), *[appear(self.layout.place(f)) for f in firsts], run_time=1.0)
        self.wait(1.0)

        self.step("stack")
        self.say(f"one such matrix per head, stacked along a new first axis, head 0 in front: h = {heads}")
        # head 0's matrices go to the front faces of their blocks as the camera turns to see depth
        # (their labels leave at once: gliding down with the turn they would cross the caption)
        fronts = [block.split(axis=0)[0] for block in blocks]
        self.play(*[f.animate.become(t) for f, t in zip(firsts, fronts)], self.viewpoint.turn(*self.view),
                  *[vanish(f.label, rate_func=at_once) for f in firsts], run_time=1.4)
        # from now on each stack is named as the tensor it becomes, its slices parts of it
        for first, block in zip(firsts, blocks):
            first.part_of = block
        counter = self.counter(1, blocks)
        self.play(*[appear(self.layout.place(block), rate_func=at_once) for block in blocks],
                  appear(counter, rate_func=at_once), run_time=0.4)
        shown = [[f] for f in firsts]
        for h in range(1, heads):  # each next head's three matrices come in behind the last
            slices = [block.split(axis=0)[h] for block in blocks]
            for piece, deck, block in zip(slices, shown, blocks):
                piece.part_of = block
                deck.append(piece)
            new = self.counter(h + 1, blocks)
            self.play(*[appear(p) for p in slices], *swap(counter, new), run_time=max(0.3, 0.8 * 0.8 ** h))
            counter = new
        for deck, block in zip(shown, blocks):  # the stacks are the three tensors now: one block each
            self.remove(*deck)
            self.add(block)
        self.play(vanish(counter, rate_func=at_once), run_time=0.3)
        q, k, v = (t.shape for t in tensors)
        self.say(f"{names[0]} {shape_text(q)}, {names[1]} {shape_text(k)}, {names[2]} {shape_text(v)}: "
                 f"slice h is head h's matrix")
        self.wait(0.9)  # the scene's closing hold follows: no still stretch over 2 s

    def counter(self, count: int, blocks) -> Text:
        """"h heads" over the blocks, pinned to the screen; not shown."""
        text = Text(f"{count} head{'s' if count > 1 else ''}", font=TEXT_FONT, font_size=NAME_SIZE,
                    color=self.theme.accent)
        _, _, _, top = self.layout.screen_box(blocks, self.view)
        area = self.layout.area()
        text.move_to([area.center[0], min(area.top - text.height / 2, top + 0.15 + text.height / 2), 0.0])
        self.layout.fixed(text)
        return text
