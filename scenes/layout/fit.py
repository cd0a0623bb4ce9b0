"""Blocks fitted into the stage area, as the camera will see them.

Every fit works on screen: a block's size and place are found from its cubes
projected by the camera (from its current view, or from the ``view`` it is
about to turn to), so a layout holds for any sentence, size and head count
rather than for positions chosen for one. Rows of blocks, closing shots, grids
of head slices and the label beside a block all start here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Mobject

from ..components.cubegrid import CubeGrid, grids_in
from ..components.projection import FRONT, project_at, view_rotation, world_at_screen
from .area import LABEL_ROOM, MAX_PITCH, Margins, StageArea

__all__ = ["screen_box", "fit_points", "fit_blocks", "place_beside", "fit_row", "RowFit", "label_span", "row_hangs",
           "settled", "ghost",
           "grid_of_blocks", "head_columns", "HEAD_GAP", "TAG_ROOM", "LABEL_GAP"]

FIT_ROUNDS = 3  # perspective makes the fit slightly nonlinear: a few rounds settle it
HEAD_GAP = (0.55, 0.45)  # between head slices on screen: across, and down (room for the tags)
TAG_ROOM = 0.3  # above a grid of head slices: their "head h" tags
LABEL_GAP = 0.4  # between two labels side by side
STRICT_SHARE = 0.8  # labels kept off the neighbouring blocks, unless the blocks shrink below this share


def screen_box(camera, mobjects, view=None) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) on the frame of the cubes of ``mobjects``
    (their grids' visible cubes; all of a grid's cubes when none is visible
    yet), seen from ``view`` (default: the camera's own)."""
    points = []
    for grid in grids_in(*mobjects):
        corners = grid.cube_corners()
        seen = grid.cube_opacity > 0.05
        points.append((corners[seen] if seen.any() else corners).reshape(-1, 3))
    screen = project_at(camera, np.concatenate(points), view)
    (left, bottom), (right, top) = screen.min(axis=0), screen.max(axis=0)
    return float(left), float(bottom), float(right), float(top)


def fit_points(camera, points: np.ndarray, area: StageArea, view=None,
               max_factor: float = np.inf) -> tuple[float, np.ndarray, np.ndarray]:
    """How to scale and move world ``points`` so that, seen from ``view``,
    they fill ``area``, centred: ``(factor, about, shift)`` meaning
    ``p -> about + factor * (p - about) + shift``; ``factor`` at most ``max_factor``."""
    points = np.asarray(points, float).reshape(-1, 3)
    about = (points.min(axis=0) + points.max(axis=0)) / 2
    factor, shift = 1.0, np.zeros(3)
    now = points
    for _ in range(FIT_ROUNDS):
        screen = project_at(camera, now, view)
        (left, bottom), (right, top) = screen.min(axis=0), screen.max(axis=0)
        f = min(area.width / max(right - left, 1e-6), area.height / max(top - bottom, 1e-6),
                max_factor / factor)
        now = about + f * (now - about)
        factor, shift = factor * f, f * shift
        screen = project_at(camera, now, view)
        seen = (screen.min(axis=0) + screen.max(axis=0)) / 2
        depth_point = about + shift
        step = (world_at_screen(camera, area.center[:2], depth_point, view)
                - world_at_screen(camera, seen, depth_point, view))
        now = now + step
        shift = shift + step
    return factor, about, shift


def fit_blocks(camera, blocks: list[Mobject], area: StageArea, *, margins: Margins = Margins(), view=None,
               max_pitch: float = MAX_PITCH) -> float:
    """Scale and move ``blocks`` together (their arrangement kept) so that,
    seen from ``view``, they fill the stage area less ``margins``, centred.

    Cubes never grow beyond ``max_pitch``. Returns the scale applied.
    """
    area = area.inset(margins)
    grids = list(grids_in(*blocks))
    points = np.concatenate([g.cube_corners().reshape(-1, 3) for g in grids])
    factor, about, shift = fit_points(camera, points, area, view,
                                      max_factor=max_pitch / max(g.pitch for g in grids))
    for block in blocks:
        block.scale(factor, about_point=about).shift(shift)
    return factor


def _center(blocks) -> np.ndarray:
    points = np.concatenate([b.get_all_points() for b in blocks])
    return (points.min(axis=0) + points.max(axis=0)) / 2


def place_beside(camera, blocks, mob: Mobject, direction, buff: float = 0.2, view=None, hang: int = 0,
                 level=None) -> Mobject:
    """Put an upright label ``mob`` beside ``blocks`` as seen on screen (from
    ``view``, default the camera's own): centred on that side (above or
    below: hanging as :func:`label_span` says), ``buff`` away from the cubes'
    outline, at the blocks' depth."""
    left, bottom, right, top = screen_box(camera, blocks, view)
    if level is not None:  # above (below) a row: clear of its highest (lowest) block
        top, bottom = max(top, level[0]), min(bottom, level[1])
    d = np.sign(np.asarray(direction, float)[:2])
    x = sum(label_span(left, right - left, mob.width, hang)) / 2 if d[0] == 0 else (
        right + buff + mob.width / 2 if d[0] > 0 else left - buff - mob.width / 2)
    y = (bottom + top) / 2 if d[1] == 0 else (top + buff + mob.height / 2 if d[1] > 0
                                              else bottom - buff - mob.height / 2)
    mob.move_to(world_at_screen(camera, (x, y), _center(blocks), view))
    return mob


def fit_row(camera, blocks, area: StageArea, *, labels=(), gap=1.2, margins: Margins | None = None, view=None,
            max_pitch: float = MAX_PITCH) -> "RowFit":
    """Put ``blocks`` in a row, left to right, and fit them to ``area`` (less
    ``margins``: by default a label's room above), seen from ``view``
    (default: the camera's own). Neighbours are ``gap`` apart on screen (one
    number, or one per pair), more where their labels are wider than the
    blocks: ``labels`` has, per block, the ``(width, below)`` of each label
    it carries (``below``: True under the block, False over it, None beside
    a row, in the block's column); labels on one side never meet, labels
    on opposite sides pass each other, and no label reaches over or under a
    neighbouring block (where it would read as that block's name) unless
    that leaves the labels no room or the blocks much smaller.
    Returns the scale applied and whether the labels found their room."""
    margins = Margins(top=LABEL_ROOM) if margins is None else margins
    room = area.inset(margins)
    labels = [list(l) for l in labels] + [[] for _ in range(len(blocks) - len(labels))]
    gap = np.broadcast_to(np.asarray(gap, float), (max(len(blocks) - 1, 0),))
    total, roomy = 1.0, True
    tried = {}

    def fitted(hangs, keep_off):  # each way of hanging the labels measured once
        key = (tuple(hangs), keep_off)
        if key not in tried:
            tried[key] = _row_scale(camera, blocks, labels, gap, margins, area, room, max_pitch, view, hangs,
                                    keep_off)
        return tried[key]

    # no label reaches over or under a neighbouring block, unless that leaves the labels no room or the
    # blocks much smaller: then labels on opposite sides may pass each other under and over the blocks
    strict = True
    hangs = _best_hangs(lambda h: fitted(h, True), len(blocks))
    tight = fitted(hangs, True)
    if not tight[-1] or tight[0] < STRICT_SHARE * fitted(hangs, False)[0]:
        strict = False
        hangs = _best_hangs(lambda h: fitted(h, False), len(blocks))
    for _ in range(3):  # perspective bends the sizes a little: measure again and settle
        scale, between, first, last, roomy = _row_scale(camera, blocks, labels, gap, margins, area, room,
                                                        max_pitch, view, hangs, strict)
        for block in blocks:
            block.scale(scale)
        _in_screen_row(camera, blocks, list(between), view)
        pitch = max(g.pitch for b in blocks for g in grids_in(b))
        total *= scale * fit_blocks(camera, list(blocks), area, view=view, max_pitch=pitch,
                                    margins=Margins(left=max(margins.left, first),
                                                    right=max(margins.right, last),
                                                    bottom=margins.bottom, top=margins.top))
    return RowFit(total, roomy, tuple(hangs), strict)


@dataclass(frozen=True)
class RowFit:
    """What :func:`fit_row` did: the ``scale`` it applied, whether every
    label found its room (``roomy``; else the blocks fit and the labels as
    they can), how each block's labels hang (:func:`label_span`), and
    whether they keep off the neighbouring blocks (``kept_off``)."""

    scale: float
    roomy: bool
    hangs: tuple = ()
    kept_off: bool = True


def _best_hangs(fitted, count: int) -> list[int]:
    """The end labels hang over the row (:func:`row_hangs`); where they do
    not fit so, the way of :func:`_hang_choices` whose labels are roomy at
    the largest scale (``fitted(hangs)``: :func:`_row_scale`'s answer)."""
    usual = row_hangs(count)
    if fitted(usual)[-1]:
        return usual
    return max(_hang_choices(count), key=lambda h: (lambda f: (f[-1], h == usual, f[0]))(fitted(h)))


def _hang_choices(count: int) -> list[list[int]]:
    """The ways the end labels of a row may hang: over the row first
    (:func:`row_hangs`), then the first one leftwards into the left margin
    (under the row words), the last one centred, or both."""
    usual = row_hangs(count)
    if count < 2:
        return [usual]
    return [usual, [-1, *usual[1:]], [*usual[:-1], 0], [-1, *usual[1:-1], 0]]


def label_span(left: float, width: float, label: float, hang: int) -> tuple[float, float]:
    """Where a label ``label`` wide stands over a block from ``left``,
    ``width`` wide: centred, or, when wider than the block, hanging from its
    left edge rightwards (``hang`` 1) or from its right edge leftwards (-1).

    >>> label_span(0.0, 1.0, 3.0, 0), label_span(0.0, 1.0, 3.0, 1), label_span(0.0, 1.0, 3.0, -1)
    ((-1.0, 2.0), (0.0, 3.0), (-2.0, 1.0))
    """
    if label <= width or hang == 0:
        return left + width / 2 - label / 2, left + width / 2 + label / 2
    return (left, left + label) if hang > 0 else (left + width - label, left + width)


def row_hangs(count: int) -> list[int]:
    """How the labels of a row of ``count`` blocks hang: the first rightwards,
    the last leftwards (over the row, not off the frame), the others centred."""
    return [1 if n == 0 and count > 1 else -1 if n == count - 1 and count > 1 else 0 for n in range(count)]


def _row_scale(camera, blocks, labels, gap, margins, full, room, max_pitch, view, hangs, strict=True):
    """The largest scale of ``blocks`` in a row that fits, with the gaps
    between them and how far the labels reach beyond both ends of the row.
    Labels on the same side never meet (a gap widens where they would)."""
    _in_screen_row(camera, blocks, list(gap), view)
    sizes = [screen_box(camera, [b], view) for b in blocks]
    widths = np.array([r - l for l, _, r, _ in sizes])
    heights = np.array([t - b for _, b, _, t in sizes])

    def clash(a, la, b, lb, starts, w, spans):
        """How far block ``b`` must move right for label ``lb`` of it to clear label ``la`` of ``a``."""
        (_, side_a), (_, side_b) = la, lb
        if side_a is None and b == a + 1:  # a label between rows: clear of the next block
            return spans[a][la][1] + LABEL_GAP - starts[b]
        if side_b is None and b == a + 1:  # ... and of the block before it
            return starts[a] + w[a] + LABEL_GAP - spans[b][lb][0]
        need = 0.0
        if strict and b == a + 1 and la[0]:  # a label over or under its block stays clear of the next block ...
            need = spans[a][la][1] + LABEL_GAP - starts[b]
        if strict and b == a + 1 and lb[0]:  # ... and of the one before: a label names the block it stands by
            need = max(need, starts[a] + w[a] + LABEL_GAP - spans[b][lb][0])
        if side_a is not None and side_a == side_b and la[0] and lb[0]:
            need = max(need, spans[a][la][1] + LABEL_GAP - spans[b][lb][0])
        return need

    def plan(scale):  # the gaps, and the labels' reach beyond both ends
        w = scale * widths
        gaps = np.array(gap, float)
        for _ in range(4 * len(blocks)):
            starts = np.concatenate([[0.0], np.cumsum(w[:-1] + gaps)])
            spans = [{l: label_span(starts[n], w[n], l[0], hangs[n]) for l in labels[n]} for n in range(len(blocks))]
            pushed = False
            for a in range(len(blocks)):
                for b in range(a + 1, len(blocks)):
                    need = max((clash(a, la, b, lb, starts, w, spans) for la in labels[a] for lb in labels[b]),
                               default=0.0)
                    if need > 1e-9:
                        gaps[b - 1] += need
                        pushed = True
                        break
                if pushed:
                    break
            if not pushed:
                break
        end = starts[-1] + w[-1]
        reach = [s for n in range(len(blocks)) for s in spans[n].values()]
        first = max([0.0] + [-s[0] for s in reach])
        last = max([0.0] + [s[1] - end for s in reach])
        return gaps, first, last

    def fits(scale):
        gaps, first, last = plan(scale)
        return (scale * widths.sum() + gaps.sum() + max(margins.left, first) + max(margins.right, last)
                <= full.width and scale * heights.max() <= room.height)

    def largest(test):
        low, high = 0.0, max_pitch / max(g.pitch for b in blocks for g in grids_in(b))
        for _ in range(40):  # widths and gaps grow with the scale: bisect
            middle = (low + high) / 2
            low, high = (middle, high) if test(middle) else (low, middle)
        return low

    scale, roomy = largest(fits), True
    if scale == 0.0:  # labels too wide for any row: the blocks still fit, the labels as they can
        scale, roomy = largest(lambda s: s * widths.sum() + np.sum(gap) <= full.width
                               and s * heights.max() <= room.height), False
    return (scale, *plan(scale), roomy)


def _in_screen_row(camera, blocks, gaps, view) -> None:
    """Each block right of the one before, ``gaps`` apart and centred on
    the same height, as seen on screen (not along the world's x axis,
    which a turned camera shows slanting)."""
    rotation = camera.get_rotation_matrix() if view is None else view_rotation(*view)
    right, up = rotation[0], rotation[1]  # the screen's axes, in the world
    for _ in range(2):  # perspective: a second pass settles it
        for before, block, space in zip(blocks, blocks[1:], gaps):
            l0, b0, r0, t0 = screen_box(camera, [before], view)
            l1, b1, r1, t1 = screen_box(camera, [block], view)
            block.shift(right * (r0 + space - l1) + up * ((b0 + t0) / 2 - (b1 + t1) / 2))


def ghost(grid: CubeGrid, shape) -> CubeGrid:
    """An invisible block of ``shape`` with ``grid``'s cubes at its first
    cell: room kept for what ``grid`` will grow into."""
    room = grid.like(np.zeros(shape)).set_cell_opacity(0.0)
    room.align_cell((0, 0, 0), grid.cell_center(0, 0, 0))
    return room


def settled(camera, grid: CubeGrid, area: StageArea, margins: Margins | None = None, view=FRONT,
            max_pitch: float = MAX_PITCH, room_for=None) -> CubeGrid:
    """Where ``grid`` goes in a closing shot: a copy, fitted to ``area`` seen
    from ``view`` (front by default) less ``margins``.

    ``room_for``: a block shape that must fit as well from the same first
    cell (what the block becomes next, e.g. turned by a transpose).
    """
    target = grid.copy()
    blocks = [target] + ([ghost(grid, room_for)] if room_for is not None else [])
    fit_blocks(camera, blocks, area, margins=margins or Margins(), view=view, max_pitch=max_pitch)
    return target


def grid_of_blocks(camera, blocks, columns: int, area: StageArea, gap=HEAD_GAP, view=FRONT,
                   margins=None, max_pitch: float = MAX_PITCH, least: float = 0.0, least_down: float = 0.0) -> None:
    """Lay ``blocks`` out in rows of ``columns`` (row-major), ``gap`` apart
    on screen (their columns at least ``least`` apart from one start to the
    next: room for a tag wider than a block; their rows ``least_down``: a
    tag beside a block, taller than it), and fit them to ``area`` seen
    from ``view``."""
    margins = margins or Margins(top=TAG_ROOM)
    columns = max(1, min(columns, len(blocks)))
    rows = int(np.ceil(len(blocks) / columns))

    def place(guess: float) -> float:
        """Lay the blocks out for a fit that scales them by ``guess``, fit them; the scale it applied."""
        width = max(max(b.width for b in blocks) + gap[0] / guess, least / guess)
        height = max(max(b.height for b in blocks) + gap[1] / guess, least_down / guess)
        for n, block in enumerate(blocks):
            r, c = divmod(n, columns)
            block.move_to([(c - (columns - 1) / 2) * width, -(r - (rows - 1) / 2) * height, 0.0])
        over = max(0.0, (least - max(b.width for b in blocks) * guess) / 2)  # a tag wider than its block
        return fit_blocks(camera, list(blocks), area, view=view, max_pitch=max_pitch, margins=Margins(
            left=max(margins.left, over), right=max(margins.right, over), top=margins.top, bottom=margins.bottom))

    guess = 1.0  # the scale the fit will apply: the gaps are set so that they are ``gap`` on screen after it
    for _ in range(6):
        scale = place(guess)
        if abs(scale - guess) <= 1e-3 * guess:
            return
        for block in blocks:  # back to the size they had: place them again for this scale
            block.scale(1 / scale)
        guess = scale
    place(guess)


def head_columns(heads: int, width: float, height: float, area: StageArea, least: float = 0.0, *,
                 gap=HEAD_GAP, top: float = TAG_ROOM, right: float = 0.0, least_down: float = 0.0) -> int:
    """How many head slices per row use ``area`` best (the largest slices),
    ``gap`` apart, ``top`` free above them (their tags) and ``right`` at the
    right end, the columns at least ``least`` apart on screen (a tag's room),
    the rows at least ``least_down`` (a tag beside a slice)."""
    return head_grid(heads, width, height, area, least, gap=gap, top=top, right=right, least_down=least_down)[0]


def head_grid(heads: int, width: float, height: float, area: StageArea, least: float = 0.0, *,
              gap=HEAD_GAP, top: float = TAG_ROOM, right: float = 0.0, least_down: float = 0.0) -> tuple[int, float]:
    """:func:`head_columns`'s columns and the size a slice's cell then has
    (0 or less: no grid of them fits with that room for their tags)."""
    def size(columns):
        rows = int(np.ceil(heads / columns))
        if columns > 1 and columns * least > area.width:
            return 0.0  # their tags would not fit side by side
        if rows > 1 and rows * least_down > area.height - top:
            return 0.0  # ... nor one under the other
        return min((area.width - right - (columns - 1) * gap[0]) / (columns * width),
                   (area.height - top - (rows - 1) * gap[1]) / (rows * height))
    best = max(range(1, heads + 1), key=size)
    return best, size(best)
