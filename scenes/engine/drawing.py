"""Drawing cube grids: projection, culling, depth order and the cairo fill.

Pure NumPy and pycairo over a camera's public geometry (rotation matrix,
focal distance, zoom, frame center); nothing here subclasses Manim or reads
its private state. :class:`~.manim_hooks.CubeCamera` calls these each frame.
"""

from __future__ import annotations

import zlib

import cairo
import numpy as np

from ..components.cubegrid import FACES, OPAQUE, CubeGrid
from ..components.palette import Lighting
from ..components.projection import on_screen, view_space

__all__ = ["project_cube_faces", "fill_quads", "composite", "covered_boxes", "intersections", "signature",
           "grid_key"]


def _signed_areas(quads: np.ndarray) -> np.ndarray:
    """Twice the signed area of screen quads (..., 4, 2); > 0 is counter-clockwise, turned to the camera."""
    x, y = quads[..., 0], quads[..., 1]
    return (x * np.roll(y, -1, axis=-1) - np.roll(x, -1, axis=-1) * y).sum(axis=-1)


def project_cube_faces(camera, grids: list[CubeGrid], lighting: Lighting):
    """Visible faces of all ``grids``, back to front.

    Returns ``(polygons, colors, groups)``: frame-space quads ``(F, 4, 2)``,
    ``(F, 4)`` fill colors as cairo wants them (blue, green, red, alpha), and
    ``(start, stop, alpha)`` runs of faces to draw as one group faded by alpha.

    Of a wholly opaque block only the cubes on the faces of its box that the
    camera sees are drawn (:meth:`CubeGrid.drawn_cells`); what the gaps
    between them let through from deeper inside is drawn as the far walls of
    the box, in the block's mean color at the lighting's ambient level (a gap
    seen deep inside is dark, as between real cubes). That halves the faces
    of a large 3D block and shows the same picture but for those slivers.

    A 3D block fading as a whole (one opacity for all its cubes, as in a
    fade-in) is drawn the same way, opaque, into a group that is then laid
    on the frame at that opacity: the block fades as one solid thing rather
    than as a see-through cloud of cubes, at the cost of its surface. The
    group takes its place in the back-to-front order at its farthest cube.
    """
    parts = []  # per grid: (corners, rgb, alpha, walls, wall color, group alpha)
    for grid in grids:
        box = on_screen(camera, view_space(camera, grid.box_corners()))[FACES]  # (6, 4, 2)
        seen = _signed_areas(box) > 1e-12
        fade = grid.uniform_opacity()
        group = fade is not None and 1e-3 < fade < OPAQUE
        cells = grid.surface_cells(seen) if group else grid.drawn_cells(seen)
        if group and cells.size == grid.cell_count:  # nothing hidden: plain see-through cubes
            group, cells = False, grid.drawn_cells()
        if not cells.size:
            continue
        walls = None
        if cells.size < grid.cell_count and (group or grid.is_opaque()):
            walls = box[~seen][:, ::-1]  # the far walls, seen from inside the box
        opacity = np.ones(cells.size) if group else grid.cube_opacity[cells]
        parts.append((grid.cube_corners()[cells], grid.cube_rgb[cells], opacity, walls,
                      grid.cube_rgb.mean(axis=0) * lighting.ambient, fade if group else 0.0))
    if not parts:
        return np.empty((0, 4, 2)), np.empty((0, 4)), []
    sizes = [len(part[0]) for part in parts]
    owner = np.repeat(np.arange(len(parts)), sizes)  # the part each cube belongs to
    corners = np.concatenate([part[0] for part in parts])
    rgb = np.concatenate([part[1] for part in parts])
    alpha = np.concatenate([part[2] for part in parts])

    view = view_space(camera, corners)  # (N, 8, 3)
    screen = on_screen(camera, view)
    eye = np.array([0.0, 0.0, camera.get_focal_distance()])
    distance = np.linalg.norm(view.mean(axis=1) - eye, axis=1)
    # A group (and a block's far walls) is drawn from its farthest cube on.
    farthest = np.maximum.reduceat(distance, np.cumsum([0] + sizes[:-1]))
    grouped = np.array([part[5] > 0 for part in parts])
    unit = np.where(grouped[owner], farthest[owner], distance)

    quads = screen[:, FACES]  # (N, 6, 4, 2)
    cube_index, face_index = np.nonzero(_signed_areas(quads) > 1e-12)
    faces3d = view[:, FACES][cube_index, face_index]  # (F, 4, 3)
    normals = np.cross(faces3d[:, 1] - faces3d[:, 0], faces3d[:, 2] - faces3d[:, 1])
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    shade = lighting.shade(normals)
    polygons = [quads[cube_index, face_index]]
    colors = np.empty((cube_index.size, 4))
    colors[:, :3] = (rgb[cube_index] * shade[:, None])[:, ::-1]
    colors[:, 3] = alpha[cube_index]
    colors = [colors]
    keys = [(unit[cube_index], owner[cube_index], distance[cube_index])]
    for number, part in enumerate(parts):
        walls, mean = part[3], part[4]
        if walls is not None:
            polygons.append(walls)
            colors.append(np.tile([mean[2], mean[1], mean[0], 1.0], (len(walls), 1)))
            keys.append((np.full(len(walls), farthest[number]), np.full(len(walls), number),
                         np.full(len(walls), np.inf)))
    polygons, colors = np.concatenate(polygons), np.concatenate(colors)
    unit_key, part_key, own_key = (np.concatenate(k) for k in zip(*keys))
    order = np.lexsort((-own_key, part_key, -unit_key))  # back to front; a group's faces together
    polygons, colors, part_key = polygons[order], colors[order], part_key[order]

    groups = []
    for number in np.flatnonzero(grouped):
        members = np.flatnonzero(part_key == number)
        groups.append((int(members[0]), int(members[-1]) + 1, float(parts[number][5])))
    return polygons, colors, sorted(groups)


def composite(pixel_array: np.ndarray, box: tuple[slice, slice], image: np.ndarray) -> None:
    """Premultiplied "over": ``image`` onto ``pixel_array[box]`` (same shape)."""
    under = pixel_array[box].astype(np.uint16) * (255 - image[..., 3:4].astype(np.uint16)) // 255
    np.add(under, image, out=under)
    np.minimum(under, 255, out=under)
    pixel_array[box] = under


def signature(mobjects) -> tuple:
    return tuple((id(m), hash(m.points.tobytes()), hash(m.fill_rgbas.tobytes()),
                  hash(m.stroke_rgbas.tobytes())) for m in mobjects)


def grid_key(grid: CubeGrid) -> tuple:
    """What a grid looks like: where its cubes are, their colors and opacities."""
    return (id(grid), grid.grid_shape) + tuple(
        zlib.crc32(np.ascontiguousarray(a)) for a in (grid.points, grid.cube_rgb, grid.cube_opacity))


def intersections(boxes: list, region: tuple[slice, slice]) -> list[tuple[slice, slice]]:
    """The parts of ``boxes`` inside ``region`` (row and column slices with
    explicit starts and stops)."""
    parts = []
    for rows, cols in boxes:
        r0, r1 = max(rows.start, region[0].start), min(rows.stop, region[0].stop)
        c0, c1 = max(cols.start, region[1].start), min(cols.stop, region[1].stop)
        if r0 < r1 and c0 < c1:
            parts.append((slice(r0, r1), slice(c0, c1)))
    return parts


def covered_boxes(alpha: np.ndarray, band: int = 24) -> list[tuple[slice, slice]]:
    """Rectangles, one per band of ``band`` rows, that hold every non-zero of ``alpha``."""
    boxes = []
    for top in range(0, alpha.shape[0], band):
        columns = np.flatnonzero(alpha[top:top + band].any(axis=0))
        if columns.size:
            boxes.append((slice(top, top + band), slice(columns[0], columns[-1] + 1)))
    return boxes


def fill_quads(ctx: cairo.Context, quads: list, colors: list) -> None:
    """Fill each quad (x0, y0, ..., y3) with its (blue, green, red, alpha) color, in order."""
    move_to, line_to, close = ctx.move_to, ctx.line_to, ctx.close_path
    set_rgba, fill = ctx.set_source_rgba, ctx.fill
    for (x0, y0, x1, y1, x2, y2, x3, y3), (b, g, r, a) in zip(quads, colors):
        move_to(x0, y0)
        line_to(x1, y1)
        line_to(x2, y2)
        line_to(x3, y3)
        close()
        set_rgba(b, g, r, a)
        fill()
