"""A color scale: the rainbow between a block's real minimum and maximum.

Every block carries its own scale in its label (``low ▮▮▮ high``, or
``low ▮▮ 0 ▮▮ high`` for a range of both signs, whose middle color is 0), so a
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

from .numbers import MASKED_SIGN, tick_values
from .palette import DARK, MASKED_HEX, Theme, halves, rainbow

__all__ = ["ScaleBar", "SCALE_WIDTH", "MASKED_SIGN"]

SCALE_WIDTH = 1.3  # the gradient's width, frame units
SCALE_HEIGHT = 0.16
SCALE_STOPS = 13  # gradient stops along the hue circle


def _gradient(width: float, start: float, end: float, theme: Theme) -> VGroup:
    """The rainbow from ``start`` to ``end`` (0 purple ... 1 red) in a framed
    bar: one cairo linear gradient, cheap to draw every frame."""
    stops = [rgb_to_hex(c) for c in rainbow(np.linspace(start, end, max(2, round(SCALE_STOPS * (end - start)))))]
    bar = Rectangle(width=width, height=SCALE_HEIGHT, stroke_width=0)
    bar.set_fill(stops, opacity=1.0).set_sheen_direction(RIGHT)
    frame = Rectangle(width=width, height=SCALE_HEIGHT, stroke_color=theme.muted, stroke_width=1)
    return VGroup(bar, frame)


def rgb_to_hex(rgb) -> str:
    return "#" + "".join(f"{int(round(c * 255)):02X}" for c in rgb)


class ScaleBar(VGroup):
    """``low ▮▮▮▮ high`` on one line: the rainbow with its real ends, at
    ``font_size`` (a scale of both signs, ``low ▮▮ 0 ▮▮ high``: its middle is
    written); ``masked``: a swatch of the masked color and its sign after it."""

    def __init__(self, value_range: tuple[float, float], theme: Theme = DARK, font_size: int = 21,
                 width: float = SCALE_WIDTH, masked: bool = False):
        self.value_range = (float(value_range[0]), float(value_range[1]))
        low, high = (Text(t, font="DejaVu Sans", font_size=font_size, color=theme.ink)
                     for t in tick_values(self.value_range))
        # a range of both signs is colored with 0 in the middle (palette.normalise): "low ▮▮ 0 ▮▮ high", its
        # middle written; a side of rounding's dust is drawn as 0, its half and end not drawn ("−0.176 ▮▮ 0");
        # a range of one sign is one gradient from its min to its max
        drawn = halves(self.value_range)
        if drawn is None:
            row, self.zero = [low, _gradient(width, 0.0, 1.0, theme), high], None
        else:
            self.zero = zero = Text("0", font="DejaVu Sans", font_size=font_size, color=theme.ink)
            # the bar as long as a one-sign bar, "0" in it
            half = (width - zero.width - 0.16) / 2 if all(drawn) else width - zero.width - 0.08
            row = (([low, _gradient(half, 0.0, 0.5, theme)] if drawn[0] else []) + [zero]
                   + ([_gradient(half, 0.5, 1.0, theme), high] if drawn[1] else []))
        for before, after in zip(row, row[1:]):  # the ends 0.1 from the bar, the "0" 0.08 from each half
            after.next_to(before, RIGHT, buff=0.1 if before is low or after is high else 0.08)
        self.ticks = (row[0], row[-1])
        parts = list(row)
        if masked:
            swatch = Rectangle(width=SCALE_HEIGHT * 1.6, height=SCALE_HEIGHT * 1.6, stroke_width=1,
                               stroke_color=theme.muted, fill_color=MASKED_HEX, fill_opacity=1.0)
            swatch.next_to(self.ticks[1], RIGHT, buff=0.25)
            sign = Text(MASKED_SIGN, font="DejaVu Sans", font_size=font_size, color=theme.ink)
            sign.next_to(swatch, RIGHT, buff=0.08)
            parts += [swatch, sign]
        super().__init__(*parts)
