"""Where a camera draws a world point: projection and its inverse, and views.

Pure NumPy over a camera's public geometry (rotation matrix, focal distance,
zoom, frame center), as Manim's ``ThreeDCamera`` projects: the layout fits
blocks with it, the screen rules measure with it, the cube engine draws with
it. A *view* is a (yaw, pitch) pair in radians; :data:`FRONT` looks straight on.

Examples
--------
>>> angles = view_angles(*FRONT)
>>> abs(round(angles["phi"], 6)), float(round(np.degrees(angles["theta"]), 6))
(0.0, -90.0)
"""

from __future__ import annotations

import numpy as np

__all__ = ["FRONT", "project", "project_at", "world_at_screen", "view_rotation", "view_angles",
           "view_space", "on_screen"]

FRONT = (0.0, 0.0)  # the front view (yaw, pitch)


def view_space(camera, points: np.ndarray) -> np.ndarray:
    """World points (..., 3) in camera space: the eye at (0, 0, focal), looking down -z."""
    return (points - camera.frame_center) @ camera.get_rotation_matrix().T


def on_screen(camera, view: np.ndarray) -> np.ndarray:
    """Camera-space points projected to the frame (``ThreeDCamera.project_points``)."""
    focal = camera.get_focal_distance()
    depth = focal - view[..., 2]
    factor = np.where(depth > 0, focal / np.maximum(depth, 1e-9), 1e6) * camera.get_zoom()
    return view[..., :2] * factor[..., None]


def project(camera, points: np.ndarray) -> np.ndarray:
    """World points (..., 3) on the frame (..., 2), as the camera draws them."""
    return on_screen(camera, view_space(camera, np.asarray(points, float)))


def view_rotation(yaw: float, pitch: float) -> np.ndarray:
    """The world-to-camera rotation of the view (yaw, pitch): ``Rx(pitch) . Ry(-yaw)``."""
    cy, sy, cp, sp = np.cos(-yaw), np.sin(-yaw), np.cos(pitch), np.sin(pitch)
    ry = np.array([[cy, 0, -sy], [0, 1, 0], [sy, 0, cy]])
    rx = np.array([[1, 0, 0], [0, cp, -sp], [0, sp, cp]])
    return rx @ ry


def project_at(camera, points: np.ndarray, view: tuple[float, float] | None = None) -> np.ndarray:
    """World points (..., 3) on the frame (..., 2) as the camera would draw
    them from ``view`` (yaw, pitch); ``None``: from where it is now."""
    points = np.asarray(points, float)
    if view is None:
        return project(camera, points)
    return on_screen(camera, (points - camera.frame_center) @ view_rotation(*view).T)


def world_at_screen(camera, screen_xy, like_point, view: tuple[float, float] | None = None) -> np.ndarray:
    """The world point drawn at ``screen_xy`` at the same depth from the camera
    as ``like_point`` (the inverse of :func:`project_at` on that plane)."""
    rotation = camera.get_rotation_matrix() if view is None else view_rotation(*view)
    depth = ((np.asarray(like_point, float) - camera.frame_center) @ rotation.T)[2]
    focal = camera.get_focal_distance()
    xy = np.asarray(screen_xy, float)[:2] * (focal - depth) / (focal * camera.get_zoom())
    return np.array([xy[0], xy[1], depth]) @ rotation + camera.frame_center


def view_angles(yaw: float, pitch: float) -> dict[str, float]:
    """``set_camera_orientation`` angles for a camera that keeps world +y up.

    ``yaw`` turns the camera to the left of the front view (radians, shows
    the blocks' left faces), ``pitch`` raises it (shows their top faces).
    Manim's camera angles are ZXZ Euler angles; this converts
    ``R = Rx(pitch) . Ry(-yaw)`` into them.

    >>> angles = view_angles(0.0, 0.0)
    >>> [abs(float(round(v, 6))) for v in (angles["phi"], np.degrees(angles["theta"]), angles["gamma"])]
    [0.0, 90.0, 0.0]
    """
    r = view_rotation(yaw, pitch)
    beta = float(np.arccos(np.clip(r[2, 2], -1.0, 1.0)))
    if abs(np.sin(beta)) < 1e-9:
        alpha, gamma = float(np.arctan2(r[1, 0], r[0, 0])), 0.0
    else:
        alpha = float(np.arctan2(r[2, 0], r[2, 1]))
        gamma = float(np.arctan2(r[0, 2], -r[1, 2]))
    return {"phi": -beta, "theta": -alpha - np.pi / 2, "gamma": gamma}
