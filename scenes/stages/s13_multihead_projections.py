"""Stage 13: the multi-head projection tensors, the head axis in depth, pulled apart to count the heads;
one head's slices rise out of all three decks together, head after head (opaque: nothing seen through)."""

from manim import DOWN, UP, VGroup

from scenes.base import StageScene
from scenes.components.fades import appear
from scenes.components.labels import note_text, shape_text
from scenes.layout import Margins

__all__ = ["MultiheadProjections"]

APART = 4.0  # pitches between two head slices once pulled apart
APART_VIEW = (-1.0, 0.35)  # from the right side: the gaps between the slices show, head 0 leftmost
LIFT = 0.3  # of a deck's height: how far one head's slices rise out of their decks


class MultiheadProjections(StageScene):
    number = 13
    title = "Multi-head projection tensors"
    summary = "three 3D blocks (9×17×16, 9×17×16, 9×18×16), heads in depth, pulled apart so the heads can be counted"
    code = ("multihead_U_query = torch.rand(h, d_k, d)  # h = {heads}\n"
            "multihead_U_key = torch.rand(h, d_k, d)\nmultihead_U_value = torch.rand(h, d_v, d)")
    paper_code = ("multihead_U_query = torch.rand(h, d // h, d)  # W_Q ({d}×{d}) in h = {heads} heads\n"
                  "multihead_U_key = torch.rand(h, d // h, d)\nmultihead_U_value = torch.rand(h, d // h, d)")
    view = (-0.55, 0.32)

    def storyboard(self):
        keys = ("s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value")
        names = ("multihead_U_query", "multihead_U_key", "multihead_U_value")
        heads = self.cfg.heads
        blocks = [self.block(k, n, direction=DOWN, stacked=True) for k, n in zip(keys, names)]
        self.layout.row(*blocks, gap=0.9, margins=Margins(top=0.5))
        # room for the blocks pulled apart, seen from the side: each as deep as its heads with gaps between
        rooms = [b.copy() for b in blocks]
        for room, block in zip(rooms, blocks):
            room.label = block.label
            room.stretch(1 + (heads - 1) * (APART - 1) / max(heads, 1), 2)
        # a plan (the labels stand level with the blocks until they move), with room above the decks for
        # one head's slices risen out of them and the tags over those
        rise = LIFT * max(r.height for r in rooms)
        self.layout.row(*rooms, gap=0.9, margins=Margins(top=0.5 + rise, left=0.4, right=0.4), view=APART_VIEW,
                        bind=False)
        self.step("blocks")
        if self.paper(self.cfg):
            d = self.cfg.d
            self.say(f"the paper: one {d}×{d} matrix W_Q cut into h = {heads} heads of {d}/{heads} = "
                     f"{self.cfg.head_k} rows each")
        else:
            self.say(f"one projection matrix per head, stacked along a new first axis: h = {heads}")
        self.play(*[appear(b) for b in blocks], *[appear(self.layout.place(b)) for b in blocks], run_time=1.0)
        self.wait(0.8)

        self.step("heads")
        self.say(f"pulled apart along that axis: {heads} slices, one per head")
        slices = [b.split(axis=0) for b in blocks]
        for block, pieces in zip(blocks, slices):
            self.remove(block)
            self.add(*pieces)
            for piece in pieces:
                piece.part_of = block  # its label names them all
        moves = []
        for block, room, pieces in zip(blocks, rooms, slices):
            target = block.copy().scale(room.pitch / block.pitch).move_to(room)
            _, _, back = target.axis_vectors()
            for h, (piece, there) in enumerate(zip(pieces, target.split(axis=0))):
                there.shift(back * target.pitch * (APART - 1) * (h - (heads - 1) / 2))
                moves.append(piece.animate.become(there))
        for block in blocks:
            block.label.row = rooms  # level with the pulled-apart row from now on
        follow = [self.layout.follow(b, r, APART_VIEW) for b, r in zip(blocks, rooms)]
        self.play(*moves, self.viewpoint.turn(*APART_VIEW), *follow, run_time=2.0)
        lift = UP * LIFT * max(r.height for r in rooms)  # a head's slices rise this far out of their decks
        tags = VGroup()
        for deck in slices:  # "head 0" over the deck's front end, "head h-1" over its back end, clear of a rise
            left, _, right, top = self.layout.screen_box(deck)
            ends = [(0, left, 1)] + ([(heads - 1, right, -1)] if heads > 1 else [])
            for h, x, way in ends:
                tag = note_text(f"head {h}", self.theme, color=self.theme.muted)
                tag.move_to([x + way * tag.width / 2, top + lift[1] + 0.12 + tag.height / 2, 0.0])
                tags.add(tag)
            if heads > 1 and tags[-1].get_left()[0] < tags[-2].get_right()[0] + 0.15:
                tags.remove(tags[-1])  # a deck too narrow for both ends' tags keeps head 0's
        self.layout.fixed(*tags)
        self.play(appear(tags), run_time=0.4)
        q, k, v = (self.trace[key].shape[1:] for key in keys)
        self.say(f"each head has its own {shape_text(q)} query, {shape_text(k)} key "
                 f"and {shape_text(v)} value matrix")
        self.wait(1.2)

        self.step("head 0")
        # one head's slices rise together out of the three decks, opaque: nothing seen through anything
        self.say("head 0 uses slice 0 of all three: multihead_U_query[0], multihead_U_key[0], multihead_U_value[0]")
        self.play(*[pieces[0].animate.shift(lift) for pieces in slices], run_time=0.8)
        if heads == 1:  # the scene's closing hold follows: no still stretch over 2 s
            self.wait(0.8)
            return
        self.wait(1.2)
        self.say(f"heads 1 to {heads - 1}: each its own slice of all three")
        for h in range(1, heads):  # one head's slices up at a time, walking through the heads
            self.play(*[pieces[h - 1].animate.shift(-lift) for pieces in slices],
                      *[pieces[h].animate.shift(lift) for pieces in slices], run_time=0.5)
        self.say(f"head h computes with slice h of each: multihead_U_query[h], multihead_U_key[h], "
                 f"multihead_U_value[h]; stages 14 to 16 show how")
        self.wait(1.0)
