"""The color bar: the rainbow with a tensor's real minimum and maximum.

Examples
--------
>>> bar = ColorBar("ω", (-6.86, 24.67))
>>> bar.value_range
(-6.86, 24.67)
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, Rectangle, Text, VGroup

from .labels import TEXT_FONT
from .numbers import format_value
from .palette import DARK, Theme, rainbow

__all__ = ["ColorBar"]


def rgb_to_hex(rgb) -> str:
    return "#" + "".join(f"{int(round(c * 255)):02X}" for c in rgb)

BAR_HEIGHT = 3.6
BAR_WIDTH = 0.26
TITLE_MAX_WIDTH = 1.5
BAR_STOPS = 13  # gradient stops along the hue circle


def two_lines(name: str) -> str:
    r"""``name`` broken in two where a break reads best: after an underscore or
    before a space, nearest the middle.

    >>> two_lines("multihead_U_query"), two_lines("exp, each row ÷ its max")
    ('multihead_\nU_query', 'exp, each row\n÷ its max')
    """
    cuts = [i + 1 for i, c in enumerate(name) if c == "_"] + [i for i, c in enumerate(name) if c == " "]
    if not cuts:
        return name
    cut = min(cuts, key=lambda i: abs(i - len(name) / 2))
    return name[:cut].rstrip() + "\n" + name[cut:].lstrip()


class ColorBar(VGroup):
    """A vertical rainbow (red = max at the top) labelled with the real range.

    Parameters
    ----------
    name
        The tensor the colors belong to.
    value_range
        Its real ``(min, max)``.
    """

    def __init__(self, name: str, value_range: tuple[float, float], theme: Theme = DARK):
        self.tensor_name = name
        self.value_range = (float(value_range[0]), float(value_range[1]))
        # one rectangle, one cairo linear gradient: cheap to draw every frame
        stops = [rgb_to_hex(c) for c in rainbow(np.linspace(0.0, 1.0, BAR_STOPS))]
        gradient = Rectangle(width=BAR_WIDTH, height=BAR_HEIGHT, stroke_width=0)
        gradient.set_fill(stops, opacity=1.0).set_sheen_direction(UP)
        frame = Rectangle(width=BAR_WIDTH, height=BAR_HEIGHT, stroke_color=theme.muted,
                          stroke_width=1).move_to(gradient)
        high = Text(format_value(self.value_range[1]), font=TEXT_FONT, font_size=18,
                    color=theme.ink).next_to(frame, UP, buff=0.1)
        low = Text(format_value(self.value_range[0]), font=TEXT_FONT, font_size=18,
                   color=theme.ink).next_to(frame, DOWN, buff=0.1)
        title = Text(name, font=TEXT_FONT, font_size=18, color=theme.muted)
        if title.width > TITLE_MAX_WIDTH:  # two lines before it shrinks
            title = Text(two_lines(name), font=TEXT_FONT, font_size=18, color=theme.muted,
                         line_spacing=0.8)
        if title.width > TITLE_MAX_WIDTH:
            title.scale_to_fit_width(TITLE_MAX_WIDTH)
        title.next_to(high, UP, buff=0.1)
        self.gradient, self.title = gradient, title
        super().__init__(gradient, frame, high, low, title)
