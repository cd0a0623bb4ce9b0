"""A color scale: the rainbow between a block's real minimum and maximum.

Every block carries its own scale in its label (``low ▮▮▮ high``), so a
legend always describes the block it stands beside, and blocks on different
scales each show theirs. A scale with masked cells (a causal mask's −∞) shows
their color too.

Examples
--------
>>> bar = ScaleBar((-6.86, 24.67))
>>> bar.value_range, [t.text for t in bar.ticks]
((-6.86, 24.67), ['−6.9', '24.7'])
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, Rectangle, Text, VGroup

from .numbers import tick_values
from .palette import DARK, MASKED_HEX, Theme, rainbow

__all__ = ["ScaleBar", "SCALE_WIDTH", "MASKED_SIGN"]

SCALE_WIDTH = 1.3  # the gradient's width, frame units
SCALE_HEIGHT = 0.16
SCALE_STOPS = 13  # gradient stops along the hue circle
MASKED_SIGN = "−∞"  # the one sign for a masked score, on blocks and in legends


def rgb_to_hex(rgb) -> str:
    return "#" + "".join(f"{int(round(c * 255)):02X}" for c in rgb)


class ScaleBar(VGroup):
    """``low ▮▮▮▮ high`` on one line: the rainbow with its real ends, at
    ``font_size``; ``masked``: a swatch of the masked color and its sign after it."""

    def __init__(self, value_range: tuple[float, float], theme: Theme = DARK, font_size: int = 21,
                 width: float = SCALE_WIDTH, masked: bool = False):
        self.value_range = (float(value_range[0]), float(value_range[1]))
        # one rectangle, one cairo linear gradient: cheap to draw every frame
        stops = [rgb_to_hex(c) for c in rainbow(np.linspace(0.0, 1.0, SCALE_STOPS))]
        gradient = Rectangle(width=width, height=SCALE_HEIGHT, stroke_width=0)
        gradient.set_fill(stops, opacity=1.0).set_sheen_direction(RIGHT)
        frame = Rectangle(width=width, height=SCALE_HEIGHT, stroke_color=theme.muted, stroke_width=1)
        low, high = (Text(t, font="DejaVu Sans", font_size=font_size, color=theme.ink)
                     for t in tick_values(self.value_range))
        low.next_to(gradient, LEFT, buff=0.1)
        high.next_to(gradient, RIGHT, buff=0.1)
        self.gradient, self.ticks = gradient, (low, high)
        parts = [gradient, frame, low, high]
        if masked:
            swatch = Rectangle(width=SCALE_HEIGHT * 1.6, height=SCALE_HEIGHT * 1.6, stroke_width=1,
                               stroke_color=theme.muted, fill_color=MASKED_HEX, fill_opacity=1.0)
            swatch.next_to(high, RIGHT, buff=0.25)
            sign = Text(MASKED_SIGN, font="DejaVu Sans", font_size=font_size, color=theme.ink)
            sign.next_to(swatch, RIGHT, buff=0.08)
            parts += [swatch, sign]
        super().__init__(*parts)
