"""The header: title at the top left, the code panel at the bottom, a formula
at the top right, the caption's place above the code, and the stage area
they leave for the blocks.

Examples
--------
The stage area lies below the caption line, above the code panel and left of
the color bar::

    header = Header("ω = X · Xᵀ", 3, "omega = X.matmul(X.T)", None, DARK)
    header.stage_area().bottom > header.caption_bottom()
"""

from __future__ import annotations

from manim import DOWN, UL, UR, Group, Mobject, config

from ..components.labels import code_box, formula, title_text
from ..components.palette import Theme
from ..layout.area import StageArea

__all__ = ["Header", "FRAME_MARGIN", "TITLE_FORMULA_GAP"]

FRAME_MARGIN = 0.25
CAPTION_ROOM = 0.98  # above the code panel: two caption lines at CAPTION_SIZE
CAPTION_GAP = 0.1  # between the caption and the code panel
AREA_GAP = 0.14  # between the stage area and the furniture around it
TITLE_FORMULA_GAP = 0.4
FORMULA_HEIGHT = 0.95  # a taller formula is scaled down to this: the stage area is worth more
FORMULA_SHRINK = 0.75  # a formula squeezed by a long title shrinks at most this far, else is left out


class Header:
    """Title, code and formula of a stage, placed; pin ``parts`` to the frame."""

    def __init__(self, title: str, number: int, code: str, formula_tex: str | None, theme: Theme):
        self.title = title_text(number, title, theme).to_corner(UL, buff=FRAME_MARGIN)
        self.code = code_box(code, theme).to_edge(DOWN, buff=0.2)
        self.formula: Mobject | None = None
        if formula_tex:
            self.formula = formula(formula_tex, theme)
            if self.formula.height > FORMULA_HEIGHT:
                self.formula.scale_to_fit_height(FORMULA_HEIGHT)
            self.formula.to_corner(UR, buff=FRAME_MARGIN)
            room = self.formula.get_right()[0] - TITLE_FORMULA_GAP - self.title.get_right()[0]
            if self.formula.width > room:  # the title keeps its size: the formula gives way, or goes
                if room < FORMULA_SHRINK * self.formula.width:
                    self.formula = None
                else:
                    self.formula.scale_to_fit_width(room).to_corner(UR, buff=FRAME_MARGIN)
        self.parts = [p for p in (self.title, self.code, self.formula) if p is not None]
        self.group = Group(*self.parts)

    def kind_of(self, mob: Mobject) -> str | None:
        """"title", "code" or "formula" for one of the header's parts, else None."""
        return {id(self.title): "title", id(self.code): "code", id(self.formula): "formula"}.get(id(mob))

    def caption_bottom(self) -> float:
        """Where the caption's last line sits: just above the code panel, as subtitles do."""
        return self.code.get_top()[1] + CAPTION_GAP

    def caption_left(self) -> float:
        return -config.frame_width / 2 + FRAME_MARGIN

    def caption_right(self) -> float:
        return config.frame_width / 2 - FRAME_MARGIN

    def stage_area(self) -> StageArea:
        """Where blocks may go: below the title and formula, above the
        caption and the code panel, inside the frame margin (frame units)."""
        half_w = config.frame_width / 2
        top = min(p.get_bottom()[1] for p in (self.title, self.formula) if p is not None)
        return StageArea(left=-half_w + FRAME_MARGIN, right=half_w - FRAME_MARGIN,
                         bottom=self.caption_bottom() + CAPTION_ROOM + AREA_GAP, top=top - AREA_GAP)
