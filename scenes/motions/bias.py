"""A bias added to every row (a broadcast add)."""

from __future__ import annotations

from manim import LaggedStart, smooth

from ..components.cubegrid import CubeGrid

__all__ = ["add_bias_rows"]


def add_bias_rows(scene, result: CubeGrid, bias: CubeGrid, output_values, output_range,
                  run_time: float = 2.4, naming=()):
    """Broadcast add: copies of the bias row drop onto every row, the result
    recolors; ``naming``: the animations that rename it, in the same play."""
    rows = result.grid_shape[1]
    copies = []
    for row in range(rows):
        c = bias.copy()
        copies.append(c)
    scene.add(*copies)
    # smooth, each (a play's rate function would override the naming's own)
    scene.play(LaggedStart(*[c.animate.align_cell((0, 0, 0), result.cell_center(r, 0)).set_opacity(0.0)
                             for r, c in enumerate(copies)], lag_ratio=0.12, rate_func=smooth),
               result.animate(rate_func=smooth).recolor(output_values, output_range), *naming, run_time=run_time)
    scene.remove(*copies)
    return result
