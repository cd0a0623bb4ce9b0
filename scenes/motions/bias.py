"""A bias added to every row (a broadcast add)."""

from __future__ import annotations

from manim import LaggedStart, smooth

from ..components.cubegrid import CubeGrid

__all__ = ["add_bias_rows"]


def add_bias_rows(scene, result: CubeGrid, bias: CubeGrid, output_values, output_range,
                  run_time: float = 2.4):
    """Broadcast add: copies of the bias row drop onto every row, the result recolors."""
    rows = result.grid_shape[1]
    copies = []
    for row in range(rows):
        c = bias.copy()
        copies.append(c)
    scene.add(*copies)
    scene.play(LaggedStart(*[c.animate.align_cell((0, 0, 0), result.cell_center(r, 0)).set_opacity(0.0)
                             for r, c in enumerate(copies)], lag_ratio=0.12),
               result.animate.recolor(output_values, output_range), run_time=run_time,
               rate_func=smooth)
    scene.remove(*copies)
    return result
