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

from dataclasses import dataclass

import numpy as np
from manim import UP, LaggedStart, VGroup

from .fades import appear
from .labels import note_text
from .motions import FRONT_VIEW, camera_turn

__all__ = ["StageArea", "spread_heads", "HEAD_GAP", "TAG_ROOM"]


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


HEAD_GAP = (0.55, 0.45)  # between head slices: across, and down (room for the tags)
TAG_ROOM = 0.3


def spread_heads(scene, block, columns: int = 3, scale: float = 1.0):
    """Split a (h, r, c) block into its head slices laid out in a grid, front view.

    The slices grow to ``scale`` times their size, less if the grid and its
    tags would not fit in the scene's stage area (between the caption and the
    code panel, left of the color bar), centred in it.
    """
    area = scene.stage_area()
    room, center = (area.width, area.height), area.center
    heads = block.grid_shape[0]
    slices = block.split(axis=0)
    scene.remove(block)
    scene.add(*slices)
    rows = int(np.ceil(heads / columns))
    columns = min(columns, heads)
    width, height = block.grid_shape[2] * block.pitch, block.grid_shape[1] * block.pitch
    scale = min(scale, (room[0] - (columns - 1) * HEAD_GAP[0]) / (columns * width),
                (room[1] - (rows - 1) * HEAD_GAP[1] - TAG_ROOM) / (rows * height))
    width, height = width * scale, height * scale
    center = np.asarray(center, float) - np.array([0.0, TAG_ROOM / 2, 0.0])
    targets = []
    for h in range(heads):
        r, c = divmod(h, columns)
        targets.append(center + np.array([(c - (columns - 1) / 2) * (width + HEAD_GAP[0]),
                                          -(r - (rows - 1) / 2) * (height + HEAD_GAP[1]), 0.0]))
    scene.play(camera_turn(scene, *FRONT_VIEW),
               LaggedStart(*[s.animate.scale(scale).move_to(t) for s, t in zip(slices, targets)],
                           lag_ratio=0.08), run_time=2.2)
    tags = VGroup(*[note_text(f"head {h}", scene.theme, font_size=16, color=scene.theme.muted)
                    .next_to(s, UP, buff=0.08) for h, s in enumerate(slices)])
    scene.fixed(*tags)
    scene.play(appear(tags), run_time=0.5)
    return slices, tags


