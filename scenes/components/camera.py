"""The camera that draws every cube grid of a frame in one vectorized pass.

Manim's Cairo camera draws a VMobject per face; for the thousands of cubes of
a tensor that costs seconds a frame. :class:`CubeCamera` is Manim's
``ThreeDCamera`` with one addition: before the ordinary mobjects it takes all
:class:`~.cubegrid.CubeGrid` s of the frame together and

1. projects all their cube corners with NumPy (the same rotation, focal
   distance and zoom as ``ThreeDCamera.project_points``);
2. skips cubes enclosed by opaque neighbours (never seen) but *keeps the gap
   walls* of the others, so gaps look like gaps and not black lines;
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
from typing import Any

import cairo
import numpy as np
from manim import ThreeDCamera, VMobject
from manim.camera.camera import Camera

from .cubegrid import FACES, CubeGrid
from .palette import HEADLIGHT, Lighting

__all__ = ["CubeCamera", "project_cube_faces", "view_angles"]


def project_cube_faces(camera: ThreeDCamera, grids: list[CubeGrid], lighting: Lighting):
    """Visible faces of all ``grids``, back to front.

    Returns ``(polygons, colors)``: frame-space quads ``(F, 4, 2)`` and
    ``(F, 4)`` fill colors as cairo wants them (blue, green, red, alpha).
    """
    corners, rgb, alpha = [], [], []
    for grid in grids:
        cells = grid.drawn_cells()
        if cells.size:
            corners.append(grid.cube_corners()[cells])
            rgb.append(grid.cube_rgb[cells])
            alpha.append(grid.cube_opacity[cells])
    if not corners:
        return np.empty((0, 4, 2)), np.empty((0, 4))
    corners = np.concatenate(corners)
    rgb = np.concatenate(rgb)
    alpha = np.concatenate(alpha)

    focal = camera.get_focal_distance()
    view = (corners - camera.frame_center) @ camera.get_rotation_matrix().T  # (N, 8, 3)
    depth = focal - view[..., 2]
    factor = np.where(depth > 0, focal / np.maximum(depth, 1e-9), 1e6) * camera.get_zoom()
    screen = view[..., :2] * factor[..., None]

    eye = np.array([0.0, 0.0, focal])
    distance = np.linalg.norm(view.mean(axis=1) - eye, axis=1)
    order = np.argsort(-distance, kind="stable")

    quads = screen[order][:, FACES]  # (N, 6, 4, 2)
    x, y = quads[..., 0], quads[..., 1]
    area = (x * np.roll(y, -1, axis=-1) - np.roll(x, -1, axis=-1) * y).sum(axis=-1)
    front = area > 1e-12
    cube_index, face_index = np.nonzero(front)

    faces3d = view[order][:, FACES][cube_index, face_index]  # (F, 4, 3)
    normals = np.cross(faces3d[:, 1] - faces3d[:, 0], faces3d[:, 2] - faces3d[:, 1])
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    shade = lighting.shade(normals)

    colors = np.empty((cube_index.size, 4))
    colors[:, :3] = (rgb[order][cube_index] * shade[:, None])[:, ::-1]
    colors[:, 3] = alpha[order][cube_index]
    return quads[cube_index, face_index], colors


def _composite(pixel_array: np.ndarray, box: tuple[slice, slice], image: np.ndarray) -> None:
    """Premultiplied "over": ``image`` onto ``pixel_array[box]`` (same shape)."""
    under = pixel_array[box].astype(np.uint16) * (255 - image[..., 3:4].astype(np.uint16)) // 255
    np.add(under, image, out=under)
    np.minimum(under, 255, out=under)
    pixel_array[box] = under


def _signature(mobjects) -> tuple:
    return tuple((id(m), hash(m.points.tobytes()), hash(m.fill_rgbas.tobytes()),
                  hash(m.stroke_rgbas.tobytes())) for m in mobjects)


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
        super().__init__(*args, **kwargs)

    def capture_mobjects(self, mobjects, **kwargs: Any) -> None:
        self.reset_rotation_matrix()
        family = self.get_mobjects_to_display(mobjects, **kwargs)
        backdrop = [m for m in family if getattr(m, "is_backdrop", False)]
        if backdrop:  # the floor grid lies behind every block
            Camera.capture_mobjects(self, backdrop, include_submobjects=False)
            family = [m for m in family if not getattr(m, "is_backdrop", False)]
        grids = [m for m in family if isinstance(m, CubeGrid)]
        if grids:
            self.display_cube_grids(grids, self.pixel_array)
        overlay = [m for m in family if m in self.fixed_in_frame_mobjects and isinstance(m, VMobject)]
        in_overlay = set(map(id, overlay))
        others = [m for m in family if not isinstance(m, CubeGrid) and id(m) not in in_overlay]
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
            layer = np.zeros_like(pixel_array)
            self.display_multiple_vectorized_mobjects(still, layer)
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
                layer = np.zeros_like(pixel_array)
                self.display_multiple_vectorized_mobjects(members, layer)
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

    def display_cube_grids(self, grids: list[CubeGrid], pixel_array: np.ndarray) -> None:
        polygons, colors = project_cube_faces(self, grids, self.lighting)
        if not len(polygons):
            return
        ctx = self.get_cairo_context(pixel_array)
        ctx.new_path()
        ctx.set_antialias(cairo.ANTIALIAS_FAST)
        move_to, line_to, close = ctx.move_to, ctx.line_to, ctx.close_path
        set_rgba, fill = ctx.set_source_rgba, ctx.fill
        # The Python lists below are tens of thousands of new containers per
        # frame; each batch would trigger the cyclic GC, which walks every
        # object Manim holds (~200k) - 5-10x the cost of the drawing itself.
        # They hold no cycles, so collection is paused while they live.
        collecting = gc.isenabled()
        gc.disable()
        try:
            rows = zip(polygons.reshape(len(polygons), 8).tolist(), colors.tolist())
            for (x0, y0, x1, y1, x2, y2, x3, y3), (b, g, r, a) in rows:
                move_to(x0, y0)
                line_to(x1, y1)
                line_to(x2, y2)
                line_to(x3, y3)
                close()
                set_rgba(b, g, r, a)
                fill()
        finally:
            if collecting:
                gc.enable()


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
