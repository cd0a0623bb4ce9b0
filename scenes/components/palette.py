"""Colors and visual constants: the one place they are named.

The rainbow runs through the HSV hue circle from purple (#7F00FF, hue 270deg,
the smallest value) to red (#FF0000, hue 0deg, the largest), as in the blog.
A tensor is normalised within itself unless a shared range is given.

Examples
--------
>>> rainbow(np.array([0.0, 1.0])).round(3).tolist()
[[0.5, 0.0, 1.0], [1.0, 0.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "PURPLE_HEX", "RED_HEX", "MASKED_HEX", "MASKED_RGB", "SLOT_RGB", "rainbow", "normalise", "signed", "halves",
    "value_colors", "Theme", "DARK", "LIGHT",
    "Lighting", "HEADLIGHT", "FLAT", "Panel", "PANEL", "Look", "LOOK", "THEMES",
]

PURPLE_HEX = "#7F00FF"
RED_HEX = "#FF0000"
# A cell a causal mask removes (its score is -inf, its weight exactly 0): off the
# rainbow, a dark slate that reads as "not there" on either theme.
MASKED_HEX = "#3A3F4B"
MASKED_RGB = np.array([0x3A, 0x3F, 0x4B]) / 255.0
# A cell not computed yet (an empty slot of a result): one neutral grey, so a
# slot never shows the pattern it will hold before it is computed.
SLOT_RGB = np.array([0x9A, 0x9E, 0xA6]) / 255.0
DUST_SHARE = 0.01  # a side of a range of both signs under this share of the other is drawn as 0
_HUE_SPAN = 270.0 / 360.0  # purple at t = 0 ... red at t = 1


def rainbow(t: np.ndarray) -> np.ndarray:
    """RGB in [0, 1] for positions ``t`` in [0, 1] (shape ``t.shape + (3,)``)."""
    t = np.clip(np.asarray(t, dtype=np.float64), 0.0, 1.0)
    hue = (1.0 - t) * _HUE_SPAN * 6.0  # sector of the HSV hexcone, S = V = 1
    rgb = np.empty(t.shape + (3,))
    for channel, offset in enumerate((5.0, 3.0, 1.0)):
        k = (offset + hue) % 6.0
        rgb[..., channel] = 1.0 - np.clip(np.minimum(k, 4.0 - k), 0.0, 1.0)
    return rgb


def normalise(values: np.ndarray, value_range: tuple[float, float] | None = None) -> np.ndarray:
    """Map values to [0, 1] within ``value_range`` (default: their own min, max).

    A range of both signs is anchored on zero: 0 maps to 0.5 (green, the middle
    of the rainbow) whatever the range, the negatives spread over the lower
    half down to ``low`` and the positives over the upper half up to ``high``
    (each half linear; its bar writes ``low ▮▮ 0 ▮▮ high``). Zero is one color
    on every block of both signs: a min–max rainbow made it blue on one block
    and orange on the next (12_0284 against 12_0426, every reader from the
    62nd to the 65th). A side under a hundredth of the other is rounding's
    dust and is drawn as 0, green (:func:`halves`). A range of one sign runs
    linearly from its min to its max; a constant tensor maps to 0.5.

    >>> normalise(np.array([-6.0, -3.0, 0.0, 0.2, 0.4]), (-6.0, 0.4)).round(3).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> normalise(np.array([-0.176, -0.088, 0.0004]), (-0.176, 0.0004)).round(3).tolist()
    [0.0, 0.25, 0.5]
    >>> normalise(np.array([0.0, 0.5, 1.0]), (0.0, 1.0)).tolist()
    [0.0, 0.5, 1.0]
    """
    values = np.asarray(values, dtype=np.float64)
    low, high = (float(v) for v in (value_range if value_range is not None else (values.min(), values.max())))
    if high - low <= 0.0:
        return np.full(values.shape, 0.5)
    drawn = halves((low, high))
    if drawn is None:
        return (values - low) / (high - low)
    negative, positive = drawn
    return np.where(values < 0.0, 0.5 - 0.5 * values / low if negative else 0.5,
                    0.5 + 0.5 * values / high if positive else 0.5)


def signed(value_range) -> bool:
    """A range of both signs: its colors anchored on zero (:func:`normalise`).

    >>> signed((-4.55, 3.0)), signed((0.0, 1.0)), signed((-2.0, 0.0)), signed((-0.176, 0.0004))
    (True, False, False, True)
    """
    low, high = (float(v) for v in value_range)
    return low < 0.0 < high


def halves(value_range) -> tuple[bool, bool] | None:
    """Of a range of both signs, whether its negative and its positive half
    are drawn: a side under a hundredth of the other (the 0.0004 of products
    −0.176 … 0.0004, α's near-zero weights times X) is rounding's dust, its
    values drawn as 0 (spread over a half of the rainbow, values that read 0
    were painted red, the largest color: 05_0233, readers 65 to 67). None for
    a range of one sign.

    >>> halves((-4.55, 3.0)), halves((-0.176, 0.0004)), halves((-0.0003, 0.69)), halves((0.0, 1.0))
    ((True, True), (True, False), (False, True), None)
    """
    if not signed(value_range):
        return None
    negative, positive = -float(value_range[0]), float(value_range[1])
    return negative >= DUST_SHARE * positive, positive >= DUST_SHARE * negative


def value_colors(values: np.ndarray, value_range: tuple[float, float] | None = None) -> np.ndarray:
    """The rainbow color of every value, normalised per tensor or by ``value_range``."""
    return rainbow(normalise(values, value_range))


@dataclass(frozen=True)
class Theme:
    """Background and ink for a render (dark for screens, light for projectors)."""

    background: str
    ink: str
    muted: str
    accent: str
    code_background: str


DARK = Theme(background="#101218", ink="#F2F2F2", muted="#B8BEC8", accent="#FFD23F",
             code_background="#1E222B")
LIGHT = Theme(background="#FFFFFF", ink="#15171C", muted="#5C6370", accent="#C2410C",
              code_background="#EEF0F3")


@dataclass(frozen=True)
class Lighting:
    """A light fixed to the camera (a headlight from the upper left).

    Faces turned to the viewer keep almost their true color so values read
    correctly; faces turned away darken, which gives the block its depth. A
    headlight (rather than a light fixed in the world) keeps that true during a
    camera orbit. ``ambient = 1`` is flat color, for exact reading.
    """

    direction: tuple[float, float, float] = (-0.25, 0.35, 1.0)
    ambient: float = 0.5

    def shade(self, normals: np.ndarray) -> np.ndarray:
        """Brightness factor for unit face normals in camera space."""
        light = np.asarray(self.direction, dtype=np.float64)
        light = light / np.linalg.norm(light)
        lambert = np.clip(normals @ light, 0.0, 1.0)
        front = np.clip(np.array([0.0, 0.0, 1.0]) @ light, 1e-6, 1.0)
        # scaled so that a face looking straight at the camera shows its true color
        return np.clip(self.ambient + (1.0 - self.ambient) * lambert / front, 0.0, 1.0)


HEADLIGHT = Lighting()
FLAT = Lighting(ambient=1.0)


@dataclass(frozen=True)
class Panel:
    """The seed site's view panel as render options (its light is :class:`Lighting`).

    ``axes``: every block's axes drawn and named (tokens / features / heads);
    ``floor``: a grid on the plane the blocks rest on (behind them, as the
    camera looks down at them); ``captions``: the narration drawn in the
    picture (burned in). The .srt beside a video is written either way.
    """

    axes: bool = False
    floor: bool = False
    captions: bool = True


PANEL = Panel()


THEMES = {"dark": DARK, "light": LIGHT}


@dataclass(frozen=True)
class Look:
    """How a scene looks, handed to it as one value: theme, lighting, view panel.

    >>> Look.from_options(theme="light", flat=True).lighting.ambient
    1.0
    """

    theme: Theme = DARK
    lighting: Lighting = HEADLIGHT
    panel: Panel = PANEL

    @classmethod
    def from_options(cls, theme: str = "dark", flat: bool = False, panel: Panel = PANEL) -> "Look":
        """The look the command line's ``--theme``, ``--flat`` and view-panel options ask for."""
        return cls(THEMES[theme], FLAT if flat else HEADLIGHT, panel)


LOOK = Look()
