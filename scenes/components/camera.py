"""The camera that draws every cube grid of a frame in one vectorized pass.

Manim's Cairo camera draws a VMobject per face; for the thousands of cubes of
a tensor that costs seconds a frame. :class:`CubeCamera` is Manim's
``ThreeDCamera`` with one addition: before the ordinary mobjects it takes all
:class:`~.cubegrid.CubeGrid` s of the frame together and

1. projects all their cube corners with NumPy (the same rotation, focal
   distance and zoom as ``ThreeDCamera.project_points``);
2. skips cubes enclosed by opaque neighbours (never seen) but *keeps the gap
   walls* of the others, so gaps look like gaps and not black lines; of a
   wholly opaque block it draws only the cubes on the box faces the camera
   sees, and the box's far walls behind them for what the gaps show deeper in;
3. keeps only faces turned to the camera (counter-clockwise on screen);
4. sorts the cubes of all grids back to front (distance to the eye), so grids
   occlude one another correctly, also during an orbit;
5. shades each face by its orientation to a headlight (one flat color a face),
   and fills the polygons with pycairo in one loop.

Everything else (text, arrows, braces, the color bar) is drawn afterwards by
Manim as usual, so labels stay on top of the blocks; only mobjects marked
``is_backdrop`` (the floor grid) are drawn before them.

Examples
--------
Use it as the camera of a three-D scene::

    class MyScene(ThreeDScene):
        def __init__(self, **kwargs):
            super().__init__(camera_class=CubeCamera, **kwargs)
"""

from __future__ import annotations

import gc
import zlib
from typing import Any

import cairo
import numpy as np
from manim import ThreeDCamera, VMobject
from manim.camera.camera import Camera
from manim.renderer.cairo_renderer import CairoRenderer

from .cubegrid import FACES, OPAQUE, CubeGrid
from .palette import HEADLIGHT, Lighting

__all__ = ["CubeCamera", "project_cube_faces", "view_angles"]


def _view_space(camera: ThreeDCamera, points: np.ndarray) -> np.ndarray:
    """World points (..., 3) in camera space: the eye at (0, 0, focal), looking down -z."""
    return (points - camera.frame_center) @ camera.get_rotation_matrix().T


def _on_screen(camera: ThreeDCamera, view: np.ndarray) -> np.ndarray:
    """Camera-space points projected to the frame (``ThreeDCamera.project_points``)."""
    focal = camera.get_focal_distance()
    depth = focal - view[..., 2]
    factor = np.where(depth > 0, focal / np.maximum(depth, 1e-9), 1e6) * camera.get_zoom()
    return view[..., :2] * factor[..., None]


def _signed_areas(quads: np.ndarray) -> np.ndarray:
    """Twice the signed area of screen quads (..., 4, 2); > 0 is counter-clockwise, turned to the camera."""
    x, y = quads[..., 0], quads[..., 1]
    return (x * np.roll(y, -1, axis=-1) - np.roll(x, -1, axis=-1) * y).sum(axis=-1)


def project_cube_faces(camera: ThreeDCamera, grids: list[CubeGrid], lighting: Lighting):
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
        box = _on_screen(camera, _view_space(camera, grid.box_corners()))[FACES]  # (6, 4, 2)
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

    view = _view_space(camera, corners)  # (N, 8, 3)
    screen = _on_screen(camera, view)
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


def _composite(pixel_array: np.ndarray, box: tuple[slice, slice], image: np.ndarray) -> None:
    """Premultiplied "over": ``image`` onto ``pixel_array[box]`` (same shape)."""
    under = pixel_array[box].astype(np.uint16) * (255 - image[..., 3:4].astype(np.uint16)) // 255
    np.add(under, image, out=under)
    np.minimum(under, 255, out=under)
    pixel_array[box] = under


def _signature(mobjects) -> tuple:
    return tuple((id(m), hash(m.points.tobytes()), hash(m.fill_rgbas.tobytes()),
                  hash(m.stroke_rgbas.tobytes())) for m in mobjects)


def _grid_key(grid: CubeGrid) -> tuple:
    """What a grid looks like: where its cubes are, their colors and opacities."""
    return (id(grid), grid.grid_shape) + tuple(
        zlib.crc32(np.ascontiguousarray(a)) for a in (grid.points, grid.cube_rgb, grid.cube_opacity))


def _intersections(boxes: list, region: tuple[slice, slice]) -> list[tuple[slice, slice]]:
    """The parts of ``boxes`` inside ``region`` (row and column slices with
    explicit starts and stops)."""
    parts = []
    for rows, cols in boxes:
        r0, r1 = max(rows.start, region[0].start), min(rows.stop, region[0].stop)
        c0, c1 = max(cols.start, region[1].start), min(cols.stop, region[1].stop)
        if r0 < r1 and c0 < c1:
            parts.append((slice(r0, r1), slice(c0, c1)))
    return parts


def _covered_boxes(alpha: np.ndarray, band: int = 24) -> list[tuple[slice, slice]]:
    """Rectangles, one per band of ``band`` rows, that hold every non-zero of ``alpha``."""
    boxes = []
    for top in range(0, alpha.shape[0], band):
        columns = np.flatnonzero(alpha[top:top + band].any(axis=0))
        if columns.size:
            boxes.append((slice(top, top + band), slice(columns[0], columns[-1] + 1)))
    return boxes


class CubeCamera(ThreeDCamera):
    """``ThreeDCamera`` that draws :class:`CubeGrid` s in one vectorized pass.

    Parameters
    ----------
    lighting
        The headlight; :data:`~.palette.FLAT` for flat colors.
    """

    def __init__(self, *args: Any, lighting: Lighting = HEADLIGHT, **kwargs: Any):
        self.lighting = lighting
        self._overlay_cache = None
        self._overlay_signatures: dict[int, tuple] = {}
        self._upright_seen: dict[int, tuple] = {}  # label -> signature in the previous frame
        self._sprites: dict[int, tuple] = {}  # label -> (signature, image, top-left, anchor)
        self._base = None  # the image the current frame started from
        self._blocks_key = None  # what the block layer of the previous frame showed
        self._blocks_layer = None  # (base, key, image, region) of a layer that stood still
        self._static = None  # (blocks image, text layer, its boxes) of the static image
        self._static_image = None  # Manim's static image they belong to
        self.capturing_static = False  # set by CubeRenderer while it draws the static image
        super().__init__(*args, **kwargs)

    # Manim starts each frame from the background or from the static image
    # (the mobjects that stand still during a play, drawn once); which one is
    # part of what the block layer below depends on.
    def reset(self):
        self._base = self.background
        return super().reset()

    def set_frame_to_background(self, background) -> None:
        self._base = background
        super().set_frame_to_background(background)

    def _drawn_apart(self, vmobjects: list[VMobject], like: np.ndarray) -> np.ndarray:
        """``vmobjects`` drawn into a transparent image of ``like``'s shape."""
        layer = np.zeros_like(like)
        self.display_multiple_vectorized_mobjects(vmobjects, layer)
        self._forget(layer)
        return layer

    def _forget(self, layer: np.ndarray) -> None:
        """Drop a scratch image's cairo context: Manim keeps one per array, and
        with it the array, for good."""
        self.pixel_array_to_cairo_context.pop(id(layer), None)

    def set_pixel_array(self, pixel_array, convert_from_floats: bool = False) -> None:
        """Manim's, with one copy instead of two for a frame-sized uint8 image."""
        current = getattr(self, "pixel_array", None)
        if (not convert_from_floats and current is not None and isinstance(pixel_array, np.ndarray)
                and pixel_array.shape == current.shape and pixel_array.dtype == current.dtype):
            np.copyto(current, pixel_array)
        else:
            super().set_pixel_array(pixel_array, convert_from_floats)

    def capture_mobjects(self, mobjects, **kwargs: Any) -> None:
        self.reset_rotation_matrix()
        family = self.get_mobjects_to_display(mobjects, **kwargs)
        backdrop = [m for m in family if getattr(m, "is_backdrop", False)]
        if backdrop:
            family = [m for m in family if not getattr(m, "is_backdrop", False)]
        grids = [m for m in family if isinstance(m, CubeGrid)]
        rest = [m for m in family if not isinstance(m, CubeGrid)]
        full = self.capturing_static
        # Every block lies under every label, arrow and text, as in a frame drawn
        # whole. A play starts from Manim's static image (what stands still,
        # text included) and draws what moves on top, so a moving block would
        # cover a label that stands still. So a full frame keeps its blocks and
        # its text apart, and where a moving block is drawn the static blocks
        # are put back, the block drawn, and the static text laid over it again.
        static = self._static if not full and self._base is self._static_image else None
        if backdrop or grids:
            under = static[0] if static is not None and not backdrop else None
            region = self.display_blocks(backdrop, grids, self.pixel_array, under)
            if under is not None and region is not None:
                for box in _intersections(static[2], region):
                    _composite(self.pixel_array, box, static[1][box])
        if not full:
            self._draw_rest(rest)
            return
        blocks = self.pixel_array.copy()
        frame, self.pixel_array = self.pixel_array, np.zeros_like(self.pixel_array)
        try:
            self._draw_rest(rest)
        finally:
            self._forget(self.pixel_array)
            frame, self.pixel_array = self.pixel_array, frame
        boxes = _covered_boxes(frame[..., 3])
        for box in boxes:
            _composite(self.pixel_array, box, frame[box])
        self._static = (blocks, frame, boxes)
        self._static_image = None

    def _draw_rest(self, family: list) -> None:
        """Everything but the blocks: 3D mobjects, upright labels, the fixed text."""
        overlay = [m for m in family if m in self.fixed_in_frame_mobjects and isinstance(m, VMobject)]
        in_overlay = set(map(id, overlay))
        others = [m for m in family if id(m) not in in_overlay]
        upright = [m for m in others if isinstance(m, VMobject) and m in self.fixed_orientation_mobjects]
        if upright:
            in_upright = set(map(id, upright))
            others = [m for m in others if id(m) not in in_upright]
        # Camera's, not ThreeDCamera's: the rotation matrix is already current
        Camera.capture_mobjects(self, others, include_submobjects=False)
        if upright:
            self.display_upright(upright, self.pixel_array)
        if overlay:
            self.display_overlay(overlay, self.pixel_array)

    def display_blocks(self, backdrop: list, grids: list[CubeGrid], pixel_array: np.ndarray,
                       under: np.ndarray | None = None):
        """The floor grid (behind every block), then the cube grids.

        ``under``: the image to restore where the grids are drawn, first (the
        static blocks without the text over them). Returns the region drawn
        (row and column slices; the whole frame with a floor grid) or None.

        Manim redraws every mobject after the first animated one in the
        scene's list, so the blocks are redrawn while only a label or a caption
        changes. When the camera, the blocks and the image the frame starts
        from are all as in the previous frame, the layer is copied from there
        (kept from the second such frame on, so a moving scene pays no copy).
        """
        key = (self._view_key(), _signature(backdrop), tuple(_grid_key(g) for g in grids), under is None)
        kept = self._blocks_layer
        if kept is not None and kept[0] is self._base and kept[1] == key:
            np.copyto(pixel_array, kept[2])
            return kept[3]
        region = None
        if backdrop:
            if under is not None:
                np.copyto(pixel_array, under)
            Camera.capture_mobjects(self, backdrop, include_submobjects=False)
            region = (slice(0, pixel_array.shape[0]), slice(0, pixel_array.shape[1]))
            under = None
        if grids:
            drawn = self.display_cube_grids(grids, pixel_array, under)
            region = region or drawn
        standing = key == self._blocks_key
        self._blocks_key = key
        self._blocks_layer = (self._base, key, pixel_array.copy(), region) if standing else None
        return region

    def _view_key(self) -> tuple:
        return (self.get_rotation_matrix().tobytes(), self.get_focal_distance(), self.get_zoom(),
                np.asarray(self.frame_center, dtype=float).tobytes(), self.pixel_array.shape,
                self.lighting)

    def display_overlay(self, vmobjects: list[VMobject], pixel_array: np.ndarray) -> None:
        """Draw the fixed-in-frame text layer, reusing what is unchanged.

        Titles, code lines, captions and the color bar sit still for most of a
        scene, yet Manim redraws every glyph path at every frame (and again for
        every cached static frame). The mobjects unchanged since the previous
        frame are drawn once into a transparent image and composited ("over",
        premultiplied) while that set stays the same; the few that are moving
        or recoloring (an arrow, a highlighted word) are drawn on top of it
        every frame.
        """
        signatures = {id(m): signature for m, signature in zip(vmobjects, _signature(vmobjects))}
        before, self._overlay_signatures = self._overlay_signatures, signatures
        still = [m for m in vmobjects if before.get(id(m)) == signatures[id(m)]]
        moving = [m for m in vmobjects if before.get(id(m)) != signatures[id(m)]]
        key = tuple((id(m), signatures[id(m)]) for m in still)
        cached = self._overlay_cache
        if still and (cached is None or cached[0] != key or cached[1].shape != pixel_array.shape):
            layer = self._drawn_apart(still, pixel_array)
            self._overlay_cache = cached = (key, layer, _covered_boxes(layer[..., 3]))
        if still:
            _, layer, boxes = cached
            for box in boxes:  # only where the layer has ink: text is a small part of a frame
                _composite(pixel_array, box, layer[box])
        if moving:
            self.display_multiple_vectorized_mobjects(moving, pixel_array)

    def display_upright(self, vmobjects: list[VMobject], pixel_array: np.ndarray) -> None:
        """Draw the upright labels, each as a sprite while only the camera moves.

        A label kept upright (``add_fixed_orientation_mobjects``) is not turned
        by the camera, only shifted: its center goes where the camera projects
        it. So while its own points and colors stay the same, it is drawn once
        and then copied to its new place, to the nearest pixel, each frame
        (during an orbit Manim would trace every glyph again). A label that
        changes (a fade) is drawn as usual.
        """
        labels: dict[int, list[VMobject]] = {}
        for m in vmobjects:  # the family of one label shares one center function
            labels.setdefault(id(self.fixed_orientation_mobjects[m]), []).append(m)
        seen, self._upright_seen = self._upright_seen, {}
        sprites, self._sprites = self._sprites, {}
        scale = np.array([pixel_array.shape[1] / self.frame_width, -pixel_array.shape[0] / self.frame_height])
        for key, members in labels.items():
            signature = _signature(members)
            self._upright_seen[key] = signature
            center = self.fixed_orientation_mobjects[members[0]]()
            anchor = self.project_point(center)[:2] * scale  # where the label's center lands, in pixels
            if seen.get(key) != signature:
                self.display_multiple_vectorized_mobjects(members, pixel_array)
                continue
            sprite = sprites.get(key)
            if sprite is None or sprite[0] != signature:
                layer = self._drawn_apart(members, pixel_array)
                rows = np.flatnonzero(layer[..., 3].any(axis=1))
                cols = np.flatnonzero(layer[..., 3].any(axis=0))
                if not rows.size:
                    continue
                image = layer[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].copy()
                sprite = (signature, image, (rows[0], cols[0]), anchor)
            self._sprites[key] = sprite
            _, image, (top, left), drawn_at = sprite
            dx, dy = np.rint(anchor - drawn_at).astype(int)
            top, left = top + dy, left + dx
            height, width = image.shape[:2]
            r0, c0 = max(top, 0), max(left, 0)
            r1, c1 = min(top + height, pixel_array.shape[0]), min(left + width, pixel_array.shape[1])
            if r0 < r1 and c0 < c1:
                _composite(pixel_array, (slice(r0, r1), slice(c0, c1)),
                           image[r0 - top:r1 - top, c0 - left:c1 - left])

    def display_cube_grids(self, grids: list[CubeGrid], pixel_array: np.ndarray,
                           under: np.ndarray | None = None):
        """Fill the grids' visible faces; returns the pixel region they cover
        (row and column slices), after restoring it from ``under`` if given."""
        polygons, colors, groups = project_cube_faces(self, grids, self.lighting)
        if not len(polygons):
            return None
        region = self._pixel_region(polygons, pixel_array.shape)
        if under is not None:
            pixel_array[region] = under[region]
        ctx = self.get_cairo_context(pixel_array)
        ctx.new_path()
        ctx.set_antialias(cairo.ANTIALIAS_FAST)
        # The Python lists below are tens of thousands of new containers per
        # frame; each batch would trigger the cyclic GC, which walks every
        # object Manim holds (~200k) - 5-10x the cost of the drawing itself.
        # They hold no cycles, so collection is paused while they live.
        collecting = gc.isenabled()
        gc.disable()
        try:
            quads = polygons.reshape(len(polygons), 8).tolist()
            colors = colors.tolist()
            done = 0
            for start, stop, alpha in groups:
                _fill_quads(ctx, quads[done:start], colors[done:start])
                ctx.push_group()
                _fill_quads(ctx, quads[start:stop], colors[start:stop])
                ctx.pop_group_to_source()
                ctx.paint_with_alpha(alpha)
                done = stop
            _fill_quads(ctx, quads[done:], colors[done:])
        finally:
            if collecting:
                gc.enable()
        return region

    def _pixel_region(self, polygons: np.ndarray, shape) -> tuple[slice, slice]:
        """The pixel rows and columns that frame-unit ``polygons`` touch (with a
        pixel of antialiasing), clipped to the frame."""
        height, width = shape[:2]
        low, high = polygons.reshape(-1, 2).min(axis=0), polygons.reshape(-1, 2).max(axis=0)
        center = np.asarray(self.frame_center, dtype=float)[:2]
        scale = np.array([width / self.frame_width, height / self.frame_height])
        col0, col1 = (np.array([low[0], high[0]]) - center[0]) * scale[0] + width / 2
        row0, row1 = height / 2 - (np.array([high[1], low[1]]) - center[1]) * scale[1]
        rows = slice(max(int(np.floor(row0)) - 2, 0), min(int(np.ceil(row1)) + 2, height))
        cols = slice(max(int(np.floor(col0)) - 2, 0), min(int(np.ceil(col1)) + 2, width))
        return rows, cols


def _fill_quads(ctx: cairo.Context, quads: list, colors: list) -> None:
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


def view_angles(yaw: float, pitch: float) -> dict[str, float]:
    """``set_camera_orientation`` angles for a camera that keeps world +y up.

    ``yaw`` turns the camera to the left of the front view (radians, shows
    the blocks' left faces), ``pitch`` raises it (shows their top faces).
    Manim's camera angles are ZXZ Euler angles; this converts
    ``R = Rx(pitch) . Ry(-yaw)`` into them.

    >>> angles = view_angles(0.0, 0.0)
    >>> round(angles["phi"], 6), round(np.degrees(angles["theta"]), 6), round(angles["gamma"], 6)
    (0.0, -90.0, 0.0)
    """
    cy, sy, cp, sp = np.cos(-yaw), np.sin(-yaw), np.cos(pitch), np.sin(pitch)
    ry = np.array([[cy, 0, -sy], [0, 1, 0], [sy, 0, cy]])
    rx = np.array([[1, 0, 0], [0, cp, -sp], [0, sp, cp]])
    r = rx @ ry
    beta = float(np.arccos(np.clip(r[2, 2], -1.0, 1.0)))
    if abs(np.sin(beta)) < 1e-9:
        alpha, gamma = float(np.arctan2(r[1, 0], r[0, 0])), 0.0
    else:
        alpha = float(np.arctan2(r[2, 0], r[2, 1]))
        gamma = float(np.arctan2(r[0, 2], -r[1, 2]))
    return {"phi": -beta, "theta": -alpha - np.pi / 2, "gamma": gamma}


class CubeRenderer(CairoRenderer):
    """Manim's renderer, telling a :class:`CubeCamera` which capture is the
    static image of a play (so the camera keeps its blocks and text apart)."""

    def save_static_frame_data(self, scene, static_mobjects):
        camera = self.camera
        if not isinstance(camera, CubeCamera):
            return super().save_static_frame_data(scene, static_mobjects)
        camera.capturing_static = True
        try:
            image = super().save_static_frame_data(scene, static_mobjects)
        finally:
            camera.capturing_static = False
        camera._static_image = self.static_image
        return image
