"""Stage 13: one projection matrix per head, the slices of one 3D tensor along a new first axis.

The query matrices of every head side by side, each tagged "head h", under
one label with the colors of all heads (one torch.rand call draws them
all). They fly into one 3D block along a new first axis, the last head's
first, head 0 in front, each tag riding over its card until it nears the
pile; the camera turns to see the depth, and the key's and value's blocks,
drawn alike, come beside it. Every slice is opaque; nothing is dimmed or
seen through. The cards come as empty slots and fill in the order torch.rand
draws their numbers, head 0's rows first; where head 0 repeats one of stage
6's matrices, that matrix stands beside the cards, the two framed. The
pile's ends keep their tags
("head 8" over the back card, "head 0" beside the front one) until the turn.
"""

from dataclasses import replace

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, LaggedStart, VGroup

from scenes.base import StageScene
from scenes.components.fades import InPlace, appear, at_end, at_once, swap, vanish
from scenes.components.guides import GUIDE_ROOM, axis_guides
from scenes.components.labels import TEXT_SIZE, BlockLabel, note_text, shape_text
from scenes.components.projection import FRONT
from scenes.layout import LABEL_BUFF, LABEL_ROOM, TAG_ROOM, Margins, head_columns
from scenes.motions.heads import TAG_GAP, THUMB_GAP, head_tags, tag_width
from scenes.motions.matmul import frame_around

__all__ = ["MultiheadProjections"]


CARDS_SHARE = 0.6  # of the stage area's width, left: every head's matrix; right: the block they stack into
TAG_BUFF = 0.08  # between a card and its "head h" tag
FLIGHT = 0.6  # of a card's move to the pile, the flight at its own size; then it grows into its slice
TWIN_GROWTH = 2.0  # stage 6's matrix beside head 0's card: its cubes at most this much larger than the card's
FAN = 1.0  # of a pitch, up and right, between a slice of the pile and the one in front of it (face on)


class MultiheadProjections(StageScene):
    code_steps = {"heads": (0,), "result": ()}  # the closing shot: the three blocks of the three statements
    number = 13
    title = "Multi-head projection tensors"
    summary = ("one query, key and value matrix per head, every head's query matrix side by side first, the "
               "slices of three 3D tensors along a new first axis, 9×17×16, 9×17×16, 9×18×16")
    code = ("multihead_U_query = torch.rand(h, d_k, d)  # h = {heads}\n"
            "multihead_U_key = torch.rand(h, d_k, d)\nmultihead_U_value = torch.rand(h, d_v, d)")
    paper_code = ("multihead_U_query = torch.rand(h, d // h, d)  # W_Q ({d}×{d}) in h = {heads} heads\n"
                  "multihead_U_key = torch.rand(h, d // h, d)\nmultihead_U_value = torch.rand(h, d // h, d)")
    view = (-0.55, 0.32)

    def same_as_stage_6(self, pair) -> str:
        """Said when a head-0 matrix holds the very numbers of one of stage
        6's (the notebook sets the same seed again before these and draws one
        U_query first, so head 0's query matrix is stage 6's U_key: a
        reader took multihead_queries[0] = K for a bug), else ""."""
        if pair is None:
            return ""
        name, single = pair
        # why, in the draws themselves (a bare "draws one U_query first" did not say which, or why it matters:
        # 13_0113, the 58th and 59th readers)
        # in words, not the notebook's names ("a one_U_query takes U_query's numbers again": one_U_query never
        # on screen, the sentence read as broken: 13_0113, the 60th and 61st readers)
        if name.endswith("query") and single == "key":
            # the mechanism in the code's own terms ("re-seeds torch.rand" named no call of the code, "a spare query
            # matrix" nothing on screen: 13_0112, the 72nd and 73rd readers)
            return (f"{name}[0] = stage 6's U_key: the blog sets the seed again and draws a U_query first, so "
                    f"head 0 gets U_key's numbers")
        return f"{name}[0] = stage 6's U_{single}, number for number: the blog sets the same seed again before these"

    def stage6_pair(self, tensors, names):
        """The first multi-head tensor whose head 0 holds one of stage 6's
        matrices, number for number, and which one: ``(name, "key")``; else
        None."""
        return next(((name, single) for name, values in zip(names, tensors)
                     if (single := self.stage6_twin(values[0]))), None)

    def twin_beside(self, card, single: str, area, under) -> list:
        """Stage 6's ``U_{single}``, the matrix head 0's ``card`` repeats number
        for number, drawn large in ``area`` (the part of the stage the pile
        takes later), named, the two framed: the equality seen, cube for
        cube, not only said (said over the cards alone, it rested on code not
        on screen: 13_0113, the 65th to 67th readers). Returns what to show."""
        twin = self.tensor_grid(f"s06_U_{single}")
        self.layout.name(twin, f"U_{single}", DOWN, stacked=False, note="from stage 6")
        area = replace(area, bottom=max(area.bottom, under.get_top()[1] + LABEL_BUFF))
        self.layout.fit([twin], area=area, view=FRONT, max_pitch=TWIN_GROWTH * card.pitch,
                        margins=Margins(top=TAG_ROOM, bottom=twin.label.height + 0.3))
        label = self.layout.place(twin, view=FRONT)
        frames = [frame_around(self.layout, grid, (0, slice(None), slice(None))) for grid in (card, twin)]
        return [twin, label, *frames]

    def axes_guide(self, block, heads):
        """Arrows along the block's three axes, each with what it counts: its
        depth from head 0's slice to the last head's ("head axis: h"), its
        rows (d_k) up its left edge, its columns (d) along its top back edge
        (the 3D blocks had no axis labels: 13_0198 for the 36th reader; the
        depth alone read as nothing one could count: 13_0313); pinned, not
        shown."""
        _, rows, cols = block.grid_shape
        # at the size text is read at (the guides' own size is for a panel's axes)
        arrows, words = axis_guides(block, ("top", "left"), self.theme, size=TEXT_SIZE, dims=(
            f"head axis: {heads}" if heads > 1 else None, f"d_k = {rows}", f"d = {cols}"))
        self.layout.upright(*words)
        return VGroup(arrows, words)

    @staticmethod
    def drawn(grid, window=(0.0, 1.0)) -> InPlace:
        """``grid``'s empty slots filled in the order torch.rand draws its
        numbers, row by row in memory order (a head's rows before the next
        head's), within ``window`` of the play (the call seen drawing, not
        only its result: 13_0028, the 52nd and 53rd readers)."""
        heads, rows, _ = grid.grid_shape
        start, end = window

        def draw(mob, alpha):
            done = int(np.floor(np.clip((alpha - start) / (end - start), 0.0, 1.0) * heads * rows + 1e-9))
            for line in range(done):
                mob.fill((line // rows, line % rows))

        return InPlace(grid, draw)

    @staticmethod
    def flying(card, there):
        """``card`` flown to ``there`` at its own size, then grown into it (grown
        on the way, it stood large over the cards still waiting and half under
        the pile: 13_0155, the 34th reader)."""
        start, begin, end = card.copy(), card.get_center(), there.get_center()
        growth = there.pitch / card.pitch

        def fly(mob, alpha):
            mob.points = start.points.copy()
            mob.scale(1.0 + (growth - 1.0) * max(0.0, (alpha - FLIGHT) / (1.0 - FLIGHT)))
            mob.move_to(begin + min(1.0, alpha / FLIGHT) * (end - begin))

        return InPlace(card, fly)

    def riding_tag(self, tag, card, there, kept: bool = False):
        """``tag`` over ``card`` at every frame as it flies to ``there``, gone
        at once a third of the way from the pile (its tag over the pile would
        stand on the next one's; faded out, a still caught a half-faded "head
        8" in flight: 13_0084, the 40th reader); ``kept``: there to the end
        (the last head's, over the back of the pile, which no card covers)."""
        start, end = card.get_center(), there.get_center()
        way = float(np.linalg.norm(end - start)) or 1.0

        def ride(mob, alpha):
            self.layout.beside([card], mob, UP, buff=TAG_BUFF, view=FRONT)
            left = float(np.linalg.norm(end - card.get_center())) / way
            mob.set_opacity(1.0 if kept or left > 0.33 else 0.0)

        return InPlace(tag, ride)

    def storyboard(self):
        keys = ("s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value")
        names = ("multihead_U_query", "multihead_U_key", "multihead_U_value")
        heads = self.cfg.heads
        tensors = [self.trace[k] for k in keys]
        # where the three blocks end, seen from the scene's view
        blocks = [self.block(k, n, direction=DOWN, stacked=True) for k, n in zip(keys, names)]
        self.layout.row(*blocks, gap=0.9, view=self.view)
        self.viewpoint.look_from(FRONT)

        self.step("heads")
        # every head's query matrix side by side, each tagged, from the first frame (head 0's query, key and
        # value matrices first, flat: three names wider than the frame stood above and below in a zigzag,
        # 13_0031 for three readers; the three blocks close the scene)
        # the call seen filling every head's matrix from the first frames, then what the heads are for, over
        # their numbers (the numbers simply there, the stage read as layout, no operation, the draw not shown, h
        # never said to mean anything: 13_0028, the 52nd and 53rd readers; said over empty slots first, the 10 %
        # still showed nothing drawn)
        if self.paper(self.cfg):
            d = self.cfg.d
            meaning = (f"the paper: W_Q ({d}×{d}) cut into h = {heads} heads of {d}/{heads} = {self.cfg.head_k} "
                       f"rows, one query matrix per head: every token gets {heads} different queries (stage 14)")
        else:
            meaning = (f"h = {heads} heads, each with its own query matrix: every token gets {heads} different "
                       f"queries, one per head (stage 14)" if heads > 1 else "one head: one query matrix")
        block = blocks[0]
        dims = (None,) + tuple(block.dims[1:])
        cards = [block.like(tensors[0][h], block.value_range, dims=dims) for h in range(heads)]
        # named with the colors they wear (the grid of nine had no color bar: 13_0093, the 32nd reader)
        named = BlockLabel(f"{names[0]}[n], n = 0 … {heads - 1}" if heads > 1 else f"{names[0]}[0]",
                           cards[0].source_shape, self.theme, block.value_range,
                           scale_of="all heads" if heads > 1 else None)
        # their tags above, their name below, clear of the caption (its bar touched it: 13_0093, 33rd reader)
        room = Margins(top=TAG_ROOM, bottom=max(LABEL_ROOM, named.height) + 0.4)
        least = tag_width(self.layout, heads - 1) + TAG_GAP  # the tags side by side never meet
        # the cards on the left, the block they stack into on the right: they fly across, never under it
        # (stacked over them in the middle, the block covered the cards still waiting: 13_0149)
        whole = self.layout.area()
        area, stack_area = (whole.part(0.0, CARDS_SHARE), whole.part(CARDS_SHARE + 0.04, 1.0)) if heads > 1 else (
            whole, whole)
        columns = head_columns(heads, cards[0].grid_shape[2], cards[0].grid_shape[1], area.inset(room), least=least)
        self.layout.grid_of_blocks(cards, columns, gap=THUMB_GAP, margins=room, least=least, area=area)
        left, bottom, right, top = self.layout.screen_box(cards, FRONT)  # centred in their part, with
        middle = area.center[1] + (room.bottom - TAG_ROOM) / 2  # their tags above and their name below
        for card in cards:
            card.shift([area.center[0] - (left + right) / 2, middle - (bottom + top) / 2, 0.0])
        tags = head_tags(self.layout, cards, direction=UP, buff=TAG_BUFF)
        self.layout.beside(cards, named, DOWN, buff=0.2)
        self.layout.inside(named)
        self.layout.fixed(named)
        for card in cards:
            card.label = named
            card.empty()
        shape = tensors[0].shape
        count = f"{' × '.join(map(str, shape))} = {int(np.prod(shape))}" if heads > 1 else (
            f"{' × '.join(map(str, shape[1:]))} = {int(np.prod(shape))}")
        self.say(f"torch.rand draws {count} numbers in [0, 1), in order: " + (
            f"head 0's rows first, then head 1's, …, head {heads - 1}'s" if heads > 1 else "row 0 first"))
        self.play(*map(appear, cards), appear(tags), appear(named), run_time=0.6)
        self.play(*[self.drawn(card, (h / heads, (h + 1) / heads)) for h, card in enumerate(cards)],
                  run_time=min(3.6, 0.8 + 0.3 * heads))
        self.wait(0.4)
        self.say(meaning)
        self.wait(1.6)
        twin = []
        pair = self.stage6_pair(tensors, names)
        if same := self.same_as_stage_6(pair):
            if heads > 1 and pair[0] == names[0]:  # head 0's card on screen: the matrix it repeats beside it
                twin = self.twin_beside(cards[0], pair[1], stack_area, named)
            self.play(*map(appear, twin), *self.saying(same), run_time=0.4)
            self.wait(1.9)  # a fact two readers checked by hand: time to read it (a still stretch: at most 2 s)

        self.step("stack")
        # the one tensor the call fills, its slices the heads' matrices ("stacked" read as a torch.stack the code
        # does not do: 13_0155, the 32nd reader)
        # the order they pile in said (a still of the pile half-made, under "head 0 in front", showed another
        # head in front: 13_0140, the 45th reader)
        self.say(f"they are the slices of one 3D tensor, {shape_text(tensors[0].shape)}: {names[0]}[n] is head n's "
                 + (f"matrix, piled from head {heads - 1} at the back to head 0 in front" if heads > 1 else "matrix"))
        # stacked in the middle of the stage area, large (at its place in the row of three it stood alone
        # at the left, half the frame empty, the slices hard to tell: 13_0212); it goes there as the key's
        # and value's blocks come
        home = block.copy()
        # room on its right for the depth arrow's words, its name (wider than the block) kept in the stage area
        guide = note_text(f"head axis: {heads}", self.theme, font_size=TEXT_SIZE).width + 0.4 if heads > 1 else 0.0
        across = note_text(f"d = {tensors[0].shape[2]}", self.theme,  # the other two axes' words
                           font_size=TEXT_SIZE).height + GUIDE_ROOM
        margins = Margins(bottom=block.label.height + LABEL_BUFF + 0.1, right=guide, left=across, top=across)
        # the depth shot: the name left of the block, beyond the d_k arrow, the block the area's whole height
        # (under it, three lines of name left the block about 6 px a cube: 13_0282, the 62nd and 63rd readers)
        beside = Margins(bottom=0.15, right=guide, left=across + LABEL_BUFF + block.label.width, top=across)
        # the cards pile up face on, in the right part, fanned: each slice a little up and right of the one in
        # front of it, the last head's first, at the back, head 0's last, in front, every card's edge in sight
        # (piled exactly, a card growing into its slice over the larger pile read as a jumble, the pile as one
        # card: 13_0140, the 50th and 51st readers; flown in as the camera turned, head 0 first, a still showed
        # seven slices of three sizes: 13_0149, 13_0146)
        row, block.label.row = block.label.row, None  # out of the row of three until it goes home: under its block
        # reaching left of it, where it is wider (from its left end, it ran off the frame's right edge: 13_0140,
        # the 52nd and 53rd readers)
        hang, block.label.hang = block.label.hang, -1
        fan = FAN * block.pitch * (heads - 1)
        # (the axes' words come after the turn: no room for them here)
        # the pile's two ends tagged, the last head's over the back card, head 0's left of the front one: which
        # slice is which head, checked by eye (once piled, no tag said it: 13_0140, the 52nd reader)
        front = note_text("head 0", self.theme, font_size=TEXT_SIZE, color=self.theme.muted) if heads > 1 else None
        pile = self.layout.settled(block, Margins(
            bottom=margins.bottom, top=fan + (TAG_ROOM if heads > 1 else 0.0), right=fan,
            left=front.width + 2 * TAG_BUFF if heads > 1 else 0.0), view=FRONT, area=stack_area)
        block.become(pile)
        fanned = [piece.shift(h * FAN * block.pitch * (UP + RIGHT)) for h, piece in enumerate(block.split(axis=0))]
        for card in cards:
            card.part_of = block
        # each card's tag rides over it, fading as it nears the pile (gone at once, no still could tell which
        # head went where: 13_0155, the 34th reader), the last head's kept over the back of the pile
        riding = [self.riding_tag(tag, card, there, kept=h == heads - 1 > 0)
                  for h, (tag, card, there) in enumerate(zip(tags, cards, fanned))]
        ends = []
        if front is not None:
            self.layout.beside([fanned[0]], front, LEFT, buff=TAG_BUFF, view=FRONT)
            self.layout.fixed(front)
            ends = [appear(front, rate_func=at_end)]
        self.play(LaggedStart(*[self.flying(c, t) for c, t in reversed(list(zip(cards, fanned)))], lag_ratio=0.6),
                  *riding, *swap(named, self.layout.place(block, view=FRONT)), *ends,
                  *[vanish(m, rate_func=at_once) for m in twin],  # the pile takes its place
                  run_time=min(6.0, 1.5 + 0.45 * heads))
        kept = [tags[-1], front] if front is not None else []
        self.remove(*[tag for tag in tags if tag not in kept])
        if kept:
            self.wait(0.8)  # the pile whole, its two ends tagged
        # then the camera turns to see the depth, the fanned cards closing into the block's slices as it grows
        # into the middle of the stage area (left at the right, it stood beside 60 % of an empty frame: 13_0219)
        target = self.layout.settled(block, beside, view=self.view)
        block.label.side, block.label.hang = LEFT, 0
        self.play(*[card.animate.become(piece) for card, piece in zip(cards, target.split(axis=0))],
                  *[vanish(tag, rate_func=at_once) for tag in kept],  # the axes' words say it from here
                  self.viewpoint.turn(*self.view),
                  self.layout.follow(block, target, self.view, buff=LABEL_BUFF + across), run_time=1.2)
        block.become(target)
        self.remove(*cards)
        self.add(block)
        axes = self.axes_guide(block, heads)
        self.play(appear(axes, rate_func=at_once), *self.saying(
            f"{names[0]}: {heads} heads deep, each slice {shape_text(tensors[0].shape[1:])}: rows d_k, "
            f"columns d" if heads > 1 else f"{names[0]}: one slice, rows d_k, columns d"), run_time=0.3)
        self.wait(1.8)
        block.label.hang, block.label.side = hang, DOWN
        # level with the row of three as it will stand (with the block large where it is now, the row's bottom
        # was its bottom: the name went under the caption)
        block.label.row = [home if b is block else b for b in row] if row else row
        going = self.layout.follow(block, home, view=self.view)
        block.label.row = row
        self.play(block.animate.become(home), going,
                  vanish(axes, rate_func=at_once), run_time=0.8)
        # said with the blocks it names (said as the query's block went home, it stood over that block alone:
        # 13_0204, the 35th reader)
        self.code_at(1, 2)
        # drawn as the query's were, head 0's rows first (they simply appeared: 13_0279, the 53rd reader)
        for other in blocks[1:]:
            other.empty()
        self.play(*map(appear, blocks[1:]), *[appear(self.layout.place(b)) for b in blocks[1:]], *self.saying(
            f"the same for keys and values: two more torch.rand calls, {heads} slices deep each"), run_time=0.4)
        self.play(*[self.drawn(other) for other in blocks[1:]], run_time=1.4)
        self.wait(0.4)
        q, k, v = (t.shape for t in tensors)
        # what the shapes under the blocks do not say (the shapes repeated there read as filler: 13_0306)
        self.say(f"the first axis is the head axis: slice h of each block is head h's matrix, head 0 in front, "
                 f"{heads} deep" if heads > 1 else "one head: one slice deep, the head axis of length 1")
        self.wait(0.9)  # the scene's closing hold follows: no still stretch over 2 s
