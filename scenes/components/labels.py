"""Text pieces every scene uses: titles, code lines, tensor labels, notes.

Sizes are chosen to stay readable at 480p (the frame is 8 units = 480 px
high, so ``font_size`` 22 is about 13 px for a capital). Formulas use
``MathTex``, which Manim caches by content, so a re-render compiles no TeX.

Examples
--------
>>> shape_text((9, 8, 17))
'9×8×17'
"""

from __future__ import annotations

import unicodedata

from manim import DOWN, LEFT, RIGHT, UP, MathTex, RoundedRectangle, Text, VGroup

from .palette import DARK, Theme

__all__ = [
    "shape_text", "title_text", "code_box", "tensor_label", "note_text", "formula",
    "CODE_FONT", "TEXT_FONT", "LABEL_SIZE", "LABEL_CHAR", "NOTE_SIZE",
]

CODE_FONT = "DejaVu Sans Mono"
TEXT_FONT = "DejaVu Sans"
TITLE_SIZE = 30
CODE_SIZE = 20
LABEL_SIZE = 22
NOTE_SIZE = 22
LABEL_CHAR = 0.19  # about the width of one character of a block label (bold, LABEL_SIZE): layouts estimate with it
NOTE_LINE_SIZE = 15  # a label's note line (its own color scale)
FORMULA_SIZE = 40  # a formula's letters ~17 px high at 480p, its subscripts ~12


def shape_text(shape) -> str:
    """``(9, 8, 17)`` -> ``'9×8×17'``; a vector ``(18,)`` -> ``'18'``."""
    return "×".join(str(n) for n in shape)


def title_text(number: int, title: str, theme: Theme = DARK) -> VGroup:
    badge = Text(f"{number:02d}", font=TEXT_FONT, font_size=TITLE_SIZE, weight="BOLD",
                 color=theme.accent)
    name = Text(title, font=TEXT_FONT, font_size=TITLE_SIZE, color=theme.ink)
    return VGroup(badge, name).arrange(RIGHT, buff=0.25)


def code_box(code: str, theme: Theme = DARK, max_width: float = 12.6) -> VGroup:
    """The PyTorch line(s) that compute the tensor, on a quiet panel."""
    text = Text(code, font=CODE_FONT, font_size=CODE_SIZE, color=theme.ink, line_spacing=0.8)
    if text.width > max_width:
        text.scale_to_fit_width(max_width)
    panel = RoundedRectangle(corner_radius=0.08, width=text.width + 0.35,
                             height=text.height + 0.25, stroke_width=0,
                             fill_color=theme.code_background, fill_opacity=0.92)
    panel.move_to(text)
    return VGroup(panel, text)


def tensor_label(name: str, shape, theme: Theme = DARK, font_size: int = LABEL_SIZE,
                 inline: bool = False, note: str | None = None) -> VGroup:
    """``name`` in bold with its shape beneath, e.g. ``Q`` over ``8×17``;
    ``inline``: on one line, ``Q  8×17`` (above or below a block). ``note``:
    a small line under it all (a block's own color scale)."""
    title = Text(name, font=TEXT_FONT, font_size=font_size, weight="BOLD", color=theme.ink)
    dims = Text(shape_text(shape), font=TEXT_FONT, font_size=font_size - 4, color=theme.muted)
    if inline:
        label = VGroup(title, dims).arrange(RIGHT, buff=0.16, aligned_edge=DOWN)
    else:
        label = VGroup(title, dims).arrange(DOWN, buff=0.08)
    if note:
        label = VGroup(*label, Text(note, font=TEXT_FONT, font_size=NOTE_LINE_SIZE, color=theme.muted))
        label.arrange(DOWN, buff=0.08) if not inline else label[2].next_to(label[:2], DOWN, buff=0.06)
    return label


def drawable(text: str) -> str:
    """``text`` with each pictograph (emoji) written as its code point.

    Color emoji fonts hold bitmaps, not outlines, and Manim draws a Text from
    the glyph outlines: an emoji would vanish (a word of emoji alone would
    leave an empty label). CJK and other scripts have outlines and stay.

    >>> drawable("hi 🤖"), drawable("变形金刚")
    ('hi U+1F916', '变形金刚')
    """
    return "".join(f"U+{ord(c):04X}" if unicodedata.category(c) == "So" and ord(c) > 0x2BFF else c
                   for c in text)


def note_text(text: str, theme: Theme = DARK, font_size: int = NOTE_SIZE, color=None) -> Text:
    return Text(drawable(text), font=TEXT_FONT, font_size=font_size, color=color or theme.ink,
                line_spacing=0.9)


def formula(tex: str, theme: Theme = DARK, font_size: int = FORMULA_SIZE) -> MathTex:
    return MathTex(tex, font_size=font_size, color=theme.ink)


# Re-exported directions keep stage files' imports short.
ABOVE, BELOW, LEFT_OF, RIGHT_OF = UP, DOWN, LEFT, RIGHT
