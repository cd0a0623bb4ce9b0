"""Turns: a block turning rigidly, a transpose as its columns lying down one after another as its rows
(each swinging a quarter turn about its cell on the diagonal), a permute per head alike, and the closing
shot that keeps a turn in view (the block before it beside the block after it)."""

from __future__ import annotations

import numpy as np
from manim import DOWN, ORIGIN, PI, RIGHT, Arrow, DashedLine, Mobject, Text, VGroup, linear, smooth

from ..components.cubegrid import CubeGrid
from ..components.fades import InPlace, appear, at_once, swap, vanish
from ..components.labels import TEXT_FONT, TEXT_SIZE
from ..components.projection import FRONT
from ..layout import Margins

__all__ = ["turn", "swing_columns", "transpose_turn", "permute_last_two", "diagonal", "before_and_after",
           "MAX_GROWTH"]

SWING_LAG = 0.45  # of one column's swing, the next column's start after it: two or three in flight at once
SWING_LIFT = 1.5  # pitches toward the eye at the middle of a swing: over the rows already lying there


def turn(mob: Mobject, angle: float, axis, about_point=None, shift=None, scale: float = 1.0,
         **kwargs):
    """A rigid turn (plus an optional shift and growth), not a straight-line morph."""
    start = mob.copy()  # one copy: the turn is recomputed from the start pose each frame
    about = np.asarray(mob.get_center() if about_point is None else about_point, dtype=float)
    shift = np.zeros(3) if shift is None else np.asarray(shift, dtype=float)

    def update(m, alpha):
        m.points = start.points.copy()
        m.rotate(alpha * angle, axis=np.asarray(axis, float), about_point=about)
        if scale != 1.0:
            m.scale(1.0 + alpha * (scale - 1.0), about_point=about)
        m.shift(alpha * shift)

    return InPlace(mob, update, **kwargs)


def swing_columns(scene, grid: CubeGrid, lag: float = SWING_LAG, words=None) -> tuple[list[CubeGrid], list[InPlace]]:
    """A transpose of the last two axes seen as what it does: column j (of
    every head's slice at once) swings a quarter turn in the slice's plane
    about its cell on the diagonal, (j, j), and lies down as row j, one
    column after another (``lag``: of a swing, the next one's start after
    it), lifted toward the eye half-way so that it passes over the rows
    already lying there. Seen at any moment it is rows and columns, some
    turned, one turning: never a slab edge-on or sheared (the half turn
    about the diagonal, at 90°, was a sliver face on and a skewed slab at an
    angle: 19_0063, 14_0486 for the 34th reader). ``grid`` leaves the scene
    for its columns; returns them and their animations (to play, with
    anything else, at a ``linear`` rate: each column eases on its own).
    ``words``: the turned block's row words (each with its ``row``, placed
    beside row ``row``, not shown): each comes as its column lands there,
    so that a still of the swing says which rows are tokens already (a still
    of it read as a tangle of cubes: 14_0486, 19_0063 for the 35th reader;
    a word riding with its column crossed the words already there)."""
    x_axis, row_axis, _ = grid.axis_vectors()
    normal = np.cross(row_axis, x_axis)  # toward the eye: a quarter turn about it takes down to right
    pitch, corner = grid.pitch, grid.cell_center(0, 0, 0)
    depth, rows, cols = grid.grid_shape
    columns = [grid.subgrid((slice(None), slice(None), j), values_shape=(depth, rows, 1)) for j in range(cols)]
    span = 1.0 / (1.0 + lag * (cols - 1))  # of the whole play, one column's swing
    swings = []
    for j, column in enumerate(columns):
        column.part_of = grid
        start = column.copy()
        pivot = corner + j * pitch * (x_axis + row_axis)  # cell (j, j), beyond the block where j ≥ rows
        begin = j * lag * span

        def update(m, alpha, start=start, pivot=pivot, begin=begin):
            t = smooth(float(np.clip((alpha - begin) / span, 0.0, 1.0)))
            m.points = start.points.copy()
            m.rotate(t * PI / 2, axis=normal, about_point=pivot)
            m.shift(normal * SWING_LIFT * pitch * np.sin(PI * t))

        swings.append(InPlace(column, update, rate_func=linear))
    for word in words or ():  # where it is placed, beside its row, from the frame its column lands there
        end = (word.row * lag + 1.0) * span

        def land(mob, alpha, end=end):
            mob.set_opacity(1.0 if alpha >= end - 1e-9 else 0.0)

        word.set_opacity(0.0)
        swings.append(InPlace(word, land, rate_func=linear))
    scene.remove(grid)
    scene.add(*columns, *(words or ()))
    return columns, swings


def transpose_turn(scene, grid: CubeGrid, transposed_values, run_time: float = 1.6, axis_color=None,
                   keep=None, renamed=None, words=None) -> CubeGrid:
    """Show ``grid.T`` as its columns lying down as its rows, one after
    another (:func:`swing_columns`).

    Cell (i, j) travels to (j, i); the columns are then swapped for a grid
    of the transposed values (same colors), which looks identical. With
    ``axis_color``, the diagonal the columns swing about is drawn while
    they do. The turning block is named by ``keep`` (shown), which
    ``renamed`` (placed, not shown: the new name and shape) replaces
    half-way through, as :func:`permute_last_two` does. ``words``: a
    function giving the result's row words (``layout.word_labels``), each
    coming as its row lands (see :func:`swing_columns`; left on screen as
    the result's ``row_words``, for the caller to take away).
    """
    corner = grid.cell_center(0, 0)
    depth, rows, cols = grid.dims
    result = grid.like(transposed_values, grid.value_range, dims=(depth, cols, rows))
    result.align_cell((0, 0, 0), corner)
    axis = [diagonal(grid, axis_color)] if axis_color is not None else []
    naming = swap(keep, renamed) if renamed is not None else []
    columns, swings = swing_columns(scene, grid, words=words(result) if words is not None else None)
    # the diagonal whole from the first frame, with the first column on its way (drawn alone first, a still
    # caught a block standing still under a caption saying its columns lie down: 08_0369, 09_0369)
    scene.play(*swings, *naming, *[appear(a, rate_func=at_once) for a in axis], run_time=run_time)
    if axis:
        scene.play(*map(vanish, axis), run_time=0.4)
    scene.remove(*columns)
    scene.add(result)
    return result


def permute_last_two(scene, grid: CubeGrid, permuted_values, run_time: float = 1.8, axis_color=None,
                     keep=None, renamed=None) -> CubeGrid:
    """``permute(0, 2, 1)``: in every head's slice at once, column j lies
    down as row j, one column after another (:func:`swing_columns`; with
    ``axis_color``, the front slice's diagonal drawn while they swing: one
    line, where every column turns). The swinging columns are named by
    ``grid``'s label (``keep``, shown); ``renamed``: the label with the new
    shape (placed, not shown), which takes its place half-way through (the
    caller binds it to the result)."""
    return transpose_turn(scene, grid, permuted_values, run_time, axis_color, keep, renamed)


def diagonal(grid: CubeGrid, color) -> DashedLine:
    """The main diagonal of a 2D ``grid``'s square part, a little beyond both ends."""
    x_axis, row_axis, _ = grid.axis_vectors()
    corner = grid.cell_center(0, 0)
    direction = (x_axis + row_axis) / np.linalg.norm(x_axis + row_axis)
    reach = (min(grid.grid_shape[1:]) - 1) * grid.pitch * np.sqrt(2)
    return DashedLine(corner - direction * grid.pitch, corner + direction * (reach + grid.pitch),
                      color=color, stroke_width=5)  # 3 read as a faint 1-px dotted line (08_0379)


MAX_GROWTH = 2.5  # the turned block's cubes at most this much larger than the block before the turn


def turn_sign(theme, code: str, font_size: int = TEXT_SIZE, bold: bool = False) -> VGroup:
    """The turn's code over an arrow (``.T →``), for the space between the blocks before and after it."""
    text = Text(code, font=TEXT_FONT, font_size=font_size, weight="BOLD" if bold else "NORMAL", color=theme.ink)
    return VGroup(text, Arrow(ORIGIN, RIGHT * 0.7, buff=0, color=theme.ink)).arrange(DOWN, buff=0.05)


def before_and_after(scene, layout, viewpoint, result, before, before_name: str, before_dims, words, sign: Mobject,
                     leaving=(), say=None) -> list:
    """The closing shot that keeps a turn in view: ``result`` (labelled, on
    screen, a token in each row) goes right, drawn large enough for every
    row's word; beside it, left, the block ``before`` the turn (named
    ``before_name``, on the result's colors: one legend for both; a token in
    each column, the first one's word over it), ``sign`` (the turn's code
    on an arrow) between them; column 0 of one and row 0 of the other framed
    alike. ``leaving``: texts that go at once as the result moves (its own
    label among them: it comes back where the result stands); ``say``: a
    caption said once both blocks are named. Returns what the shot put on
    screen beside ``result`` (the block before, the sign, words, frames)."""
    from .matmul import frame_around  # the matmul's frames, drawn tighter and heavier here

    twin = result.like(before, result.value_range, dims=before_dims)
    layout.name(twin, before_name, DOWN, scale=False)
    goal = result.copy()
    goal.label = result.label
    room = layout.word_room(words)
    gap = room + max(1.0, sign.width + 0.3)
    for _ in range(3):  # the result drawn larger where its rows need it for every word (the row keeps the ratio)
        layout.row(twin, goal, gap=gap, view=FRONT, bind=False,
                   margins=Margins(top=layout.word_room(words[:1], columns=True)))
        grow = 1.0 / layout.row_text_scale(goal, TEXT_SIZE, view=FRONT)  # as it will be seen
        if grow < 1.0 + 1e-3 or goal.pitch * grow > twin.pitch * MAX_GROWTH:
            break
        goal.scale(grow * 1.02)
    twin.label.hang = -1  # a name wider than the block reaches left, away from the result's row words
    scene.play(*[vanish(m, rate_func=at_once) for m in leaving], viewpoint.turn(*FRONT),
               result.animate.become(goal), run_time=1.0)
    layout.place(twin)
    layout.place(result)
    between = layout.screen_box([result])[0] - layout.screen_box([twin])[2]
    layout.beside([twin], sign, RIGHT, buff=(between - room - sign.width) / 2)
    layout.upright(sign)
    scene.play(appear(twin), appear(twin.label), appear(result.label), appear(sign), run_time=0.6)
    columns = layout.column_words(twin, words[:1])  # over the framed column: the token it is
    rows = layout.word_labels(result, words)
    if say is not None:
        say()
    scene.play(appear(columns), appear(rows))
    frames = [frame_around(layout, twin, (0, slice(None), 0), pad=0.12, stroke=3),
              frame_around(layout, result, (0, 0), pad=0.12, stroke=3)]
    scene.play(*[appear(f) for f in frames], run_time=0.6)
    scene.wait(1.0)
    return [twin, twin.label, sign, columns, rows, *frames]
