"""Head slices pulled apart into a grid, each tagged "head h"."""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, UP, Group, LaggedStart, Mobject, VGroup

from ..components.fades import appear
from ..components.labels import note_text
from ..components.projection import FRONT
from ..layout import LABEL_ROOM, TAG_ROOM, Margins, head_columns

__all__ = ["SpreadHeads", "head_tags", "spread_heads"]


def head_tags(layout, slices, font_size: int = 16, direction=UP, buff: float = 0.08) -> VGroup:
    """"head h" over each slice (or on its ``direction`` side), pinned to the
    screen, not yet shown."""
    theme = layout.theme
    tags = VGroup(*[note_text(f"head {h}", theme, font_size=font_size, color=theme.muted)
                    for h in range(len(slices))])
    for tag, piece in zip(tags, slices):
        layout.beside([piece], tag, direction, buff=buff, view=FRONT)
    layout.fixed(*tags)
    return tags


@dataclass
class SpreadHeads:
    """What :func:`spread_heads` leaves on screen: the head slices, their
    "head h" tags, the words beside the leftmost slices' rows and the
    tensor's label under the grid (None where not drawn)."""

    slices: list
    tags: VGroup
    words: list
    label: Mobject | None


def spread_heads(scene, layout, viewpoint, block, columns: int | None = None, run_time: float = 2.2,
                 name: str | None = None, area=None, words=None) -> SpreadHeads:
    """Split a (h, r, c) block into its head slices laid out in a grid, front
    view, as large as ``area`` (the stage area) allows; "head h" over each,
    with ``name`` the tensor's label under the grid, and with ``words`` (rows
    are tokens) the words beside the leftmost slices' rows, room kept for them
    only where they would be readable.

    All shown at the end.
    """
    heads = block.grid_shape[0]
    slices = block.split(axis=0)
    scene.remove(block)
    scene.add(*slices)
    area = area or layout.area()

    def laid_out(left):
        targets = [s.copy() for s in slices]
        count = columns or head_columns(heads, slices[0].grid_shape[2], slices[0].grid_shape[1],
                                        area.inset(Margins(left=left)))
        layout.grid_of_blocks(targets, count, area=area,
                              margins=Margins(left=left, top=TAG_ROOM, bottom=LABEL_ROOM if name else 0.0))
        return targets

    room = layout.word_room(words) if words else 0.0
    targets = laid_out(room)
    if room and not layout.rows_readable(targets[0]):  # too thin for words: the heads take the room
        room, targets = 0.0, laid_out(0.0)
    scene.play(viewpoint.turn(*FRONT),
               LaggedStart(*[s.animate.become(t) for s, t in zip(slices, targets)], lag_ratio=0.08),
               run_time=run_time)
    tags = head_tags(layout, slices)
    row_words = []
    if room:
        leftmost = min(s.get_left()[0] for s in slices)
        row_words = [layout.word_labels(s, words) for s in slices if s.get_left()[0] < leftmost + s.pitch]
    label = layout.label(Group(*slices), name, block.grid_shape, DOWN) if name else None
    scene.play(appear(VGroup(tags, *row_words, *([label] if label else []))), run_time=0.5)
    return SpreadHeads(slices, tags, row_words, label)
