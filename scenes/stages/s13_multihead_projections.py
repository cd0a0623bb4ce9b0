"""Stage 13: the multi-head projection tensors, the head axis in depth, fanned out to count the heads.

Three 3D blocks, then each fanned out face on like a deck of cards (head 0
in front, each next head a little right and behind): the heads can be
counted, every slice is opaque and flat, all three at one scale. Then one
head's card rises whole out of each deck, head after head: head h uses
slice h of all three.
"""

import numpy as np
from manim import DOWN, UP, VGroup

from scenes.base import StageScene
from scenes.components.fades import appear, swap
from scenes.components.labels import note_text, shape_text
from scenes.components.projection import FRONT
from scenes.layout import TAG_ROOM, Margins, ghost

__all__ = ["MultiheadProjections"]

FAN = (2, 1)  # columns right and rows up from one card of a deck to the next (head h + 1 behind head h)


class MultiheadProjections(StageScene):
    number = 13
    title = "Multi-head projection tensors"
    summary = ("three 3D blocks (9×17×16, 9×17×16, 9×18×16), heads in depth, fanned out so the heads can be "
               "counted; one head's slices rise out of all three")
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
        self.say(f"fanned out along that axis, face on: {heads} slices, one per head, head 0 in front")
        decks, rises = self.fan_out(blocks, heads)
        q, k, v = (self.trace[key].shape[1:] for key in keys)
        self.say(f"each head has its own {shape_text(q)} query, {shape_text(k)} key "
                 f"and {shape_text(v)} value matrix")
        self.wait(1.2)

        self.step("head 0")
        self.say("head 0 uses slice 0 of all three: multihead_U_query[0], multihead_U_key[0], multihead_U_value[0]")
        marks = self.head_marks(decks, rises, 0)
        self.play(*[deck[0].animate.shift(rise[0]) for deck, rise in zip(decks, rises)], appear(marks), run_time=0.8)
        if heads == 1:  # the scene's closing hold follows: no still stretch over 2 s
            self.wait(0.8)
            return
        self.wait(1.2)
        self.say(f"heads 1 to {heads - 1}: each its own slice of all three")
        for h in range(1, heads):  # one head's cards up at a time, walking through the heads
            new = self.head_marks(decks, rises, h)
            self.play(*[deck[h - 1].animate.shift(-rise[h - 1]) for deck, rise in zip(decks, rises)],
                      *[deck[h].animate.shift(rise[h]) for deck, rise in zip(decks, rises)], *swap(marks, new),
                      run_time=0.5)
            marks = new
        self.say(f"head h computes with slice h of each: multihead_U_query[h], multihead_U_key[h], "
                 f"multihead_U_value[h]; stages 14 to 16 show how")
        self.wait(1.0)

    def fan_out(self, blocks, heads: int):
        """Each block split into its head slices, fanned out face on (head 0
        in front, head h right of and above head h - 1 (``FAN``), behind it),
        with room above for a card risen out of the deck; "head 0" and the
        last head's tag over the ends of each deck (shown). Returns the decks
        (lists of slices) and how far up a card of each rises, clear of the tags."""
        gap_rows = 2  # between the fan and a risen card: room for the end tags (rows, set by the pitch)
        for _ in range(2):
            rooms = []
            for block in blocks:  # a deck's room: the fan, the tags' band and a card's height above it
                _, rows, cols = block.grid_shape
                room = ghost(block.split(axis=0)[0], (1, 2 * rows + gap_rows + FAN[1] * (heads - 1),
                                                      cols + FAN[0] * (heads - 1)))
                room.label = block.label
                rooms.append(room)
            self.layout.row(*rooms, gap=0.9, view=FRONT, margins=Margins(top=TAG_ROOM), bind=False)
            gap_rows = int(np.ceil((TAG_ROOM + 0.05) / rooms[0].pitch))
        decks, moves = [], []
        for block, room in zip(blocks, rooms):
            pieces = block.split(axis=0)
            _, rows, cols = block.grid_shape
            first_row = rows + gap_rows + FAN[1] * (heads - 1)  # head 0's card, at the room's bottom
            for h, piece in enumerate(pieces):
                piece.part_of = block  # its label names them all
                there = piece.copy().scale(room.pitch / piece.pitch)
                there.align_cell((0, 0, 0), room.cell_center(first_row - h * FAN[1], h * FAN[0])
                                 + np.array([0, 0, -h * room.pitch]))
                moves.append(piece.animate.become(there))
            self.remove(block)
            self.add(*pieces)
            decks.append(pieces)
        follow = [self.layout.follow(b, r, FRONT) for b, r in zip(blocks, rooms)]
        self.play(*moves, self.viewpoint.turn(*FRONT), *follow, run_time=2.0)
        tags = VGroup()
        for deck in decks:  # over the deck (under where a card rises): head 0 at its front end, the last at its back
            _, _, _, top = self.layout.screen_box(deck)
            left = self.layout.screen_box([deck[0]])[0]
            right = self.layout.screen_box([deck[-1]])[2]
            ends = [(0, left, 1)] + ([(heads - 1, right, -1)] if heads > 1 else [])
            for h, x, way in ends:
                tag = note_text(f"head {h}", self.theme, color=self.theme.muted)
                tag.move_to([x + way * tag.width / 2, top + 0.08 + tag.height / 2, 0.0])
                tags.add(tag)
            if heads > 1 and tags[-1].get_left()[0] < tags[-2].get_right()[0] + 0.15:
                tags.remove(tags[-1])  # a deck too narrow for both ends' tags keeps head 0's
        self.layout.fixed(*tags)
        self.play(appear(tags), run_time=0.4)
        # card h rises to the room's top, clear of the fan and its tags
        return decks, [[UP * (deck[0].grid_shape[1] + gap_rows + FAN[1] * (heads - 1 - h)) * room.pitch
                        for h in range(heads)] for deck, room in zip(decks, rooms)]

    def head_marks(self, decks, rises, h: int) -> VGroup:
        """"head h" over card h of each deck, risen (pinned, not shown)."""
        marks = VGroup()
        for deck, rise in zip(decks, rises):
            card = deck[h].copy().shift(rise[h])
            left, _, right, top = self.layout.screen_box([card])
            mark = note_text(f"head {h}", self.theme)
            mark.move_to([(left + right) / 2, top + 0.08 + mark.height / 2, 0.0])
            marks.add(mark)
        self.layout.fixed(*marks)
        return marks
