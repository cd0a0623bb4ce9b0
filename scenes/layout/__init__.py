"""Where things go on screen: one home for every placement and fitting rule.

:class:`Layout` binds the rules to one scene's camera, stage area, theme and
view panel, so that a stage or a motion says *what* goes on screen and the
layout says *where*:

- :mod:`.area` — the stage area and the room labels take;
- :mod:`.fit` — blocks fitted to the area as the camera sees them: one
  block, a row of blocks, a closing shot, a grid of head slices;
- :mod:`.text` — a tensor's label beside its block, words beside rows and
  above columns, shortened or left out where they would not be readable.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np
from manim import LEFT, RIGHT, UP, Mobject, VGroup

from ..components.cubegrid import CubeGrid
from ..components.guides import axis_guides, guide_room, guide_sides
from ..components.labels import TEXT_SIZE, BlockLabel
from ..components.numbers import fingerprint
from ..components.palette import Panel, Theme
from ..components.fades import InPlace
from ..components.projection import FRONT, project, project_at, world_at_screen
from . import fit, text
from .text import GUIDES_RIGHT
from .area import LABEL_ROOM, MAX_PITCH, Margins, StageArea
from .fit import HEAD_GAP, TAG_ROOM, ghost, head_columns

LABEL_BUFF = 0.18  # between a block and its label
WIDE_LABEL = 4.2  # a label wider than this on one line puts its shape under its name
BREAK_NAME = 6.2  # a name wider than this breaks after its first operator (at 4.2, "U_query[0] * Xᵀ[:, 0]" and
# "Q[6] * columns of Kᵀ" broke, which four readers counted among the defects: G3 of the 34th, G5 of the 35th; at
# 5.0, "multihead_omegas[0] / √17" and "multihead_flattened @ W.T" left one symbol on a line: G1 of the 36th)

__all__ = ["Layout", "Together", "LABEL_BUFF", "StageArea", "Margins", "MAX_PITCH", "LABEL_ROOM",
           "HEAD_GAP", "TAG_ROOM", "ghost", "head_columns"]


OPERATORS = (" / ", " @ ", " · ", " * ", " + ")


def broken(name: str) -> str:
    r"""``name`` on two lines after its first operator (a tensor's name is
    never cut; a line starting with "/" read as a stray sign: 18_0129).

    >>> broken("multihead_omegas[0] / √17"), broken("multihead_attention_weights[0]")
    ('multihead_omegas[0] /\n√17', 'multihead_attention_weights[0]')
    """
    at = min((name.find(op) for op in OPERATORS if op in name), default=-1)
    return name if at < 0 else name[:at + 2] + "\n" + name[at + 3:]


class Together:
    """Blocks that share one label (a row of head slices): each is ``part_of`` it."""

    def __init__(self, label):
        self.label = label


KEEP = object()  # Layout.name: the old label's note stays


class Layout:
    """The placement rules bound to one scene: its ``camera``, its stage area
    (``area``: measured anew at each call, as the furniture may change), its
    ``theme`` and view ``panel`` (axis guides beside labels)."""

    def __init__(self, camera, area: Callable[[], StageArea], theme: Theme, panel: Panel):
        self.camera, self._area, self.theme, self.panel = camera, area, theme, panel

    def area(self) -> StageArea:
        """Where blocks may go: below the caption line, above the code, left of the color bar."""
        return self._area()

    # -- blocks ---------------------------------------------------------------
    def screen_box(self, blocks, view=None):
        """(left, bottom, right, top) of ``blocks``' cubes on screen."""
        return fit.screen_box(self.camera, blocks, view)

    def fit(self, blocks, *, margins: Margins = Margins(), view=None, max_pitch: float = MAX_PITCH,
            area: StageArea | None = None) -> float:
        """Scale and move ``blocks`` together to fill the stage area (or ``area``)."""
        return fit.fit_blocks(self.camera, list(blocks), area or self.area(), margins=margins, view=view,
                              max_pitch=max_pitch)

    def fit_points(self, points, area: StageArea, view=None, max_factor: float = float("inf")):
        return fit.fit_points(self.camera, points, area, view, max_factor)

    def row(self, *blocks: Mobject, gap=1.2, margins: Margins | None = None, view=None,
            max_pitch: float = MAX_PITCH, area: StageArea | None = None, room_for=(), also=(),
            own_labels: bool = True, bind: bool = True, flip: bool = False, own_level=()) -> fit.RowFit:
        """``blocks`` in a row filling the stage area, room kept for the
        labels bound to them (:meth:`name`) above or below (unless not
        ``own_labels``), for labels ``room_for`` (one per block, or None)
        that they will get later instead, and for labels ``also`` (a list
        per block) they will carry as well (a label on its other side).
        ``bind``: their labels learn the row, to stand level with it.
        ``flip``: where the labels do not fit on one side, every second
        block's own label goes to the other side (over or under it).
        ``own_level``: the indices of blocks whose labels stand by the block
        itself, not level with the row: over or under a block shorter than
        the row, a label takes the height beside the taller blocks, not the
        stage's (the blocks grow into what it gave back)."""
        fitted = self._row(blocks, gap, margins, view, max_pitch, area, room_for, also, own_labels, bind, own_level)
        if fitted.roomy or not flip:
            return fitted
        later = list(room_for) + [None] * (len(blocks) - len(room_for))
        first = np.asarray(getattr(getattr(blocks[0], "label", None), "side", UP), float)
        for n, block in enumerate(blocks):
            for label in {id(m): m for m in (getattr(block, "label", None), later[n]) if m is not None}.values():
                if getattr(label, "side", UP)[1] != 0:  # every second label on the first one's other side
                    label.side = -first if n % 2 else first
        return self._row(blocks, gap, margins, view, max_pitch, area, room_for, also, own_labels, bind, own_level)

    def _row(self, blocks, gap, margins, view, max_pitch, area, room_for, also, own_labels, bind,
             own_level=()) -> fit.RowFit:
        later = list(room_for) + [None] * (len(blocks) - len(room_for))
        extra = [list(a) for a in also] + [[] for _ in range(len(blocks) - len(also))]
        labels = [([later[n]] if later[n] is not None else [getattr(b, "label", None) if own_labels else None])
                  + extra[n] for n, b in enumerate(blocks)]
        labels = [[l for l in ls if l is not None] for ls in labels]
        base = margins or Margins()
        for block in blocks:
            if bind and getattr(block, "label", None) is not None:
                block.label.row = list(blocks)  # level with the row's highest top (or lowest bottom)
        for n in own_level:
            if bind and getattr(blocks[n], "label", None) is not None:
                blocks[n].label.row = None  # by its own block
        spans = [[(l.width, None if getattr(l, "side", UP)[1] == 0 else bool(getattr(l, "side", UP)[1] < 0))
                  for l in ls] for ls in labels]
        # first every label level with the row; then, with labels by their own (shorter) blocks, the margins
        # measured at the size the last fit gave: the room they give back only lets the blocks grow, and the
        # height beside the taller blocks grows with them, so a label that fitted still fits
        for k in range(3 if own_level else 1):
            fitted = fit.fit_row(self.camera, blocks, area or self.area(), labels=spans, gap=gap,
                                 margins=self._label_margins(blocks, labels, base, view, own_level if k else ()),
                                 view=view, max_pitch=max_pitch)
        for block, hang in zip(blocks, fitted.hangs):
            if bind and getattr(block, "label", None) is not None:
                block.label.hang = hang  # a label wider than its block hangs over the row, not off it
        return fitted

    def _label_margins(self, blocks, labels, base: Margins, view, own_level) -> Margins:
        """``base`` widened to hold the tallest label over the row and the
        tallest under it, less, for a label by its own block (``own_level``),
        the height between that block and the row's tallest, shared above
        and below."""
        tallest = max(self.screen_box([b], view)[3] - self.screen_box([b], view)[1] for b in blocks)
        need = {1: [0.0], -1: [0.0]}  # at least a label's gap, with or without labels
        for n, (block, ls) in enumerate(zip(blocks, labels)):
            _, bottom, _, top = self.screen_box([block], view)
            free = (tallest - (top - bottom)) / 2 if n in own_level else 0.0
            for label in ls:
                side = int(np.sign(getattr(label, "side", UP)[1]))
                if side:
                    need[side].append(max(0.0, label.height + LABEL_BUFF + 0.05 - free))
        return Margins(left=base.left, right=base.right, top=max(base.top, LABEL_BUFF + 0.05, max(need[1])),
                       bottom=max(base.bottom, LABEL_BUFF + 0.05, max(need[-1])))

    def name(self, grid: CubeGrid, name: str, direction=UP, *, shape=None, stacked: bool | None = None,
             scale_of: str | None = None, scale: bool = True, values=None, note=KEEP) -> BlockLabel:
        """Bind a label to ``grid``: its name, shape and color scale (see
        :class:`~..components.labels.BlockLabel`), to go on its ``direction``
        side; not placed yet (:meth:`place`). ``grid.shows`` is the name.
        ``stacked``: the shape under the name; by default where one line
        would be wider than :data:`WIDE_LABEL`. ``values``: the numbers the
        block is about to show, where it is named before it recolors.
        ``note``: a line under the label (by default the old label's: what
        a head looks at stays with the head, whatever its values become)."""
        old = getattr(grid, "label", None)
        if note is KEEP:
            note = getattr(old, "note", None)

        def make(stack):
            return BlockLabel(name, grid.source_shape if shape is None else shape, self.theme,
                              grid.value_range if scale else None, stacked=stack, scale_of=scale_of,
                              masked=bool(grid.cube_masked.any()), note=note)
        label = make(bool(stacked))
        if stacked is None and label.width > WIDE_LABEL:
            label = make(True)
        if label.width > BREAK_NAME and broken(name) != name:  # "a / b" on two lines, the name whole
            name = broken(name)
            label = make(True if stacked is None else stacked)
        label.side = np.asarray(direction, float)
        label.hang = getattr(old, "hang", 0)  # a new name hangs as the old did, level with the same row
        label.row = getattr(old, "row", None)
        label.within = getattr(old, "within", None)  # ... in the same part of the stage area
        return self.bind(grid, label, values)

    def bind(self, grid: CubeGrid, label: BlockLabel, values=None) -> BlockLabel:
        """``label`` names ``grid`` from now on: the numbers it shows (or
        ``values``, where it is named before it recolors)."""
        label.block = grid
        label.fingerprint = fingerprint(grid.values if values is None else values)
        grid.label, grid.shows = label, label.tensor_name
        return label

    def follow(self, grid: Mobject, target: Mobject, view=None, buff: float = LABEL_BUFF, track: bool = False):
        """The animation that takes ``grid``'s label to where it stands beside
        ``target`` (the place ``grid`` moves to, seen from ``view``).

        ``track``: the label stands beside ``grid`` as it is drawn at every
        frame (``grid``'s own animation comes first in the same ``play``), on
        its side from the first frame: for a block that grows where it
        stands, which a label gliding straight to its place would cross."""
        label = grid.label
        if track:
            return InPlace(label, lambda mob, alpha: self._stand(grid, mob, buff))
        there = label.copy()
        self.beside([target], there, label.side, buff=buff, view=view, hang=getattr(label, "hang", 0),
                    level=self._level(label, view))
        if view is None:
            self.inside(there, getattr(label, "within", None))
        # straight across the screen, whatever the camera does meanwhile: a label never dips
        # out of the stage area on its way (a world-space path bends under a turning camera)
        start = project(self.camera, label.get_center()[None])[0]
        end = project_at(self.camera, there.get_center()[None], view)[0]
        camera = self.camera

        def glide(mob, alpha):
            mob.move_to(world_at_screen(camera, start + alpha * (end - start), mob.get_center()))

        return InPlace(label, glide)

    def sized_label(self, name: str, shape, direction=UP, stacked: bool | None = None,
                    value_range=(0.0, 1.0), scale_of: str | None = None, masked: bool = False) -> BlockLabel:
        """A label as :meth:`name` would draw it for a block of ``shape`` (with
        a scale, ``value_range``, said to be ``scale_of``'s; ``masked``: with
        the masked color) on its ``direction`` side, bound to nothing: to
        keep room for it, or to stand for a group of blocks."""
        stand_in = CubeGrid(np.zeros(shape if len(shape) > 1 else (1,) + tuple(shape)), value_range=value_range)
        stand_in.cube_masked[:] = masked
        return self.name(stand_in, name, direction, shape=shape, stacked=stacked, scale_of=scale_of)

    def renamed(self, label: BlockLabel, name: str, shape, room: Mobject) -> BlockLabel:
        """The label that takes ``label``'s place half-way through a turn
        (a transpose, a permute): ``name`` with the new ``shape``, on
        ``label``'s side and scale, hanging as it does, beside ``room`` (the
        space the turn sweeps: never over the turning block). Placed, not
        shown, bound to nothing (the caller binds it to the result)."""
        new = self.sized_label(name, shape, label.side, value_range=label.value_range)
        new.hang = label.hang
        self.beside([room], new, label.side, buff=LABEL_BUFF, hang=new.hang)
        self.upright(new)
        return new

    def place(self, grid: Mobject, buff: float = LABEL_BUFF, view=None) -> Mobject:
        """Put ``grid``'s bound label beside it on screen, kept upright; returns
        it (with the view panel's axes on, the label and the block's axis
        guides, the first time: arrows along its named edges and their words)."""
        label = grid.label
        guides = None
        if self.panel.axes and isinstance(grid, CubeGrid) and not getattr(grid, "guided", False):
            sides = guide_sides(grid, label.side, GUIDES_RIGHT)
            grid.guide_sides, grid.guided = sides, True
            guides = axis_guides(grid, sides, self.theme)
        self._stand(grid, label, buff, view)
        self.upright(label)
        if guides is None:
            return label
        arrows, words = guides
        self.upright(*words)
        return VGroup(label, arrows, words)

    def in_place(self, grid: CubeGrid) -> bool:
        """Whether ``grid``'s label stands where :meth:`place` would put it now
        (not, say, on the side it had before its side changed)."""
        label = grid.label
        probe = self._stand(grid, label.copy())
        return bool(np.linalg.norm(probe.get_center() - label.get_center()) < 0.1)

    def _stand(self, grid: Mobject, mob: Mobject, buff: float = LABEL_BUFF, view=None) -> Mobject:
        """Put ``mob`` where ``grid``'s label stands: on the label's side, clear
        of the block's axis guides, hanging and level as the label does; in
        the camera's own view, kept in the frame (or its part of it)."""
        label = grid.label
        self.beside([grid], mob, label.side, buff=buff + self.guide_room(grid, label.side)
                    if isinstance(grid, CubeGrid) else buff, view=view, hang=getattr(label, "hang", 0),
                    level=self._level(label, view))
        if view is None:  # a label wider than the room beside its block stays in the frame (or its part)
            self.inside(mob, getattr(label, "within", None))
        return mob

    def settled(self, grid: CubeGrid, margins: Margins | None = None, view=FRONT, max_pitch: float = MAX_PITCH,
                room_for=None, area: StageArea | None = None) -> CubeGrid:
        """Where ``grid`` goes in a closing shot (a fitted copy; in ``area``, a
        part of the stage area, else all of it), see :func:`.fit.settled`."""
        return fit.settled(self.camera, grid, area or self.area(), margins, view, max_pitch, room_for)

    def grid_of_blocks(self, blocks, columns: int, gap=HEAD_GAP, view=FRONT, margins=None,
                       max_pitch: float = MAX_PITCH, area: StageArea | None = None, least: float = 0.0,
                       least_down: float = 0.0) -> None:
        fit.grid_of_blocks(self.camera, blocks, columns, area or self.area(), gap, view, margins, max_pitch, least,
                           least_down)

    def beside(self, blocks, mob: Mobject, direction, buff: float = 0.2, view=None, hang: int = 0,
               level=None) -> Mobject:
        """Put ``mob`` beside ``blocks``' outline on screen (``hang``: see
        :func:`.fit.label_span`; ``level``: the (top, bottom) on screen to
        stand above or below instead of the blocks' own)."""
        return fit.place_beside(self.camera, blocks, mob, direction, buff, view, hang, level)

    def inside(self, mob: Mobject, area: StageArea | None = None, view=None) -> Mobject:
        """Shift ``mob`` (a text placed beside a block) sideways into the stage
        area (or ``area``, a part of it), if it sticks out, seen from ``view``
        (default: the camera's own)."""
        area = area or self.area()
        center = mob.get_center()
        x, y = project_at(self.camera, center[None], view)[0]
        dx = min(0.0, area.right - (x + mob.width / 2)) + max(0.0, area.left - (x - mob.width / 2))
        if dx:
            mob.move_to(world_at_screen(self.camera, (x + dx, y), center, view))
        return mob

    def right_edge(self, *mobjects: Mobject) -> float:
        """The rightmost point on screen of ``mobjects``: a grid's cubes, an
        upright text's box (frame units)."""
        edges = []
        for mob in mobjects:
            if isinstance(mob, CubeGrid):
                edges.append(fit.screen_box(self.camera, [mob])[2])
            else:
                edges.append(project(self.camera, mob.get_center()[None])[0][0] + mob.width / 2)
        return max(edges)

    def _level(self, label, view=None):
        """The top and bottom of the row ``label``'s block stands in, on screen (None outside a row)."""
        row = getattr(label, "row", None)
        if not row:
            return None
        _, bottom, _, top = fit.screen_box(self.camera, row, view)
        return top, bottom

    # -- text -----------------------------------------------------------------
    def guide_room(self, grid: CubeGrid, direction) -> float:
        """The room the axis guides take on that side of ``grid`` (0 without)."""
        return guide_room(getattr(grid, "guide_sides", None), direction)

    def word_room(self, words, font_size: int = TEXT_SIZE, columns: bool = False) -> float:
        return text.word_room(words, self.theme, self.area(), font_size, columns)

    def word_labels(self, grid: CubeGrid, words, side=LEFT, font_size: int = TEXT_SIZE) -> Mobject:
        """The tokens' words beside ``grid``'s rows (see :func:`.text.word_labels`); kept as ``grid.row_words``."""
        labels = text.word_labels(self.camera, grid, words, self.theme, self.area(), side, font_size)
        self.upright(*labels)
        grid.row_words = labels
        return labels

    def column_words(self, grid: CubeGrid, words, font_size: int = TEXT_SIZE) -> Mobject:
        """The tokens' words above ``grid``'s columns; kept as ``grid.column_words``."""
        labels = text.column_words(self.camera, grid, words, self.theme, self.area(), font_size)
        self.upright(*labels)
        grid.column_words = labels
        return labels

    def row_word(self, grid: CubeGrid, row: int, word: str, side=RIGHT, font_size: int = TEXT_SIZE) -> Mobject:
        """One token's word beside one of ``grid``'s rows (see :func:`.text.row_word`), upright."""
        label = text.row_word(self.camera, grid, row, word, self.theme, self.area(), side, font_size)
        self.upright(label)
        return label

    def column_word(self, grid: CubeGrid, column: int, word: str, font_size: int = TEXT_SIZE,
                    flat: bool = False) -> Mobject:
        """One token's word over one of ``grid``'s columns (see :func:`.text.column_word`), upright;
        ``flat``: read across, kept inside the stage area and left of the block's right end (where the
        words of a block beside it stand)."""
        label = text.column_word(self.camera, grid, column, word, self.theme, self.area(), font_size, flat)
        if flat:
            self.inside(label, replace(self.area(), right=self.screen_box([grid])[2]))
        self.upright(label)
        return label

    def flat_word_room(self, font_size: int = TEXT_SIZE) -> float:
        return text.flat_word_room(self.theme, font_size)

    def row_text_scale(self, grid: CubeGrid, font_size: int, view=None) -> float:
        return text.row_text_scale(self.camera, grid, self.theme, font_size, view)

    def fitted_word(self, word: str, font_size: int, scale: float, room: float, color=None) -> Mobject:
        return text.fitted_word(word, self.theme, font_size, scale, room, color)

    # -- pinning ----------------------------------------------------------------
    def upright(self, *mobjects: Mobject) -> None:
        """Keep 3D-placed labels facing the viewer while they follow their spot."""
        if mobjects:
            self.camera.add_fixed_orientation_mobjects(*mobjects)

    def fixed(self, *mobjects: Mobject):
        """Pin mobjects to the screen (titles, notes, the color bar)."""
        self.camera.add_fixed_in_frame_mobjects(*mobjects)
        return mobjects[0] if len(mobjects) == 1 else mobjects
