"""Where the camera looks from: a view (yaw, pitch), turned at once or animated."""

from __future__ import annotations

from ..components.fades import InPlace
from ..components.projection import view_angles
from ..engine.manim_hooks import camera_tracker, orient_camera

__all__ = ["Viewpoint"]


class Viewpoint:
    """The camera's view now (``now``: yaw, pitch in radians)."""

    def __init__(self, camera, view: tuple[float, float]):
        self.camera = camera
        self.look_from(view)

    def look_from(self, view) -> None:
        """Turn the camera to ``view`` at once, not animated."""
        orient_camera(self.camera, view_angles(*view))
        self.now = tuple(view)

    def turn(self, yaw: float, pitch: float, **kwargs) -> InPlace:
        """Orbit the camera to (yaw, pitch) by interpolating those two angles."""
        start_yaw, start_pitch = self.now
        camera = self.camera

        def update(_, alpha):
            self.now = (start_yaw + alpha * (yaw - start_yaw), start_pitch + alpha * (pitch - start_pitch))
            orient_camera(camera, view_angles(*self.now), now=False)

        # animating the camera's own tracker tells ThreeDScene that every mobject
        # moves; remover: a tracker left in the scene would make Manim redraw
        # everything in every later frame (it treats a present tracker as moving)
        return InPlace(camera_tracker(camera), update, remover=True, **kwargs)
