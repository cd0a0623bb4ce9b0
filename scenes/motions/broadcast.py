"""Broadcasting across heads: a 2D block copied along the head axis, counted."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Mobject, Text

from ..components.cubegrid import CubeGrid
from ..components.fades import appear, at_once, swap
from ..components.labels import NAME_SIZE, TEXT_FONT

__all__ = ["Broadcast", "broadcast_copies"]


@dataclass
class Broadcast:
    """What :func:`broadcast_copies` leaves on screen: the 3D block of
    copies and the counter ("×h", pinned to the frame)."""

    block: CubeGrid
    counter: Mobject


def broadcast_copies(scene, layout, grid: CubeGrid, copies: int, counter_at,
                     run_time: float = 2.4, name: str | None = None) -> Broadcast:
    """Copy a 2D grid ``copies`` times along the head axis; a counter at
    ``counter_at`` (frame point) says ×h.

    The stack becomes one 3D grid (copies, rows, columns) in its place.
    ``name``: the stack's name, under it (its shape, copies deep), in
    ``grid``'s label's place from the first copy on: the label changes with
    the block, not after it ("Xᵀ 16×8" under nine copies: 16_0041, the 74th
    reader).
    """
    theme = layout.theme
    _, _, head_axis = grid.axis_vectors()
    stack, counter = [grid], None
    block_values = np.broadcast_to(grid.values[0], (copies,) + grid.values.shape[1:])
    block = grid.like(block_values, grid.value_range, dims=("heads",) + grid.dims[1:])
    block.align_cell((0, 0, 0), grid.cell_center(0, 0))
    renaming = []
    if name is not None:
        old = grid.label
        layout.name(block, name, old.side, stacked=True)
        renaming = swap(old, layout.place(block), rate_func=at_once)
    per_copy = run_time / max(copies - 1, 1)
    if copies == 1:  # one head: the one copy there is
        counter = Text("×1", font=TEXT_FONT, font_size=NAME_SIZE, color=theme.accent).move_to(counter_at)
        layout.fixed(counter)
        scene.play(appear(counter), *renaming, run_time=min(run_time, 0.8))
    for h in range(1, copies):
        copy = grid.copy().shift(head_axis * grid.pitch * h)
        text = Text(f"×{h + 1}", font=TEXT_FONT, font_size=NAME_SIZE, color=theme.accent).move_to(counter_at)
        layout.fixed(text)
        # the count changes at once: digits never morph or cross-fade
        scene.play(appear(copy), *swap(counter, text), *(renaming if h == 1 else []), run_time=per_copy)
        counter = text
        stack.append(copy)
    scene.remove(*stack)
    scene.add(block)
    return Broadcast(block, counter)
