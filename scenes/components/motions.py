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
    DOWN, LEFT, PI, RIGHT, UP, LaggedStart, Mobject, Text,
    VGroup, smooth,
)

from ..engine.drawing import view_angles
from .cubegrid import CubeGrid
from .labels import TEXT_FONT, note_text
from .fades import InPlace, appear, vanish
from .layout import LABEL_ROOM, MAX_PITCH, Margins, fit_points

__all__ = [
    "turn", "camera_turn", "transpose_turn", "permute_last_two", "MatmulBox", "matmul",
    "batched_results", "broadcast_copies", "mask_later_tokens", "softmax_rows", "concat_heads",
    "add_bias_rows", "spread_heads",
    "MATMUL_VIEW", "FRONT_VIEW", "HEAD_GAP", "TAG_ROOM",
]

LABEL_CHAR = 0.17  # about the width of one bold label character (font size 22)
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
    label_width = max([LABEL_CHAR * len(str(name)) for name in (names or ())] + [LABEL_CHAR * 5])
    margins = Margins(left=label_width + 0.3, bottom=LABEL_ROOM, top=LABEL_ROOM)
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
    if names:
        left_name, right_name, result_name = names
        for grid, name, shape, direction in ((left, left_name, (m, k), LEFT),
                                             (right, right_name, (k, n), UP),
                                             (result, result_name, (m, n), DOWN)):
            if name:
                labels.add(scene.label(grid, name, shape, direction, buff=0.3))
        scene.play(appear(labels), run_time=0.5)

    def cell_step(rows, cols, index, text, run_time):
        say(text)
        scene.play(left.animate.highlight((0, rows)), right.animate.highlight((0, slice(None), cols)),
                   run_time=0.5 * run_time)
        pieces = interior.subgrid((slice(None), rows, cols))
        scene.play(appear(pieces), run_time=0.6 * run_time)
        _collapse(scene, pieces, result, index, box, 0.8 * run_time)

    for j in range(min(one_by_one, n)):
        cell_step(0, j, (0, 0, j),
                  f"row 1 · column {j + 1}: {k} products side by side, summed into one cube",
                  1.6 / speed)
    if one_by_one < n:
        cell_step(0, slice(one_by_one, n), (0, 0, slice(one_by_one, n)),
                  "the rest of row 1: the same row against every column", 1.4 / speed)
    if m > 1:
        cell_step(slice(1, m), slice(None), (0, slice(1, m)),
                  "all the remaining rows at once", 1.4 / speed)
    scene.play(left.animate.clear_highlight(), right.animate.clear_highlight(), run_time=0.4)
    return result, labels


def batched_results(scene, operands: list[CubeGrid], result: CubeGrid, run_time: float = 2.4):
    """Per-head results appear slice by slice while the matching slices light up."""
    heads = result.grid_shape[0]
    result.set_cell_opacity(0.0)
    scene.add(result)
    per_head = run_time / heads
    for h in range(heads):
        scene.play(*[op.animate.highlight((h,)) for op in operands],
                   result.animate.set_cell_opacity(1.0, (h,)), run_time=per_head)
    scene.play(*[op.animate.clear_highlight() for op in operands], run_time=0.3)
    return result


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
                 finish=None):
    """Softmax along rows: exponentiate, divide by the row sum, recolor; Σ = 1.

    ``steps`` is :func:`tensors.softmax_steps` of the grid's scores. The rows in
    ``explicit_rows`` ((head, row) pairs) go one at a time, then all the rest.
    ``finish()`` gives animations (a color bar swap) to play with the recolor
    that puts the last rows on the weights' scale.
    Returns the labels showing each front-slice row's sum.
    """
    finish = finish or (lambda: [])
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

    for h, row in explicit_rows:
        index = (h, row)
        row_exp = exp[h, row]
        say("exp(score): all positive, the largest grows fastest")
        scene.play(grid.animate.highlight(index), run_time=0.4 * run_time)
        scene.play(grid.animate.paint(index, row_exp, (0.0, float(row_exp.max()))), run_time=0.8 * run_time)
        say("÷ row sum: the row now adds up to 1")
        anims = [grid.animate.paint(index, weights[h, row], weights_range)]
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
                   run_time=0.8 * run_time)
        anims = [grid.animate.paint((heads, rows), weights[heads, rows], weights_range), *finish()]
        if sum_labels:
            new = [sum_label(h, r) for h, r in rest if h == 0]
            labels.add(*new)
            anims += [appear(t) for t in new]
        scene.play(*anims, run_time=0.9 * run_time)
        scene.play(grid.animate.clear_highlight(), run_time=0.3 * run_time)
    else:
        scene.play(grid.animate.clear_highlight(), *finish(), run_time=0.3 * run_time)
    return labels


def concat_heads(scene, block: CubeGrid, head_gap: float, run_time: float = 3.0):
    """The head slices of a (h, T, d_v) block slide side by side into one T x (h·d_v) row.

    Returns the slices in their new places (a visible gap between heads) and
    their centers.
    """
    heads, rows, cols = block.grid_shape
    slices = block.split(axis=0)
    scene.remove(block)
    scene.add(*slices)
    width = cols * block.pitch
    total = heads * width + (heads - 1) * head_gap
    start = block.get_center() + LEFT * (total / 2 - width / 2)
    start[2] = block.cell_center(0, 0, 0)[2]
    targets = [start + RIGHT * h * (width + head_gap) for h in range(heads)]
    scene.play(LaggedStart(*[s.animate.move_to(t) for s, t in zip(slices, targets)], lag_ratio=0.15),
               run_time=run_time)
    return slices, targets


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


HEAD_GAP = (0.55, 0.45)  # between head slices: across, and down (room for the tags)
TAG_ROOM = 0.3


def spread_heads(scene, block, columns: int = 3, scale: float = 1.0):
    """Split a (h, r, c) block into its head slices laid out in a grid, front view.

    The slices grow to ``scale`` times their size, less if the grid and its
    tags would not fit in the scene's stage area (between the caption and the
    code panel, left of the color bar), centred in it.
    """
    area = scene.stage_area()
    room, center = (area.width, area.height), area.center
    heads = block.grid_shape[0]
    slices = block.split(axis=0)
    scene.remove(block)
    scene.add(*slices)
    rows = int(np.ceil(heads / columns))
    columns = min(columns, heads)
    width, height = block.grid_shape[2] * block.pitch, block.grid_shape[1] * block.pitch
    scale = min(scale, (room[0] - (columns - 1) * HEAD_GAP[0]) / (columns * width),
                (room[1] - (rows - 1) * HEAD_GAP[1] - TAG_ROOM) / (rows * height))
    width, height = width * scale, height * scale
    center = np.asarray(center, float) - np.array([0.0, TAG_ROOM / 2, 0.0])
    targets = []
    for h in range(heads):
        r, c = divmod(h, columns)
        targets.append(center + np.array([(c - (columns - 1) / 2) * (width + HEAD_GAP[0]),
                                          -(r - (rows - 1) / 2) * (height + HEAD_GAP[1]), 0.0]))
    scene.play(camera_turn(scene, *FRONT_VIEW),
               LaggedStart(*[s.animate.scale(scale).move_to(t) for s, t in zip(slices, targets)],
                           lag_ratio=0.08), run_time=2.2)
    tags = VGroup(*[note_text(f"head {h}", scene.theme, font_size=16, color=scene.theme.muted)
                    .next_to(s, UP, buff=0.08) for h, s in enumerate(slices)])
    scene.fixed(*tags)
    scene.play(appear(tags), run_time=0.5)
    return slices, tags


