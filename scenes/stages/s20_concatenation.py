"""Stage 20: the heads slide side by side into one 8×162 matrix."""

import numpy as np
from manim import DOWN, RIGHT, LaggedStart, Line, Rectangle, VGroup

from scenes.base import StageScene
from scenes.components.projection import FRONT
from scenes.layout import TAG_ROOM, Margins, StageArea, Together
from scenes.motions.heads import head_tags, tag_width
from scenes.components.fades import appear, swap, vanish

__all__ = ["Concatenation"]

HEAD_GAP_CELLS = 1  # between heads while they line up, in cube pitches (more where their tags need it)
READABLE_PITCH = 0.2  # cubes closer than this (12 px at 480p) get a closer look
TAG_GAP = 0.1  # at least between two head tags
LOOK_CELLS = 24  # the closer look shows whole heads, at least this many columns
PARK_SHARE = 0.3  # of the stage area's height, above the row of heads: the block waits there


class Concatenation(StageScene):
    number = 20
    title = "Concatenate the heads"
    summary = "swapaxes(0,1) to 8×9×18, reshape: the 9 head slices side by side in one 8×162 matrix"
    code = ("multihead_context_vectors = multihead_context_vectors.swapaxes(0, 1)\n"
            "multihead_flattened = multihead_context_vectors.reshape({tokens}, h*d_v)")
    view = (0.45, 0.3)

    def storyboard(self):
        context = self.trace["s19_multihead_context_vectors"]
        flattened = self.trace["s20_multihead_flattened"]
        heads, tokens, d_v = context.shape
        block = self.block("s19_multihead_context_vectors", "multihead_context_vectors", direction=DOWN)
        self.layout.fit([block], margins=Margins(bottom=block.label.height + 0.3))
        self.step("heads")
        self.say(f"{heads} heads, each an {tokens}×{d_v} context matrix (from stage 19)")
        self.play(appear(block), appear(self.layout.place(block)))
        self.wait(0.6)

        self.step("tokens first")
        self.say(f"swapaxes(0, 1): tokens first: for every token, its {heads} heads' rows side by side")
        # where the row of heads goes: fitted, front view, room for the tags above and the label below
        swapped_name = "multihead_context_vectors\n.swapaxes(0, 1)"
        room_label = self.layout.sized_label(swapped_name, (tokens, heads, d_v), DOWN, value_range=block.value_range)
        park = PARK_SHARE * self.layout.area().height  # room above the row for the block, parked
        tag = tag_width(self.layout, heads - 1) + TAG_GAP
        for gap in range(HEAD_GAP_CELLS, 4 * d_v + 2):  # wider gaps till the head tags clear each other
            row = block.like(np.zeros((1, tokens, heads * d_v + (heads - 1) * gap)))
            self.layout.fit([row], view=FRONT, margins=Margins(top=park, bottom=room_label.height + 0.3))
            if (d_v + gap) * row.pitch >= tag:
                break
        slices = block.split(axis=0)
        self.remove(block)
        self.add(*slices)
        targets = []
        for h, piece in enumerate(slices):
            target = piece.copy().scale(row.pitch / piece.pitch)
            target.align_cell((0, 0, 0), row.cell_center(0, h * (d_v + gap)))
            targets.append(target)
        # seen from the front, the block waits above the row the heads will form: they then move flat, down,
        # over no text; the row's name stands under it from the start
        _, _, _, row_top = self.layout.screen_box([row], FRONT)
        area = self.layout.area()
        above = StageArea(area.left, area.right, row_top + TAG_ROOM + 0.1, area.top)
        parked = block.copy()
        parked.label = block.label
        for _ in range(2):  # its label, beside it, may be taller than it: room above and below for that
            _, low, _, high = self.layout.screen_box([parked], FRONT)
            over = max(0.0, (block.label.height - (high - low)) / 2 + 0.05)
            self.layout.fit([parked], view=FRONT, area=above,
                            margins=Margins(right=block.label.width + 0.3, top=over, bottom=over))
        block.label.side = RIGHT
        self.play(self.viewpoint.turn(*FRONT), *[s.animate.become(t) for s, t in zip(slices, parked.split(axis=0))],
                  self.layout.follow(block, parked, FRONT), run_time=1.0)
        swapped = room_label.copy()
        swapped.side = DOWN
        self.layout.beside(targets, swapped, DOWN, buff=0.2, view=FRONT)
        self.layout.upright(swapped)
        together = Together(swapped)  # one label for the row of slices, where they are going
        for piece in slices:
            piece.part_of = together
        self.play(*swap(block.label, swapped), run_time=0.3)
        self.play(LaggedStart(*[s.animate.become(t) for s, t in zip(slices, targets)], lag_ratio=0.12),
                  run_time=2.4)
        tags = head_tags(self.layout, slices)
        self.play(appear(tags), run_time=0.5)
        self.wait(0.8)

        self.step("one matrix")
        self.say(f"reshape({tokens}, {heads * d_v}): closed up, one row per token, "
                 f"head 0's {d_v} numbers, then head 1's, …")
        joined = block.like(flattened, block.value_range, dims=(None,) + self.trace.axes("s20_multihead_flattened"))
        self.layout.name(joined, "multihead_flattened", DOWN)
        # closed up, the matrix fills the stage area (the room kept above for the parked block is free now)
        self.layout.fit([joined], view=FRONT, margins=Margins(top=TAG_ROOM, bottom=joined.label.height + 0.3),
                        max_pitch=max(row.pitch, joined.pitch))
        run = d_v * joined.pitch  # a head's columns, closed up
        crowded = max(t.width for t in tags) > run - TAG_GAP  # the tags would run into each other
        closed = [s.copy().scale(joined.pitch / s.pitch).align_cell((0, 0, 0), joined.cell_center(0, h * d_v))
                  for h, s in enumerate(slices)]
        self.play(*[s.animate.become(c) for s, c in zip(slices, closed)],
                  *([vanish(tags)] if crowded else
                    [t.animate.move_to([(joined.cell_center(0, h * d_v)[0] + joined.cell_center(0, h * d_v + d_v - 1)[0]) / 2,
                                        t.get_y() + joined.get_top()[1] - row.get_top()[1], 0.0])
                     for h, t in enumerate(tags)]), run_time=1.2)
        self.remove(*slices)
        self.add(joined)
        final = self.layout.place(joined)
        seams = self.seams(joined, heads, d_v, reach=joined.pitch / 2)  # where the heads meet stays visible
        self.play(*swap(swapped, final), appear(seams), run_time=0.6)
        self.closer_look(joined, final, heads, d_v)

    def closer_look(self, joined, label, heads: int, d_v: int) -> None:
        """Row 0 of the flattened matrix, its first heads drawn large below it:
        where head 0's numbers end and head 1's begin, readable at any size."""
        if heads < 2 or joined.pitch >= READABLE_PITCH:
            return
        shown = min(heads, max(2, -(-LOOK_CELLS // d_v)))
        word = self.cfg.sentence[0]
        self.step("closer look")
        self.say(f"row 0 (\"{word}\") up close: head 0's {d_v} numbers, then head 1's" + (", …" if shown > 2 else ""))
        part = joined.subgrid((0, 0, slice(0, shown * d_v)))
        left, bottom, right, top = self.layout.screen_box([part])
        pad = joined.pitch * 0.6
        frame = Rectangle(width=right - left + 2 * pad, height=top - bottom + 2 * pad, stroke_width=2,
                          color=self.theme.accent).move_to([(left + right) / 2, (bottom + top) / 2, 0.0])
        self.layout.fixed(frame)
        area = self.layout.area()
        below = StageArea(area.left, area.right, area.bottom, label.get_bottom()[1] - 0.3)
        zoom = part.copy()
        room = self.layout.word_room([word])
        self.layout.fit([zoom], area=below, view=FRONT, margins=Margins(left=room, right=room, bottom=TAG_ROOM + 0.1))
        moving = part.copy()
        moving.part_of = joined  # a closer look at the framed part of the matrix
        self.add(moving)
        self.play(appear(frame), run_time=0.6)
        self.play(moving.animate.become(zoom), run_time=1.2)
        seams = self.seams(zoom, shown, d_v, reach=0.15, stroke_width=3)
        pieces = [zoom.subgrid((0, 0, slice(h * d_v, (h + 1) * d_v))) for h in range(shown)]
        tags = VGroup(*[t for t in head_tags(self.layout, pieces, direction=DOWN, buff=0.12) if t.width < d_v * zoom.pitch])
        words = self.layout.word_labels(moving, [word])
        self.play(appear(seams), appear(tags), appear(words), run_time=0.6)
        self.wait(1.0)

    def seams(self, grid, heads: int, d_v: int, reach: float, stroke_width: float = 2) -> VGroup:
        """Lines where one head's columns end and the next head's begin in
        ``grid`` (front view), ``reach`` beyond its top and bottom. Not shown."""
        lines = VGroup()
        for h in range(1, heads):
            x = (grid.cell_center(0, h * d_v - 1)[0] + grid.cell_center(0, h * d_v)[0]) / 2
            lines.add(Line([x, grid.get_top()[1] + reach, 0.0], [x, grid.get_bottom()[1] - reach, 0.0],
                           stroke_width=stroke_width, color=self.theme.accent))
        return lines
