"""The header: title at the top left, the code panel at the bottom, a formula
at the top right, and the stage area they leave for the blocks.

Examples
--------
The stage area lies below the caption line, above the code panel and left of
the color bar::

    header = Header("ω = X · Xᵀ", 3, "omega = X.matmul(X.T)", None, DARK)
    header.stage_area().top < header.caption_top()
"""

from __future__ import annotations

from manim import DOWN, LEFT, UL, UR, Group, Mobject, config

from ..components.labels import code_box, formula, title_text
from ..components.palette import Theme
from ..layout.area import StageArea
from .legend import COLORBAR_ROOM, COLORBAR_X

__all__ = ["Header", "FRAME_MARGIN", "TITLE_FORMULA_GAP"]

FRAME_MARGIN = 0.3
CAPTION_DROP = 0.62  # the caption line's top sits this far below the title's top ...
CAPTION_GAP = 0.1  # ... and at least this far below its lowest glyph
CAPTION_ROOM = 0.42  # the height one caption line takes
AREA_GAP = 0.12  # between the stage area and the furniture around it
TITLE_FORMULA_GAP = 0.4


class Header:
    """Title, code and formula of a stage, placed; pin ``parts`` to the frame."""

    def __init__(self, title: str, number: int, code: str, formula_tex: str | None, theme: Theme):
        self.title = title_text(number, title, theme).to_corner(UL, buff=FRAME_MARGIN)
        self.code = code_box(code, theme).to_edge(DOWN, buff=0.2)
        self.formula: Mobject | None = None
        if formula_tex:
            self.formula = formula(formula_tex, theme).to_corner(UR, buff=FRAME_MARGIN).shift(0.9 * LEFT)
            room = self.formula.get_left()[0] - TITLE_FORMULA_GAP - self.title.get_left()[0]
            if self.title.width > room:  # a long title (own sizes, paper variant) gives way
                self.title.scale_to_fit_width(room, about_edge=LEFT)
        self.parts = [p for p in (self.title, self.code, self.formula) if p is not None]
        self.group = Group(*self.parts)

    def kind_of(self, mob: Mobject) -> str | None:
        """"title", "code" or "formula" for one of the header's parts, else None."""
        return {id(self.title): "title", id(self.code): "code", id(self.formula): "formula"}.get(id(mob))

    def caption_top(self) -> float:
        """The top of the caption line: under the title, clear of its descenders."""
        top = config.frame_height / 2 - FRAME_MARGIN - CAPTION_DROP
        return min(top, self.title.get_bottom()[1] - CAPTION_GAP)

    def caption_right(self, caption_top: float) -> float:
        """How far right a caption line may reach: to the frame's margin, or
        short of the formula where the formula reaches down to the line."""
        right = config.frame_width / 2 - FRAME_MARGIN
        if self.formula is not None and self.formula.get_bottom()[1] < caption_top:
            right = self.formula.get_left()[0] - TITLE_FORMULA_GAP
        return right

    def stage_area(self) -> StageArea:
        """Where blocks may go: below the caption line, above the code panel,
        left of the color bar, inside the frame margin (frame units)."""
        half_w = config.frame_width / 2
        return StageArea(left=-half_w + FRAME_MARGIN, right=COLORBAR_X - COLORBAR_ROOM - AREA_GAP,
                         bottom=self.code.get_top()[1] + AREA_GAP, top=self.caption_top() - CAPTION_ROOM)
