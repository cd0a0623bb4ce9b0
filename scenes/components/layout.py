"""The stage area and the layouts computed in it.

Blocks go where the frame's furniture leaves room: below the caption, above
the code panel, left of the color bar. :meth:`StageScene.stage_area
<scenes.base.StageScene.stage_area>` measures that area from the scene's own
title, caption line and code panel; the helpers here fit blocks into it from
their shapes, rather than at positions chosen for one sentence.

Examples
--------
>>> area = StageArea(left=-6.8, right=5.6, bottom=-2.6, top=2.6)
>>> round(area.width, 2), round(area.height, 2), area.center.tolist()
(12.4, 5.2, [-0.6, 0.0, 0.0])
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from manim import Mobject

from ..engine.drawing import project_at, world_at_screen
from .cubegrid import grids_in

__all__ = ["StageArea", "screen_box", "fit_blocks", "fit_points", "place_beside", "Margins",
           "MAX_PITCH", "LABEL_ROOM", "STACKED_LABEL_ROOM", "NOTE_ROOM", "FIT_ROUNDS"]

MAX_PITCH = 0.42  # a block of few cells does not grow beyond this (frame units per cell)
LABEL_ROOM = 0.62  # the height a one-line label (name and shape) takes, with its gap
STACKED_LABEL_ROOM = 0.92  # ... a name-over-shape label
NOTE_ROOM = 0.25  # ... and a label's note line (a block's own color scale)
FIT_ROUNDS = 3  # perspective makes the fit slightly nonlinear: a few rounds settle it


@dataclass(frozen=True)
class StageArea:
    """A rectangle of the frame (frame units) that blocks may fill."""

    left: float
    right: float
    bottom: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def center(self) -> np.ndarray:
        return np.array([(self.left + self.right) / 2, (self.bottom + self.top) / 2, 0.0])

    def inset(self, margins: "Margins") -> "StageArea":
        """The area less room kept free on each side (for labels)."""
        return StageArea(self.left + margins.left, self.right - margins.right,
                         self.bottom + margins.bottom, self.top - margins.top)

    def part(self, start: float, stop: float) -> "StageArea":
        """The slice of the area between two fractions of its width."""
        return replace(self, left=self.left + start * self.width, right=self.left + stop * self.width)


@dataclass(frozen=True)
class Margins:
    """Room kept free around fitted blocks, frame units."""

    left: float = 0.0
    right: float = 0.0
    bottom: float = 0.0
    top: float = 0.0


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


def fit_points(scene, points: np.ndarray, area: StageArea, view=None,
               max_factor: float = np.inf) -> tuple[float, np.ndarray, np.ndarray]:
    """How to scale and move world ``points`` so that, seen from ``view``,
    they fill ``area``, centred: ``(factor, about, shift)`` meaning
    ``p -> about + factor * (p - about) + shift``; ``factor`` at most ``max_factor``."""
    points = np.asarray(points, float).reshape(-1, 3)
    about = (points.min(axis=0) + points.max(axis=0)) / 2
    factor, shift = 1.0, np.zeros(3)
    now = points
    for _ in range(FIT_ROUNDS):
        screen = project_at(scene.camera, now, view)
        (left, bottom), (right, top) = screen.min(axis=0), screen.max(axis=0)
        f = min(area.width / max(right - left, 1e-6), area.height / max(top - bottom, 1e-6),
                max_factor / factor)
        now = about + f * (now - about)
        factor, shift = factor * f, f * shift
        screen = project_at(scene.camera, now, view)
        seen = (screen.min(axis=0) + screen.max(axis=0)) / 2
        depth_point = about + shift
        step = (world_at_screen(scene.camera, area.center[:2], depth_point, view)
                - world_at_screen(scene.camera, seen, depth_point, view))
        now = now + step
        shift = shift + step
    return factor, about, shift


def fit_blocks(scene, blocks: list[Mobject], *, margins: Margins = Margins(), view=None,
               max_pitch: float = MAX_PITCH, area: StageArea | None = None) -> float:
    """Scale and move ``blocks`` together (their arrangement kept) so that,
    seen from ``view``, they fill the stage area less ``margins``, centred.

    Cubes never grow beyond ``max_pitch``. Returns the scale applied.
    """
    area = (area or scene.stage_area()).inset(margins)
    grids = list(grids_in(*blocks))
    points = np.concatenate([g.cube_corners().reshape(-1, 3) for g in grids])
    factor, about, shift = fit_points(scene, points, area, view,
                                      max_factor=max_pitch / max(g.pitch for g in grids))
    for block in blocks:
        block.scale(factor, about_point=about).shift(shift)
    return factor


def _center(blocks) -> np.ndarray:
    points = np.concatenate([b.get_all_points() for b in blocks])
    return (points.min(axis=0) + points.max(axis=0)) / 2


def place_beside(scene, blocks, mob: Mobject, direction, buff: float = 0.2, view=None) -> Mobject:
    """Put an upright label ``mob`` beside ``blocks`` as seen on screen (from
    ``view``, default the camera's own): centred on that side, ``buff`` away
    from the cubes' outline, at the blocks' depth."""
    left, bottom, right, top = screen_box(scene.camera, blocks, view)
    d = np.sign(np.asarray(direction, float)[:2])
    x = (left + right) / 2 if d[0] == 0 else (right + buff + mob.width / 2 if d[0] > 0
                                              else left - buff - mob.width / 2)
    y = (bottom + top) / 2 if d[1] == 0 else (top + buff + mob.height / 2 if d[1] > 0
                                              else bottom - buff - mob.height / 2)
    mob.move_to(world_at_screen(scene.camera, (x, y), _center(blocks), view))
    return mob
