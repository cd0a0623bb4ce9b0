"""Every place Attention Cubes reaches into Manim, in one module.

Manim's public API (mobjects, animations, ``Scene.play``) is used all over
the project. What Manim keeps to itself is used *only here*: the subclasses
of its camera and renderer, the render-session settings, and the attributes
of its file writer that say where a render's files went. Each reach is listed
in :data:`MANIM_HOOKS` with the Manim behaviour it relies on, and
``tests/test_manim_contract.py`` checks every one against the installed
Manim, so an upgrade that moves one fails fast and names it.

Tested with Manim Community 0.22 (see ``pyproject.toml`` for the range).

Examples
--------
The camera of a three-D scene that draws cube grids::

    class MyScene(ThreeDScene):
        def __init__(self, **kwargs):
            super().__init__(renderer=CubeRenderer(camera_class=CubeCamera), camera_class=CubeCamera, **kwargs)
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cairo
import numpy as np
from manim import ThreeDCamera, ThreeDScene, VMobject, config
from manim.camera.camera import Camera
from manim.renderer.cairo_renderer import CairoRenderer

from ..components.cubegrid import CubeGrid
from ..components.palette import HEADLIGHT, Lighting
from .drawing import (
    composite, covered_boxes, fill_quads, grid_key, intersections, project_cube_faces, signature,
)

__all__ = [
    "CubeCamera", "CubeRenderer", "Hook", "MANIM_HOOKS", "X264_OPTIONS",
    "abort_encoding", "camera_tracker", "frame_of", "sampled", "orient_camera", "render_options", "scene_time", "screen_points",
    "slide_class", "slide_notes",
    "written_files",
    "writes_movie",
]

# x264's default preset (medium) costs about 2x the CPU per 1080p frame of
# "veryfast" here, for a larger file at the same CRF (benchmarks/encoder.py).
X264_OPTIONS = {"crf": "23", "preset": "veryfast"}
# Manim 0.21+ encodes a play's frames in a thread beside the drawing; more
# than one play in flight overlaps encoding of one clip with drawing the next.
INFLIGHT_ENCODERS = 2

@dataclass(frozen=True)
class Hook:
    """One reach into Manim: ``owner.name``, and what we rely on it doing.

    ``kind``: "override" (a method we replace, calling Manim's), "call" (a
    method we call), "attribute" (an instance attribute we read or write),
    "config" (a ``manim.config`` key we set), "field" (a field of a pydantic
    model of manim-slides that we set).
    """

    owner: str
    name: str
    kind: str
    relies_on: str


MANIM_HOOKS: tuple[Hook, ...] = (
    Hook("ThreeDCamera", "capture_mobjects", "override",
         "called once per frame with the mobjects to draw, after reset()/set_frame_to_background()"),
    Hook("ThreeDCamera", "reset", "override", "starts a frame from the background image"),
    Hook("ThreeDCamera", "set_frame_to_background", "override",
         "starts a frame from the renderer's static image of the play"),
    Hook("ThreeDCamera", "set_pixel_array", "override", "replaces the frame's pixels (uint8 RGBA)"),
    Hook("ThreeDCamera", "reset_rotation_matrix", "call", "recomputes the rotation from phi/theta/gamma"),
    Hook("ThreeDCamera", "set_phi", "call", "sets the camera's polar angle"),
    Hook("ThreeDScene", "play_internal", "call",
         "plays the compiled animations of one play (the tests' sampling subclass runs it after its samples)"),
    Hook("ThreeDScene", "update_to_time", "call", "puts every animation of a play at time t"),
    Hook("ThreeDScene", "get_run_time", "call", "a play's run time"),
    Hook("ThreeDCamera", "set_theta", "call", "sets the camera's azimuth"),
    Hook("ThreeDCamera", "set_gamma", "call", "sets the camera's roll"),
    Hook("Camera.instance", "phi_tracker", "attribute",
         "animating it makes ThreeDScene treat the camera as moving (redraw everything each frame)"),
    Hook("ThreeDCamera", "get_rotation_matrix", "call", "the world-to-camera rotation"),
    Hook("ThreeDCamera", "get_focal_distance", "call", "the perspective's focal distance"),
    Hook("ThreeDCamera", "set_focal_distance", "call", "sets how far the eye is (the strength of perspective)"),
    Hook("ThreeDCamera", "get_zoom", "call", "the zoom factor of the projection"),
    Hook("ThreeDCamera", "project_point", "call", "a world point to frame units, with perspective"),
    Hook("ThreeDCamera", "transform_points_pre_display", "call",
         "a mobject's points as drawn: pinned ones untouched, upright ones about their center"),
    Hook("ThreeDCamera", "get_mobjects_to_display", "call", "the family of mobjects to draw, in order"),
    Hook("ThreeDCamera", "add_fixed_in_frame_mobjects", "call", "pins text to the screen"),
    Hook("ThreeDCamera", "add_fixed_orientation_mobjects", "call", "keeps 3D labels facing the viewer"),
    Hook("Camera", "capture_mobjects", "call",
         "draws mobjects without the 3D camera's per-frame rotation update"),
    Hook("Camera", "display_multiple_vectorized_mobjects", "call", "draws VMobjects into a pixel array"),
    Hook("Camera", "get_cairo_context", "call", "a cairo context on a pixel array (cached per array)"),
    Hook("Camera", "init_background", "call", "rebuilds the background after background_color changes"),
    Hook("Camera.instance", "pixel_array_to_cairo_context", "attribute",
         "Manim's cache of cairo contexts by id(array); we drop our scratch arrays from it"),
    Hook("Camera.instance", "fixed_in_frame_mobjects", "attribute", "the set of pinned mobjects"),
    Hook("Camera.instance", "fixed_orientation_mobjects", "attribute",
         "pinned-orientation mobject -> the function giving its center"),
    Hook("Camera.instance", "background", "attribute", "the background image a frame starts from"),
    Hook("Camera.instance", "frame_center", "attribute", "the point the camera looks at"),
    Hook("CairoRenderer", "save_static_frame_data", "override",
         "draws the still mobjects of a play once into renderer.static_image"),
    Hook("CairoRenderer", "render", "override", "draws a play's frame at time t and hands it to add_frame"),
    Hook("CairoRenderer", "add_frame", "call", "hands one frame to the file writer"),
    Hook("CairoRenderer", "get_frame", "call", "a copy of the current frame"),
    Hook("CairoRenderer.instance", "static_image", "attribute", "the image of a play's still mobjects"),
    Hook("CairoRenderer.instance", "skip_animations", "attribute", "whether this play's frames are skipped"),
    Hook("CairoRenderer.instance", "time", "attribute", "the scene's clock in seconds"),
    Hook("CairoRenderer.instance", "file_writer", "attribute", "the scene's SceneFileWriter"),
    Hook("SceneFileWriter", "movie_file_path", "attribute", "where the finished movie is"),
    Hook("SceneFileWriter", "image_file_path", "attribute", "where the last-frame PNG is"),
    Hook("SceneFileWriter", "sections_output_dir", "attribute", "where section clips and their JSON go"),
    Hook("SceneFileWriter", "abort_encode_jobs", "call",
         "stops the encoder threads of a failed render (else the process never exits)"),
    Hook("config", "format", "config", "mp4 / gif / png (last frame only)"),
    Hook("config", "tex_dir", "config", "where formulas' SVGs are cached"),
    Hook("config", "text_dir", "config", "where Text's SVGs are cached (by a hash of text and style)"),
    Hook("config", "save_sections", "config", "one clip per next_section()"),
    Hook("config", "video_encoder_options", "config", "options of the segment encoder (x264 preset)"),
    Hook("config", "max_inflight_encoders", "config", "plays encoded while the next one draws"),
    Hook("config", "max_files_cached", "config", "-1 keeps every clip (manim-slides needs them all)"),
    Hook("manim_slides.slide.base.BaseSlide", "__init__", "call",
         "sets up a slide deck's state without Slide.__init__'s write_to_movie (gone in Manim 0.21)"),
    Hook("manim_slides.slide.base.BaseSlide", "_save_slides", "call",
         "writes the slides' clips and JSON after the render"),
    Hook("manim_slides.slide.base.BaseSlide", "next_slide", "override",
         "ends the slide playing (appended to _slides when it played an animation) and starts the next"),
    Hook("manim_slides.slide.base.BaseSlide", "_add_last_slide", "call",
         "ends the last slide; does nothing when it has ended already"),
    Hook("manim_slides.slide.base.BaseSlide.instance", "_slides", "attribute",
         "the slides ended so far, in order (PreSlideConfig); _save_slides writes them to the JSON"),
    Hook("manim_slides.config.PreSlideConfig", "notes", "field",
         "a slide's speaker notes: the converters' reveal.js notes and PowerPoint notes page"),
)


def slide_class(stage: type) -> type:
    """The stage as a manim-slides ``ThreeDSlide``: each step is a slide.

    manim-slides 5.7 sets two config keys the way Manim 0.20 took them
    (``write_to_movie``, gone; ``max_files_cached = inf``, now an int with -1
    for no limit); this twin does the same set-up and saving without them.
    Going back shows a slide from its start (no reversed clips: half the work).

    Every slide carries speaker notes (:func:`slide_notes`): the stage and
    step it shows, the captions said while it plays (the stage's ``say(text)``
    and ``saying(text)``, whose numbers are the true ones) and the color scales on screen at its end.
    A step that plays nothing makes no slide of its own: its captions go to
    the next slide, as its picture does.
    """
    import logging

    from manim_slides import ThreeDSlide
    from manim_slides.slide.base import BaseSlide

    logging.getLogger("manim-slides").setLevel(logging.ERROR)

    def render(self, *args, **kwargs):
        ThreeDScene.render(self, *args, **kwargs)  # every clip kept: see render_options(slides=True)
        ended = len(self._slides)
        self._add_last_slide()
        self._note_ended(ended)
        if self._said and self._slides:  # said after the last animation
            self._slides[-1].notes += "".join(f"\n• {text}" for text in self._said)
        self._save_slides(use_cache=False, flush_cache=False, skip_reversing=True)

    def say(self, text, *args, **kwargs):
        self._said.append(str(text))
        return super(twin, self).say(text, *args, **kwargs)

    def saying(self, text, *args, **kwargs):  # a caption joining a play: said all the same
        self._said.append(str(text))
        return super(twin, self).saying(text, *args, **kwargs)

    class _Slide(ThreeDSlide):
        def __init__(self, *args, **kwargs):
            BaseSlide.__init__(self, *args, **kwargs)
            self._said: list[str] = []  # captions since the last slide ended
            self._step = ""  # the name of the step playing

        def next_slide(self, *args, **kwargs):
            ended = len(self._slides)
            super().next_slide(*args, **kwargs)
            self._note_ended(ended)
            self._step = str(args[0]) if args else self._step

        def _note_ended(self, first: int) -> None:
            """The notes of the slide at index ``first``, if it has just ended."""
            if len(self._slides) > first:
                self._slides[first].notes = slide_notes(self, self._step, self._said)
                self._said = []

    twin = type(stage.__name__, (stage, _Slide),
                {"__module__": stage.__module__, "skip_reversing": True, "render": render, "say": say,
                 "saying": saying})
    return twin


def slide_notes(scene, step: str, captions: list[str]) -> str:
    """A slide's speaker notes: stage and step, the captions, and the color
    scale of every block labelled on screen at the slide's end.

    ``scene``: a stage scene (its ``number``, ``title_text``, ``cfg`` and ``mobjects``).
    """
    from ..components.labels import BlockLabel
    from ..components.numbers import shown_value

    lines = [f"{scene.number}. {scene.title_text(scene.cfg)}" + (f" - {step}" if step else "")]
    lines += [f"• {text}" for text in captions]
    scales = []
    for top in scene.mobjects:
        for label in top.get_family():
            if isinstance(label, BlockLabel) and label.value_range is not None:
                low, high = label.value_range
                name = label.tensor_name.replace("\n", " ")
                scales.append(f"{name} from {shown_value(low)} to {shown_value(high)}")
    if scales:
        lines.append("Colors: " + "; ".join(dict.fromkeys(scales)))
    return "\n".join(lines)


def render_options(quality: str, fmt: str, *, sections: bool, media_dir: Path, output_file: str,
                   slides: bool = False) -> dict:
    """The ``tempconfig`` of one render: quality, format, where, how it encodes.

    ``slides``: every partial clip is kept (manim-slides cuts its slides from
    them; Manim's writer reads the limit when the scene is made, and by
    default deletes all but the last 100).

    ``quality``: Manim's preset name ("low_quality", ...). ``fmt``: "mp4", "gif", or "png" (only the last frame is drawn and saved).
    Sections need the movie, so a still per section renders the mp4.
    """
    movie = fmt != "png" or sections
    return {
        "quality": quality,
        "media_dir": str(media_dir),
        "tex_dir": str(Path(media_dir) / "Tex"),
        "text_dir": str(Path(media_dir) / "texts"),
        "output_file": output_file,
        "save_sections": sections,
        "verbosity": "ERROR",
        "progress_bar": "none",
        "disable_caching": True,
        "format": ("gif" if fmt == "gif" else "mp4") if movie else "png",
        "video_encoder_options": dict(X264_OPTIONS),
        "max_inflight_encoders": INFLIGHT_ENCODERS,
        **({"max_files_cached": -1} if slides else {}),
    }


def writes_movie() -> bool:
    """True when the render in progress writes a video (not only a still)."""
    return config.format in ("mp4", "gif", "mov", "webm", "auto")


def scene_time(scene) -> float:
    """The scene's clock: seconds of video played so far."""
    return scene.renderer.time


def frame_of(scene) -> np.ndarray:
    """The scene's current frame, RGBA uint8 (a copy)."""
    return scene.renderer.get_frame()


def orient_camera(camera, angles: dict, now: bool = True) -> None:
    """Point the camera (``set_camera_orientation`` angles: phi, theta,
    gamma); ``now``: bring its rotation up to date at once (Manim refreshes
    it only when it draws a frame, and layouts are computed from it before
    the first one)."""
    camera.set_phi(angles["phi"])
    camera.set_theta(angles["theta"])
    camera.set_gamma(angles["gamma"])
    if now:
        camera.reset_rotation_matrix()


def sampled(stage: type, every: float, check) -> type:
    """``stage`` stopping every ``every`` seconds of each play, also when its
    animations are skipped (a still's render, as the tests make), to call
    ``check(scene)`` with the mobjects as they stand at that moment."""

    class Sampled(stage):
        def play_internal(self, skip_rendering: bool = False):
            duration = self.get_run_time(self.animations)
            for t in np.arange(every, duration - 1e-6, every):
                self.update_to_time(t)
                check(self)
            super().play_internal(skip_rendering)

    Sampled.__name__ = stage.__name__
    return Sampled


def camera_tracker(camera):
    """The value tracker whose animation tells a ``ThreeDScene`` that the
    camera moves (so every mobject is redrawn each frame)."""
    return camera.phi_tracker


def screen_points(scene, mob) -> np.ndarray:
    """``mob``'s own points on the frame (frame units), as the camera places
    them: pinned text as it is, upright labels about their projected center."""
    return scene.camera.transform_points_pre_display(mob, mob.points)


def written_files(scene) -> dict[str, Path]:
    """Where Manim put the render's files, of "movie", "image" and "sections"
    those the render's format has (Manim raises for the others)."""
    writer = scene.renderer.file_writer
    files = {}
    for key, attribute in (("movie", "movie_file_path"), ("image", "image_file_path"),
                           ("sections", "sections_output_dir")):
        try:
            files[key] = Path(getattr(writer, attribute))
        except (AttributeError, ValueError):
            continue
    return files


def abort_encoding(scene) -> None:
    """Stop the encoder threads of a render that failed or was interrupted.

    Manim 0.22's render loop does this itself when the scene raises; this is
    for a failure after it (writing the movie) and costs nothing when idle.
    """
    writer = getattr(getattr(scene, "renderer", None), "file_writer", None)
    if writer is not None:
        writer.abort_encode_jobs()


# Nearly orthographic: Manim's default (20) draws a flat block beside the
# frame's middle as a trapezoid (its far columns shrink, its rows slope), which
# readers took for a different kind of block; from 200 units away every block
# keeps its rectangle and its cubes their size, while a turned camera still
# shows the cubes' sides and a 3D block's depth.
FOCAL_DISTANCE = 200.0


class CubeCamera(ThreeDCamera):
    """``ThreeDCamera`` that draws :class:`CubeGrid` s in one vectorized pass.

    Parameters
    ----------
    lighting
        The headlight; :data:`~.palette.FLAT` for flat colors.
    """

    def __init__(self, *args: Any, lighting: Lighting = HEADLIGHT, **kwargs: Any):
        self.lighting = lighting
        self.forget_frames()
        self.capturing_static = False  # set by CubeRenderer while it draws the static image
        super().__init__(*args, **kwargs)
        self.set_focal_distance(FOCAL_DISTANCE)

    def forget_frames(self) -> None:
        """Drop what is kept from the previous frame (a skipped play draws
        none: the next frame drawn does not follow the last one drawn)."""
        self._overlay_cache = None
        self._overlay_signatures: dict[int, tuple] = {}
        self._upright_seen: dict[int, tuple] = {}  # label -> signature in the previous frame
        self._sprites: dict[int, tuple] = {}  # label -> (signature, image, top-left, anchor)
        self._base = None  # the image the current frame started from
        self._blocks_key = None  # what the block layer of the previous frame showed
        self._blocks_layer = None  # (base, key, image, region) of a layer that stood still
        self._static = None  # (blocks image, text layer, its boxes) of the static image
        self._static_image = None  # Manim's static image they belong to

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
                for box in intersections(static[2], region):
                    composite(self.pixel_array, box, static[1][box])
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
        boxes = covered_boxes(frame[..., 3])
        for box in boxes:
            composite(self.pixel_array, box, frame[box])
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
        key = (self._view_key(), signature(backdrop), tuple(grid_key(g) for g in grids), under is None)
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
        signatures = {id(m): sig for m, sig in zip(vmobjects, signature(vmobjects))}
        before, self._overlay_signatures = self._overlay_signatures, signatures
        still = [m for m in vmobjects if before.get(id(m)) == signatures[id(m)]]
        moving = [m for m in vmobjects if before.get(id(m)) != signatures[id(m)]]
        key = tuple((id(m), signatures[id(m)]) for m in still)
        cached = self._overlay_cache
        if still and (cached is None or cached[0] != key or cached[1].shape != pixel_array.shape):
            layer = self._drawn_apart(still, pixel_array)
            self._overlay_cache = cached = (key, layer, covered_boxes(layer[..., 3]))
        if still:
            _, layer, boxes = cached
            for box in boxes:  # only where the layer has ink: text is a small part of a frame
                composite(pixel_array, box, layer[box])
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
            look = signature(members)
            self._upright_seen[key] = look
            center = self.fixed_orientation_mobjects[members[0]]()
            anchor = self.project_point(center)[:2] * scale  # where the label's center lands, in pixels
            if seen.get(key) != look:
                self.display_multiple_vectorized_mobjects(members, pixel_array)
                continue
            sprite = sprites.get(key)
            if sprite is None or sprite[0] != look:
                layer = self._drawn_apart(members, pixel_array)
                rows = np.flatnonzero(layer[..., 3].any(axis=1))
                cols = np.flatnonzero(layer[..., 3].any(axis=0))
                if not rows.size:
                    continue
                image = layer[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].copy()
                sprite = (look, image, (rows[0], cols[0]), anchor)
            self._sprites[key] = sprite
            _, image, (top, left), drawn_at = sprite
            dx, dy = np.rint(anchor - drawn_at).astype(int)
            top, left = top + dy, left + dx
            height, width = image.shape[:2]
            r0, c0 = max(top, 0), max(left, 0)
            r1, c1 = min(top + height, pixel_array.shape[0]), min(left + width, pixel_array.shape[1])
            if r0 < r1 and c0 < c1:
                composite(pixel_array, (slice(r0, r1), slice(c0, c1)),
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
                fill_quads(ctx, quads[done:start], colors[done:start])
                ctx.push_group()
                fill_quads(ctx, quads[start:stop], colors[start:stop])
                ctx.pop_group_to_source()
                ctx.paint_with_alpha(alpha)
                done = stop
            fill_quads(ctx, quads[done:], colors[done:])
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


class CubeRenderer(CairoRenderer):
    """Manim's renderer, telling a :class:`CubeCamera` which capture is the
    static image of a play (so the camera keeps its blocks and text apart)."""

    def save_static_frame_data(self, scene, static_mobjects):
        camera = self.camera
        if self.skip_animations:  # a skipped play draws no frame: its static image would be thrown away
            self.static_image = None
            self._skip_draw()
            return None
        if not isinstance(camera, CubeCamera):
            return super().save_static_frame_data(scene, static_mobjects)
        camera.capturing_static = True
        try:
            image = super().save_static_frame_data(scene, static_mobjects)
        finally:
            camera.capturing_static = False
        camera._static_image = self.static_image
        return image

    def render(self, scene, time, moving_mobjects=None):
        """Manim's, but a skipped play (a still's render, a cached clip) draws
        no frame: Manim draws one and drops it in ``add_frame``."""
        if not self.skip_animations:
            super().render(scene, time, moving_mobjects)
        else:
            self._skip_draw()

    def _skip_draw(self) -> None:
        """What a draw would leave behind, without drawing: the camera's
        rotation brought up to date (what is measured on screen) and its
        frame-to-frame caches dropped (the next frame drawn does not follow
        the last one drawn)."""
        self.camera.reset_rotation_matrix()
        if isinstance(self.camera, CubeCamera):
            self.camera.forget_frames()
