"""Text fitted to blocks: a tensor's label beside it, words beside its rows and columns.

A label is placed beside a block's outline on screen, never on it. Words
naming rows (tokens) are no taller than their rows; a word wider than the
room up to the stage area's edge is shortened with "…"; rows too thin for a
readable word get none (fewer labels, not smaller ones).
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, Mobject, VGroup

from ..components.cubegrid import CubeGrid
from ..components.labels import MIN_TEXT_PX, TEXT_SIZE, cap_height_px, note_text
from ..components.palette import Theme
from ..components.projection import project_at
from .area import StageArea
from .fit import screen_box

__all__ = ["word_room", "word_labels", "column_words", "column_word", "row_word", "word_stride", "row_text_scale",
           "fitted_word", "flat_word_room", "WORD_GAP", "GUIDES_RIGHT"]

WORD_GAP = 0.12  # between a block and the words naming its rows
ROW_FILL = 1.0  # a word label is at most as tall as its row: neighbours touch, never overlap
WORD_SLACK = 0.3  # beyond a word's width: the half cube and perspective between a block's edge and its row ends
COLUMN_SLACK = 0.08  # above a map (front view), words stand on the cubes' top edge
COLUMN_SHARE = 0.3  # of the stage area's height, at most, for words above a map's columns
MIN_WORD_CHARS = 3  # a shortened word keeps at least this many letters before "…"
ROOM_TOLERANCE = 1.03  # a word this little wider than its room stays whole (the fit's rounding: "senten…")
MAX_STRIDE = 3  # rows thinner than a third of a word get none
GUIDES_RIGHT = 5.2  # a block reaching this far right (the color bar) gets its row arrow on the left


def word_room(words, theme: Theme, area: StageArea, font_size: int = TEXT_SIZE, columns: bool = False) -> float:
    """The width to keep beside a block for its row words (or, ``columns``,
    the height to keep above it for its column words, which stand on the
    cubes' top edge): the longest word, at most a fifth of the stage area
    (longer words get "…")."""
    longest = sorted(words, key=len)[-3:]  # measured: character counts misjudge "translate"
    width = max((note_text(w, theme, font_size=font_size).width for w in longest), default=0.0)
    if columns:  # above a map, long words are cut sooner: the map's rows need the height more
        return min(width + WORD_GAP + COLUMN_SLACK, COLUMN_SHARE * area.height)
    return min(width + WORD_GAP + WORD_SLACK, area.width / 5)


def row_text_scale(camera, grid: CubeGrid, theme: Theme, font_size: int, view=None) -> float:
    """How much a word label must shrink to be no taller than a row on
    screen, seen from ``view`` (default: the camera's own)."""
    if grid.grid_shape[1] < 2:
        return 1.0
    ends = project_at(camera, np.array([grid.cell_center(0, 0), grid.cell_center(1, 0)]), view)
    row_height = float(np.linalg.norm(ends[1] - ends[0]))
    reference = note_text("Ay", theme, font_size=font_size).height
    return min(1.0, ROW_FILL * row_height / reference)


def fitted_word(word: str, theme: Theme, font_size: int, scale: float, room: float, color=None) -> Mobject:
    """``word`` as a label scaled by ``scale``, cut with "…" to fit ``room``."""
    def make(w):
        return note_text(w, theme, font_size=font_size, color=color or theme.muted).scale(scale)
    text = make(word)
    cut = len(word)
    while text.width > room * ROOM_TOLERANCE and cut > MIN_WORD_CHARS:
        cut = max(MIN_WORD_CHARS, min(cut - 1, int(cut * room / text.width)))
        text = make(word[:cut].rstrip() + "…")
    return text


def word_stride(scale: float, least: float = 1.0) -> int:
    """Every how many rows a word goes, where one a row would have to
    shrink by ``scale``: every row while the words may shrink that far
    (down to ``least``, the smallest a projector's type allows), else fewer
    words at full size, never smaller ones (0: none).

    >>> word_stride(1.0), word_stride(0.6), word_stride(0.2), word_stride(0.95, least=0.94)
    (1, 2, 0, 1)
    """
    if scale >= least - 1e-9:
        return 1
    stride = int(np.ceil(1.0 / max(scale, 1e-9)))
    return stride if stride <= MAX_STRIDE else 0


def _word_size(camera, grid: CubeGrid, theme: Theme, font_size: int) -> tuple[float, int]:
    """How much the words of ``grid``'s rows shrink (a little, to the
    smallest type a projector allows, where that puts one on every row) and
    every how many rows one goes (:func:`word_stride`)."""
    scale = row_text_scale(camera, grid, theme, font_size)
    least = min(1.0, (MIN_TEXT_PX + 0.05) / cap_height_px(font_size))
    stride = word_stride(scale, least)
    return (min(1.0, scale) if stride == 1 else 1.0), stride


def word_labels(camera, grid: CubeGrid, words, theme: Theme, area: StageArea, side=LEFT,
                font_size: int = TEXT_SIZE) -> VGroup:
    """The word of each row of ``grid`` (rows are tokens) beside it, at
    ``font_size``: where rows are thinner than a word, every second (or
    third) row's word (:func:`word_stride`), every second with a dot on
    each row between; a word wider than the room up to ``area``'s edge is
    shortened with an ellipsis."""
    labels = VGroup()
    room = _room_beside(camera, grid, area, side)
    shrink, stride = _word_size(camera, grid, theme, font_size)
    if not stride:
        return labels
    for row, word in enumerate(words):
        # every other word: a dot on each row between, the rows are all there (every other word alone read as
        # half the tokens: 18_0129, the 32nd and 33rd readers); sparser, a dot would touch the next word
        if row % stride and stride != DOTTED:
            continue
        text = _skipped(theme, font_size) if row % stride else fitted_word(word, theme, font_size, shrink, room)
        labels.add(_beside_row(grid, row, text, side))
    return labels


def _room_beside(camera, grid: CubeGrid, area: StageArea, side) -> float:
    """The room for a word beside ``grid``'s rows on ``side``, up to ``area``'s edge."""
    left, _, right, _ = screen_box(camera, [grid])
    room = area.right - right if np.dot(side, RIGHT) > 0 else left - area.left
    return room - WORD_GAP - grid.pitch / 2


def _beside_row(grid: CubeGrid, row: int, text: Mobject, side) -> Mobject:
    """``text`` (a row's word) placed beside row ``row`` of ``grid`` on ``side``; it learns its row."""
    x_axis, _, _ = grid.axis_vectors()
    right_side = np.dot(side, RIGHT) > 0
    text.row = row
    edge = grid.cell_center(row, grid.grid_shape[2] - 1 if right_side else 0)
    return text.move_to(edge + (grid.pitch / 2 + WORD_GAP + text.width / 2) * (x_axis if right_side else -x_axis))


DOTTED = 2  # the words' stride at which each row (column) left without its word gets a dot


def _skipped(theme: Theme, font_size: int) -> Mobject:
    """The mark of a row or column whose word is left out (no room): a dot."""
    dot = note_text("·", theme, font_size=font_size, color=theme.muted)
    dot.skipped = True
    return dot


def column_words(camera, grid: CubeGrid, words, theme: Theme, area: StageArea,
                 font_size: int = TEXT_SIZE) -> VGroup:
    """Words above the columns of ``grid`` (columns are tokens), turned to
    read upwards; as :func:`word_labels`: full size, fewer where columns are
    thin, shortened with an ellipsis to the room above."""
    labels = VGroup()
    _, row_axis, _ = grid.axis_vectors()
    _, _, _, top = screen_box(camera, [grid])
    room = area.top - top - WORD_GAP
    shrink, stride = _word_size(camera, grid, theme, font_size)
    if not stride:
        return labels
    for col, word in enumerate(words):
        if col % stride and stride != DOTTED:
            continue
        if col % stride:  # a dot where a word is left out, as beside the rows
            text = _skipped(theme, font_size)
            text.move_to(grid.cell_center(0, col) - row_axis * (grid.pitch / 2 + WORD_GAP + text.height / 2))
            labels.add(text)
            continue
        labels.add(_over_column(grid, col, fitted_word(word, theme, font_size, shrink, room)))
    return labels


def _over_column(grid: CubeGrid, column: int, text: Mobject) -> Mobject:
    """``text`` turned to read upwards, over column ``column`` of ``grid``."""
    _, row_axis, _ = grid.axis_vectors()
    text.rotate(np.pi / 2)
    text.turned = True  # its line runs up the screen (the text rules measure its width)
    return text.move_to(grid.cell_center(0, column) - row_axis * (grid.pitch / 2 + WORD_GAP + text.height / 2))


def row_word(camera, grid: CubeGrid, row: int, word: str, theme: Theme, area: StageArea, side=RIGHT,
             font_size: int = TEXT_SIZE) -> Mobject:
    """One word beside row ``row`` of ``grid`` on ``side``, full size however
    thin the row (shown alone: it overhangs the rows beside it), shortened
    with an ellipsis to the room up to ``area``'s edge."""
    return _beside_row(grid, row, fitted_word(word, theme, font_size, 1.0, _room_beside(camera, grid, area, side)),
                       side)


def column_word(camera, grid: CubeGrid, column: int, word: str, theme: Theme, area: StageArea,
                font_size: int = TEXT_SIZE, flat: bool = False) -> Mobject:
    """One word over column ``column`` of ``grid``, turned to read upwards,
    full size however thin the column (shown alone: it overhangs the
    columns beside it), shortened with an ellipsis to the room above.
    ``flat``: the word reads across, centred over its column, at most a
    third of ``area``'s width and no wider than from its left edge to the
    block's right end (the caller keeps it there): a single line's height
    above the block, not the longest word's (:func:`flat_word_room`)."""
    _, _, right, top = screen_box(camera, [grid])
    if not flat:
        return _over_column(grid, column, fitted_word(word, theme, font_size, 1.0, area.top - top - WORD_GAP))
    _, row_axis, _ = grid.axis_vectors()
    text = fitted_word(word, theme, font_size, 1.0, min(area.width / 3, right - area.left))
    return text.move_to(grid.cell_center(0, column) - row_axis * (grid.pitch / 2 + WORD_GAP + text.height / 2))


def flat_word_room(theme: Theme, font_size: int = TEXT_SIZE) -> float:
    """The height to keep above a block for one word read across over a
    column (:func:`column_word` with ``flat``)."""
    return note_text("Ay", theme, font_size=font_size).height + WORD_GAP + COLUMN_SLACK
