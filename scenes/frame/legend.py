"""The legend: one color bar, describing the block in focus, swapped as the focus moves.

Examples
--------
A legend swaps its bar in one place, whatever the title's width::

    legend = Legend(scene, DARK)
    scene.play(*legend.swap("ω", omega))
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, config

from ..components.colorbar import ColorBar
from ..components.fades import appear
from ..components.palette import Theme

__all__ = ["Legend", "COLORBAR_X", "COLORBAR_ROOM"]

COLORBAR_X = 6.35
COLORBAR_ROOM = 0.95  # from the bar's center to the left edge of its numbers and title
BAR_TITLE_MARGIN = 0.2  # between the bar's title and the frame's right edge


def value_range(values) -> tuple[float, float]:
    """``values``' (min, max), or ``values`` itself when it is that pair already."""
    if isinstance(values, tuple):
        return values
    return float(np.min(values)), float(np.max(values))


class Legend:
    """The color bar of a scene: at most one on screen (``bar``)."""

    def __init__(self, scene, theme: Theme):
        self.scene, self.theme = scene, theme
        self.bar: ColorBar | None = None

    def swap(self, name: str, values: np.ndarray | tuple[float, float]) -> list:
        """The animations that swap to the color bar of ``values``, to play
        together with the recolor that puts the blocks on its scale."""
        bar = ColorBar(name, value_range(values), self.theme).move_to([COLORBAR_X, -0.1, 0])
        bar.shift(RIGHT * (COLORBAR_X - bar.gradient.get_x()))  # every bar in one place, whatever its title
        over = bar.title.get_right()[0] - (config.frame_width / 2 - BAR_TITLE_MARGIN)
        if over > 0:  # a wide title stays inside the frame, reaching left toward the stage
            bar.title.shift(LEFT * over)
        self.scene.camera.add_fixed_in_frame_mobjects(bar)
        if self.bar is not None:  # gone at once: two legends in one place read as neither
            self.scene.remove(self.bar)
        self.bar = bar
        return [appear(bar)]

    def show(self, name: str, values: np.ndarray | tuple[float, float], run_time: float = 0.6) -> ColorBar:
        """Show (or swap to) the color bar of the tensor in focus."""
        self.scene.play(*self.swap(name, values), run_time=run_time)
        return self.bar
