"""Head slices pulled apart: head 0 large with its words, the others small, each tagged "head h"."""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, UP, LaggedStart, Mobject, VGroup

from ..components.fades import appear
from ..components.labels import TEXT_SIZE, note_text
from ..components.projection import FRONT
from ..layout import LABEL_ROOM, TAG_ROOM, Margins, head_columns

__all__ = ["FocusHeads", "head_tags", "focus_heads"]


def head_tags(layout, slices, font_size: int = TEXT_SIZE, direction=UP, buff: float = 0.08,
              first: int = 0) -> VGroup:
    """"head h" over each slice (or on its ``direction`` side), counting from
    ``first``, pinned to the screen, not yet shown."""
    theme = layout.theme
    tags = VGroup(*[note_text(f"head {h}", theme, font_size=font_size, color=theme.muted)
                    for h in range(first, first + len(slices))])
    for tag, piece in zip(tags, slices):
        layout.beside([piece], tag, direction, buff=buff, view=FRONT)
    layout.fixed(*tags)
    return tags


@dataclass
class FocusHeads:
    """What :func:`focus_heads` leaves on screen: head 0 large (``focus``,
    labelled, its rows and columns named by ``words``), the other heads small
    (``others``, each tagged, labelled together by ``others_label``)."""

    focus: object
    others: list
    tags: VGroup
    words: list
    others_label: Mobject | None


FOCUS_SHARE = 0.55  # of the stage area's width, left: head 0 with its words
THUMB_GAP = (0.35, 0.42)  # between two small heads: across, and down (room for their tags)


def focus_heads(scene, layout, viewpoint, block, name: str, words, run_time: float = 2.0,
                area=None) -> FocusHeads:
    """Split a (h, T, T) block of attention maps: head 0 goes left, large,
    with the tokens' words on its rows and columns and the label
    ``name[0]``; heads 1..h-1 go right, small, in a grid, each tagged "head
    h" (maps that small get no words: head 0 is the one to read). Front view."""
    heads = block.grid_shape[0]
    slices = block.split(axis=0)
    scene.remove(block)
    scene.add(*slices)
    area = area or layout.area()
    share = FOCUS_SHARE if heads > 1 else 1.0
    left_part = area.part(0.0, share)
    focus, others = slices[0], slices[1:]
    target = focus.copy()
    room = layout.word_room(words)
    above = layout.word_room(words, columns=True)
    layout.name(focus, f"{name}[0]", DOWN, scale_of="all heads" if heads > 1 else None)
    target.label = focus.label
    layout.fit([target], view=FRONT, area=left_part,
               margins=Margins(left=room, top=above, bottom=focus.label.height + 0.3))
    targets = [target]
    others_label = None
    if others:
        right_part = area.part(share + 0.03, 1.0)
        thumbs = [s.copy() for s in others]
        columns = head_columns(len(thumbs), thumbs[0].grid_shape[2], thumbs[0].grid_shape[1],
                               right_part.inset(Margins(bottom=LABEL_ROOM + 0.3)))
        layout.grid_of_blocks(thumbs, columns, gap=THUMB_GAP, area=right_part,
                              margins=Margins(top=TAG_ROOM, bottom=LABEL_ROOM + 0.3))
        targets += thumbs
    scene.play(viewpoint.turn(*FRONT), LaggedStart(*[s.animate.become(t) for s, t in zip(slices, targets)],
                                                   lag_ratio=0.06), run_time=run_time)
    shown = [layout.place(focus)]
    on_focus = [layout.word_labels(focus, words), layout.column_words(focus, words)]
    focus.is_map = True
    for piece in others:  # too small for words: head 0 beside them is the one to read
        piece.is_map = piece.thumbnail = True
    tags = head_tags(layout, others, first=1) if others else VGroup()
    if others:
        others_label = note_text(f"{name}[1:]", layout.theme, font_size=TEXT_SIZE)
        layout.beside(others, others_label, DOWN, buff=0.2)
        layout.fixed(others_label)
        for piece in others:
            piece.label = others_label
        shown.append(others_label)
    scene.play(*map(appear, shown + on_focus), appear(tags), run_time=0.5)
    return FocusHeads(focus, others, tags, on_focus, others_label)
