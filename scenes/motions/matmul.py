"""The matmul as the cube box of "Inside the Matrix" (PyTorch blog, 2023), and per head.

The left operand turns onto the left face of a box, the right operand onto
its top face, the result sits on the front face; the products
``left[i, p] * right[p, j]`` fill the interior along the shared axis ``p``
(in depth) and slide forward into result cell ``(i, j)``, where they are summed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, PI, RIGHT, UP, Mobject, VGroup

from ..components.cubegrid import CubeGrid
from ..components.fades import InPlace, appear, vanish
from ..components.labels import LABEL_CHAR
from ..components.numbers import cell_arithmetic
from ..layout import LABEL_ROOM, MAX_PITCH, NOTE_ROOM, Layout, Margins
from .turns import turn

__all__ = ["MatmulBox", "Matmul", "matmul", "batched_matmul", "reveal_heads", "MATMUL_VIEW", "SUM_FLATTEN"]

OWN_COLORS_WIDTH = 2.6  # "own colors: −2.84 to 2.25" under a label
MATMUL_VIEW = (0.62, 0.42)
SUM_FLATTEN = 0.04


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
    def fitted(cls, layout: Layout, m: int, n: int, k: int, view, margins: Margins,
               max_pitch: float) -> "MatmulBox":
        """The box, pitch and place, that fills the stage area seen from ``view``."""
        box = cls(np.zeros(3), m, n, k, 1.0)
        box.origin = np.array([0.8, -0.8, (k + 1) / 2])
        factor, about, shift = layout.fit_points(box.outline(), layout.area().inset(margins), view,
                                                 max_factor=max_pitch)
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


@dataclass
class Matmul:
    """What :func:`matmul` leaves on screen: the result (the box's front
    face) and the labels on the three faces (None where not named)."""

    result: CubeGrid
    left_label: Mobject | None = None
    right_label: Mobject | None = None
    result_label: Mobject | None = None

    @property
    def labels(self) -> list[Mobject]:
        return [m for m in (self.left_label, self.right_label, self.result_label) if m is not None]


def matmul(scene, layout: Layout, legend, viewpoint, left: CubeGrid, right: CubeGrid, result_values, products,
           *, one_by_one: int = 2, result_range=None, say=None,
           view=MATMUL_VIEW, speed: float = 1.0, names=None, max_pitch: float = MAX_PITCH) -> Matmul:
    """Animate ``result = left @ right`` as the cube box of "Inside the Matrix".

    ``left`` (m x k) and ``right`` (k x n) are on screen at rest; they turn onto
    the left and top faces of the box, which is sized and placed to fill the
    stage area seen from ``view`` (cubes at most ``max_pitch`` apart), with
    room for the face labels. The first ``one_by_one`` cells of row 0
    are computed one at a time, then the rest of row 0, then all other rows.
    ``names`` = (left, right, result) labels them on their faces; ``say``
    puts a caption up (the legend follows the result as it fills in).
    ``products`` is ``(m, n, k)``.
    """
    m, k = left.values.shape[1:]
    n = right.values.shape[2]
    label_width = max([LABEL_CHAR * len(str(name)) for name in (names or ())] + [OWN_COLORS_WIDTH])
    margins = Margins(left=label_width + 0.3, bottom=LABEL_ROOM, top=LABEL_ROOM + NOTE_ROOM)
    box = MatmulBox.fitted(layout, m, n, k, view, margins, max_pitch)
    say = say or (lambda text: None)

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
        viewpoint.turn(*view),
        run_time=2.0 / speed,
    )
    interior = _place_products(products, box, left)
    left_name, right_name, result_name = names or (None, None, None)
    # the operands keep their own colors: the bar now describes the result
    done = Matmul(result, *[layout.label(grid, name, shape, direction, buff=0.3, own_scale=grid is not result)
                            if name else None
                            for grid, name, shape, direction in ((left, left_name, (m, k), LEFT),
                                                                 (right, right_name, (k, n), UP),
                                                                 (result, result_name, (m, n), DOWN))])
    # the block in focus from here on is the result, filling in
    scene.play(appear(VGroup(*done.labels)), *legend.swap(result_name or "result", result.value_range),
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
    return done


def batched_matmul(scene, layout: Layout, legend, viewpoint, left: CubeGrid, right: CubeGrid, result_values,
                   products_head0, *, names, say=None, result_range=None, speed: float = 1.4) -> CubeGrid:
    """``result[h] = left[h] @ right[h]`` for every head ``h``, as a viewer can follow it.

    Head 0's slices leave their blocks (the other heads fade out) and go
    through the matmul box cell by cell; then the other heads' results stack
    up behind head 0's, one slice per head, along the head axis.
    ``names`` = (left, right, result) of the whole 3D tensors. Returns the
    3D result block (in the box's place, the camera at the matmul view).
    """
    say = say or (lambda text: None)
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
    done = matmul(scene, layout, legend, viewpoint, left_slices[0], right_slices[0], result_values[0],
                  products_head0, one_by_one=1, result_range=value_range, say=say, speed=speed,
                  names=(f"{left_name}[0]", f"{right_name}[0]", f"{result_name}[0]"))
    head0 = done.result
    block = head0.like(result_values, value_range, dims=("heads",) + tuple(head0.dims[1:]))
    block.align_cell((0, 0, 0), head0.cell_center(0, 0))
    block.set_cell_opacity(0.0).set_cell_opacity(1.0, (0,))
    # head 0's result keeps its name while the others join it
    operand_labels = [m for m in (done.left_label, done.right_label) if m is not None]
    scene.play(vanish(left_slices[0]), vanish(right_slices[0]), *map(vanish, operand_labels), run_time=0.5)
    scene.remove(head0)
    scene.add(block)
    if heads > 1:
        say(f"heads 1 to {heads - 1}: the same matmul with their own slices, all at once")
        scene.play(reveal_heads(block), run_time=min(2.4, 0.4 * heads))
    if done.result_label is not None:
        scene.play(vanish(done.result_label), run_time=0.3)
    return block


def reveal_heads(block: CubeGrid, first: int = 1) -> InPlace:
    """Heads ``first`` .. h-1 of a block appear one after the other (from transparent)."""
    heads = block.grid_shape[0]
    count = max(heads - first, 1)

    def update(grid, alpha):
        for h in range(first, heads):
            grid.set_cell_opacity(float(np.clip(alpha * count - (h - first), 0.0, 1.0)), (h,))

    return InPlace(block, update)
