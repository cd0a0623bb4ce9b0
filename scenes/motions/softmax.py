"""The causal mask a softmax applies first: the scores of later tokens turned to −∞."""

from __future__ import annotations

import numpy as np
from manim import Mobject, Text

from ..components.cubegrid import CubeGrid
from ..components.fades import appear
from ..components.colorbar import MASKED_SIGN
from ..components.labels import TEXT_FONT, TEXT_SIZE

__all__ = ["mask_later_tokens"]


def mask_later_tokens(scene, layout, grids: list[CubeGrid], run_time: float = 1.4) -> Mobject:
    """A causal mask: in each (tokens x tokens) score grid the cells above the
    diagonal (token j after token i) turn dark, marked -inf on the first grid.

    The grids keep them dark through the softmax that follows (their weight
    is exactly 0). Returns the "-inf" mark (upright, on the masked triangle).
    """
    tokens = grids[0].grid_shape[1]
    rows, cols = np.triu_indices(tokens, k=1)
    later = (slice(None), rows, cols)
    first = grids[0]
    centre = np.mean([first.cell_center(r, c) for r, c in zip(rows, cols)], axis=0)
    mark = Text(MASKED_SIGN, font=TEXT_FONT, font_size=max(TEXT_SIZE, min(30, int(90 * first.pitch))),
                color=layout.theme.ink)
    mark.move_to(centre + np.array([0.0, 0.0, first.cube_edge]))
    mark.on_block = True  # it names the dark cells it lies on
    layout.upright(mark)
    scene.play(*[g.animate.mask(later) for g in grids], appear(mark), run_time=run_time)
    return mark
