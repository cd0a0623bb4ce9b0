"""A matrix times one vector, drawn flat: the vector laid on every row, each row summed."""

from __future__ import annotations

import numpy as np

from ..components.cubegrid import CubeGrid
SUM_FLATTEN = 0.04  # a row of products squeezed into its sum

__all__ = ["beside_matrix", "matrix_vector"]


def beside_matrix(matrix: CubeGrid, vector_values, result_values, vector_range, result_range):
    """The operands of ``matrix @ vector`` drawn flat: the vector as a row of
    cubes under the matrix, column under column, and the result as a column
    right of it, row beside row, one cube apart. Not shown (clear cells)."""
    m, k = matrix.grid_shape[1:]
    x_axis, row_axis, _ = matrix.axis_vectors()
    vector = matrix.like(np.asarray(vector_values)[None, :], vector_range)
    vector.align_cell((0, 0, 0), matrix.cell_center(m - 1, 0) + 2 * matrix.pitch * row_axis)
    result = matrix.like(np.asarray(result_values)[:, None], result_range)
    result.align_cell((0, 0, 0), matrix.cell_center(0, k - 1) + 2 * matrix.pitch * x_axis)
    return vector.set_cell_opacity(0.0), result.set_cell_opacity(0.0)


def matrix_vector(scene, matrix: CubeGrid, vector: CubeGrid, result: CubeGrid, run_time: float = 2.4):
    """``result = matrix @ vector``, seen flat (see :func:`beside_matrix`):
    the vector rises onto every row of the matrix, one copy per row; then
    each row's k products slide right and merge into that row's one result
    cube (the sum). The vector stays under the matrix."""
    m, k = matrix.grid_shape[1:]
    x_axis, _, head_axis = matrix.axis_vectors()
    copies = vector.like(np.broadcast_to(vector.values[0], (m, k)), vector.value_range)
    copies.align_cell((0, 0, 0), matrix.cell_center(0, 0) - head_axis * matrix.pitch)  # just in front
    start = copies.copy().stretch(SUM_FLATTEN, 1).move_to(vector.get_center())
    scene.add(start)
    scene.play(start.animate.become(copies), matrix.animate.set_cell_opacity(0.55), run_time=0.45 * run_time)
    scene.remove(start)
    scene.add(copies)
    sum_at = result.get_center()
    scene.play(copies.animate.stretch(SUM_FLATTEN, 0, about_point=sum_at - x_axis * matrix.pitch / 2)
               .set_opacity(0.0), result.animate.set_cell_opacity(1.0), run_time=0.55 * run_time)
    scene.remove(copies)
    scene.play(matrix.animate.set_cell_opacity(1.0), run_time=0.3)
