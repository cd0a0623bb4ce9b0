"""The stage area, margins around fitted blocks, and the room text takes.

Blocks go where the frame's furniture leaves room: below the caption line,
above the code panel, left of the color bar (:meth:`Header.stage_area
<scenes.frame.header.Header.stage_area>` measures it). Everything here is
frame units (the frame is 8 units high: 60 px at 480p).

Examples
--------
>>> area = StageArea(left=-6.8, right=5.6, bottom=-2.6, top=2.6)
>>> round(area.width, 2), round(area.height, 2), area.center.round(2).tolist()
(12.4, 5.2, [-0.6, 0.0, 0.0])
>>> round(area.inset(Margins(left=0.4)).left, 2)
-6.4
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

__all__ = ["StageArea", "Margins", "MAX_PITCH", "LABEL_ROOM"]

MAX_PITCH = 0.42  # a block of few cells does not grow beyond this (frame units per cell)
LABEL_ROOM = 0.62  # the height a small label takes, with its gap (a block's own label is measured)


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

    def band(self, start: float, stop: float) -> "StageArea":
        """The slice of the area between two fractions of its height, from the top."""
        return replace(self, top=self.top - start * self.height, bottom=self.top - stop * self.height)


@dataclass(frozen=True)
class Margins:
    """Room kept free around fitted blocks, frame units."""

    left: float = 0.0
    right: float = 0.0
    bottom: float = 0.0
    top: float = 0.0
