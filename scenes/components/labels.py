"""Text pieces every scene uses: titles, code lines, block labels, notes.

The type scale is sized for a projector at 480p (the frame is 8 units = 480
px high; a capital is 0.61 px per point of ``font_size``): captions and
block names at :data:`NAME_SIZE` (28: 17 px capitals), everything else a
viewer needs to read at :data:`TEXT_SIZE` (21: 13 px) or larger, titles at
:data:`TITLE_SIZE`. Where that does not fit, a scene shows fewer labels, not
smaller ones. Formulas use ``MathTex``, which Manim caches by content, so a
re-render compiles no TeX.

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
    "shape_text", "title_text", "code_box", "BlockLabel", "note_text", "formula", "cap_height_px",
    "CODE_FONT", "TEXT_FONT", "TITLE_SIZE", "NAME_SIZE", "CAPTION_SIZE", "TEXT_SIZE", "CODE_SIZE",
    "MIN_NAME_PX", "MIN_TEXT_PX",
]

CODE_FONT = "DejaVu Sans Mono"
TEXT_FONT = "DejaVu Sans"
TITLE_SIZE = 34
NAME_SIZE = 28  # a block's name
CAPTION_SIZE = 28
TEXT_SIZE = 21  # shapes, color scales, words, tags, notes
CODE_SIZE = 21
FORMULA_SIZE = 44  # a formula's letters ~19 px high at 480p, its subscripts ~13
CAP_PX_PER_POINT = 0.6075  # a capital's height at 480p per point of font_size (DejaVu Sans, measured)
MIN_NAME_PX = 16  # captions and names: what a projector's back row reads
MIN_TEXT_PX = 12  # any other text a viewer needs


def cap_height_px(font_size: float, pixel_height: int = 480) -> float:
    """A capital's height in pixels at ``font_size``, in a frame ``pixel_height`` high.

    >>> round(cap_height_px(TEXT_SIZE), 1), round(cap_height_px(NAME_SIZE), 1)
    (12.8, 17.0)
    """
    return font_size * CAP_PX_PER_POINT * pixel_height / 480


def shape_text(shape) -> str:
    """``(9, 8, 17)`` -> ``'9×8×17'``; a vector ``(18,)`` -> ``'18'``."""
    return "×".join(str(n) for n in shape)


def title_text(number: int, title: str, theme: Theme = DARK) -> VGroup:
    badge = Text(f"Stage {number}", font=TEXT_FONT, font_size=TITLE_SIZE, weight="BOLD",
                 color=theme.accent)
    name = Text(title, font=TEXT_FONT, font_size=TITLE_SIZE, color=theme.ink)
    return VGroup(badge, name).arrange(RIGHT, buff=0.25)


def code_box(code: str, theme: Theme = DARK, max_width: float = 13.6) -> VGroup:
    """The PyTorch line(s) that compute the tensor, on a quiet panel; a line
    too wide for the frame is broken where Python allows (after ``; ``,
    before a ``  #`` comment or a `` + ``, after ``(`` or ``, ``), the rest
    indented (:func:`code_lines`); it never gets smaller than :data:`CODE_SIZE`
    unless one piece alone is too wide."""
    def width(line: str) -> float:
        return Text(line, font=CODE_FONT, font_size=CODE_SIZE).width

    lines = code if all(width(line) <= max_width * SQUEEZE for line in code.split("\n")) \
        else code_lines(code, width, max_width)
    text = Text(lines, font=CODE_FONT, font_size=CODE_SIZE, color=theme.ink, line_spacing=0.8)
    if text.width > max_width:
        text.scale_to_fit_width(max_width)
    panel = RoundedRectangle(corner_radius=0.08, width=text.width + 0.35,
                             height=text.height + 0.25, stroke_width=0,
                             fill_color=theme.code_background, fill_opacity=0.92)
    panel.move_to(text)
    box = VGroup(panel, text)
    box.statements = statement_glyphs(lines)
    return box


def statement_glyphs(lines: str) -> list[range]:
    r"""Per statement of ``lines`` (a line and the indented lines that
    continue it), the indices of its glyphs in the ``Text`` of ``lines``
    (which has one per character that is not white space).

    >>> statement_glyphs("a = f(x,\n    y)\nb = a.T")
    [range(0, 8), range(8, 13)]
    """
    starts, count = [], 0
    for line in lines.split("\n"):
        if not line.startswith(" "):
            starts.append(count)
        count += sum(not c.isspace() for c in line)
    return [range(a, b) for a, b in zip(starts, starts[1:] + [count])]


def mark_statements(box: VGroup, theme: Theme, which=None) -> None:
    """Show which statements of a code panel (:func:`code_box`) the picture
    is at: those in ``which`` in the accent color, the others muted; all in
    ink when ``which`` is None (or the panel has one statement)."""
    text = box[1]
    if len(box.statements) < 2 or box.statements[-1].stop != len(text.submobjects):
        return  # one statement: nothing to point at (or glyphs not one per character: a tiny probe render)
    for n, glyphs in enumerate(box.statements):
        color = theme.ink if which is None else theme.accent if n in which else theme.muted
        for g in glyphs:
            text.submobjects[g].set_color(color)


BREAKS = ("; ", "  # ", " + ", ", ", "(")  # where a line may break, best first
SQUEEZE = 1.06  # a line this much too wide is scaled (to 12 px capitals at 480p), not broken
INDENT = "    "


def code_lines(code: str, width, max_width: float) -> str:
    r"""``code`` with each line wider than ``max_width`` (as ``width`` measures
    a line) broken at the last place that fits, of the best kind there is;
    a statement after ``; `` starts its own line, anything else continues
    indented.

    >>> code_lines("a = f(x, y); b = g(z)", len, 12)
    'a = f(x, y)\nb = g(z)'
    >>> code_lines("weights = softmax(scores + mask, dim=-1)", len, 24)
    'weights = softmax(scores\n    + mask, dim=-1)'
    """
    out = []
    for line in code.split("\n"):
        while width(line) > max_width:
            cut = None
            for mark in BREAKS:
                keep = len(mark) if mark in ("; ", ", ", "(") else 0  # the mark ends this line or starts the next
                spots = [i for i in range(len(line)) if line.startswith(mark, i)]
                fitting = [i for i in spots if 0 < i and line[:i].strip()
                           and width(line[:i + keep].rstrip()) <= max_width]
                if fitting:
                    cut = (fitting[-1], mark)
                    break
            if cut is None:
                break
            at, mark = cut
            if mark in ("; ", ", ", "("):
                head, rest = line[:at + len(mark)].rstrip(), line[at + len(mark):]
            else:  # a comment or an operator starts the next line
                head, rest = line[:at].rstrip(), line[at:].lstrip()
            out.append(head.rstrip(";").rstrip() if mark == "; " else head)
            line = rest if mark == "; " else INDENT + rest
        out.append(line)
    return "\n".join(out)


class BlockLabel(VGroup):
    """A block's name, shape and color scale, as one label: ``name  shape`` on
    one line (``stacked``: the shape under the name) and the block's scale
    under it (``low ▮▮▮ high``, see :class:`~.colorbar.ScaleBar`), so the
    legend is always the one of the block it names.

    ``scale_of``: the tensor whose colors the block wears when that is not
    the one named (a head's slice on all heads' colors), said before the
    scale. ``masked``: the scale shows the masked color too. Without
    ``value_range``, no scale (a block whose colors are described elsewhere).
    ``note``: one more line under it (what a head looks at).
    """

    def __init__(self, name: str, shape, theme: Theme = DARK, value_range=None, *, stacked: bool = False,
                 scale_of: str | None = None, masked: bool = False, note: str | None = None):
        from .colorbar import ScaleBar

        self.tensor_name, self.shape, self.scale_of = name, tuple(shape), scale_of
        self.value_range = None if value_range is None else (float(value_range[0]), float(value_range[1]))
        title = Text(drawable(name), font=TEXT_FONT, font_size=NAME_SIZE, weight="BOLD", color=theme.ink,
                     line_spacing=0.7)  # a long name on two lines: its lines clear of each other
        title.is_name = True  # the text rules hold a name to the captions' size
        # no shape for a strip (``shape`` empty: its length is there to count), only whose colors it wears
        size = " · ".join(([shape_text(shape)] if len(shape) else [])
                          + ([f"colors of {scale_of}"] if scale_of else []))
        parts = [title] + ([Text(size, font=TEXT_FONT, font_size=TEXT_SIZE, color=theme.muted)] if size else [])
        head = VGroup(*parts).arrange(DOWN if stacked else RIGHT, buff=0.08 if stacked else 0.18,
                                      aligned_edge=LEFT if stacked else DOWN)
        lines = [head]
        if self.value_range is not None:
            lines.append(ScaleBar(self.value_range, theme, masked=masked))
        self.note = note
        if note:
            lines.append(Text(drawable(note), font=TEXT_FONT, font_size=TEXT_SIZE, color=theme.ink))
        super().__init__(*lines)
        self.arrange(DOWN, buff=0.1, aligned_edge=LEFT)

    def __deepcopy__(self, memo):
        """A copy that points to the same block and row as this label."""
        from .cubegrid import shared_deepcopy

        return shared_deepcopy(self, memo, ("block", "row"))


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


def note_text(text: str, theme: Theme = DARK, font_size: int = TEXT_SIZE, color=None) -> Text:
    return Text(drawable(text), font=TEXT_FONT, font_size=font_size, color=color or theme.ink,
                line_spacing=0.9)


def formula(tex: str, theme: Theme = DARK, font_size: int = FORMULA_SIZE) -> MathTex:
    return MathTex(tex, font_size=font_size, color=theme.ink)


# Re-exported directions keep stage files' imports short.
ABOVE, BELOW, LEFT_OF, RIGHT_OF = UP, DOWN, LEFT, RIGHT
