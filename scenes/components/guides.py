"""View-panel guides: named axes beside a block, and the floor grid.

The seed site can switch on axes and grid lines. Here the axes are the
block's own: an arrow along each named edge of a :class:`~.cubegrid.CubeGrid`
(rows down, columns to the right, heads into depth, as they are laid out),
with what that axis counts written beside it ("tokens", "features (d_k)",
"heads"). Arrows are drawn in 3D, so they turn with the camera; their words
stay upright. The floor is a grid of faint lines on the plane behind every
block (the floor the blocks rest on, as the camera looks down at them).

Examples
--------
>>> import numpy as np
>>> from .cubegrid import CubeGrid
>>> grid = CubeGrid(np.zeros((2, 3)), dims=("tokens", "features (d)"))
>>> arrows, words = axis_guides(grid, guide_sides(grid))
>>> [w.text for w in words]
['features(d)', 'tokens']
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Line, Polygon, Text, VGroup

from .cubegrid import CubeGrid
from .labels import TEXT_FONT
from .palette import DARK, Theme

__all__ = ["axis_guides", "guide_sides", "guide_room", "floor_grid", "FLOOR_DEPTH", "GUIDE_ROOM"]

GUIDE_GAP = 0.14  # from the block's edge to its arrow
GUIDE_SIZE = 16
GUIDE_ROOM = GUIDE_GAP + 0.1 + 0.3  # what an arrow and its word take beside a block
FLOOR_DEPTH = -5.0  # behind the deepest block (stage 13 pulls 9 heads ~4 units deep)
FLOOR_STEP = 0.5


def _arrow(start, end, side, color) -> VGroup:
    """A line with a flat triangular tip in the plane of ``end - start`` and ``side``."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    direction = (end - start) / np.linalg.norm(end - start)
    tip = min(0.13, 0.3 * np.linalg.norm(end - start))
    base = end - direction * tip
    shaft = Line(start, base, stroke_width=2, color=color)
    head = Polygon(end, base + side * tip * 0.45, base - side * tip * 0.45,
                   stroke_width=0, fill_color=color, fill_opacity=1.0)
    return VGroup(shaft, head)


def guide_sides(grid: CubeGrid, label_direction=UP, room_right: float = 5.2) -> tuple[str, str]:
    """Where the column and row arrows go: ``("bottom" | "top", "right" | "left")``.

    Bottom and right by default (word labels sit left and on top). A 3D block
    named below gets its column arrow along its top back edge (the bottom of
    the frame is full); a block reaching ``room_right`` (the color bar) gets
    its row arrow on the left.
    """
    heads = grid.grid_shape[0]
    columns = "top" if heads > 1 and np.allclose(label_direction, DOWN) else "bottom"
    rows = "left" if grid.get_right()[0] > room_right else "right"
    return columns, rows


def guide_room(sides: tuple[str, str] | None, direction) -> float:
    """The room a block's guides take on the side ``direction`` (0 with none there)."""
    toward = {"bottom": DOWN, "top": UP, "right": RIGHT, "left": LEFT}
    used = [toward[s] for s in sides or ()]
    return GUIDE_ROOM if any(np.allclose(direction, d) for d in used) else 0.0


def axis_guides(grid: CubeGrid, sides: tuple[str, str], theme: Theme = DARK,
                dims=None, last: CubeGrid | None = None, size: int = GUIDE_SIZE) -> tuple[VGroup, VGroup]:
    """Arrows along the named edges of ``grid`` and their words.

    ``sides`` comes from :func:`guide_sides`; heads run back along the top
    right edge, clear of it. ``last``: the right end of a row of blocks that starts with
    ``grid`` (heads laid side by side); ``dims`` then names the row's axes.
    ``size``: the words' font size. Returns ``(arrows, words)``; the words
    are meant to be kept upright.
    """
    last = grid if last is None else last
    depth_name, row_name, col_name = grid.dims if dims is None else dims
    heads, rows, cols = grid.grid_shape
    x, down, back = grid.axis_vectors()
    h = grid.cube_edge / 2
    c, e = grid.cell_centers(), last.cell_centers()
    cols = cols + (last is not grid)  # more than one column in a row of blocks

    def corner(centers, head, row, col, sx, sy, sz):
        return centers[head, row, col] + x * h * sx + down * h * sy + back * h * sz

    arrows, words = VGroup(), VGroup()

    def add(start, end, side, outward, name, rotate=False):
        arrows.add(_arrow(start + outward * GUIDE_GAP, end + outward * GUIDE_GAP, side, theme.muted))
        word = Text(name, font=TEXT_FONT, font_size=size, color=theme.muted)
        if rotate:
            word.rotate(-np.pi / 2)
        extent = (word.width if rotate else word.height) / 2
        word.move_to((start + end) / 2 + outward * (GUIDE_GAP + 0.1 + extent))
        words.add(word)

    column_side, row_side = sides
    if col_name and cols > 1:
        if column_side == "top":  # along the back: clear of the top faces a raised camera sees
            add(corner(c, -1, 0, 0, -1, -1, 1), corner(e, -1, 0, -1, 1, -1, 1), down, -down, col_name)
        else:
            add(corner(c, 0, -1, 0, -1, 1, -1), corner(e, 0, -1, -1, 1, 1, -1), down, down, col_name)
    if row_name and rows > 1:
        if row_side == "left":
            add(corner(c, 0, 0, 0, -1, -1, -1), corner(c, 0, -1, 0, -1, 1, -1), x, -x, row_name, True)
        else:
            add(corner(e, 0, 0, -1, 1, -1, -1), corner(e, 0, -1, -1, 1, 1, -1), x, x, row_name, True)
    if depth_name and heads > 1:
        # along the top right edge, up and out beyond the right face (just off the edge, between two faces in
        # sight, it ran over the cubes: 13_0210, the 50th reader)
        away = (x * 3 - down) * GUIDE_GAP
        start = corner(e, 0, 0, -1, 1, -1, -1) + away
        end = corner(e, -1, 0, -1, 1, -1, 1) + away
        arrows.add(_arrow(start, end, x, theme.muted))
        word = Text(depth_name, font=TEXT_FONT, font_size=size, color=theme.muted)
        # right of the arrow's far end and over it: level with it, the columns' arrow, ending at the same corner,
        # pointed at it and read as one arrow with it (20_0042, the 51st reader)
        word.move_to(end).shift(RIGHT * (word.width / 2 + 0.08) + UP * (word.height / 2 + 0.04))
        words.add(word)
    return arrows, words


def floor_grid(theme: Theme = DARK, width: float = 20.0, height: float = 12.0) -> VGroup:
    """Faint lines every :data:`FLOOR_STEP` on the plane z = :data:`FLOOR_DEPTH`."""
    lines = VGroup()
    for x in np.arange(-width / 2, width / 2 + 1e-9, FLOOR_STEP):
        lines.add(Line([x, -height / 2, FLOOR_DEPTH], [x, height / 2, FLOOR_DEPTH]))
    for y in np.arange(-height / 2, height / 2 + 1e-9, FLOOR_STEP):
        lines.add(Line([-width / 2, y, FLOOR_DEPTH], [width / 2, y, FLOOR_DEPTH]))
    lines.set_stroke(theme.muted, width=1, opacity=0.28)
    for mob in lines.get_family():
        mob.is_backdrop = True  # the camera draws these before the cubes
    return lines
