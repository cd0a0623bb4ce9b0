"""Turns: a block turning rigidly, a transpose as a half turn about the diagonal, a permute per head."""

from __future__ import annotations

import numpy as np
from manim import PI, DashedLine, Mobject

from ..components.cubegrid import CubeGrid
from ..components.fades import InPlace, appear, swap, vanish

__all__ = ["turn", "transpose_turn", "permute_last_two", "diagonal"]


def turn(mob: Mobject, angle: float, axis, about_point=None, shift=None, scale: float = 1.0,
         **kwargs):
    """A rigid turn (plus an optional shift and growth), not a straight-line morph."""
    start = mob.copy()  # one copy: the turn is recomputed from the start pose each frame
    about = np.asarray(mob.get_center() if about_point is None else about_point, dtype=float)
    shift = np.zeros(3) if shift is None else np.asarray(shift, dtype=float)

    def update(m, alpha):
        m.points = start.points.copy()
        m.rotate(alpha * angle, axis=np.asarray(axis, float), about_point=about)
        if scale != 1.0:
            m.scale(1.0 + alpha * (scale - 1.0), about_point=about)
        m.shift(alpha * shift)

    return InPlace(mob, update, **kwargs)


def transpose_turn(scene, grid: CubeGrid, transposed_values, run_time: float = 1.6, axis_color=None,
                   keep=None, renamed=None) -> CubeGrid:
    """Show ``grid.T`` as the block turning half a turn about its main diagonal.

    Cell (i, j) travels to (j, i); the turned block is then swapped for a grid
    of the transposed values (same colors), which looks identical. With
    ``axis_color``, the diagonal it turns about is drawn while it turns. The
    turning block is named by ``keep`` (shown), which ``renamed`` (placed,
    not shown: the new name and shape) replaces half-way through the turn,
    as :func:`permute_last_two` does.
    """
    x_axis, row_axis, _ = grid.axis_vectors()
    corner = grid.cell_center(0, 0)
    axis = [diagonal(grid, axis_color)] if axis_color is not None else []
    if axis:
        scene.play(appear(axis[0]), run_time=0.5)
    naming = swap(keep, renamed) if renamed is not None else []
    scene.play(turn(grid, PI, x_axis + row_axis, about_point=corner), *naming, run_time=run_time)
    if axis:
        scene.play(*map(vanish, axis), run_time=0.4)
    depth, rows, cols = grid.dims
    result = grid.like(transposed_values, grid.value_range, dims=(depth, cols, rows))
    result.align_cell((0, 0, 0), corner)
    scene.remove(grid)
    scene.add(result)
    return result


def permute_last_two(scene, grid: CubeGrid, permuted_values, run_time: float = 1.8, axis_color=None,
                     keep=None, renamed=None) -> CubeGrid:
    """``permute(0, 2, 1)``: every head slice turns about its own diagonal at
    once (with ``axis_color``, the front slice's diagonal drawn while they
    turn: one line, the axis of every turn). The turning slices are named by
    ``grid``'s label (``keep``, shown); ``renamed``: the label with the new
    shape (placed, not shown), which takes its place half-way through the
    turn (the caller binds it to the result)."""
    x_axis, row_axis, _ = grid.axis_vectors()
    slices = grid.split(axis=0)
    for piece in slices:
        piece.part_of = grid
    corner = grid.cell_center(0, 0, 0)
    scene.remove(grid)
    scene.add(*slices)
    axes = [diagonal(slices[0], axis_color)] if axis_color is not None else []  # nine would blur into a band
    if axes:
        scene.play(*[appear(a) for a in axes], run_time=0.5)
    naming = swap(keep, renamed) if renamed is not None else []
    scene.play(*[turn(s, PI, x_axis + row_axis, about_point=s.cell_center(0, 0)) for s in slices], *naming,
               run_time=run_time)
    if axes:
        scene.play(*map(vanish, axes), run_time=0.4)
    depth, rows, cols = grid.dims
    result = grid.like(permuted_values, grid.value_range, dims=(depth, cols, rows))
    result.align_cell((0, 0, 0), corner)
    scene.remove(*slices)
    scene.add(result)
    return result


def diagonal(grid: CubeGrid, color) -> DashedLine:
    """The main diagonal of a 2D ``grid``'s square part, a little beyond both ends."""
    x_axis, row_axis, _ = grid.axis_vectors()
    corner = grid.cell_center(0, 0)
    direction = (x_axis + row_axis) / np.linalg.norm(x_axis + row_axis)
    reach = (min(grid.grid_shape[1:]) - 1) * grid.pitch * np.sqrt(2)
    return DashedLine(corner - direction * grid.pitch, corner + direction * (reach + grid.pitch),
                      color=color, stroke_width=3)
