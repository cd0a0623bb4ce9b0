"""The matmul as a viewer can follow it: ``A · B = C`` laid out flat, filled in cell by cell.

The operands and the result stand in a row, ``A · B = C``, nearly face on:
row i of A is level with row i of C, and C starts as empty slots. Frames
mark what is in play at every moment: the row of A, the column (or the
whole) of B, and the cell (or row) of C being formed. Between A and B is a
bench, the "·" in its middle: for the first cell, row 0 of A lifts out and
stands up left of the "·" (named as A's row, ``X[0]``), and a copy of
column 0 of B comes out of B to stand right of it (B stays whole, its
column framed): the pair side by side, both in sight, far from both
blocks. The column slides onto the row and the pair becomes its k
products, on their own color scale (smallest purple, largest red, as
every tensor), named as PyTorch writes them (``X[0] * Xᵀ[:, 0]``); they
are added one by one (the sum, seen: :func:`running_sum`), a pile, one
framed cube in the ink's color (a sum in progress, on no bar), going down
the strip taking them in, "Σ = …" over it the sum of the products it holds; that cube, the sum, on C's colors
as their name goes, flies into C[0, 0]. The next columns come out of B one
at a time, faster, to meet the row on the bench, summed the same way, each
sum flying to its cell as the next pair comes; B keeps its whole label,
scale included, while they do. Every later row's products come onto all of B at once, column by
column (``X[1] * columns of Xᵀ``: the row broadcast over every column, on
their own scale: one picture for every row after the first), named in B's
stead while they cover it, the signs between the blocks "→" and "Σ→"; each
column of them is added up the same way, a framed row of sums so far going
down them (B's rows coming back dimmed behind it), which goes into C's row:
one row after another, faster; the
rows after those a repeated matmul works show their products over B as C's
row fills, with no running sum. Nothing is left half-way between blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np
from manim import (DOWN, LEFT, ORIGIN, OUT, PI, RIGHT, UP, Dot, Group, Mobject, Rectangle, Text, Triangle, VGroup,
                   color_to_rgb, config, linear, smooth)

from tensors import matmul_products

from ..components.cubegrid import CubeGrid
from ..components.fades import (InPlace, all_at_once, appear, at_end, at_once, done_at, halfway, opacity_setter, swap,
                               vanish)
from ..components.labels import NAME_SIZE, TEXT_FONT, TEXT_SIZE, note_text, shape_text
from ..components.projection import FRONT, project, project_at, view_rotation, world_at_screen
from ..components.numbers import at_step_of, cell_arithmetic, cell_name, operand, quoted_terms, shown_value
from ..layout import LABEL_BUFF, Layout, Margins
from ..layout.fit import LABEL_GAP, STRICT_SHARE

__all__ = ["Matmul", "MatmulMotion", "BatchedMatmul", "arrange_matmul", "matmul", "batched_matmul", "fill_rows",
           "head_slice", "running_sum", "sums_so_far",
           "own_range", "MATMUL_VIEW", "SLOT_OPACITY", "products_name", "frame_around"]

MATMUL_VIEW = (0.14, 0.1)  # nearly face on: rows and columns read straight, the cubes still show their sides
SLOT_OPACITY = 0.3  # a result cell not computed yet: an empty slot (0.1, then 0.2 on a thin column, was lost at 480p)
FORMING_OPACITY = 0.45  # the slot being filled
DIM = 0.2  # an operand's rows and columns not in play
FAR_NAME = 1.5  # of its own height: a column copy's name no farther from the copy than this
SIGN_ROOM = 0.9  # between two blocks of the row: room for "·" or "="
BENCH_CLEAR = 0.22  # between the "·" and each strip on the bench (it read as touching at 0.12)
BENCH_ROOM = 2.0  # between A and B: the "·" and, either side of it, A's row and a column of B, standing
MULTIPLY_DOT = 0.07  # the "·" between A and B: a dot as heavy as the "=" (about 8 px across at 480p)
LONG_PRODUCT = 22  # characters of a products' name written on one line
WIDE_PRODUCTS = 5.2  # a products' name wider than this (a line, frame units) is said in a caption instead
SHORT_CAPTION = 84  # characters: a caption sure to fit its two lines
FRAME_STROKE = 2.5  # the frames around the row, column and cell in play
FRAME_PAD = 0.18  # of a pitch, between a frame and the cubes it frames (less where next cells are nearer)
LINE_UNIT = 0.01  # a stroke width of 1 in frame units (Manim's cairo line width multiple)
POINTER = 0.2  # the height of a mark pointing at a product the caption writes out


@dataclass
class Matmul:
    """What :func:`matmul` leaves on screen: the result (labelled) and the
    signs between the blocks of ``A · B = C``."""

    result: CubeGrid
    signs: VGroup
    sweep: object = None  # the fill's sweep (MatmulMotion.fill): more rows formed as its later rows are, faster


def products_name(left: str, right: str, row, column=None, vector: bool = False) -> str:
    r"""The products of a row of ``left`` with a column of ``right``
    (elementwise), as PyTorch writes them, or with every column of ``right``
    (broadcast: said in words, PyTorch's ``X[1, :, None] * Xᵀ`` is read by
    few). A long one takes two lines, a factor a line, the "*" ending the
    first (a line starting with an operator read as a stray sign: 09_0049).

    >>> products_name("X", "Xᵀ", 0, 0), products_name("X", "Xᵀ", 1)
    ('X[0] * Xᵀ[:, 0]', 'X[1] * columns of Xᵀ')
    >>> products_name("multihead_U_query[0]", "Xᵀ", 16, 7)
    'multihead_U_query[0, 16] *\nXᵀ[:, 7]'
    >>> products_name("flat[:, 18:36]", "W.T[18:36]", 2, 5)
    'flat[2, 18:36] *\nW.T[18:36, 5]'
    >>> products_name("U_key", "X[0]", 3, 0, vector=True)
    'U_key[3] * X[0]'
    """
    if vector:  # right is a 1D vector: row ``row`` of left times it, elementwise
        first, second = _row(left, row), right
    elif column is None:
        first, second = _row(left, row), f"columns of {right}"
    else:
        first, second = _row(left, row), _column(right, column)
    return f"{first} * {second}" if len(first) + len(second) <= LONG_PRODUCT else f"{first} *\n{second}"


def pair_name(row: str, column: str, room: float = WIDE_PRODUCTS) -> str:
    r"""A's row and B's column standing side by side on the bench, before
    they multiply, named as two operands ("A[0] * B[:, j]" over the pair,
    with no scale, read as the products' name: 07_0276, 10_0360, the 40th
    reader); a pair wider than ``room`` (frame units; the room the layout
    kept for the products' label) on one line breaks after its "and" (on
    one line it ran into C's label: 08, "U_key[0] and Xᵀ[:, 1]").

    >>> pair_name("U_key[0]", "Xᵀ[:, 1]")
    'U_key[0] and Xᵀ[:, 1]'
    >>> pair_name("multihead_queries[0, 0]", "multihead_keys[0].T[:, 3]")
    'multihead_queries[0, 0] and\nmultihead_keys[0].T[:, 3]'
    """
    name = f"{row} and {column}"
    return name if _name_width(name) <= room else f"{row} and\n{column}"


def _broken(name: str) -> str:
    """A products' name on one line too wide for a block's name, broken
    after its "*" (``U_key[16] * columns of Xᵀ`` was said as "products"
    in stage 8 while stage 7 spelled ``U_query[16]`` on two lines: 08_0253)."""
    if "\n" in name or " * " not in name or _fits(name):
        return name
    return name.replace(" * ", " *\n", 1)


def _fits(text: str) -> bool:
    """Every line of ``text``, as a block's name, within :data:`WIDE_PRODUCTS`."""
    return all(_name_width(line) <= WIDE_PRODUCTS for line in text.split("\n"))


@lru_cache(maxsize=None)
def _name_width(line: str) -> float:
    """A line's width as a block's name (a row's name is asked for again at every cell)."""
    return Text(line, font=TEXT_FONT, font_size=NAME_SIZE, weight="BOLD").width


def _indexed(name: str) -> tuple[str, list[str]]:
    """``"a[0, 1:3]"`` -> ``("a", ["0", "1:3"])``; no index: an empty list."""
    if not name.endswith("]") or "[" not in name:
        return name, []
    base, _, inner = name[:-1].rpartition("[")
    return base, [part.strip() for part in inner.split(",")]


def _row(name: str, row: int) -> str:
    """Row ``row`` of the matrix ``name`` (a tensor, a head's slice ``t[h]``,
    a run of columns ``t[:, a:b]`` or of rows ``t[a:b]``)."""
    base, index = _indexed(name)
    if len(index) == 2 and index[0] == ":" and ":" in index[1]:  # a run of columns
        return f"{base}[{row}, {index[1]}]"
    if len(index) == 1 and ":" in index[0]:  # a run of rows
        start = int(index[0].split(":")[0] or 0)
        return f"{base}[{start + row}]"
    return f"{base}[{', '.join(index + [str(row)])}]"


def _column(name: str, column: int) -> str:
    """Column ``column`` of the matrix ``name`` (as :func:`_row` reads names)."""
    base, index = _indexed(name)
    if len(index) == 2 and index[0] == ":" and ":" in index[1]:
        start = int(index[1].split(":")[0] or 0)
        return f"{base}[:, {start + column}]"
    if len(index) == 1 and ":" in index[0]:
        return f"{base}[{index[0]}, {column}]"
    return f"{base}[{', '.join(index + [':', str(column)])}]"


def own_range(values) -> tuple[float, float]:
    """The color scale of products: their own smallest to largest, purple to
    red, as every tensor's (a scale centred on 0 was a second colour rule
    readers did not follow).

    >>> own_range(np.array([-5.0, 0.5])), own_range(np.array([0.5, 2.0]))
    ((-5.0, 0.5), (0.5, 2.0))
    """
    return float(np.min(values)), float(np.max(values))


@dataclass
class Arrangement:
    """Where the labels of ``A · B = C`` stand: each block's side (up or
    down), and where the pieces laid on B (A's row, the products) are
    named: in a slot of their own, on B's other side (``OPPOSITE``) or on
    B's side beyond B's name (``STACKED``), B keeping its name; or, where
    only that leaves the blocks a fair size, in B's label's place
    (``IN_PLACE``): beyond B's name alone (no scale), which stays in sight
    as they cover B."""

    sides: tuple
    slot: str = "opposite"

    @property
    def products_side(self):
        return -self.sides[1] if self.slot == OPPOSITE else self.sides[1]


OPPOSITE, STACKED, IN_PLACE = "opposite", "stacked", "in place"
ARRANGEMENTS = [Arrangement((a, b, c), slot) for slot in (OPPOSITE, STACKED, IN_PLACE)
                for a, b, c in ((DOWN, DOWN, UP), (UP, DOWN, DOWN), (DOWN, UP, DOWN),
                                (UP, UP, DOWN), (DOWN, DOWN, DOWN), (UP, DOWN, UP))]
STACK_GAP = 0.12  # between B's name and the pieces' label stacked beyond it
# C's label stands by C, not level with the row: over or under a C shorter than B it takes the height beside B,
# where only the "=" stands, not the stage's (level with B's top, stage 17's name over its 8×8 C left the three
# blocks 7 px a cube: 17_0059, the 72nd and 73rd readers); A's stays level, under the bench's pieces
RESULT_BY_ITSELF = (2,)
OVER_B = 0.8  # how far over B's top (in B's cubes) a sum flies on its way from the bench to C
RIDING_SAMPLES = 41  # points along a sum's way where the room for its "Σ = …" is checked
RIDING_GAP = 0.12  # the least room between a riding "Σ = …" and any text
SLOT_GAIN = 1.15  # the pieces' label leaves its own slot only for blocks at least this much larger


def _labels_for(arrangement: Arrangement, labels, products_room, name_height: float = 0.0,
                plain_height: float = 0.0):
    """Per block, the labels to keep room for in this arrangement
    (``name_height``: of B's label, which the stacked pieces' label stands
    beyond; ``plain_height``: of B's name alone, which the pieces stand
    beyond in B's place)."""
    mine = []
    for n, (label, side) in enumerate(zip(labels, arrangement.sides)):
        stand_in = Rectangle(width=label.width, height=label.height)
        stand_in.side = side
        room = [stand_in]
        if n == 1 and products_room is not None:
            if arrangement.slot != OPPOSITE:
                extra = (name_height if arrangement.slot == STACKED else plain_height) + STACK_GAP
                there = Rectangle(width=max(products_room.width, label.width),
                                  height=max(products_room.height + extra, label.height))
                there.side = side
                room = [there]
            else:
                there = Rectangle(width=products_room.width, height=products_room.height)
                there.side = arrangement.products_side
                room = [there, stand_in]
        mine.append(room)
    return mine


def _wider(label, room):
    """A stand-in as wide and tall as the larger of ``label`` and ``room`` (None: ``label``)."""
    if room is None:
        return label
    return Rectangle(width=max(label.width, room.width), height=max(label.height, room.height))


def _choose(pitches) -> Arrangement:
    """Of :data:`ARRANGEMENTS`, whose blocks were fitted at ``pitches``:
    the pieces named in a slot of their own, over them on B's free side
    (``OPPOSITE``), unless the others give the blocks clearly larger
    (:data:`SLOT_GAIN`): named beyond B's label (``STACKED``: far from the
    strip on the bench, read as B's second label, 17_0241), then in B's
    label's place (``IN_PLACE``); within a slot, the largest picture (the
    arrangement listed first unless another is 2 % larger).

    >>> [a.slot for a in (_choose([1.0] * 6 + [1.1] * 6 + [1.3] * 6), _choose([1.0] * 6 + [1.2] * 6 + [1.3] * 6))]
    ['in place', 'stacked']
    """
    best = {}
    for arrangement, pitch in zip(ARRANGEMENTS, pitches):
        if pitch > best.get(arrangement.slot, (None, -1.0))[1] * 1.02:
            best[arrangement.slot] = arrangement, pitch
    chosen, size = best[OPPOSITE]
    for slot in (STACKED, IN_PLACE):
        if best[slot][1] > SLOT_GAIN * size:
            chosen, size = best[slot]
    return chosen


def arrange_matmul(scene, layout: Layout, viewpoint, left: CubeGrid, right: CubeGrid, result: CubeGrid,
                   view=MATMUL_VIEW, run_time: float = 1.6, products_room=None,
                   names_room=None, area=None, told=()) -> tuple[VGroup, Arrangement]:
    """Move ``left`` and ``right`` (labelled, on screen) into the row
    ``left · right = result``, fitted to the stage area seen from ``view``
    (the camera turns there); operands not on screen yet are shown there,
    named, with no move (a stage's opening shot). ``result`` (labelled)
    appears as empty slots.
    Each label goes over or under its block, and the products' label
    (``products_room``: the largest it will be) over B or in B's label's
    place, whichever arrangement lets the blocks be largest (long names
    need the two sides). ``names_room``: per block, a label as large as
    any it will carry later (another head's name), or None; ``area``: a
    part of the stage area to fill instead of all of it. Returns the
    signs "·" and "=" (shown) and the arrangement."""
    grids = (left, right, result)
    rooms = [_wider(g.label, r) for g, r in zip(grids, names_room or (None,) * 3)]
    name_height = right.label.height  # the pieces' label, stacked, stands beyond B's whole label
    plain_height = right.label[0].height  # ... or, in B's place, beyond B's name alone
    pitches = []
    for arrangement in ARRANGEMENTS:
        trial = [g.copy() for g in grids]
        fitted = layout.row(*trial, gap=(BENCH_ROOM, SIGN_ROOM), view=view, own_labels=False, bind=False, area=area,
                            also=_labels_for(arrangement, rooms, products_room, name_height, plain_height),
                            own_level=RESULT_BY_ITSELF)
        # labels that clash: only if all do; a label over the neighbouring block (where it reads as that
        # block's name) only for blocks clearly larger, as within one arrangement (fit.STRICT_SHARE)
        pitches.append(trial[0].pitch * (1.0 if fitted.roomy else 0.01) * (1.0 if fitted.kept_off else STRICT_SHARE))
    chosen = _choose(pitches)
    targets = [left.copy(), right.copy(), result]
    was = [np.array(g.label.side, float) for g in (left, right)]
    for target, grid, side in zip(targets, grids, chosen.sides):
        target.label = grid.label
        grid.label.side = side
    layout.row(*targets, gap=(BENCH_ROOM, SIGN_ROOM), view=view, own_labels=False, area=area,
               also=_labels_for(chosen, rooms, products_room, name_height, plain_height), own_level=RESULT_BY_ITSELF)
    for target, grid in zip(targets, (left, right)):
        target.label = grid.label
    entering = not any(left is m for m in scene.mobjects)  # not on screen yet: shown in place, no move
    if entering:
        viewpoint.look_from(view)
        left.become(targets[0])
        right.become(targets[1])
        late = [layout.place(g) for g in (left, right)]
        late += [left, right]
    else:
        shown = [g for g in (left, right) if any(g.label is m or g.label in m.get_family() for m in scene.mobjects)]
        # a label that changes sides would glide across its block and the others' labels (or, going with its
        # block on its old side, meet a neighbour's: 19 and 21, the layout rules): it leaves at once and comes
        # back on its side, where its block has gone
        turned = [g for g, side in zip((left, right), was) if g in shown and not np.allclose(side, g.label.side)]
        # the rule said as the blocks turn into place; C's slots (named), the "·" and the "=" once they stand
        # there (a sign over a block still moving reads as its mark, and a label placed for the last view
        # wanders while the camera turns)
        scene.play(left.animate.become(targets[0]), right.animate.become(targets[1]), viewpoint.turn(*view),
                   *[layout.follow(g, t, view) for g, t in zip((left, right), targets)
                     if g in shown and g not in turned],
                   *[vanish(g.label, rate_func=at_once) for g in turned], *told, run_time=run_time)
        late = [layout.place(g) for g in (left, right) if g not in shown or g in turned]  # where its block went
    signs = signs_between(layout, left, right, result)
    layout.place(result)
    result.set_cell_opacity(SLOT_OPACITY).empty()  # empty slots: grey, never the pattern to come
    # the operands (on entering) and every text at once (a name caught half-faded: 17_0060); the empty slots
    # fade in
    scene.play(appear(result), *[appear(m, rate_func=at_once) for m in (result.label, signs, *late)],
               *(told if entering else ()), run_time=0.6 if entering else 0.4)
    return signs, chosen


def signs_between(layout: Layout, left: CubeGrid, right: CubeGrid, result: CubeGrid, marks=("·", "=")) -> VGroup:
    """The ``marks`` between ``left`` and ``right`` and between ``right``
    and ``result`` (a matmul's "·" and "="), each centred in its gap as seen
    now (pinned, not shown)."""
    return VGroup(*[sign_between(layout, before, after, sign)
                    for before, after, sign in ((left, right, marks[0]), (right, result, marks[1]))])


def sign_between(layout: Layout, before: Mobject, after: Mobject, sign: str = "·") -> Mobject:
    """``sign`` ("·": a dot, a "·" glyph is 3 px at 480p) centred in the gap
    between ``before`` and ``after`` as seen now (pinned, not shown)."""
    mark = (Dot(radius=MULTIPLY_DOT, color=layout.theme.ink) if sign == "·"
            else Text(sign, font=TEXT_FONT, font_size=NAME_SIZE + 8, color=layout.theme.ink))
    gap = layout.screen_box([after])[0] - layout.screen_box([before])[2]
    layout.beside([before], mark, [1.0, 0.0, 0.0], buff=(gap - mark.width) / 2)
    layout.upright(mark)
    return mark


def flow_sign(layout: Layout, sign: Mobject, text: str = "→") -> Mobject:
    """``text``, an arrow ("→", or "Σ→": summed into), where ``sign`` stands
    (pinned, not shown): the "·" or "=" of ``A · B = C`` while the picture
    is a flow, not an equation."""
    mark = Text(text, font=TEXT_FONT, font_size=NAME_SIZE + 8, color=layout.theme.ink)
    mark.move_to(sign.get_center())
    layout.upright(mark)
    return mark


def _name_alone(label):
    """``label`` cut to its first line (the name, with a shape beside it
    when it has one): no scale, no note. Returns it."""
    label.remove(*label.submobjects[1:])
    label.value_range = label.scale_of = label.note = None
    return label


def name_only(layout: Layout, grid: CubeGrid):
    """``grid``'s label without its scale (its name and shape) where the
    whole label stands, bound to ``grid``'s numbers; not shown."""
    whole = grid.label
    plain = _name_alone(whole.copy())
    grid.label = plain
    layout.place(grid)
    grid.label = whole
    return plain


def frame_around(layout: Layout, grid: CubeGrid, index, pad: float = FRAME_PAD,
                 stroke: float = FRAME_STROKE) -> Rectangle:
    """A frame round the cells ``index`` of ``grid`` on screen, ``pad`` (of
    a pitch) clear of them (pinned, not shown)."""
    box = layout.screen_box([grid.subgrid(index)])
    left, bottom, right, top = box
    pads = _pads_clear(layout, grid, index, box, pad * grid.pitch, stroke * LINE_UNIT / 2)
    left, bottom, right, top = left - pads[0], bottom - pads[1], right + pads[2], top + pads[3]
    frame = Rectangle(width=right - left, height=top - bottom, stroke_width=stroke,
                      color=layout.theme.ink).move_to([(left + right) / 2, (bottom + top) / 2, 0.0])
    layout.fixed(frame)
    return frame


def _pads_clear(layout: Layout, grid: CubeGrid, index, box, pad: float, half_line: float) -> list[float]:
    """The frame's pad on each side of ``box`` (left, bottom, right, top):
    ``pad``, or less where the grid's next cells on that side are nearer, the
    line then half-way between (the frame round C's row i at a full pad lay
    over the lower half of row i - 1, the row just formed: 03_0480, 05_0582,
    the 49th reader)."""
    framed = grid.cell_ids(index)
    layer = int(np.prod(grid.grid_shape[1:]))  # next cells in the framed heads' layers (not heads behind)
    others = np.setdiff1d(np.flatnonzero(np.isin(np.arange(grid.cell_count) // layer, framed // layer)), framed)
    if not others.size:
        return [pad] * 4
    screen = project_at(layout.camera, grid.cube_corners()[others])  # (cells, 8, 2)
    lows, highs = screen.min(axis=1), screen.max(axis=1)
    left, bottom, right, top = box
    pads = []
    for axis, side, edge in ((0, -1, left), (1, -1, bottom), (0, 1, right), (1, 1, top)):
        across = 1 - axis  # a neighbour on this side overlaps the box across the side by half a cube or more
        low, high = (box[0], box[2]) if across == 0 else (box[1], box[3])
        overlap = np.minimum(highs[:, across], high) - np.maximum(lows[:, across], low)
        size = highs[:, across] - lows[:, across]
        beyond = (lows[:, axis] + highs[:, axis]) / 2 * side > edge * side
        near = beyond & (overlap > size / 2)
        if not near.any():
            pads.append(pad)
            continue
        gap = float(((lows[near, axis] if side > 0 else -highs[near, axis]) - edge * side).min())
        pads.append(float(np.clip(gap / 2 - half_line, 0.0, pad)))
    return pads


def _resized(old, new, tolerance: float = 0.1) -> bool:
    """Whether the frame ``new`` differs from ``old`` in width or height by more than ``tolerance``."""
    return any(abs(a - b) > tolerance * max(a, b) for a, b in ((old.width, new.width), (old.height, new.height)))


class _Frames:
    """The three frames of a matmul: the row of A, the column(s) of B and
    the cell (or row) of C in play; screen rectangles, pinned to the frame."""

    def __init__(self, scene, layout: Layout):
        self.scene, self.layout = scene, layout
        self.shown: list[Rectangle] = []

    def around(self, grid: CubeGrid, index) -> Rectangle:
        return frame_around(self.layout, grid, index)

    def pointer(self, grid: CubeGrid, column: int) -> Triangle:
        """A small mark pointing at cell ``column`` of a one-row ``grid`` (a
        product the caption writes out), left of it on screen; not shown."""
        left, bottom, right, top = self.layout.screen_box([grid.subgrid((0, 0, column))])
        mark = Triangle(color=self.layout.theme.ink, fill_opacity=1.0, stroke_width=0)
        mark.rotate(-PI / 2).scale_to_fit_height(min(POINTER, 0.9 * (top - bottom)))
        mark.move_to([left - FRAME_PAD * grid.pitch - 0.05 - mark.width / 2, (bottom + top) / 2, 0.0])
        self.layout.fixed(mark)
        return mark

    def to(self, boxes: list[Rectangle], jump: bool = False) -> list:
        """The animations that take the frames to ``boxes`` (appearing the
        first time); ``jump``: all at once (with what appears at once there)."""
        if not self.shown:
            self.shown = boxes
            return [appear(b) for b in boxes]  # whole at once: a frame half drawn is a stray dash
        # a frame slides to a cell or column of its size; one that changes size (a column to the whole
        # block) jumps: a still of it half-way framed 13 of 18 columns (21_0293)
        return [old.animate(rate_func=at_once if jump or _resized(old, new) else smooth).become(new)
                for old, new in zip(self.shown, boxes)]

    def gone(self) -> list:
        frames, self.shown = self.shown, []
        return [vanish(f, rate_func=at_once) for f in frames]


class _Bench:
    """Two slots in the gap between A and B, either side of the "·": A's
    row (stood up) in the left one, a column of B in the right one, both
    level with B's rows, clear of both blocks."""

    def __init__(self, layout: Layout, left: CubeGrid, right: CubeGrid, sign):
        self.right = right
        _, bottom, _, top = layout.screen_box([right])
        middle = world_at_screen(layout.camera, (sign.get_center()[0], (bottom + top) / 2), right.get_center())
        # the slots hug the "·", far from both blocks: the pair never reads as a row of A or a column of B
        gap = layout.screen_box([right])[0] - layout.screen_box([left])[2]
        apart = min(MULTIPLY_DOT + BENCH_CLEAR + right.pitch / 2, gap / 2 - right.pitch * 0.7)
        self.middle, self.apart = middle, apart
        self.across = right.axis_vectors()[0]

    def slot(self, side: int) -> np.ndarray:
        """The world centre of the left (``side`` -1) or right (+1) slot."""
        return self.middle + side * self.apart * self.across


class MatmulMotion:
    """``result = left @ right`` (``left`` m×k and ``right`` k×n, labelled)
    as the module docstring tells, in two parts a storyboard may put in
    different steps: :meth:`arrange` lays out ``A · B = C`` (moving the
    operands there if they are on screen, else showing them there: a
    stage's opening shot), :meth:`fill` forms row 0 cell by cell (the first
    ``cells`` of it, all by default; the rest of it against all of B at
    once, as every later row; ``cells`` 0: all of row 0 so, a stage
    repeating a matmul shown cell by cell just before), then every other row (the first ``rows`` of
    them so, all by default; the rest swept, row after row, as the other
    heads of a batched matmul are: a stage that repeats an earlier matmul
    keeps its time for what is new; ``rows`` 0 after a few ``cells``: the
    rest of row 0 swept with them, slower), or, ``later`` false, none: rows 1 …
    are left empty slots for the caller (a batched matmul forms them with
    every other head's rows at once, :func:`~scenes.motions.heads.form_pairs`).

    ``names`` = (left, right, result) as the code calls them; ``products``
    is ``(m, n, k)``; ``say`` puts a caption up; ``names_room`` and
    ``area``: see :func:`arrange_matmul`. A right operand of one column is
    a vector (named as one: ``U[0] * x``). ``result_scale_of``: whose colors
    the result wears when they are not its own ("all heads").
    """

    def __init__(self, scene, layout: Layout, viewpoint, left: CubeGrid, right: CubeGrid, result_values, products,
                 *, names, say=None, result_range=None, view=MATMUL_VIEW, cells: int | None = None,
                 rows: int | None = None, later: bool = True, speed: float = 1.0, names_room=None, area=None,
                 result_scale_of: str | None = None, cell_note: str = ""):
        self.scene, self.layout, self.viewpoint, self.left, self.right = scene, layout, viewpoint, left, right
        self.cell_note = cell_note  # said after the first cell's sum: where that number was seen before
        self.rows, self.later = rows, later
        self.say = say or (lambda text: None)
        self.view, self.cells, self.speed, self.names_room, self.area = view, cells, speed, names_room, area
        self.names = names
        self.m, self.k = left.grid_shape[1:]
        self.n = right.grid_shape[2]
        self.vector = len(right.source_shape) == 1  # right is a 1D vector (one column): so is the result
        self.table = np.asarray(result_values, float).reshape(self.m, self.n)
        self.result = left.like(result_values, result_range,
                                dims=(left.dims[0] or right.dims[0], left.dims[1], right.dims[2]))
        layout.name(self.result, names[2], stacked=True if result_scale_of else None, scale_of=result_scale_of)
        self.products = np.asarray(products, float)
        left_name, right_name, _ = names
        m, n, k = self.m, self.n, self.k
        longest = [_broken(products_name(left_name, right_name, m - 1, n - 1, self.vector))] + (
            [_broken(products_name(left_name, right_name, m - 1, vector=self.vector))] if m > 1 else [])
        # a name wider than that is said in a caption; the label then says the row and column alone
        # ("products" alone did not say which row: 17_0276, 16_0120)
        self.spelled = all(_fits(name) for name in longest)
        ends = own_range(self.products)  # the widest ticks a products' label can have
        above = [layout.sized_label(self.products_title(longest[0], m - 1, n - 1), (), value_range=ends)]
        if m > 1:
            # (a two-line name that names B is no wider than B's label and as tall: it stands in its place)
            title = self.products_title(longest[1], m - 1).split(" of\n")[0]
            above.append(layout.sized_label(title, (k, n), value_range=ends))
        above.append(layout.sized_label(self.row_title(0), (), value_range=left.value_range))
        self.room = Rectangle(width=max(a.width for a in above), height=max(a.height for a in above))
        self.room.side = UP
        self.signs = self.arrangement = None

    def products_title(self, name: str, row: int, column: int | None = None, right: str | None = None) -> str:
        """The products' name: ``name`` (:func:`products_name`'s) where it
        fits; else a row's by A's row number and B's name (``right``, else
        B's first name), on two lines ("row 3 * columns of",
        "multihead_keys[0].T") where those fit, else "row 3 * columns"; a
        cell's, under B's own label, "row 16 * column 7". The caption names
        the operands."""
        if self.spelled:
            return _broken(name)
        if self.vector:
            return f"row {row} * the vector"
        # the row is A's framed one; B's part named as PyTorch writes it where a line holds it ("row 2 *
        # columns" did not say of what: 17_0297, 19_0537, the 49th reader)
        if column is not None:  # a cell's: under B's label, B named there
            return f"row {row} * column {column}"
        named = f"row {row} * columns of\n{right or self.names[1]}"  # ``right``: B's name now (a later head's)
        return named if _fits(named) else f"row {row} * columns"

    def products_shape(self, title: str, shape) -> tuple:
        """The shape a products' label shows: none under a name of two lines
        that names B (the products lie over B, B's shape; the room a label of
        three lines has, the blocks kept their size: 17 at 4 px cubes)."""
        return () if not self.spelled and " of\n" in title else tuple(shape)

    def row_title(self, i: int) -> str:
        """The row of A laid beside a column of B, before it multiplies:
        named as A's row, as PyTorch indexes it, on one line or two (a long
        name broken before its index), else as "row i" of A."""
        row = _row(self.names[0], i)
        base, index = _indexed(row)
        ways = [row, f"{base}\n[{', '.join(index)}]", f"row {i}"]
        return next((w for w in ways if _fits(w)), ways[-1])

    def rule(self) -> str:
        """The caption that says how a cell comes about (the first way that fits a line)."""
        left_name, right_name, result_name = self.names
        product_of = f"{left_name} · {right_name}"
        said = result_name if result_name.replace(" ", "") != product_of.replace(" ", "") else "the result"
        ways = (
            f"{said} = {product_of}: row i of {left_name} times {right_name}, summed, gives entry i",
            f"row i of {left_name} times {right_name}, summed, gives entry i of {result_name}",
            "row i of the matrix times the vector, summed, gives entry i") if self.vector else (
            f"{said} = {product_of}: row i of {left_name} meets column j of {right_name} at cell (i, j)",
            f"row i of {left_name} meets column j of {right_name} at cell (i, j) of {result_name}",
            f"row i of {left_name} meets column j of {right_name}: cell (i, j)",
            f"row i of {left_name} meets column j of {right_name}",
            "row i of the left block meets column j of the right one at cell (i, j)")
        return next(text for text in ways if len(text) <= SHORT_CAPTION)

    def arrange(self, run_time: float = 1.6, told=()) -> None:
        """``A · B = C`` laid out, C as empty slots, every block named (see
        :func:`arrange_matmul`); ``told``: a caption's animations, joining the move."""
        self.signs, self.arrangement = arrange_matmul(
            self.scene, self.layout, self.viewpoint, self.left, self.right, self.result, self.view,
            products_room=self.room, names_room=self.names_room, area=self.area, run_time=run_time, told=told)

    def fill(self) -> Matmul:
        """Form the result, as the module docstring tells; returns it, labelled, and the signs."""
        if self.arrangement is None:
            self.arrange()
        scene, layout, left, right, result = self.scene, self.layout, self.left, self.right, self.result
        say, speed, view, vector, table, products = self.say, self.speed, self.view, self.vector, self.table, \
            self.products
        m, k, n = self.m, self.k, self.n
        left_name, right_name, result_name = self.names
        arrangement, products_title, row_title = self.arrangement, self.products_title, self.row_title
        first_cell = f"{operand(result_name)}[0]" if vector else cell_name(result_name, 0, 0)
        right_label = right.label
        frames = _Frames(scene, layout)
        dot = self.signs[0]
        bench = _Bench(layout, left, right, dot)
        # while a row's products lie over B, the signs say what the picture does: A's row → its products →
        # their column sums, C's row ("·" and "=" over them read "A · (products) = C", false: G2 of the 47th
        # reader, 03_0480, 07_0435, 12_0425); "·" and "=" again once B is B
        flow = {"on": False, "signs": [flow_sign(layout, sign, mark) for sign, mark in zip(self.signs, ("→", "Σ→"))]}

        def flowing(on: bool) -> list:
            """The arrows in the signs' places (``on``), or the signs back, at once."""
            if flow["on"] == on:
                return []
            flow["on"] = on
            olds, news = (self.signs, flow["signs"]) if on else (flow["signs"], self.signs)
            return [a for old, new in zip(olds, news) for a in swap(old, new, rate_func=at_once)]
        lift = view_rotation(*view)[2] * right.pitch * 1.2  # toward the eye: in front of what it passes
        # B keeps its whole label (name and scale) while it is in sight; where the pieces stand in B's
        # label's place (IN_PLACE), its name alone (``plain``); while products lie over all of B, none
        shown = {"products": None, "label": None, "b": "whole"}
        plain = name_only(layout, right)

        def on_bench_at(label, strip, hang, whole_b=True):
            """``label`` over (or under) ``strip`` on the bench, level with the
            row's blocks, beyond B's label where the pieces are named on B's
            side (B's whole label while ``whole_b``, else its name alone; None:
            B unnamed, the pieces' label in its place), hanging
            from the strip's left edge rightwards (``hang`` 1) or from its right
            edge leftwards (-1)."""
            _, bottom, _, top = layout.screen_box([left, right, result])
            beyond = (0.0 if arrangement.slot == OPPOSITE or whole_b is None else STACK_GAP + (
                right_label.height if arrangement.slot == STACKED and whole_b else plain.height))
            layout.beside(strip if isinstance(strip, list) else [strip], label, arrangement.products_side,
                          buff=LABEL_BUFF + beyond,
                          level=(top, bottom), hang=hang)

        def products_label(piece, name, values, value_range=None, at=None, row=False):
            """``piece`` (to show ``values`` on their own scale, or on
            ``value_range``) named on the side of ``right`` its own label is not
            on, level with the row's blocks (kept inside the stage area), over
            the strip on the bench (or ``at``: where it is going), reaching over
            B; over B for products laid on all of B. A's ``row`` on the bench
            is named reaching the other way, toward A (its name over the
            column copied out of B beside it read as that column's: 12_0069).
            Not shown."""
            piece.part_of, piece.value_range = None, value_range or own_range(values)
            side = arrangement.products_side
            # a strip (the row, one cell's products) is named without a shape: its cubes are there to count
            on_bench = np.ndim(values) == 1
            label = layout.name(piece, name, side, shape=self.products_shape(name, values.shape)
                                if np.ndim(values) > 1 else (), values=values)
            # B's label first: B stays in sight and named beside the pieces while a strip stands on the
            # bench; products over all of B are the one block there, named once ("… columns of B": one
            # name and one color bar, 03_0437, 05_0526). Over (or under) the strip on the bench, reaching
            # over B (the room kept for it), or over B, B's label gone
            # a strip's name centred over it, the products on the "·" (hung rightwards from the strip, over the
            # dimmed B with its column framed, it read as B's: "the legend describes a block not shown", G1 of
            # the 47th reader, 03_0320, 08_0134, 15_0162; leftwards, over A's framed row, as that row's); A's row
            # standing left of the "·" reaching toward A (over the column copy beside it, read as the column's:
            # 12_0069); kept clear of A's label where that is on its side
            on_bench_at(label, (at or piece) if on_bench else right, (-1 if row else 0) if on_bench else 0,
                        whole_b=True if on_bench else None)
            # clear of A's label on its side (over B, a products' shape ran into A's bar's end: "4.1417×8",
            # 10_0509, the 48th reader)
            return kept_in(label, clear_of_a=True)

        def kept_in(label, clear_of_a: bool):
            """``label`` kept inside the stage area (``clear_of_a``: and clear of
            A's label where they are on one side, reaching into the gap), and
            clear of C's label on their side by twice the gap between labels
            where there is room for that (at a row's gap, the pieces' name and
            C's read as one phrase: 07_0083, the 38th reader), upright."""
            area = layout.area()
            if clear_of_a and np.allclose(left.label.side, arrangement.products_side):
                area = replace(area, left=max(area.left, layout.right_edge(left.label) + LABEL_GAP))
            if np.allclose(result.label.side, arrangement.products_side):
                named_c = project(layout.camera, result.label.get_center()[None])[0][0] - result.label.width / 2
                for gap in (2 * LABEL_GAP, LABEL_GAP):
                    if named_c - gap - area.left >= label.width:
                        area = replace(area, right=min(area.right, named_c - gap))
                        break
            layout.inside(label, area)
            layout.upright(label)
            return label

        def column_label(column, j):
            """The copy of B's column ``j`` on the bench (``column``, where it
            is going), named as PyTorch indexes it (``Xᵀ[:, 0]``), its name
            alone (its colors are B's, on B's scale), level with the row's
            label and reaching the other way, toward B: the pair named, each
            strip under its own name (an unnamed copy of B's column read as
            the products: 05_0070, 19_0199). None for a vector (all of it
            is the column). Not shown."""
            if vector:
                return None
            label = _name_alone(layout.name(column, _column(right_name, j), arrangement.products_side, shape=(),
                                            values=right.values[0, :, j]))
            on_bench_at(label, column, 1)
            layout.inside(label)
            # none where it would stand beyond B's whole label, far from the copy it names (under another block's
            # color bar, 60-90 px from its column, it read as no one's: 19_0212, readers 65 and 67 to 71); the
            # copy is B's part, named by B's label
            _, low, _, high = layout.screen_box([column])
            if max(label.get_bottom()[1] - high, low - label.get_top()[1]) > FAR_NAME * label.height:
                return None
            layout.upright(label)
            return label

        def pair_label(piece, row_label, row_at, there, j):
            """``row_label``, the label of A's row standing at ``row_at`` on the
            bench, or, where it (kept clear of A's label) reaches under the
            column copy standing at ``there``, one name for the pair, left to
            right as they stand, "A[0] and B[:, j]" (:func:`pair_name`; "·" read
            as one number, a dot product: G2 of the 32nd reader; "A[0],
            B[:, j]" has no operator to break a long name at, and 17's left the
            frame), its name alone (the strips wear their blocks' colors,
            named beside them): a row's name under the column copy read as
            the column's, the row unnamed (08_0049, 09_0049). The pair's name
            becomes ``piece``'s label."""
            if vector or row_label.get_right()[0] <= layout.screen_box([there])[0] + LABEL_GAP / 2:
                return row_label
            name = pair_name(_row(left_name, 0), _column(right_name, j), self.room.width)
            label = _name_alone(layout.name(piece, name, arrangement.products_side, shape=(),
                                            values=left.values[0, 0]))
            on_bench_at(label, [row_at, there], 1)
            return kept_in(label, clear_of_a=True)  # as the row's

        def clear_products(back: bool = True):
            """The last products leave at once (never caught half-faded), with
            their name; B's label comes back if they covered it (``back``;
            else B's is left to :func:`uncover`)."""
            gone = []
            if shown["products"] is not None:
                gone = [vanish(shown["products"], rate_func=at_once),
                        *(unname(shown["label"]) if back else [vanish(shown["label"], rate_func=at_once)])]
                shown["products"] = shown["label"] = None
            return gone

        def b_label(state: str, when=at_once) -> list:
            """B's label as ``state`` says: "whole" (name and scale), "plain"
            (its name alone, the pieces' label beyond it) or "none" (products
            lie over all of B, named "… columns of B": one name for the one
            block in sight, 05_0526 and 10_0460 for the nineteenth reader)."""
            now = shown["b"]
            if now == state:
                return []
            shown["b"] = state
            mobs = {"whole": right_label, "plain": plain, "none": None}
            right.label = mobs[state] or right_label
            anims = []
            if mobs[now] is not None:
                anims.append(vanish(mobs[now], rate_func=when))
            if mobs[state] is not None:
                anims.append(appear(mobs[state], rate_func=when))
            return anims

        def uncover(when=at_once) -> list:
            """B's own label, back."""
            return b_label("whole", when)

        def unname(label):
            """The pieces' label goes at once; B's own label is back."""
            return [vanish(label, rate_func=at_once), *uncover()]

        def take_place(label, when=at_once, covering=False) -> list:
            """``label`` shown in place of the last piece's, at once (``when``:
            at that rate's step); B's label keeps only B's name where the
            pieces stand in its place, and goes while they lie over B (``covering``)."""
            anims = [appear(label, rate_func=when)]
            if shown["label"] is not None:
                anims.append(vanish(shown["label"], rate_func=when))
            if covering:  # over all of B: the products' name is the block's one name
                anims += b_label("none", when)
            elif arrangement.slot == IN_PLACE:  # beyond B's name, in B's label's place
                anims += b_label("plain", when)
            return anims

        def multiply(piece, column, name, values, run_time, column_name=None, told=()):
            """The pair on the bench becomes their products on the "·": A's row
            and B's column slide together onto it (the sign giving way), and
            the column is gone, the row turning into the products on their own
            scale, where the "·" was (a products strip left of the "·" read as
            an operand: 06_0231, 07_0085, 16_0143). The name and scale change
            in the frame the colors do: a legend names the colors on screen
            at every frame."""
            meet = bench.slot(0)
            there = piece.copy().shift(meet - piece.get_center())
            row_state = piece.label, piece.part_of, piece.value_range
            label = products_label(piece, name, values, at=there)
            products_state = piece.label, piece.part_of, piece.value_range
            piece.label, piece.part_of, piece.value_range = row_state  # the row's until it turns
            scene.play(piece.animate.shift(meet - piece.get_center()),
                       column.animate.shift(meet - column.get_center()),
                       vanish(dot, rate_func=at_once), run_time=0.6 * run_time)
            # the colors change in one frame, with the name, as the column lies on the row: a blend of the
            # row's and the products' colors would match neither label (a reader read α[0] in yellow: 05_0187)
            piece.label, piece.part_of, piece.value_range = products_state
            # B's column stays lit, framed, as its copy turns into the products: the row and the column that
            # meet are the two lit things in A and B (dimmed with the rest of B, the column in focus read as not in
            # focus: 03_0192, 05_0233, 10_0204, the 65th reader); the products' name stands over the strip, not B
            scene.play(piece.animate(rate_func=at_once).recolor(values, piece.value_range),
                       *take_place(label), vanish(column, rate_func=at_once),
                       *([vanish(column_name, rate_func=at_once)] if column_name is not None else []),
                       *told, run_time=0.4 * run_time)  # said in the frame the products show (said as the pair
            # slid together, it named products not yet drawn: 05_0077, the 62nd and 63rd readers)
            scene.remove(column)
            shown["products"], shown["label"] = piece, label

        def riding_sides(number, cube, end, way=None) -> list:
            """Along the way from where ``cube`` stands to ``end`` (``way``: the
            waypoints, default straight), at every frame's worth of it (at
            eleven points a narrow "=" fell between two: 05, the default),
            the side of the cube (over it, where the running sum stood, else
            under it) where ``number`` meets no text on screen, neither
            block in sight and stays in the frame; None where neither is clear (a sum
            flying from the bench between A and B to C over B, its number
            written over B's cubes: 07_0260, the 56th and 57th readers). A
            side kept as long as it stays clear: the number never hops for
            nothing."""
            texts = [m for top in scene.mobjects for m in top.get_family()
                     if isinstance(m, Text) and m is not number and m.family_members_with_points()
                     and max(g.get_fill_opacity() for g in m.family_members_with_points()) > 0.05]
            # every block in sight but the sum: the operands, C as it lands, the pieces on the bench it rises past
            grids = [g for top in scene.mobjects for g in top.get_family() if isinstance(g, CubeGrid)
                     and g is not cube and cube not in g.get_family() and (g.cube_opacity > 0.5).any()]
            blocks = [layout.screen_box([grid]) for grid in {id(g): g for g in (left, right, result, *grids)}.values()]
            start, probe = cube.get_center(), cube.copy()
            half_w, half_h = config.frame_width / 2, config.frame_height / 2

            def clear(side, alpha):
                probe.move_to(along(way or [start, end], alpha))
                layout.beside([probe], number, side, buff=0.15)
                (left, bottom, _), (right, top, _) = number.get_corner(DOWN + LEFT), number.get_corner(UP + RIGHT)
                # a gap's width from every text: touching a bar's end it read as one string, "128Σ = 4.87"
                # (17_0177, the 76th and 77th readers)
                if any(t.get_left()[0] < right + RIDING_GAP and t.get_right()[0] > left - RIDING_GAP
                       and t.get_bottom()[1] < top + RIDING_GAP and t.get_top()[1] > bottom - RIDING_GAP for t in texts):
                    return False
                if any(l < right and r > left and b < top and t > bottom for l, b, r, t in blocks):
                    return False
                return -half_w <= left and right <= half_w and -half_h <= bottom and top <= half_h  # in the frame

            was = number.get_center().copy()  # tried at every side, it is put back where it stood (left where
            # the last try put it, it sat on its own cube while that stood: 17_0165)
            sides, last = [], None
            for alpha in np.linspace(0.0, 1.0, RIDING_SAMPLES):
                order = [last] + [s for s in (UP, DOWN) if s is not last] if last is not None else [UP, DOWN]
                last = next((side for side in order if clear(side, alpha)), None)
                sides.append(last)
            number.move_to(was)
            return sides

        def add_up(piece, i, j, cube, explain: bool, run_time: float) -> tuple[VGroup, CubeGrid, Rectangle]:
            """The products added one by one, seen (:func:`running_sum`): a
            pile, one framed cube in the ink's color (a sum in progress, on no bar), slides down the strip
            taking in each product as it reaches it, and above it, in the place the strip has left, "Σ so far = …",
            the sum of the products it holds ("Σ = …" once it holds them all), changing (a new text at once, never
            a morph: a glyph of the last doubled, 15_0164) as each lands; the
            strip's name stays on what is left of it (a fold of the strip, all at
            once, said "summed" and was over in a second: no still of any reader
            caught an addition, G8 of the 38th). One size in every scene, a
            note's (it fits the bench between A and B; a name's where it fit
            read as two sizes for one thing: 08_0252, the 39th). Explained
            (the first cell), said, slower, and held; else in about
            ``run_time``. ``cube`` is a stand-in the pile's size. Returns the
            sum (shown, pinned: its one text, the whole sum, at the end) and
            the pile (shown: one cube, the sum, over the last product's place;
            a piece of the products until :func:`on_c`) and its frame (shown)."""
            terms = products[i, j]
            count = len(terms)
            # said to be a sum so far until it is the whole sum (a quick cell's "Σ = 0.00" beside products up to
            # 2.57 read as a contradiction: 19_0356, the 40th reader); on two lines, to fit the bench
            partial = at_step_of(np.cumsum(terms), table[i, j])
            texts = [note_text(f"Σ so far\n= {v}" if n < count - 1 else f"Σ = {v}", layout.theme,
                               font_size=TEXT_SIZE) for n, v in enumerate(partial)]
            number = VGroup(texts[0])
            layout.fixed(number, *texts)
            # on the bench, clear of A and B; below the strip's top, in the place the pile has left
            low, high = layout.screen_box([left])[2] + LABEL_GAP / 2, layout.screen_box([right])[0] - LABEL_GAP / 2
            top = layout.screen_box([piece])[3]
            pile = pile_at(piece)
            probe = cube.copy()

            def update(mob, alpha):
                probe.move_to(pile(alpha))
                mob.submobjects = [texts[summed_at(alpha, count) - 1]]
                layout.beside([probe], mob, UP, buff=0.15)
                mob.shift(RIGHT * (max(0.0, low - mob.get_left()[0]) - max(0.0, mob.get_right()[0] - high)))
                mob.set_opacity(1.0 if mob.get_top()[1] <= top + 1e-3 else 0.0)

            told = []
            if explain:  # said from the frame "Σ" first shows above the pile, never before (the caption named a
                # "Σ, above them" not yet on screen: 06_0239, the 41st reader)
                shown = 0.0
                for alpha in np.linspace(0.0, 1.0, 201):
                    update(number, alpha)
                    if max(t.get_fill_opacity() for t in number.family_members_with_points()) > 0.5:
                        shown = alpha
                        break
                update(number, 0.0)
                told = _saying(scene, say, f"the {count} products added one by one into the framed cube: "
                                            f"Σ so far")
                for animation in told:
                    animation.rate_func = done_at(shown)
            sums = sums_so_far(terms, table[i, j])
            # the ink's color, framed, while it sums: a sum in progress, on no bar (on C's colors, the pile beside
            # the products' bar read as a contradiction: 05_0427, the 43rd and 44th readers; on the products',
            # clipped red, it landed orange, and looked like one more product: 08_0134, 03_0320, the 48th); on
            # C's as it leaves them
            heap, adding = running_sum(piece, sums, piece.value_range, 0, toward=lift / 2,
                                       color=color_to_rgb(layout.theme.ink))  # a piece of the products
            frame = frame_around(layout, heap, (0, 0, 0))

            def framing(mob, alpha):  # on the pile at every frame (its move comes first in the play)
                left_x, bottom, right_x, top = layout.screen_box([heap])
                mob.move_to([(left_x + right_x) / 2, (bottom + top) / 2, 0.0])

            writing = InPlace(number, update, rate_func=linear)
            run = min(4.0, max(2.0, 0.2 * count)) / speed if explain else 2.0 * run_time
            if told:  # its subtitle from the same frame
                scene.captions.later(shown * run)
            scene.add(heap, number, frame)
            scene.play(*adding, InPlace(frame, framing, rate_func=linear), writing, *told, run_time=run)
            if explain:  # held, the products all taken in: their name goes with them (held over the pile alone,
                # a legend named a strip no longer there: 08_0134, 09_0135, the 49th reader)
                gone = clear_products()
                scene.play(*gone, run_time=0.3 / speed) if gone else scene.wait(0.3 / speed)
            return number, heap, frame

        def over_b(start, end) -> list[np.ndarray]:
            """The way from ``start`` (a sum on the bench) to ``end`` (its
            cell of C), in the world: straight, or, where that crosses B,
            up to clear B's top and across, down between B and C (left of a
            label over C), and across into the cell (a sum flying over B's
            cubes read as a stray cube on B, under "into its place": 03_0192,
            12_0170, the 72nd, 74th and 75th readers)."""
            camera = layout.camera
            left_x, bottom, right_x, top = layout.screen_box([right])
            (sx, sy), (ex, ey) = project(camera, np.array([start, end]))[:, :2]
            if not (sx < left_x and ex > right_x):
                return [start, end]
            at_edges = sy + (ey - sy) * (np.array([left_x, right_x]) - sx) / (ex - sx)
            if at_edges.min() > top or at_edges.max() < bottom:
                return [start, end]
            level = top + OVER_B * right.pitch
            c_left, _, _, c_top = layout.screen_box([result])
            label = result.label
            if label is not None and label.get_bottom()[1] >= c_top - 1e-3:  # over C: down left of it
                c_left = min(c_left, label.get_left()[0])
            down_x = (right_x + max(right_x, c_left)) / 2
            return [start, world_at_screen(camera, (left_x, level), start),
                    world_at_screen(camera, (down_x, level), end), world_at_screen(camera, (down_x, ey), end), end]

        def on_c(grid, values, shift=ORIGIN, way=None) -> InPlace:
            """``grid`` (sums in progress, on no bar) on C's colors from the
            play's first frame, as the products and their name go, moving by
            ``shift`` over the play (along ``way``, waypoints from its centre,
            where given)."""
            start, way = grid.points.copy(), way or [ORIGIN, np.asarray(shift, float)]
            way = [np.asarray(w, float) - way[0] for w in way]

            def update(m, alpha):
                m.points = start + along(way, smooth(alpha))
                if alpha > 0 and m.part_of is not result:  # C's, named by C's label, once
                    m.recolor(np.reshape(values, (1, -1)), result.value_range)
                    m.part_of = result

            return InPlace(grid, update)

        def sum_into(piece, i, j, run_time, explain=False, defer=False):
            """The products summed, seen: one by one into a cube on C's
            colors going down the strip to the place of the last, their
            running sum written above it (``add_up``). That cube, the sum
            (the products' name gone), flies into C[i, j], the "·" back,
            the sum ("Σ = …") riding with it. The row is laid out again
            (whole, off screen) in its slot for the next column.
            Explained, each caption says what a still of it shows, from the
            frame it is true: the products adding up, then the sum going to
            its place (said as the sum flew, a still of the one cube held
            under "the products added one by one" read as a caption about a
            step not shown: 08_0151, 12_0171, 17_0177). ``defer``: the
            flight is not played but returned, a function the next cell
            calls once its pair's names are on screen: it gives the flight's
            animations (the products' name gone, B's label left as it is) for
            that cell's first play, and what to do after it (an
            empty bench while the sum flew, a still read as a cell value that
            "simply appears": 10_0366, the 45th reader)."""
            unfolded = piece.points.copy()
            probe = result.like(np.array([[table[i, j]]]), result.value_range)
            probe.move_to(piece.cell_center(0, k - 1))
            number, cube, framed = add_up(piece, i, j, probe, explain, run_time)

            def whole_again():
                piece.points = unfolded
                piece.cube_opacity[:] = 1.0  # whole again: the pile had taken in its cubes
                piece.shift(bench.slot(-1) - piece.get_center())

            def landed():
                result.set_cell_opacity(1.0, (0, i, j))
                scene.remove(cube, number)

            def riding():
                """"Σ = …" riding with the cube, at each point of its way on a side
                the texts on screen now leave clear, hidden where neither is: a
                function giving its motion."""
                # the sum goes to its place, "Σ = …" riding over it or under it, clear of every text (a still of
                # one small cube in flight read as a stray: 14_0194 and 14_0200, the 32nd and 33rd readers;
                # 19_0348 the 38th, a later cell's); gone for the whole way wherever one point of it had no room,
                # the cube flew alone and read as a stray again: 03_0192, 12_0170, the 72nd and 75th readers
                sides = riding_sides(number[0], cube, result.cell_center(i, j), way)

                def ride(mob, alpha):
                    side = sides[min(len(sides) - 1, int(round(smooth(alpha) * (len(sides) - 1))))]
                    if side is not None:
                        layout.beside([cube], mob, side, buff=0.15)
                    mob.set_opacity(0.0 if side is None else 1.0)

                return lambda: [InPlace(number, ride)]

            way = over_b(cube.get_center(), result.cell_center(i, j))
            if defer:
                named, shown["products"], shown["label"] = shown["label"], None, None
                whole_again()

                def flight():
                    # the products' name gone before the play: the strip it named is the next pair's row by then
                    scene.remove(named)
                    return ([on_c(cube, table[i, j], way=way),
                             vanish(framed, rate_func=at_once), appear(dot, rate_func=at_once),
                             *riding()()], landed)

                return flight
            gone = clear_products()
            told = (_saying(scene, say, f"{first_cell} = {shown_value(table[0, 0])}: the sum of the {k} products, "
                                        f"into its place") if explain else [])
            carried = riding()
            if explain:  # the pile is the sum: one cube on C's colors, the products' name gone in that frame
                # (held under their name, a still showed a named smudge: G1 of the 37th reader, 14_0185), the caption
                # saying it from that frame
                scene.play(*gone, on_c(cube, table[i, j]), vanish(framed, rate_func=at_once), *told, *carried(),
                           run_time=0.1)
                gone, told = [], []
                scene.wait(0.3 * run_time)  # the sum, its number beside it, before it goes to its place
            scene.play(on_c(cube, table[i, j], way=way), *gone,
                       *([] if explain else [vanish(framed, rate_func=at_once)]),
                       appear(dot, rate_func=at_once), *told, *carried(), run_time=0.75 * run_time)
            landed()
            whole_again()
            return None

        def cell(j, run_time, explain, told="", landing=None, more=False):
            """Cell (0, j) formed on the bench (``told``: the caption that comes
            as the pair stands there, for the first cell; ``landing``: the last
            cell's sum, still to fly to its place as this pair comes, from
            :func:`sum_into`; ``more``: another cell comes after this one, its
            sum flying as it does). Returns this cell's flight where ``more``."""
            boxes = [frames.around(left, (0, 0)), frames.around(right, (0, slice(None), j)),
                     frames.around(result, (0, 0, j))]
            row_values = left.values[0, 0]
            # column j of B, copied out of B (B stays whole) into the bench's right slot, across the "·"
            # from A's row: the pair side by side between the blocks, nothing covered
            column = right.subgrid((0, slice(None), j))
            column.set_cell_opacity(1.0)  # lit, whatever the last column's frame left dimmed (a dim copy
            column.part_of = right  # beside the row read as a ghost: 05_0187, 09_0180)
            to_bench = [column.animate.shift(bench.slot(+1) - column.get_center())]
            there = column.copy().shift(bench.slot(+1) - column.get_center())
            named = column_label(there, j)  # named half-way to the bench, as the row is

            def name_column(row_label) -> list:
                """The column copy's name, where it stands clear of the row's; else none (fewer names,
                never text on text: a long row name pushed clear of A's label reaches over the column)."""
                nonlocal named
                if named is None:
                    return []
                if (named.get_left()[0] < row_label.get_right()[0] + LABEL_GAP
                        and named.get_right()[0] > row_label.get_left()[0] - LABEL_GAP
                        and abs(named.get_center()[1] - row_label.get_center()[1])
                        < (named.height + row_label.height) / 2):
                    named = None
                    return []
                return [appear(named, rate_func=halfway)]  # the copy stays B's part: B's label names it too
            if j == 0:
                piece = left.subgrid((0, 0))
                piece.part_of = left
                scene.play(left.animate.highlight((0, 0), DIM), right.animate.highlight((0, slice(None), 0), DIM),
                           result.animate.set_cell_opacity(FORMING_OPACITY, (0, 0, 0)), *frames.to(boxes),
                           run_time=0.3 * run_time)
                scene.add(piece, column)
                # the row, named as A's row from the moment it leaves A, stands up in the bench's left slot
                standing = piece.copy().rotate(-PI / 2, OUT)
                standing.shift(bench.slot(-1) - standing.get_center())
                # named as it arrives on the bench (never over the column copy alone; named half-way, as it
                # stood up, it passed through its own name on its way down to the bench: 12_0056, 19_0214, the
                # 45th reader)
                row_label = products_label(piece, row_title(0), row_values, value_range=left.value_range,
                                           at=standing, row=True)
                row_label = pair_label(piece, row_label, standing, there, j)
                naming = take_place(row_label, when=at_end) + name_column(row_label)
                # it stands up about its last cube (nearest the bench), swinging up over A, not across A's
                # rows (a strip lying diagonally over the block read as a glitch: 05_0070, 12_0070)
                pivot = piece.cell_center(0, k - 1)
                upright = piece.copy().rotate(-PI / 2, OUT, about_point=pivot)
                # room above A to stand in: under the stage area's top, and under A's label where that is over A
                # (it stood up through A's color bar: 19_0213, the 50th and 51st readers)
                room_top = layout.area().top + 0.3
                if left.label.side[1] > 0:
                    room_top = min(room_top, left.label.get_bottom()[1])
                clear = layout.screen_box([upright])[3] <= room_top
                # quick (a still of the row mid-turn reads as a twisted ribbon: 10_0063), then the pair held,
                # the caption saying so once it is true (not over a row still in A: 03_0059, 08_0050)
                # round a corner into the bench's slot where the slot hangs from the row's line (never over A
                # or its frame), else standing up over A
                target = upright.copy().shift(bench.slot(-1) - upright.get_center())
                turning = bend_into(piece, target) or stand_up(piece, pivot, bench.slot(-1) - upright.get_center(),
                                                               clear)
                # the caption says the move from its first frame, as a move ("turns into a column"): a still of
                # the row half round the corner under "stands beside" read as a glitch, a "snake" (12_0056, 19_0212,
                # the 56th, 58th and 59th readers)
                telling = all_at_once(_saying(scene, say, told)) if told else []
                scene.play(turning, *to_bench, *naming, *telling, run_time=0.18 * run_time)
                if explain:
                    scene.wait(0.15 * run_time)
                shown["row"], shown["products"], shown["label"] = piece, piece, piece.label
            else:
                piece = shown["row"]
                # the row again on the bench, named as A's row in the same instant (its last products went
                # into their sum), as the next column comes out of B beside it
                piece.recolor(row_values, left.value_range)
                label = products_label(piece, row_title(0), row_values, value_range=left.value_range, row=True)
                label = pair_label(piece, label, piece, there, j)
                if arrangement.slot == IN_PLACE and shown["b"] != "plain":  # beyond B's name, in its place
                    scene.remove(right_label)
                    right.label, shown["b"] = plain, "plain"
                    scene.add(plain)
                # named half-way, as the column comes and the last sum lands (named from the first frame, it said
                # column j while the sum of column j - 1 flew to its cell: 07_0260, the 56th and 59th readers)
                scene.add(piece, label, column)
                naming = appear(label, rate_func=halfway)  # its own opacities kept before they are set to none
                label.set_opacity(0.0)
                shown["products"], shown["label"] = piece, label
                flying, landed = landing() if landing is not None else ([], None)
                scene.play(right.animate.highlight((0, slice(None), j), DIM), *to_bench, *name_column(label), naming,
                           result.animate.set_cell_opacity(FORMING_OPACITY, (0, 0, j)), *frames.to(boxes),
                           *flying, run_time=0.3 * run_time)
                if landed is not None:
                    landed()
            # the first cell's products said as they show (under "row 0 … turns into a column", a still of the
            # products read as the caption running behind: 07_0086, the 61st reader)
            meeting = all_at_once(_saying(scene, say, f"each pair multiplied: the {k} products, on their own "
                                                      f"colors")) if explain else ()
            multiply(piece, column, products_title(products_name(left_name, right_name, 0, j, vector), 0, j),
                     products[0, j], 0.2 * run_time, column_name=named, told=meeting)
            marks = VGroup()
            if explain:
                row_values, column_values = left.values[0, 0], right.values[0, :, 0]
                marks = VGroup(*[frames.pointer(piece, p) for p in quoted_terms(row_values, column_values)])
                say(cell_arithmetic(result_name, row_values, column_values, table[0, 0], cell=first_cell)
                    + self.cell_note)
                scene.play(appear(marks), run_time=0.3)
                scene.wait(2.0 / speed)
                scene.remove(marks)
            flight = sum_into(piece, 0, j, 0.3 * run_time, explain, defer=more and not explain)
            if explain:
                scene.wait(1.0 / speed)
            return flight

        def row(i, run_time, told=""):
            """Row ``i`` against all of B at once (``told``: the caption that
            comes as its frames do, not over the last cell's: 15_0180)."""
            boxes = [frames.around(left, (0, i)), frames.around(right, (0,)), frames.around(result, (0, i))]
            values = products[i].T
            piece = right.like(values, own_range(values))
            piece.align_cell((0, 0, 0), right.cell_center(0, 0) + lift)
            # the row times every column of B (the row broadcast): the products laid over B, on their own
            # scale and named so, in B's stead, all in one frame (laid column by column, a still caught B's
            # last columns under the products' name and read them as wrong products: 03_0437, 05_0529 for
            # the 28th and 31st readers; B hidden read as "the operand vanished", B dimmed under them as "the
            # products show B"), from the frame the row's frames start to move (after them, a still caught
            # the row framed over a bare B and read "whole rows just appear": 03_0520, the 45th reader), then
            # held whole
            label = products_label(piece, products_title(products_name(left_name, right_name, i, vector=vector), i),
                                   values)
            # (the last products, if any, go in that frame: B's label goes from whatever it shows to none; the
            # frames jump to row i with them: the products of row i under a frame still on row i - 1 mismatched)
            # the caption with them, at once (half-way, a still of the products' first frames read "one cell at
            # a time", the last caption, over all of B's columns at once: 19_0356, the 50th reader)
            scene.play(*clear_products(back=False), left.animate(rate_func=at_once).highlight((0, i), DIM),
                       right.animate(rate_func=at_once).clear_highlight(),
                       result.animate(rate_func=at_once).set_cell_opacity(FORMING_OPACITY, (0, i)),
                       *frames.to(boxes, jump=True),
                       appear(piece, rate_func=at_once), *take_place(label, covering=True), *flowing(True),
                       *all_at_once(_saying(scene, say, told) if told else []), run_time=0.25 * run_time)
            scene.wait(0.3 * run_time)
            shown["products"], shown["label"] = piece, label
            # each column of products summed as the first cell's were (:func:`running_sum`): a row of cubes, the
            # sums so far in the ink's color (on no bar), goes down the columns taking in the products, and ends
            # as C's row i, on C's colors as it leaves them
            # (squashed into a band of the products' colors under their name and shape, the columns read as a
            # glitch: 08_0221, 12_0425, the 42nd reader). B, under them, is not seen (B's colors under the name
            # "products": 19_0328); its rows come back dimmed as the sums pass them, as a block not in play is
            # (B gone until the sums left, the picture read "U · (products) = result", an operand vanished:
            # 07_0471, 08_0224, the 43rd reader), whole and named as the sums leave
            right.set_cell_opacity(0.0)
            # they end on B's bottom row, whence they go straight into C's row i over C's empty rows only, where
            # that row is level with C's row i or lower (ended on the top row, they were dropped to C's row i's
            # level first, over B, framed: a still read it as "row i of A times row i of B", 07_0435, the 46th
            # reader); else on the row on the products' name's side (a strip at the top, its name a block's
            # height below, read as an unnamed stray: 17_0295, 16_0215, the 40th reader). B's frame is on them
            # all the way down (the sums so far in the rainbow the products wear read as one more row of
            # products; left whole on B, it framed an empty block: 07_0435, 16_0230)
            down = result.axis_vectors()[1]
            below = float(np.dot(right.cell_center(k - 1, 0) - result.cell_center(i, 0), down)) >= -1e-6
            end = k - 1 if below or arrangement.products_side[1] < 0 else 0
            partial = sums_so_far(values, table[i], reverse=end == 0)
            sums, adding = running_sum(piece, partial, piece.value_range, 1, reverse=end == 0, toward=lift / 2,
                                       color=color_to_rgb(layout.theme.ink))  # sums in progress, on no bar
            scene.add(sums)
            frames.shown[1].become(frames.around(piece, (0, k - 1 - end)))
            taken = np.arange(k) if end > 0 else np.arange(k)[::-1]  # B's rows in the order the sums pass them

            def back(grid, alpha):
                passed = np.isin(np.arange(k), taken[:summed_at(alpha, k)])
                grid.cube_opacity = np.repeat(np.where(passed, DIM, 0.0), n)

            scene.play(*adding, InPlace(right, back, rate_func=linear),
                       frames.shown[1].animate(rate_func=linear).become(frames.around(piece, (0, end))),
                       run_time=0.35 * run_time)
            # from B's bottom row, at or below C's row i, straight into it (over C's empty rows alone); else first
            # level with C's row i, in front of B, then straight across into it: flown on a slant from B's top
            # row, they crossed C's rows already formed (05_0632, the 40th reader, as the 39th). B's frame, on
            # them, goes with them (left on B's top row it read as that row being an operand, the sums sliding
            # out of it: 07_0431, 12_0395); B stays dimmed as they passed it, not in play (B back whole and
            # framed whole under its own name as they flew, a still read a bright Xᵀ in focus "while row 0 is
            # computed at once", the products gone or named wrong: 08_0222, 09_0224, 16_0212, the 51st reader)
            drop = float(np.dot(result.cell_center(i, 0) - sums.cell_center(0, 0), down)) * down
            def framing(frame):  # around the sums wherever they are (after their move in the play)
                return InPlace(frame, lambda m, alpha: m.become(frame_around(layout, sums, (0, 0))))

            if not below and np.linalg.norm(drop) > 1e-6:  # the products and their name gone, B's name back
                scene.play(on_c(sums, table[i], drop), framing(frames.shown[1]), *clear_products(),
                           run_time=0.12 * run_time)
            scene.play(on_c(sums, table[i], result.cell_center(i, 0) - sums.cell_center(0, 0)), *clear_products(),
                       *uncover(), *flowing(False), right.animate(rate_func=at_once).set_cell_opacity(DIM),
                       framing(frames.shown[1]), run_time=(0.32 if below else 0.2) * run_time)
            result.set_cell_opacity(1.0, (0, i))
            scene.remove(sums)

        def sweep(start, run_time, told=(), values=None, names=None, joining=(), ends=(0.3, 0.2), named=None,
                  hide=True, between=None):
            """C's rows from ``start`` (empty slots) formed one after another,
            faster than :func:`row`, with no running sum: as the frames go down
            A's rows and C's, row r's products lie over B (on their own scale,
            named, B's label gone), from the frame the frames reach row r, as
            C's row r fills (frames going down a bare B read as cells that
            "just appear": 07_0707, 08_0336, 17_0444, the 45th reader).
            ``values``: the (left, right) matrices the rows are of (another
            head's, ``left`` and ``right`` showing them), ``names``: theirs;
            by default the fill's own. ``told``, ``joining``: animations for
            the first frame (a caption; what leaves as the sweep starts);
            ``ends``: the time the products take to come and to go;
            ``named``: B's label as it goes and as it comes back (by default
            the one it has); ``hide``: B's cubes hidden here (else by a
            ``joining`` animation); ``between``: called after the first
            frame's play."""
            # row i times every column: (m, n, k)
            made = products if values is None else matmul_products(np.reshape(values[0], (m, k)),
                                                                   np.reshape(values[1], (k, n)))
            a_name, b_name = names if names is not None else (left_name, right_name)
            pieces, labels = [], []
            for i in range(start, m):
                values_i = made[i].T  # k×n, laid over B
                piece = right.like(values_i, own_range(values_i))
                piece.align_cell((0, 0, 0), right.cell_center(0, 0) + lift)
                title = products_title(products_name(a_name, b_name, i, vector=vector), i, right=b_name)
                labels.append(products_label(piece, title, values_i))
                pieces.append(piece)
            # all of them in one group from the start, one row's in sight at a time (a group's members swapped
            # in a play are drawn as they stood at its start, the first row's name under every other's)
            lying = Group(*pieces, *labels)
            setters = [(opacity_setter(p), opacity_setter(q)) for p, q in zip(pieces, labels)]
            for shows in setters[1:]:
                for setter in shows:
                    setter(0.0)
            marks, framing = row_sweep(layout, left, result, start=start)
            whole = frame_around(layout, right, (0,))
            going, back = named if named is not None else (right.label, right.label)

            def show(group, alpha):
                r = min(len(pieces) - 1, int(alpha * len(pieces)))
                for q, shows in enumerate(setters):
                    for setter in shows:
                        setter(1.0 if q == r else 0.0)

            scene.play(*joining, appear(lying, rate_func=at_once), appear(marks, rate_func=at_once),
                       appear(whole, rate_func=at_once), vanish(going, rate_func=at_once), *flowing(True),
                       *([right.animate(rate_func=at_once).set_cell_opacity(0.0)] if hide else []), *told,
                       run_time=ends[0])
            if between is not None:
                between()
            scene.play(fill_rows(result, start=start), framing, InPlace(lying, show), lit_row(left, start),
                       run_time=run_time)
            scene.play(vanish(lying, rate_func=at_once), appear(back, rate_func=at_once), *flowing(False),
                       right.animate(rate_func=at_once).set_cell_opacity(1.0),
                       left.animate(rate_func=at_once).clear_highlight(), run_time=ends[1])
            scene.remove(marks, whole, lying)

        first = n if self.cells is None else min(self.cells, n)
        # what is about to happen, not the products' name before there are products
        on = right_name if vector else f"column 0 of {right_name}"
        if first:
            cell(0, 4.0 / speed, explain=True, told=f"row 0 of {left_name} turns into a column beside {on}: {k} pairs "
                                                      f"to multiply")
        if first > 1:
            say(f"row 0 against every column of {right_name}, one cell at a time")
        flight = None
        shown_rows = m - 1 if self.rows is None else min(self.rows, m - 1)
        # each sum flies to its place as the next pair comes: the bench never empty (the last one alone: flown
        # as the next row's products came, it went behind them, its "Σ = …" over them: 19_0356, the 46th reader)
        for j in range(1, first):
            flight = cell(j, max(0.8, 2.4 * 0.8 ** j) / speed, explain=False, landing=flight, more=j + 1 < first)
        if "row" in shown:  # the row leaves the bench with its products' label
            scene.remove(shown.pop("row"))
            if shown["label"] is not None:
                scene.remove(shown["label"])
            shown["products"] = shown["label"] = None
        # a repeat that shows no later row whole (``rows`` 0) sweeps the rest of row 0 with the other rows, a
        # row at a time: row 0 against all of B at once is the first showing's, and its sums, a pale row over a
        # dim block, read as nothing happening while the rows then came in under 3 s, "from nowhere" (08_0182,
        # 09_0183, the 52nd and 53rd readers)
        swept = self.rows == 0 and 0 < first < n and self.later
        if first < n and not swept:  # the rest of row 0 as every later row: against all of B at once
            row(0, (2.6 if first else 4.0) / speed, told=(
                f"the rest of row 0: row 0 against all {n} columns of {right_name} at once" if first else
                f"row 0 of {left_name} against all {n} columns of {right_name} at once: {k} products down each "
                f"column, summed into cell (0, j)"))
        if not self.later:  # rows 1 … stay empty slots: the caller forms them
            # said as the products go: "the rest of row 0 … at once" stayed over the formed row and bare blocks
            # until the caller's next move (16_0209, the 73rd reader)
            done = _saying(scene, say, f"row 0 of {result_name} formed: {n} cells, each one row · column sum"
                           if n > 1 else f"{result_name}[0] formed: one row · column sum")
            scene.play(*clear_products(), *frames.gone(), left.animate.clear_highlight(),
                       right.animate.clear_highlight(), *all_at_once(done), run_time=0.4)
            return Matmul(result, self.signs, sweep)
        rows_told = (f"the remaining rows, one after another: each row of {left_name} times {right_name}, summed"
                     if vector else f"the remaining rows, one after another: row i against all {n} columns of "
                                    f"{right_name} at once")
        for i in range(1, 1 + shown_rows):
            row(i, max(0.9, 2.6 * 0.82 ** i) / speed, told=rows_told if i == 1 else "")
        if swept:
            # each row's products in sight for a moment a still can catch: the rows are all the repeat shows
            sweep(0, 0.45 * m / speed,
                  told=all_at_once(_saying(scene, say, f"the rest of row 0, then rows 1 to {m - 1}, one after "
                                                       f"another: each row of {left_name} against all {n} columns of "
                                                       f"{right_name} at once")),  # with the products
                  joining=[*clear_products(back=False), *frames.gone(), left.animate.clear_highlight()])
        elif shown_rows < m - 1:
            rest = 1 + shown_rows
            # each row's products in sight, about a quarter of a second a row
            sweep(rest, max(1.0, 0.25 * (m - rest)) / speed,
                  told=_saying(scene, say, f"rows {rest} to {m - 1} of {left_name} the same way, one after another, "
                                           f"faster"),
                  joining=[*clear_products(back=False), *frames.gone(), left.animate.clear_highlight()])
        if m > 1:  # said as the last row lands: no caption about rows still to come over a finished block
            cells = f"all {m} entries" if vector else f"all {m * n} cells"
            say(f"{result_name}: {cells} formed, each one row · column sum")
        scene.play(*clear_products(), *frames.gone(), left.animate.clear_highlight(), right.animate.clear_highlight(),
                   run_time=0.4)
        if m > 1:
            scene.wait(0.8 / speed)
        return Matmul(result, self.signs, sweep)


def matmul(scene, layout: Layout, viewpoint, left: CubeGrid, right: CubeGrid, result_values, products, *,
           names, say=None, leaving=(), **kwargs) -> Matmul:
    """Animate ``result = left @ right``, ``left`` and ``right`` labelled on
    screen: the rule said, ``A · B = C`` arranged (``leaving``: on screen,
    gone as the blocks take their places), then filled in
    (:class:`MatmulMotion`, which takes the other keywords). Returns the
    result, labelled, and the signs."""
    motion = MatmulMotion(scene, layout, viewpoint, left, right, result_values, products, names=names, say=say,
                          **kwargs)
    # the rule said as the blocks take their places; ``leaving`` (a sign standing between the operands
    # before: a stage's opening "·") goes as they move, the matmul's own signs coming once they stand
    motion.arrange(told=_saying(scene, motion.say, motion.rule()) + [vanish(m, rate_func=at_once) for m in leaving])
    return motion.fill()


@dataclass
class BatchedMatmul:
    """What :func:`batched_matmul` leaves: the 3D result (labelled) and, when
    not stacked, what is still on screen from the matmul and should leave
    with the next move (``leaving``: the operands, their labels, the signs)."""

    block: CubeGrid
    leaving: list = field(default_factory=list)
    operands: tuple = ()  # the operands' head-0 slices on the bench (the left's, the right's), when not stacked


def _saying(scene, say, text: str) -> list:
    """The animations that put ``text`` up as the caption in the play they
    join (the scene's ``saying``), or none: said at once, in a play of its own."""
    saying = getattr(scene, "saying", None)
    if saying is not None and getattr(scene, "captions", None) is not None:
        return saying(text)
    say(text)
    return []


def head_slice(name: str, h: int) -> str:
    """Head ``h``'s slice of the tensor ``name``, as PyTorch indexes it: ``name[h]``."""
    return f"{name}[{h}]"


def batched_matmul(scene, layout: Layout, viewpoint, left: CubeGrid, right: CubeGrid, result_values,
                   products_head0, *, names, say=None, result_range=None, speed: float = 1.4,
                   view=None, slice_names=None, scales_of=None, cells: int | None = None, rows: int | None = 2,
                   stack: bool = True, together: bool = False, signs=()) -> "BatchedMatmul":
    """``result[h] = left[h] @ right[h]`` for every head ``h``, as a viewer can follow it.

    ``left`` (h×m×k) and ``right`` (h×k×n), labelled, are on screen. Head 0's
    slices leave their blocks (the other heads fade out) and go through
    :func:`matmul`; then, head after head, the operands show head h's slices
    and the result head h's, filled in row after row; last the results stack
    up into the 3D block, seen from ``view``. ``names`` = (left, right,
    result) of the whole tensors; ``slice_names``: three functions (name,
    h) -> how head h's slice of each is written (default :func:`head_slice`);
    ``scales_of``: what each slice's colors are shared with, as its label
    says ("colors of ..."; default: "all heads", for a tensor with a head
    axis; a matrix cut in parts says "all of W.T"); ``cells``: of head 0's
    row 0, how many are formed one by one (see :class:`MatmulMotion`: a
    stage that repeats an earlier matmul shows fewer); ``rows``: of head
    0's later rows, how many show their products (the rest swept, as the
    other heads: every batched matmul repeats a single-head one); ``stack``: the
    heads' results stack into one block filling the stage area (else they
    stay where they were formed, under head h's label, for the caller to
    take apart, the operands with them: :class:`BatchedMatmul`'s
    ``leaving``); ``together``: of more than one head, only head 0's row 0
    is formed here (the worked example); head 0's later rows and heads 1 …
    are left empty slots in the returned block, for the caller to form all
    at once, row after row (:func:`~scenes.motions.heads.pair_heads` and
    ``form_pairs``, with ``operands``; not stacked). ``signs``: on screen
    between the blocks (a stage's opening "·"), kept while head 0's slices
    come out of them, gone as the matmul lays out its own. Returns the 3D
    result block, labelled ``names[2]`` (below it, placed).
    """
    left_slice, right_slice, result_slice = slice_names or (head_slice,) * 3
    heads = left.grid_shape[0]
    left_of, right_of, result_of = scales_of or ("all heads",) * 3 if heads > 1 else (None,) * 3
    say = say or (lambda text: None)
    left_name, right_name, result_name = names
    left_values, right_values = left.values.copy(), right.values.copy()
    copies = np.allclose(right_values, right_values[:1])  # a broadcast: every head's right is the same
    pieces = []
    for block, name in ((left, left_name), (right, right_name)):
        piece = block.subgrid((0,), values_shape=block.grid_shape[1:])
        piece.dims = (None,) + tuple(block.dims[1:])
        one = copies and block is right
        layout.name(piece, name if one else (left_slice if block is left else right_slice)(name, 0), DOWN,
                    scale_of=None if one else left_of if block is left else right_of, stacked=True)
        pieces.append(piece)
    left0, right0 = pieces
    rest = [block for block in (left, right)]
    told = _saying(scene, say, f"head 0 first: one ordinary {shape_text(left0.grid_shape[1:])} · "
                               f"{shape_text(right0.grid_shape[1:])} matmul" if heads > 1
                   else "one head: one ordinary matmul")
    scene.add(left0, right0)
    labels = [a for block, piece in ((left, left0), (right, right0))
              for a in swap(block.label, layout.place(piece), rate_func=at_once)]
    # the whole blocks go at once, each slice named from the moment it is out, the caption with them (a fading
    # 3D block under its head-0 slice's name read as a mislabelled block: 15_0062; the names swapped half-way,
    # the slices stood under the whole tensors' names and shapes: 15_0053, the 52nd reader)
    scene.play(*[vanish(b, rate_func=at_once) for b in rest], *labels, *all_at_once(told), run_time=0.5)
    value_range = result_range or (float(np.min(result_values)), float(np.max(result_values)))
    last = heads - 1  # the widest names come last: room for them from the start
    room = [layout.sized_label(left_slice(left_name, last), left0.grid_shape[1:], stacked=True,
                               value_range=left.value_range, scale_of=left_of),
            None if copies else layout.sized_label(right_slice(right_name, last), right0.grid_shape[1:],
                                                   stacked=True, value_range=right.value_range, scale_of=right_of),
            layout.sized_label(result_slice(result_name, last), result_values.shape[1:], stacked=True,
                               value_range=value_range, scale_of=result_of)]
    batch = together and heads > 1  # one head has no batch to form its later rows with
    done = matmul(scene, layout, viewpoint, left0, right0, result_values[0], products_head0,
                  result_range=value_range, say=say, speed=speed, names_room=room, cells=cells, rows=rows,
                  later=not batch, leaving=signs,
                  names=(left0.label.tensor_name, right0.label.tensor_name, result_slice(result_name, 0)),
                  result_scale_of=result_of)  # head 0's result says whose colors it wears, as every head's
    head = done.result
    for h in range(1, 1 if together else heads):
        run = max(1.0, 1.8 * 0.9 ** h) / speed
        olds = [left0.label, head.label] + ([] if copies else [right0.label])
        layout.name(left0, left_slice(left_name, h), olds[0].side, scale_of=left_of, stacked=True,
                    values=left_values[h])
        layout.name(head, result_slice(result_name, h), olds[1].side, stacked=True, values=result_values[h],
                    scale_of=result_of)
        news = [layout.place(left0), layout.place(head)]
        if not copies:
            layout.name(right0, right_slice(right_name, h), olds[2].side, scale_of=right_of, stacked=True,
                        values=right_values[h])
            news.append(layout.place(right0))
        # head h's slices and names in one frame, its result empty slots: a blend of two heads' colors,
        # or a result fading out, matched no name and was caught so (16_0357, 21_0492 for the nineteenth
        # reader); the time goes to the rows filling under their frames
        # (the right operand hidden in that frame: row 0's products lie over it from then, its new name
        # coming back with it as the products go)
        moves = [left0.animate(rate_func=at_once).recolor(left_values[h], left.value_range),
                 right0.animate(rate_func=at_once).set_cell_opacity(0.0) if copies else
                 right0.animate(rate_func=at_once).recolor(right_values[h], right.value_range).set_cell_opacity(0.0)]
        # the caption for heads 1 … comes with head 1's names, not over head 0's (16_0474)
        # shown in turn, but one batched matmul: "one after another" contradicted 14-16's "at once" (G11, 36th)
        told = _saying(scene, say, f"heads 1 to {heads - 1}: the same, each with its own slices (one batched "
                                   f"matmul; shown head by head)") if h == 1 else []
        swaps = [a for old, new in zip(olds[:2], news[:2]) for a in swap(old, new, rate_func=at_once)]
        # row after row, as head 0's later rows, each row's products in sight from the head's first frame (a
        # reader saw "heads 1 to 8" over still frames: 17_0451; frames over bare operands as cells that "just
        # appear": 17_0444, the 45th)
        done.sweep(0, 0.85 * run, values=(left_values[h], right_values[h]),
                   names=(left_slice(left_name, h), right_name if copies else right_slice(right_name, h)),
                   joining=[*moves, head.animate(rate_func=at_once).set_cell_opacity(SLOT_OPACITY).empty(), *told,
                            *swaps],
                   named=(right0.label, right0.label) if copies else (olds[2], news[2]), hide=False,
                   between=lambda h=h: head.recolor(result_values[h], value_range),  # its values, empty slots
                   ends=(0.15 * run, 0.1))
    block = head.like(result_values, value_range, dims=("heads",) + tuple(head.dims[1:]))
    block.align_cell((0, 0, 0), head.cell_center(0, 0))
    if together:  # heads 1 …, and head 0's rows after row 0, still to form: empty slots
        for later in ((slice(1, None),), (0, slice(1, None))) if batch else ():
            block.set_cell_opacity(SLOT_OPACITY, later).empty(later)
        stack = False
    layout.name(block, result_name, DOWN if stack else head.label.side)
    scene.remove(head)
    scene.add(block)
    texts = [left0.label, right0.label, done.signs, head.label]  # they go at once: no text slides with the turn
    if not stack:  # the heads' results stay where they were formed; the operands leave with the next move
        layout.place(block)  # its label, not shown yet: it takes head h's at the next move's first frame
        return BatchedMatmul(block, [left0, right0, *texts], (left0, right0))
    # the heads stack into one block, which grows to fill the stage area as the camera turns to see its
    # depth; named from its first frame, its label gliding with it
    target = layout.settled(block, Margins(bottom=block.label.height + LABEL_BUFF + 0.1), view=view or FRONT)
    layout.place(block)
    if heads > 1:
        say(f"the {heads} heads' results stacked: {result_name}, {shape_text(result_values.shape)}")
    scene.play(vanish(left0, rate_func=at_once), vanish(right0, rate_func=at_once),
               *[vanish(t, rate_func=at_once) for t in texts], appear(block.label, rate_func=at_once),
               layout.follow(block, target, view or FRONT),
               block.animate.become(target), *([viewpoint.turn(*view)] if view else []), run_time=1.0)
    layout.beside([block], block.label, DOWN, buff=LABEL_BUFF)
    return BatchedMatmul(block)


def stand_up(piece: CubeGrid, pivot, shift, apart: bool = True) -> InPlace:
    """A row turning a quarter turn clockwise about ``pivot`` (its cube
    nearest the bench: its first cube ends on top) and moving by ``shift``
    (into the bench's slot). ``apart``: the turn first, then the move (the
    row swings up over its block, never across the block's other rows, and
    comes down the gap beside it); else both at once."""
    start = piece.copy()

    def update(m, alpha):
        turned, moved = (min(1.0, 2 * alpha), max(0.0, 2 * alpha - 1)) if apart else (alpha, alpha)
        m.points = start.points.copy()
        m.rotate(-PI / 2 * turned, axis=OUT, about_point=pivot)
        m.shift(moved * np.asarray(shift, float))

    return InPlace(piece, update)


def bend_into(piece: CubeGrid, target: CubeGrid) -> InPlace | None:
    """A row going round a corner into a column (``target``: the row as it
    stands in the column, its first cube on top), cube after cube, like a
    train: the row slides along its own line out of its block, its last
    cube leading, and each cube turns down at the corner where that line
    meets the column's. Every cube travels the same way, so the row stays
    whole and in order at every frame, never over another row of its block
    or anything beside it (a row turning about a cube swung diagonally
    across its block or its frame: 12_0056, 19_0212, the 56th and 57th
    readers). A column reaching a little higher than the row's line is
    reached round the corner that much lower, then rises into place. None
    where it reaches more than a cube and a half higher, or the row's line
    runs past it (the row has to stand up: :func:`stand_up`)."""
    start, end = piece.cell_centers().reshape(-1, 3), target.cell_centers().reshape(-1, 3)
    count = len(start)
    if count < 2 or len(end) != count:
        return None
    along = (start[-1] - start[0]) / np.linalg.norm(start[-1] - start[0])
    down = (end[-1] - end[0]) / np.linalg.norm(end[-1] - end[0])
    # the corner: the point of the row's line nearest the column's
    w = start[0] - end[0]
    b, d, e = float(along @ down), float(along @ w), float(down @ w)
    if abs(1.0 - b * b) < 1e-6:  # a row already standing: no corner
        return None
    s = (b * e - d) / (1.0 - b * b)
    corner = start[0] + s * along
    before, after = (start - corner) @ along, (end - corner) @ down
    tolerance = 0.05 * piece.pitch
    # a column reaching a little above the row's line: it goes round the corner that much lower, then rises
    rise = max(0.0, -float(after.min()))
    if before.max() > tolerance or rise > 1.5 * piece.pitch:
        return None
    after = after + rise
    ends = target.cube_corners() - end[:, None, :]  # each cube's corners as they end, about its centre
    lift = -rise * down
    share = float(np.mean(after - before)) / (float(np.mean(after - before)) + rise)  # of the play, round the corner

    def at(u: np.ndarray) -> np.ndarray:
        return corner + np.where(u[:, None] < 0, u[:, None] * along, u[:, None] * down)

    def update(m, alpha):
        going, rising = min(1.0, alpha / share), max(0.0, (alpha - share) / (1.0 - share)) if share < 1 else 0.0
        u = before + going * (after - before)
        m.points = (ends + at(u)[:, None, :] + rising * lift).reshape(-1, 3)

    return InPlace(piece, update)


def _line(grid: CubeGrid, axis: int):
    """Along ``axis`` of ``grid`` (0: its rows; 1: its columns), as it
    stands now: the direction, how many cubes, their pitch, and the first
    cube's outer face."""
    direction, pitch = grid.axis_vectors()[axis], grid.pitch
    return direction, grid.grid_shape[2 - axis], pitch, grid.cell_center(0, 0) - direction * pitch / 2


def running_sum(grid: CubeGrid, partial, value_range, axis: int = 0, reverse: bool = False,
                toward=ORIGIN, color=None) -> tuple[CubeGrid, list[InPlace]]:
    """A sum, seen term by term: a pile, one cube for each line of ``grid``
    along ``axis`` (0: each row; 1: each column), starts on the line's first
    cube (``reverse``: its last) and slides along it to the other end,
    taking in each cube it passes: that cube goes under it (gone from
    ``grid``), the cubes ahead of it stay as they are. The pile wears the
    colors of the sum of the cubes it holds, on ``value_range`` (the scale
    of the bar in sight, the terms' own: pressed layers of the terms'
    colors, a red pile beside a negative "Σ so far", read as a
    contradiction: 05_0421, 08_0132, the 42nd reader; on the result's
    scale beside the terms' bar, as one too: 05_0427, 21_0173, the 43rd
    and 44th): ``partial[q]`` is that sum, for each line, once it holds
    q + 1 cubes. At ``alpha`` it holds cubes ``0 … alpha·(count - 1)`` from
    its start (:func:`summed_at`), its place centred at :func:`pile_at`'s,
    shifted by ``toward`` (toward the eye: drawn over the cube it is
    reaching). ``color`` (RGB): the pile wears it instead, sums in
    progress on no bar, "Σ so far" saying its value (any bar's
    colors read wrong to some reader: on the terms', a sum beyond their
    range came out clipped red and landed orange, 08_0134, the 48th; on
    the result's, as above). Returns the pile (not added; a piece of
    ``grid`` until its caller says whose) and its motion, linear: the
    pile's and ``grid``'s (a grid no animation plays on is drawn once, as
    it stood, for the whole play: the cubes the pile had passed stayed in
    sight, 05_0226)."""
    direction, count, pitch, _ = _line(grid, axis)
    partial = np.asarray(partial, float).reshape(count, -1)
    first = count - 1 if reverse else 0
    index = (0, slice(None), first) if axis == 0 else (0, first)
    pile = grid.subgrid(index, values_shape=(1, partial.shape[1]))
    pile.recolor(partial[0][None, :], value_range)
    if color is not None:
        pile.cube_rgb[:] = color
        pile.cube_t[:] = np.nan  # a color that is no value's
    start = pile.points.copy() + np.asarray(toward, float)
    step = -direction if reverse else direction
    passed = np.indices(grid.grid_shape)[2 - axis].reshape(-1)  # each cube's place along its line
    if reverse:
        passed = count - 1 - passed
    shown = grid.cube_opacity.copy()

    def move(m, alpha):
        m.points = start + step[None, :] * alpha * (count - 1) * pitch
        if color is None:
            m.recolor(partial[summed_at(alpha, count) - 1][None, :], value_range)

    def take(m, alpha):
        m.cube_opacity = np.where(passed <= np.floor(alpha * (count - 1) + 1e-9), 0.0, shown)

    return pile, [InPlace(pile, move, rate_func=linear), InPlace(grid, take, rate_func=linear)]


def sums_so_far(terms, total, axis: int = 0, reverse: bool = False) -> np.ndarray:
    """What :func:`running_sum`'s pile holds along ``axis`` of ``terms``
    (``reverse``: from the last term), that axis first: the running sums,
    the last of them ``total`` itself (the sum as computed, not re-added:
    a cumulative sum can differ from it in its last digits).

    >>> sums_so_far([1.0, 2.0, 3.0], 6.0)
    array([1., 3., 6.])
    >>> sums_so_far([[1.0, 2.0], [3.0, 4.0]], [3.0, 7.0], axis=1, reverse=True)
    array([[2., 4.],
           [3., 7.]])
    """
    terms = np.asarray(terms, float)
    sums = np.moveaxis(np.cumsum(np.flip(terms, axis) if reverse else terms, axis=axis), axis, 0).copy()
    sums[-1] = total
    return sums


def pile_at(grid: CubeGrid, axis: int = 0):
    """Where :func:`running_sum`'s pile on ``grid`` (as it stands before it
    runs) is at ``alpha``: the centre of the place of one cube it fills,
    as a function of ``alpha``."""
    direction, count, pitch, start = _line(grid, axis)
    return lambda alpha: start + direction * (alpha * (count - 1) + 0.5) * pitch


def summed_at(alpha: float, count: int) -> int:
    """How many terms :func:`running_sum`'s pile holds whole at ``alpha``.

    >>> [summed_at(a, 5) for a in (0.0, 0.2, 0.25, 0.99, 1.0)]
    [1, 1, 2, 4, 5]
    """
    return 1 + int(np.floor(alpha * (count - 1) + 1e-9))


def sweep_rows(scene, layout: Layout, left: CubeGrid, right: CubeGrid, result: CubeGrid, run_time: float,
               start: int = 0, told=()) -> None:
    """``result``'s rows from ``start`` (empty slots) formed one after
    another, faster than a row with its products: a frame goes down
    ``left``'s rows and ``result``'s as each fills (:func:`fill_rows`), one
    frame on the whole of ``right``; the frames go at the end. ``told``: a
    caption's animations, joining the frames' coming."""
    marks, sweep = row_sweep(layout, left, result, start=start)
    whole = frame_around(layout, right, (0,))
    if told:  # the caption with the frames' coming (joined to the fill, it came half-way through it)
        scene.play(appear(marks, rate_func=at_once), appear(whole, rate_func=at_once), *told, run_time=0.3)
    else:
        scene.add(marks, whole)
    scene.play(fill_rows(result, start=start), sweep, run_time=run_time)
    scene.remove(marks, whole)


def along(way, t: float) -> np.ndarray:
    """The point a share ``t`` of the way along ``way`` (waypoints), by length.

    >>> [along([np.zeros(3), np.array([0.0, 3, 0]), np.array([4.0, 3, 0])], t)[:2].tolist() for t in (0, 0.5, 1)]
    [[0.0, 0.0], [0.5, 3.0], [4.0, 3.0]]
    """
    legs = [float(np.linalg.norm(b - a)) for a, b in zip(way, way[1:])]
    go = t * sum(legs)
    for n, (a, b, leg) in enumerate(zip(way, way[1:], legs)):
        if go <= leg or n == len(legs) - 1:
            return a + (b - a) * (min(1.0, go / leg) if leg > 0 else 1.0)
        go -= leg
    return way[-1]


def row_sweep(layout: Layout, *grids: CubeGrid, start: int = 0) -> tuple[VGroup, InPlace]:
    """A frame on row r of each of ``grids`` (2D, as many rows as the
    last), going down the rows from ``start`` as :func:`fill_rows` fills
    the last in the same time (row r framed while it appears); the frames
    (not shown) and their move."""
    rows = range(start, grids[-1].grid_shape[1])
    boxes = [[frame_around(layout, grid, (0, r)) for grid in grids] for r in rows]
    marks = VGroup(*[box.copy() for box in boxes[0]])
    layout.fixed(*marks)

    def update(group, alpha):
        r = min(len(rows) - 1, int(alpha * len(rows)))
        for mark, box in zip(group, boxes[r]):
            mark.become(box)

    return marks, InPlace(marks, update)


def lit_row(grid: CubeGrid, start: int = 0) -> InPlace:
    """Row r of a 2D ``grid`` lit and the rest dimmed, r going down from
    ``start`` in step with :func:`row_sweep` and :func:`fill_rows`: the
    operand's row in play stands out as it does when a row is worked alone
    (a sweep over a fully lit A hid the frame on its row: 08_0184, 09_0186,
    12_0426, the 72nd and 73rd readers)."""
    rows = grid.grid_shape[1] - start

    def update(block, alpha):
        block.highlight((0, start + min(rows - 1, int(alpha * rows))), DIM)

    return InPlace(grid, update)


def fill_rows(grid: CubeGrid, start: int = 0) -> InPlace:
    """The rows of a 2D ``grid`` from ``start`` (empty slots) fill one after
    another, top to bottom: a row shows its values once it is reached,
    brightening from a slot's opacity; the rows below stay empty slots. A
    cell already formed (a row's first cells, worked before) is left as it
    is, never dimmed to a slot's opacity as its row comes."""
    rows = grid.grid_shape[1] - start
    empty = [np.flatnonzero(grid.cube_empty[grid.cell_ids((0, start + r))]) for r in range(rows)]
    forming = [(r, (0, start + r, columns)) for r, columns in enumerate(empty) if columns.size]

    def update(block, alpha):
        for r, cells in forming:
            ramp = float(np.clip(alpha * rows - r, 0.0, 1.0))
            if ramp > 0.0:
                block.fill(cells)
                block.set_cell_opacity(max(SLOT_OPACITY, ramp), cells)

    return InPlace(grid, update)
