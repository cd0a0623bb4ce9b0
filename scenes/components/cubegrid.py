"""The cube grid: a tensor as a block of small cubes, one per element.

A :class:`CubeGrid` takes an array (1D, 2D or 3D) and lays out one cube per
element: rows run top to bottom, columns left to right, and the first axis of a
3D array (the head axis) runs in depth, head 0 in front. Each cube is colored
by its value on the purple-to-red rainbow, normalised within the array or
against a shared ``value_range`` (so that X and X^T keep the same colors). The
grid never computes data: it is given values and only lays them out.

The mobject's points are the 8 corners of every cube, so Manim's own moves,
rotations, scaling, ``.animate`` and transforms act on it as on any mobject.
It has no submobjects and no Bezier curves: :class:`~.camera.CubeCamera` draws
all grids of a frame in one vectorized pass (see there).

Examples
--------
>>> grid = CubeGrid(np.arange(6.0).reshape(2, 3))
>>> grid.cell_count, grid.grid_shape
(6, (1, 2, 3))
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
from manim import Mobject

from .palette import MASKED_RGB, SLOT_RGB, normalise, rainbow

__all__ = ["CubeGrid", "grids_in", "shared_deepcopy", "CUBE_SIZE", "CUBE_GAP", "CORNERS", "FACES", "FACE_LAYERS"]

CUBE_SIZE = 0.22
CUBE_GAP = 0.045

# Corner k of a unit cube: bit 0 -> +x, bit 1 -> +y, bit 2 -> +z.
CORNERS = np.array([[(k >> 0) & 1, (k >> 1) & 1, (k >> 2) & 1] for k in range(8)], float) - 0.5


def _finite_range(array: np.ndarray) -> tuple[float, float]:
    """Min and max of the finite values (a masked score is -inf)."""
    finite = array[np.isfinite(array)]
    if not finite.size:
        return (0.0, 0.0)
    return float(finite.min()), float(finite.max())


def _outward_faces() -> np.ndarray:
    """The 6 faces as corner indices, counter-clockwise seen from outside."""
    faces = []
    for axis in range(3):
        for side in (0, 1):
            ring = [k for k in range(8) if (k >> axis) & 1 == side]
            ring = [ring[0], ring[1], ring[3], ring[2]]  # a cycle, not a zigzag
            p = CORNERS[ring]
            normal = np.cross(p[1] - p[0], p[2] - p[1])
            outward = CORNERS[ring].mean(axis=0)
            if normal @ outward < 0:
                ring.reverse()
            faces.append(ring)
    return np.array(faces)


FACES = _outward_faces()

# The layer of the (depth, rows, columns) block on each face of FACES: x is the
# column axis (x- = column 0), y runs up (y- = the last row), z out (z+ = head 0).
FACE_LAYERS = ((2, 0), (2, -1), (1, -1), (1, 0), (0, -1), (0, 0))
OPAQUE = 0.999  # an opacity at or above this hides what is behind
REFERENCES = ("label", "part_of", "row_words", "column_words")  # what a grid points to, not owns


def shared_deepcopy(mob, memo, references):
    """``copy.deepcopy(mob)`` that keeps the attributes named ``references``
    pointing to the same objects (a copy of a block is named by the same
    label; copying the label with it would copy everything it points to)."""
    for name in references:
        if name in mob.__dict__:
            memo[id(mob.__dict__[name])] = mob.__dict__[name]
    copied = mob.__class__.__new__(mob.__class__)
    memo[id(mob)] = copied
    for key, value in mob.__dict__.items():
        setattr(copied, key, copy.deepcopy(value, memo))
    return copied


def _as_3d(values: np.ndarray, vector: str) -> np.ndarray:
    if values.ndim == 1:
        return values[None, :, None] if vector == "column" else values[None, None, :]
    if values.ndim == 2:
        return values[None]
    if values.ndim == 3:
        return values
    raise ValueError(f"a cube grid shows 1D, 2D or 3D arrays, got {values.ndim}D")


def _block_dims(dims, ndim: int, vector: str) -> tuple:
    """Axis names of an ``ndim`` array as the block's (depth, rows, columns)."""
    if dims is None:
        return (None, None, None)
    dims = tuple(dims)
    if len(dims) == 3:
        return dims
    if len(dims) != ndim:
        raise ValueError(f"{len(dims)} axis names for a {ndim}D array")
    if ndim == 1:
        return (None, dims[0], None) if vector == "column" else (None, None, dims[0])
    return (None,) + dims


class CubeGrid(Mobject):
    """A block of cubes colored by the values of an array.

    Parameters
    ----------
    values
        The array, 1D to 3D. A 1D array is a column (``vector="column"``) or a row.
    value_range
        ``(low, high)`` for the colors; default: the array's own min and max.
    cube_size, gap
        Edge of a cube and the space between cubes, in scene units.
    vector
        How a 1D array is laid out: ``"column"`` or ``"row"``.
    dims
        What the axes mean, e.g. ``("tokens", "features (d)")``: one name per
        axis of ``values`` (or the block's three: heads, rows, columns);
        ``None`` for an axis with no name. Shown by ``--axes``.

    Examples
    --------
    >>> g = CubeGrid(np.array([1.0, 2.0, 3.0]), vector="row")
    >>> g.grid_shape
    (1, 1, 3)
    """

    def __init__(
        self,
        values,
        *,
        value_range: tuple[float, float] | None = None,
        cube_size: float = CUBE_SIZE,
        gap: float = CUBE_GAP,
        vector: str = "column",
        dims: Sequence[str | None] | None = None,
        **kwargs,
    ):
        array = np.asarray(values, dtype=np.float64)
        self.values = _as_3d(array, vector)
        self.dims = _block_dims(dims, array.ndim, vector)
        self.source_shape = array.shape
        self.value_range = (
            _finite_range(array) if value_range is None
            else (float(value_range[0]), float(value_range[1]))
        )
        self.cube_size = float(cube_size)
        self.gap = float(gap)
        # each cube's place on the rainbow (0 purple ... 1 red; NaN for a color that is no value's): a
        # recolor moves along the rainbow, never through a blend of its two ends (purple to red via magenta)
        self.cube_t = normalise(self.values.reshape(-1), self.value_range)
        self.cube_rgb = rainbow(self.cube_t)
        self.cube_opacity = np.ones(self.values.size)
        # cells masked out (a causal mask's -inf): drawn dark whatever their value
        self.cube_masked = np.zeros(self.values.size, dtype=bool)
        # cells not computed yet (empty slots): drawn in one grey until filled
        self.cube_empty = np.zeros(self.values.size, dtype=bool)
        super().__init__(**kwargs)

    # -- construction -------------------------------------------------------
    @property
    def grid_shape(self) -> tuple[int, int, int]:
        """(depth, rows, columns) of the block."""
        return tuple(self.values.shape)

    @property
    def cell_count(self) -> int:
        return self.values.size

    @property
    def cube_edge(self) -> float:
        """The current edge of a cube (after any scaling)."""
        if not len(self.points):
            return self.cube_size
        return float(np.linalg.norm(self.points[1] - self.points[0]))

    @property
    def pitch(self) -> float:
        """The current distance between neighbouring cube centers."""
        return self.cube_edge * (self.cube_size + self.gap) / self.cube_size

    def like(self, values, value_range: tuple[float, float] | None = None,
             dims: Sequence[str | None] | None = None) -> "CubeGrid":
        """A new grid of ``values`` with this grid's current cube size and gap."""
        edge = self.cube_edge
        return CubeGrid(values, value_range=value_range, cube_size=edge,
                        gap=edge * self.gap / self.cube_size, dims=dims)

    def cell_offsets(self) -> np.ndarray:
        """Rest-position centers of all cells, block centred at the origin."""
        depth, rows, cols = self.grid_shape
        d, r, c = np.meshgrid(np.arange(depth), np.arange(rows), np.arange(cols), indexing="ij")
        pitch = self.cube_size + self.gap
        centers = np.stack([c, -r, -d], axis=-1).reshape(-1, 3).astype(np.float64) * pitch
        centers -= (centers.max(axis=0) + centers.min(axis=0)) / 2
        return centers

    def generate_points(self) -> None:
        corners = CORNERS * self.cube_size
        self.points = (self.cell_offsets()[:, None, :] + corners[None]).reshape(-1, 3)

    def drawn_cells(self, seen_faces=None) -> np.ndarray:
        """Ids of the cells worth drawing this frame.

        A cell is skipped when it is invisible (opacity ~0) or enclosed: all six
        neighbours in the block are opaque, so it can never be seen. Gap walls
        of surface cubes are kept. Computed from the current opacities, so a
        lit slice inside a dimmed block is drawn whole.

        ``seen_faces``: which faces of the block's box the camera sees (6
        booleans in :data:`FACES` order, see :meth:`box_corners`). Given, and
        the block wholly opaque, only the cubes on those faces are drawn: the
        others show only through the gaps, as thin slivers deep inside, and
        the camera draws the block's far walls behind them instead
        (:func:`~.camera.project_cube_faces`).
        """
        if seen_faces is not None and self.is_opaque():
            return self.surface_cells(seen_faces)
        opacity = self.cube_opacity.reshape(self.grid_shape)
        shown = opacity > 1e-3
        if min(self.grid_shape) >= 3:
            opaque = opacity >= OPAQUE
            enclosed = np.zeros_like(opaque)
            enclosed[1:-1, 1:-1, 1:-1] = (
                opaque[:-2, 1:-1, 1:-1] & opaque[2:, 1:-1, 1:-1]
                & opaque[1:-1, :-2, 1:-1] & opaque[1:-1, 2:, 1:-1]
                & opaque[1:-1, 1:-1, :-2] & opaque[1:-1, 1:-1, 2:]
            )
            shown &= ~enclosed
        return np.flatnonzero(shown.reshape(-1))

    def surface_cells(self, seen_faces) -> np.ndarray:
        """Ids of the cells on the faces of the block's box flagged in ``seen_faces``."""
        surface = np.zeros(self.grid_shape, dtype=bool)
        for face, (axis, layer) in enumerate(FACE_LAYERS):
            if seen_faces[face]:
                index = [slice(None)] * 3
                index[axis] = layer
                surface[tuple(index)] = True
        return np.flatnonzero(surface.reshape(-1))

    def uniform_opacity(self) -> float | None:
        """The opacity shared by all cubes, or None when they differ (a highlight)."""
        low, high = self.cube_opacity.min(), self.cube_opacity.max()
        return float(high) if high - low < 1e-6 else None

    def is_opaque(self) -> bool:
        """True when every cube is fully opaque (nothing shows through the block)."""
        return bool(self.cube_opacity.min() >= OPAQUE)

    def box_corners(self) -> np.ndarray:
        """The 8 current corners of the block's outer box, in :data:`CORNERS` order.

        Corner k is corner k of the cube at that corner of the block, so the
        box's faces are :data:`FACES` of these corners, outward like a cube's.
        """
        depth, rows, cols = self.grid_shape
        cells = [
            ((0 if z else depth - 1) * rows + (0 if y else rows - 1)) * cols + (cols - 1 if x else 0)
            for x, y, z in (CORNERS + 0.5).astype(int)
        ]
        return self.cube_corners()[cells, np.arange(8)]

    # -- geometry the scenes lay out by --------------------------------------
    def cube_corners(self) -> np.ndarray:
        """Current corners, shape (cells, 8, 3)."""
        return self.points.reshape(-1, 8, 3)

    def cell_centers(self) -> np.ndarray:
        """Current centers, shape (depth, rows, columns, 3)."""
        return self.cube_corners().mean(axis=1).reshape(*self.grid_shape, 3)

    def cell_center(self, row: int, col: int = 0, head: int = 0) -> np.ndarray:
        return self.cell_centers()[head, row, col]

    def axis_vectors(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Current unit directions of (column+, row+, head+) - they turn with the grid."""
        corners = self.cube_corners()[0]
        x = corners[1] - corners[0]
        y = corners[2] - corners[0]
        z = corners[4] - corners[0]
        unit = [v / np.linalg.norm(v) for v in (x, -y, -z)]
        return unit[0], unit[1], unit[2]

    def cell_ids(self, index) -> np.ndarray:
        """Flat cell ids of ``index`` into the (depth, rows, columns) block."""
        ids = np.arange(self.cell_count).reshape(self.grid_shape)
        return np.atleast_1d(ids[index]).reshape(-1)

    # -- subsets -------------------------------------------------------------
    def subgrid(self, index, values_shape: Sequence[int] | None = None) -> "CubeGrid":
        """A new grid of the cells at ``index`` (same colors, same place).

        ``index`` indexes the (depth, rows, columns) block, e.g. ``(0, 2)`` is
        row 2, ``(slice(None), slice(None), 3)`` column 3 of every head.
        """
        ids = self.cell_ids(index)
        block = self.values.reshape(-1)[ids]
        shape = tuple(values_shape) if values_shape is not None else np.asarray(self.values[index]).shape
        shape = shape or (1,)
        part = CubeGrid(block.reshape(shape), value_range=self.value_range,
                        cube_size=self.cube_size, gap=self.gap, vector="row")
        part.points = self.cube_corners()[ids].reshape(-1, 3).copy()
        part.cube_rgb = self.cube_rgb[ids].copy()
        part.cube_t = self.cube_t[ids].copy()
        part.cube_opacity = self.cube_opacity[ids].copy()
        part.cube_masked = self.cube_masked[ids].copy()
        part.cube_empty = self.cube_empty[ids].copy()
        part.part_of = self  # a piece of this block (named by its label) until it is named itself
        return part

    def split(self, axis: int = 0) -> list["CubeGrid"]:
        """Slices along an axis of the block (0 heads, 1 rows, 2 columns), in place."""
        pieces = []
        for k in range(self.grid_shape[axis]):
            index = [slice(None)] * 3
            index[axis] = k
            piece = self.subgrid(tuple(index), values_shape=np.delete(self.grid_shape, axis))
            piece.dims = (None,) + tuple(np.delete(np.array(self.dims, dtype=object), axis))
            pieces.append(piece)
        return pieces

    # -- color and emphasis ----------------------------------------------------
    def set_cell_opacity(self, opacity: float, index=None) -> "CubeGrid":
        """Opacity of the cells at ``index`` (all by default); an empty slot
        made fully opaque is filled: it shows its value from then on."""
        ids = slice(None) if index is None else self.cell_ids(index)
        self.cube_opacity[ids] = opacity
        if opacity >= 1.0:
            self.fill(index)
        return self

    def empty(self, index=None) -> "CubeGrid":
        """The cells at ``index`` (all by default) become empty slots: one
        neutral grey, whatever they will hold (use with ``.animate``)."""
        ids = slice(None) if index is None else self.cell_ids(index)
        self.cube_empty[ids] = True
        return self._shade_states()

    def fill(self, index=None) -> "CubeGrid":
        """Empty slots at ``index`` (all by default) show their values (use
        with ``.animate``: grey turns into their colors)."""
        ids = np.arange(self.cell_count) if index is None else self.cell_ids(index)
        ids = ids[self.cube_empty[ids]]
        if ids.size:
            self.cube_empty[ids] = False
            self.cube_t[ids] = normalise(self.values.reshape(-1)[ids], self.value_range)
            self.cube_rgb[ids] = rainbow(self.cube_t[ids])
            self._shade_states()
        return self

    def highlight(self, index, dim: float = 0.18) -> "CubeGrid":
        """Keep the cells at ``index`` bright and dim the rest (use with ``.animate``)."""
        self.cube_opacity[:] = dim
        self.cube_opacity[self.cell_ids(index)] = 1.0
        return self

    def clear_highlight(self) -> "CubeGrid":
        self.cube_opacity[:] = 1.0
        return self

    def paint(self, index, values, value_range: tuple[float, float]) -> "CubeGrid":
        """Show ``values`` in the cells at ``index``, colored within ``value_range``.

        For motions that change part of a tensor (one softmax row at a time).
        """
        ids = self.cell_ids(index)
        flat = np.asarray(values, dtype=np.float64).reshape(-1)
        if flat.size != ids.size:
            raise ValueError(f"paint needs {ids.size} values, got {flat.size}")
        self.values.reshape(-1)[ids] = flat
        self.cube_t[ids] = normalise(flat, value_range)
        self.cube_rgb[ids] = rainbow(self.cube_t[ids])
        return self._shade_states()

    def mask(self, index) -> "CubeGrid":
        """Mask the cells at ``index`` out (use with ``.animate``): they turn dark
        and stay dark through later recolors, as a -inf score does in a softmax."""
        self.cube_masked[self.cell_ids(index)] = True
        return self._shade_states()

    def _shade_states(self) -> "CubeGrid":
        """Cells whose colors say no value: empty slots grey, masked cells dark (over any value color)."""
        self.cube_rgb[self.cube_empty] = SLOT_RGB
        self.cube_rgb[self.cube_masked] = MASKED_RGB
        self.cube_t[self.cube_empty | self.cube_masked] = np.nan
        return self

    def align_cell(self, cell: tuple[int, int, int], point) -> "CubeGrid":
        """Shift so that the center of ``cell`` (head, row, column) is at ``point``."""
        return self.shift(np.asarray(point) - self.cell_centers()[cell])

    def recolor(self, values, value_range: tuple[float, float] | None = None) -> "CubeGrid":
        """Show new values of the same shape (for ``.animate``: a smooth recolor)."""
        array = _as_3d(np.asarray(values, dtype=np.float64), "row")
        if array.size != self.cell_count:
            raise ValueError(f"recolor needs {self.cell_count} values, got {array.size}")
        self.values = array.reshape(self.grid_shape)
        self.value_range = _finite_range(array) if value_range is None else value_range
        self.cube_t = normalise(self.values.reshape(-1), self.value_range)
        self.cube_rgb = rainbow(self.cube_t)
        return self._shade_states()

    def set_opacity(self, opacity: float, family: bool = True) -> "CubeGrid":
        self.cube_opacity[:] = opacity
        return self

    def fade(self, darkness: float = 0.5, family: bool = True) -> "CubeGrid":
        self.cube_opacity *= 1.0 - darkness
        return self

    # -- Manim protocol --------------------------------------------------------
    def __deepcopy__(self, memo):
        """A copy (Manim copies by deepcopy) that shares what the grid only
        points to: its label, the block it is part of, its words."""
        return shared_deepcopy(self, memo, REFERENCES)

    def interpolate_color(self, mobject1: "CubeGrid", mobject2: "CubeGrid", alpha: float) -> None:
        """Colors on the way: along the rainbow where both ends are values'
        colors (every frame shows colors a value can have), a blend otherwise
        (a grey slot filling in, a masked cell darkening)."""
        t = (1 - alpha) * mobject1.cube_t + alpha * mobject2.cube_t
        on_rainbow = np.isfinite(t)
        self.cube_t = t
        self.cube_rgb = (1 - alpha) * mobject1.cube_rgb + alpha * mobject2.cube_rgb
        self.cube_rgb[on_rainbow] = rainbow(t[on_rainbow])
        self.cube_opacity = (1 - alpha) * mobject1.cube_opacity + alpha * mobject2.cube_opacity

    def align_points(self, mobject: Mobject) -> "CubeGrid":
        if mobject.get_num_points() != self.get_num_points():
            raise ValueError(
                f"cannot transform a {self.grid_shape} cube grid into a different shape "
                f"({getattr(mobject, 'grid_shape', mobject.get_num_points())}); "
                "turn it (a transpose is a 180 degree turn) and swap the grids instead"
            )
        return self

    def init_colors(self, propagate_colors: bool = True) -> "CubeGrid":
        return self


def grids_in(*mobjects: Mobject):
    """The cube grids among ``mobjects`` and their families, in order."""
    for mob in mobjects:
        if isinstance(mob, CubeGrid):
            yield mob
        else:
            yield from grids_in(*mob.submobjects)
