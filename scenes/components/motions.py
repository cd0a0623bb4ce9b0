"""The reusable motions: turn, transpose, matmul, broadcast, softmax, concat, bias.

Each motion is written once and used by every stage that needs it. A motion
takes grids already on screen plus the values it reveals (from the trace or
:mod:`tensors.derive`), plays its animations on the scene and returns the
grid(s) that now hold the result. None computes tensor values.

The matmul follows "Inside the Matrix" (PyTorch blog, 2023): the left operand
turns onto the left face of a box, the right operand onto its top face, the
result sits on the front face; the products ``left[i, p] * right[p, j]`` fill
the interior along the shared axis ``p`` (in depth) and slide forward into
result cell ``(i, j)``, where they are summed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN, LEFT, PI, RIGHT, UP, Group, LaggedStart, Mobject, Text,
    VGroup, smooth,
)

from ..engine.drawing import view_angles
from .colorbar import shown_value
from .cubegrid import CubeGrid
from .labels import LABEL_CHAR, TEXT_FONT, note_text
from .fades import InPlace, appear, vanish
from .layout import LABEL_ROOM, MAX_PITCH, NOTE_ROOM, Margins, fit_blocks, fit_points, place_beside

__all__ = [
    "turn", "camera_turn", "transpose_turn", "permute_last_two", "MatmulBox", "matmul",
    "batched_matmul", "reveal_heads", "beside_matrix", "matrix_vector", "cell_arithmetic", "number_text", "row_numbers", "broadcast_copies", "mask_later_tokens", "softmax_rows",
    "add_bias_rows", "spread_heads", "grid_of_blocks", "head_columns", "head_tags",
    "MATMUL_VIEW", "FRONT_VIEW", "HEAD_GAP", "TAG_ROOM",
]

NEGLIGIBLE = 0.1  # a product this much smaller than a cell's largest is not worth showing first
OWN_COLORS_WIDTH = 2.6  # "own colors: −2.84 to 2.25" under a label
FRONT_VIEW = (0.0, 0.0)
MATMUL_VIEW = (0.62, 0.42)
SUM_FLATTEN = 0.04


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


def camera_turn(scene, yaw: float, pitch: float, **kwargs):
    """Orbit the camera to (yaw, pitch) by interpolating those two angles."""
    start_yaw, start_pitch = getattr(scene, "current_view", scene.view)
    # animating the camera's own tracker tells ThreeDScene that every mobject moves
    tracker = scene.camera.phi_tracker

    def update(_, alpha):
        angles = view_angles(start_yaw + alpha * (yaw - start_yaw),
                             start_pitch + alpha * (pitch - start_pitch))
        scene.camera.set_phi(angles["phi"])
        scene.camera.set_theta(angles["theta"])
        scene.camera.set_gamma(angles["gamma"])
        scene.current_view = (start_yaw + alpha * (yaw - start_yaw),
                              start_pitch + alpha * (pitch - start_pitch))

    # remover: a tracker left in the scene would make Manim redraw everything
    # in every later frame (ThreeDScene treats a present camera tracker as moving)
    return InPlace(tracker, update, remover=True, **kwargs)


def transpose_turn(scene, grid: CubeGrid, transposed_values, run_time: float = 1.6) -> CubeGrid:
    """Show ``grid.T`` as the block turning half a turn about its main diagonal.

    Cell (i, j) travels to (j, i); the turned block is then swapped for a grid
    of the transposed values (same colors), which looks identical.
    """
    x_axis, row_axis, _ = grid.axis_vectors()
    corner = grid.cell_center(0, 0)
    scene.play(turn(grid, PI, x_axis + row_axis, about_point=corner), run_time=run_time)
    depth, rows, cols = grid.dims
    result = grid.like(transposed_values, grid.value_range, dims=(depth, cols, rows))
    result.align_cell((0, 0, 0), corner)
    scene.remove(grid)
    scene.add(result)
    return result


def permute_last_two(scene, grid: CubeGrid, permuted_values, run_time: float = 1.8) -> CubeGrid:
    """``permute(0, 2, 1)``: every head slice turns about its own diagonal at once."""
    x_axis, row_axis, _ = grid.axis_vectors()
    slices = grid.split(axis=0)
    corner = grid.cell_center(0, 0, 0)
    scene.remove(grid)
    scene.add(*slices)
    scene.play(*[turn(s, PI, x_axis + row_axis, about_point=s.cell_center(0, 0)) for s in slices],
               run_time=run_time)
    depth, rows, cols = grid.dims
    result = grid.like(permuted_values, grid.value_range, dims=(depth, cols, rows))
    result.align_cell((0, 0, 0), corner)
    scene.remove(*slices)
    scene.add(result)
    return result


@dataclass
class MatmulBox:
    """Where the three faces of the matmul box go, for result cell pitch ``pitch``.

    The result (m x n) lies in the plane z = ``origin.z`` centred at ``origin``;
    the shared axis (length k) runs behind it, p = 0 nearest the result.
    """

    origin: np.ndarray
    m: int
    n: int
    k: int
    pitch: float

    def result_cell(self, i, j) -> np.ndarray:
        return self.origin + self.pitch * np.array([j - (self.n - 1) / 2, -(i - (self.m - 1) / 2), 0.0])

    def depth(self, p) -> float:
        return -(p + 1) * self.pitch

    @property
    def mid_depth(self) -> float:
        return self.depth((self.k - 1) / 2)

    def left_center(self) -> np.ndarray:
        return self.origin + np.array([-((self.n - 1) / 2 + 1.6) * self.pitch, 0.0, self.mid_depth])

    def right_center(self) -> np.ndarray:
        return self.origin + np.array([0.0, ((self.m - 1) / 2 + 1.6) * self.pitch, self.mid_depth])

    def outline(self) -> np.ndarray:
        """The corners (24, 3) of the three blocks' boxes: left face, top face, result."""
        p, m, n, k = self.pitch, self.m, self.n, self.k
        parts = ((self.left_center(), (p / 2, m * p / 2, k * p / 2)),
                 (self.right_center(), (n * p / 2, p / 2, k * p / 2)),
                 (self.origin, (n * p / 2, m * p / 2, p / 2)))
        signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        return np.concatenate([center + signs * np.array(half) for center, half in parts])

    @classmethod
    def fitted(cls, scene, m: int, n: int, k: int, view, margins: "Margins",
               max_pitch: float) -> "MatmulBox":
        """The box, pitch and place, that fills the scene's stage area seen from ``view``."""
        box = cls(np.zeros(3), m, n, k, 1.0)
        box.origin = np.array([0.8, -0.8, (k + 1) / 2])
        factor, about, shift = fit_points(scene, box.outline(), scene.stage_area().inset(margins),
                                          view, max_factor=max_pitch)
        return cls(about + factor * (box.origin - about) + shift, m, n, k, factor)


def _place_products(products: np.ndarray, box: MatmulBox, template: CubeGrid) -> CubeGrid:
    """The (k, m, n) block of products in the box interior."""
    grid = template.like(np.moveaxis(products, -1, 0))
    corner = box.result_cell(0, 0) + np.array([0.0, 0.0, box.depth(0)])
    return grid.align_cell((0, 0, 0), corner)


def _collapse(scene, pieces: CubeGrid, result: CubeGrid, index, box: MatmulBox, run_time: float):
    """Products slide forward into the result cells and merge (the sum)."""
    front = box.origin
    scene.play(
        pieces.animate.stretch(SUM_FLATTEN, 2, about_point=front).set_opacity(0.0),
        result.animate.set_cell_opacity(1.0, index),
        run_time=run_time,
    )
    scene.remove(pieces)


def matmul(scene, left: CubeGrid, right: CubeGrid, result_values, products, *,
           one_by_one: int = 2, result_range=None, caption=None,
           view=MATMUL_VIEW, speed: float = 1.0, names=None, max_pitch: float = MAX_PITCH):
    """Animate ``result = left @ right`` as the cube box of "Inside the Matrix".

    ``left`` (m x k) and ``right`` (k x n) are on screen at rest; they turn onto
    the left and top faces of the box, which is sized and placed to fill the
    stage area seen from ``view`` (cubes at most ``max_pitch`` apart), with
    room for the face labels. The first ``one_by_one`` cells of row 0
    are computed one at a time, then the rest of row 0, then all other rows.
    ``names`` = (left, right, result) labels them on their faces.
    Returns the result grid (front face) and the face labels.
    ``products`` is ``(m, n, k)``.
    """
    m, k = left.values.shape[1:]
    n = right.values.shape[2]
    label_width = max([LABEL_CHAR * len(str(name)) for name in (names or ())] + [OWN_COLORS_WIDTH])
    margins = Margins(left=label_width + 0.3, bottom=LABEL_ROOM, top=LABEL_ROOM + NOTE_ROOM)
    box = MatmulBox.fitted(scene, m, n, k, view, margins, max_pitch)
    say = caption or (lambda text: None)

    grow = box.pitch / left.pitch
    result = left.like(result_values, result_range,
                       dims=(left.dims[0] or right.dims[0], left.dims[1], right.dims[2]))
    result.scale(grow).move_to(box.origin).set_cell_opacity(0.0)
    scene.add(result)

    left_shift = box.left_center() - left.get_center()
    right_shift = box.right_center() - right.get_center()
    scene.play(
        turn(left, PI / 2, UP, shift=left_shift, scale=grow),
        turn(right, PI / 2, RIGHT, shift=right_shift, scale=box.pitch / right.pitch),
        camera_turn(scene, *view),
        run_time=2.0 / speed,
    )
    interior = _place_products(products, box, left)
    labels = VGroup()
    left_name, right_name, result_name = names or (None, None, None)
    for grid, name, shape, direction in ((left, left_name, (m, k), LEFT),
                                         (right, right_name, (k, n), UP),
                                         (result, result_name, (m, n), DOWN)):
        if name:  # the operands keep their own colors: the bar now describes the result
            labels.add(scene.label(grid, name, shape, direction, buff=0.3, own_scale=grid is not result))
    # the block in focus from here on is the result, filling in
    scene.play(appear(labels), *scene.colorbar_swap(result_name or "result", result.value_range),
               run_time=0.5)

    def cell_step(rows, cols, index, text, run_time):
        say(text)
        scene.play(left.animate.highlight((0, rows)), right.animate.highlight((0, slice(None), cols)),
                   run_time=0.5 * run_time)
        pieces = interior.subgrid((slice(None), rows, cols))
        scene.play(appear(pieces), run_time=0.6 * run_time)
        _collapse(scene, pieces, result, index, box, 0.8 * run_time)

    for j in range(min(one_by_one, n)):
        cell_step(0, j, (0, 0, j),
                  f"row 0 · column {j}: {k} products side by side, summed into one cube",
                  1.6 / speed)
        if j == 0:  # the true arithmetic of the first cell, from the trace
            say(cell_arithmetic(result_name or "result", left.values[0, 0], right.values[0, :, 0],
                                result_values[0, 0]))
            scene.wait(1.6 / speed)
    if one_by_one < n:
        cell_step(0, slice(one_by_one, n), (0, 0, slice(one_by_one, n)),
                  "the rest of row 0: the same row against every column", 1.4 / speed)
    if m > 1:
        cell_step(slice(1, m), slice(None), (0, slice(1, m)),
                  "all the remaining rows at once", 1.4 / speed)
    scene.play(left.animate.clear_highlight(), right.animate.clear_highlight(), run_time=0.4)
    return result, labels


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


def number_text(value: float) -> str:
    """A number as a caption shows it: 2 decimals, a true minus, negatives in brackets."""
    text = f"{value:.2f}".replace("-", "−")
    return f"({text})" if value < 0 else text


def cell_arithmetic(name: str, row: np.ndarray, column: np.ndarray, total: float, terms: int = 3,
                    cell: str | None = None) -> str:
    """``name[0, 0] = a·b + c·d + … = total``: one cell's dot product (its row
    of the left operand, its column of the right): its first ``terms``
    products, or, where those are all negligible (a weighted mix whose first
    weights are ~0), the largest of the ``terms`` largest that are not
    negligible, in their order, "…" for the others.
    ``cell`` names the cell instead (e.g. a vector's ``q[0]``).

    >>> cell_arithmetic("ω", np.array([0.5, -1.0, 2.0, 1.0]), np.array([0.5, 1.5, 1.0, 0.0]), 0.75)
    'ω[0, 0] = 0.50·0.50 + (−1.00)·1.50 + 2.00·1.00 + … = 0.75'
    >>> cell_arithmetic("z", np.array([0.0, 0.01, 0.0, 0.99, 0.5]), np.array([1.0, 2.0, 3.0, 4.0, 1.0]), 4.48)
    'z[0, 0] = … + 0.99·4.00 + 0.50·1.00 = 4.48'
    >>> cell_arithmetic("Q[0]", np.array([1.0]), np.array([2.0]), 2.0)
    'Q[0, 0, 0] = 1.00·2.00 = 2.00'
    """
    row, column = np.asarray(row, float), np.asarray(column, float)
    size = np.abs(row * column)
    largest = list(range(min(terms, len(row))))
    if size[:terms].max() < NEGLIGIBLE * size.max():
        largest = sorted(i for i in np.argsort(-size, kind="stable")[:terms] if size[i] >= NEGLIGIBLE * size.max())
    parts, last = [], -1
    for i in largest:
        if i > last + 1:
            parts.append("…")
        parts.append(f"{number_text(row[i])}·{number_text(column[i])}")
        last = i
    if last < len(row) - 1:
        parts.append("…")
    if cell is None:
        cell = f"{name[:-1]}, 0, 0]" if name.endswith("]") else f"{name}[0, 0]"  # a head's slice: one index
    return f"{cell} = {' + '.join(parts)} = {number_text(total)}"


def batched_matmul(scene, left: CubeGrid, right: CubeGrid, result_values, products_head0, *,
                   names, caption=None, result_range=None, speed: float = 1.4) -> CubeGrid:
    """``result[h] = left[h] @ right[h]`` for every head ``h``, as a viewer can follow it.

    Head 0's slices leave their blocks (the other heads fade out) and go
    through the matmul box cell by cell; then the other heads' results stack
    up behind head 0's, one slice per head, along the head axis.
    ``names`` = (left, right, result) of the whole 3D tensors. Returns the
    3D result block (in the box's place, the camera at the matmul view).
    """
    say = caption or (lambda text: None)
    heads = left.grid_shape[0]
    left_slices, right_slices = left.split(axis=0), right.split(axis=0)
    scene.remove(left, right)
    scene.add(*left_slices, *right_slices)
    rest = left_slices[1:] + right_slices[1:]
    m, k = left.grid_shape[1:]
    n = right.grid_shape[2]
    if rest:
        say(f"head 0 first: one ordinary {m}×{k} · {k}×{n} matmul")
        scene.play(*[vanish(s) for s in rest], run_time=0.4)
    value_range = result_range or (float(np.min(result_values)), float(np.max(result_values)))
    left_name, right_name, result_name = names
    head0, labels = matmul(scene, left_slices[0], right_slices[0], result_values[0], products_head0,
                           one_by_one=1, result_range=value_range, caption=say, speed=speed,
                           names=(f"{left_name}[0]", f"{right_name}[0]", f"{result_name}[0]"))
    block = head0.like(result_values, value_range, dims=("heads",) + tuple(head0.dims[1:]))
    block.align_cell((0, 0, 0), head0.cell_center(0, 0))
    block.set_cell_opacity(0.0).set_cell_opacity(1.0, (0,))
    *operand_labels, result_label = labels  # head 0's result keeps its name while the others join it
    scene.play(vanish(left_slices[0]), vanish(right_slices[0]), *map(vanish, operand_labels), run_time=0.5)
    scene.remove(head0)
    scene.add(block)
    if heads > 1:
        say(f"heads 1 to {heads - 1}: the same matmul with their own slices, all at once")
        scene.play(reveal_heads(block), run_time=min(2.4, 0.4 * heads))
    scene.play(vanish(result_label), run_time=0.3)
    return block


def reveal_heads(block: CubeGrid, first: int = 1) -> InPlace:
    """Heads ``first`` .. h-1 of a block appear one after the other (from transparent)."""
    heads = block.grid_shape[0]
    count = max(heads - first, 1)

    def update(grid, alpha):
        for h in range(first, heads):
            grid.set_cell_opacity(float(np.clip(alpha * count - (h - first), 0.0, 1.0)), (h,))

    return InPlace(block, update)


def broadcast_copies(scene, grid: CubeGrid, copies: int, counter_at, theme,
                     run_time: float = 2.4) -> CubeGrid:
    """Copy a 2D grid ``copies`` times along the head axis; a counter says ×h.

    Returns one 3D grid (copies, rows, columns) in place of the stack.
    """
    _, _, head_axis = grid.axis_vectors()
    stack, counter = [grid], None
    per_copy = run_time / max(copies - 1, 1)
    if copies == 1:  # one head: the one copy there is
        counter = Text("×1", font=TEXT_FONT, font_size=30, color=theme.accent).move_to(counter_at)
        scene.camera.add_fixed_in_frame_mobjects(counter)
        scene.play(appear(counter), run_time=min(run_time, 0.8))
    for h in range(1, copies):
        copy = grid.copy().shift(head_axis * grid.pitch * h)
        text = Text(f"×{h + 1}", font=TEXT_FONT, font_size=30, color=theme.accent).move_to(counter_at)
        scene.camera.add_fixed_in_frame_mobjects(text)
        anims = [appear(copy), appear(text)]
        if counter is not None:
            anims.append(vanish(counter))
        scene.play(*anims, run_time=per_copy)
        counter = text
        stack.append(copy)
    block_values = np.broadcast_to(grid.values[0], (copies,) + grid.values.shape[1:])
    block = grid.like(block_values, grid.value_range, dims=("heads",) + grid.dims[1:])
    block.align_cell((0, 0, 0), grid.cell_center(0, 0))
    scene.remove(*stack)
    scene.add(block)
    return block, counter


def mask_later_tokens(scene, grids: list[CubeGrid], theme, run_time: float = 1.4) -> Mobject:
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
    mark = Text("−∞", font=TEXT_FONT, font_size=max(14, min(30, int(90 * first.pitch))), color=theme.ink)
    mark.move_to(centre + np.array([0.0, 0.0, first.cube_edge]))
    mark.on_block = True  # it names the dark cells it lies on
    scene.upright(mark)
    scene.play(*[g.animate.mask(later) for g in grids], appear(mark), run_time=run_time)
    return mark


def softmax_rows(scene, grid: CubeGrid, steps: dict, weights_range, *, explicit_rows=((0, 0),),
                 caption=None, sum_labels: bool = True, theme=None, run_time: float = 1.0,
                 weights_name: str = "weights"):
    """Softmax along rows: exponentiate, divide by the row sum, recolor; Σ = 1.

    ``steps`` is :func:`tensors.softmax_steps` of the grid's scores. The rows in
    ``explicit_rows`` ((head, row) pairs) go one at a time, then all the rest.
    The color bar follows the rows in focus: each step's own scale, and the
    weights' (named ``weights_name``) once rows are weights.
    Returns the labels showing each front-slice row's sum.
    """
    say = caption or (lambda text: None)
    exp, weights = steps["exp"], steps["weights"]
    if exp.ndim == 2:
        exp, weights = exp[None], weights[None]
    sums = steps["weights"].sum(axis=-1).reshape(exp.shape[:2])
    labels = VGroup()

    def sum_label(h, row):
        x_axis, _, _ = grid.axis_vectors()
        text = Text(f"Σ = {sums[h, row]:.3f}", font=TEXT_FONT, font_size=16, color=theme.ink)
        beside = grid.pitch + 0.55 + scene.guide_room(grid, RIGHT)  # clear of an axis arrow
        text.move_to(grid.cell_center(row, grid.grid_shape[2] - 1, h) + x_axis * beside)
        scene.upright(text)
        return text

    scores = np.asarray(steps["scores"]).reshape(exp.shape)
    bar = scene.colorbar_swap
    for number, (h, row) in enumerate(explicit_rows):
        index = (h, row)
        row_exp = exp[h, row]
        scene.play(grid.animate.highlight(index), run_time=0.4 * run_time)
        if number == 0:  # the true numbers of the first row, from the trace
            say(row_numbers(f"row {row}: scores", scores[h, row]))
            scene.wait(1.2 * run_time)
            true_exp = np.exp(scores[h, row])
            say(row_numbers("exp(score)", true_exp, total="sum"))
        else:
            say("exp(score): all positive, the largest grows fastest")
        # the exponentials on their own scale: which entries grow
        scene.play(grid.animate.paint(index, row_exp, (0.0, float(row_exp.max()))),
                   *bar(f"exp, row {row} (÷ its max)", (0.0, 1.0)), run_time=0.8 * run_time)
        if number == 0:
            scene.wait(1.2 * run_time)
            say(row_numbers("÷ the sum: weights", weights[h, row], total="Σ"))
        else:
            say("÷ row sum: the row now adds up to 1")
        anims = [grid.animate.paint(index, weights[h, row], weights_range),
                 *bar(weights_name, weights_range)]
        if sum_labels and h == 0:
            label = sum_label(h, row)
            labels.add(label)
            anims.append(appear(label))
        scene.play(*anims, run_time=0.8 * run_time)

    say("the same for every row at once")
    done = {tuple(r) for r in explicit_rows}
    rest = [(h, r) for h in range(exp.shape[0]) for r in range(exp.shape[1]) if (h, r) not in done]
    if rest:
        heads = np.array([h for h, _ in rest])
        rows = np.array([r for _, r in rest])
        scene.play(grid.animate.clear_highlight(), run_time=0.3 * run_time)
        row_max = exp.max(axis=-1, keepdims=True)
        scene.play(grid.animate.paint((heads, rows), (exp / row_max)[heads, rows], (0.0, 1.0)),
                   *bar("exp, each row ÷ its max", (0.0, 1.0)), run_time=0.8 * run_time)
        anims = [grid.animate.paint((heads, rows), weights[heads, rows], weights_range),
                 *bar(weights_name, weights_range)]
        if sum_labels:
            new = [sum_label(h, r) for h, r in rest if h == 0]
            labels.add(*new)
            anims += [appear(t) for t in new]
        scene.play(*anims, run_time=0.9 * run_time)
        scene.play(grid.animate.clear_highlight(), run_time=0.3 * run_time)
    else:
        scene.play(grid.animate.clear_highlight(), run_time=0.3 * run_time)  # the bar is the weights' already
    return labels


def row_numbers(what: str, values: np.ndarray, total: str | None = None, shown: int = 3) -> str:
    """``what: a, b, c, …`` (3 significant digits) and, with ``total``, the row's sum.

    >>> row_numbers("exp(score)", np.array([2.0, 0.5, 0.25, 0.25]), total="sum")
    'exp(score): 2, 0.5, 0.25, … sum = 3'
    """
    values = np.asarray(values, float)
    parts = ", ".join(shown_value(v) for v in values[:shown])
    more = ", …" if len(values) > shown else ""
    tail = f" {total} = {shown_value(values.sum())}" if total else ""
    return f"{what}: {parts}{more}{tail}"


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


HEAD_GAP = (0.55, 0.45)  # between head slices on screen: across, and down (room for the tags)
TAG_ROOM = 0.3


def grid_of_blocks(scene, blocks, columns: int, gap=HEAD_GAP, view=FRONT_VIEW, margins=None,
                   max_pitch: float = MAX_PITCH, area=None) -> None:
    """Lay ``blocks`` out in rows of ``columns`` (row-major), ``gap`` apart
    on screen, and fit them to the stage area seen from ``view``."""
    margins = margins or Margins(top=TAG_ROOM)
    scale = 1.0
    columns = max(1, min(columns, len(blocks)))
    rows = int(np.ceil(len(blocks) / columns))
    for _ in range(2):  # the gaps are kept on screen, whatever the blocks' scale
        width = max(b.width for b in blocks) + gap[0] / scale
        height = max(b.height for b in blocks) + gap[1] / scale
        for n, block in enumerate(blocks):
            r, c = divmod(n, columns)
            block.move_to([(c - (columns - 1) / 2) * width, -(r - (rows - 1) / 2) * height, 0.0])
        scale *= fit_blocks(scene, list(blocks), margins=margins, view=view, max_pitch=max_pitch,
                            area=area)


def head_columns(heads: int, width: float, height: float, area) -> int:
    """How many head slices per row use the stage area best (the largest slices)."""
    def size(columns):
        rows = int(np.ceil(heads / columns))
        return min((area.width - (columns - 1) * HEAD_GAP[0]) / (columns * width),
                   (area.height - TAG_ROOM - (rows - 1) * HEAD_GAP[1]) / (rows * height))
    return max(range(1, heads + 1), key=size)


def head_tags(scene, slices, font_size: int = 16, direction=UP, buff: float = 0.08) -> VGroup:
    """"head h" over each slice (or on its ``direction`` side), pinned to the
    screen, not yet shown."""
    tags = VGroup(*[note_text(f"head {h}", scene.theme, font_size=font_size, color=scene.theme.muted)
                    for h in range(len(slices))])
    for tag, piece in zip(tags, slices):
        place_beside(scene, [piece], tag, direction, buff=buff, view=FRONT_VIEW)
    scene.fixed(*tags)
    return tags


def spread_heads(scene, block, columns: int | None = None, run_time: float = 2.2, name: str | None = None,
                 area=None, words=None):
    """Split a (h, r, c) block into its head slices laid out in a grid, front
    view, as large as ``area`` (the stage area) allows; "head h" over each,
    with ``name`` the tensor's label under the grid, and with ``words`` (rows
    are tokens) the words beside the leftmost slices' rows, room kept for them
    only where they would be readable.

    Returns the slices and their tags (shown), the words and then the label in the tags' group.
    """
    heads = block.grid_shape[0]
    slices = block.split(axis=0)
    scene.remove(block)
    scene.add(*slices)
    area = area or scene.stage_area()

    def laid_out(left):
        targets = [s.copy() for s in slices]
        count = columns or head_columns(heads, slices[0].grid_shape[2], slices[0].grid_shape[1],
                                        area.inset(Margins(left=left)))
        grid_of_blocks(scene, targets, count, area=area,
                       margins=Margins(left=left, top=TAG_ROOM, bottom=LABEL_ROOM if name else 0.0))
        return targets

    room = scene.word_room(words) if words else 0.0
    targets = laid_out(room)
    if room and not scene.rows_readable(targets[0]):  # too thin for words: the heads take the room
        room, targets = 0.0, laid_out(0.0)
    scene.play(camera_turn(scene, *FRONT_VIEW),
               LaggedStart(*[s.animate.become(t) for s, t in zip(slices, targets)], lag_ratio=0.08),
               run_time=run_time)
    tags = head_tags(scene, slices)
    if room:
        leftmost = min(s.get_left()[0] for s in slices)
        tags.add(*[scene.word_labels(s, words) for s in slices if s.get_left()[0] < leftmost + s.pitch])
    if name:  # last: a stage may swap it for the next name (tags[-1])
        tags.add(scene.label(Group(*slices), name, block.grid_shape, DOWN))
    scene.play(appear(tags), run_time=0.5)
    return slices, tags
