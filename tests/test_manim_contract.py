"""The Manim contract: every hook of scenes/engine/manim_hooks.py still exists.

Fast. When a Manim upgrade renames or removes something the engine relies on,
the failing test names the hook and what it was used for. A tiny movie
(64x36, a few frames) goes through the real writer, so a change in how Manim
encodes is caught without the slow renders.
"""

import inspect
from pathlib import Path

import av
import numpy as np
import pytest
from manim import ThreeDScene, config, tempconfig
from manim.camera.camera import Camera
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.scene_file_writer import SceneFileWriter
from manim import ThreeDCamera

from scenes.components.cubegrid import CubeGrid
from scenes.components.labels import BlockLabel
from scenes.engine import manim_hooks
from scenes.engine.manim_hooks import MANIM_HOOKS, CubeCamera, CubeRenderer, render_options

OWNERS = {"ThreeDCamera": ThreeDCamera, "ThreeDScene": ThreeDScene, "Camera": Camera, "CairoRenderer": CairoRenderer,
          "SceneFileWriter": SceneFileWriter}


def _instances(tmp_path):
    with tempconfig({"pixel_width": 64, "pixel_height": 36, "media_dir": str(tmp_path), "format": "none"}):
        scene = ThreeDScene(renderer=CubeRenderer(camera_class=CubeCamera), camera_class=CubeCamera)
        slide = manim_hooks.slide_class(TinyStage)(output_folder=tmp_path / "slides")
        return {"Camera.instance": scene.renderer.camera, "CairoRenderer.instance": scene.renderer,
                "manim_slides.slide.base.BaseSlide.instance": slide}


def _overriding(hook) -> type:
    """Our class that overrides the hook's method."""
    if hook.owner.startswith("manim_slides"):
        return manim_hooks.slide_class(TinyStage)
    return CubeCamera if "Camera" in hook.owner else CubeRenderer


@pytest.mark.parametrize("hook", MANIM_HOOKS, ids=lambda h: f"{h.owner}.{h.name}")
def test_manim_still_has_the_hook(hook, tmp_path):
    where = f"Manim {manim_version()}: the hook {hook.owner}.{hook.name} ({hook.relies_on}) "
    if hook.kind == "config":
        assert hook.name in config._d or hasattr(type(config), hook.name), where + "is no config key"
        return
    if hook.kind == "field":
        assert hook.name in _dotted(hook.owner).model_fields, where + "is no longer a field"
        return
    if hook.owner.endswith(".instance"):
        owner = _instances(tmp_path)[hook.owner]
        assert hasattr(owner, hook.name), where + "is no longer an attribute"
        return
    owner = OWNERS.get(hook.owner) or _dotted(hook.owner)
    assert hasattr(owner, hook.name), where + "is gone; see scenes/engine/manim_hooks.py"
    if hook.kind == "override":
        ours = getattr(_overriding(hook), hook.name)
        theirs = getattr(owner, hook.name)
        assert ours is not theirs, f"{hook.owner}.{hook.name} is listed as overridden but is not"
        expected = [p for p in inspect.signature(theirs).parameters if p not in ("args", "kwargs")]
        mine = list(inspect.signature(ours).parameters)
        assert all(p in mine for p in expected) or "kwargs" in mine, (
            where + f"now takes {expected}; the override takes {mine}")


def test_every_reach_is_listed():
    """The overrides in the module are exactly the hooks marked "override"."""
    from manim_slides import ThreeDSlide

    listed = {(h.owner, h.name) for h in MANIM_HOOKS if h.kind == "override"}
    twin = manim_hooks.slide_class(TinyStage)
    slide_part = twin.__mro__[twin.__mro__.index(ThreeDSlide) - 1]  # the twin's own class
    owners = ("ThreeDCamera", "Camera", "CairoRenderer", "manim_slides.slide.base.BaseSlide")
    for ours, base in ((CubeCamera, ThreeDCamera), (CubeRenderer, CairoRenderer), (slide_part, ThreeDSlide)):
        for name, member in vars(ours).items():
            if callable(member) and hasattr(base, name) and not name.startswith("__"):
                assert any((owner, name) in listed for owner in owners), (
                    f"{ours.__name__}.{name} overrides Manim but is not in MANIM_HOOKS")


def _dotted(path: str):
    import importlib

    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def manim_version() -> str:
    import manim

    return manim.__version__


class TinyBlock(ThreeDScene):
    def construct(self):
        grid = CubeGrid(np.arange(12.0).reshape(3, 4), cube_size=0.8)
        self.add(grid)
        self.play(grid.animate.recolor(-np.arange(12.0).reshape(3, 4)), run_time=0.4)
        self.next_section("second")
        self.play(grid.animate.shift([1.0, 0.0, 0.0]), run_time=0.4)


class TinyStage(ThreeDScene):
    """What the slide twin reads of a stage: number, title, captions (say), steps, block labels."""

    number, cfg = 99, None

    @classmethod
    def title_text(cls, config=None):
        return "Tiny"

    def say(self, text):
        self.add_subcaption(text)

    def step(self, name):
        self.next_section(name)

    def construct(self):
        grid = CubeGrid(np.arange(12.0).reshape(3, 4), cube_size=0.8)
        self.add(grid)
        self.step("opening")
        self.say("said before anything moves")
        self.step("first")  # the opening played nothing: one slide with the first step
        self.say("a = 1")
        self.play(grid.animate.shift([0.5, 0.0, 0.0]), run_time=0.2)
        self.step("second")
        self.add(BlockLabel("ω", (3, 4), value_range=(-2.5, 3.0)))  # a block's label: its name and color scale
        self.say("b = 2")
        self.play(grid.animate.shift([-0.5, 0.0, 0.0]), run_time=0.2)
        self.step("closing")  # plays nothing: its caption joins the last slide's notes
        self.say("said at the end")


def test_slides_carry_speaker_notes(tmp_path, monkeypatch):
    """The manim-slides twin: a slide per step that plays, each with its notes in the JSON."""
    import json

    monkeypatch.chdir(tmp_path)  # manim-slides writes its paths relative to the working folder
    options = render_options("low_quality", "mp4", sections=False, media_dir=tmp_path, output_file="tiny")
    options.update(pixel_width=64, pixel_height=36, frame_rate=10)
    with tempconfig(options):
        scene = manim_hooks.slide_class(TinyStage)(output_folder=Path("slides"))
        scene.render()
    slides = json.loads((tmp_path / "slides" / "TinyStage.json").read_text())["slides"]
    assert [s["notes"] for s in slides] == [
        "99. Tiny - first\n• said before anything moves\n• a = 1",
        "99. Tiny - second\n• b = 2\nColors: ω from −2.5 to 3\n• said at the end",
    ]
    assert all((tmp_path / s["file"]).exists() for s in slides)


def test_a_tiny_movie_goes_through_the_writer(tmp_path):
    """A few frames at 64x36 with our renderer, options and sections: a real MP4."""
    options = render_options("low_quality", "mp4", sections=True, media_dir=tmp_path, output_file="tiny")
    options.update(pixel_width=64, pixel_height=36, frame_rate=10)
    with tempconfig(options):
        scene = TinyBlock(renderer=CubeRenderer(camera_class=CubeCamera), camera_class=CubeCamera)
        scene.render()
        files = manim_hooks.written_files(scene)
    assert files["movie"].exists(), "Manim wrote no movie where written_files() says"
    with av.open(str(files["movie"])) as container:
        stream = container.streams.video[0]
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(stream)]
        assert stream.codec_context.name == "h264"
    assert len(frames) == 8 and frames[0].shape == (36, 64, 3)
    assert np.abs(frames[0].astype(int) - frames[-1]).mean() > 1.0  # the block moved
    sections = sorted(p.suffix for p in files["sections"].iterdir())
    assert sections.count(".mp4") == 2 and ".json" in sections


def test_a_scene_that_raises_mid_play_leaves_no_encoder_thread(tmp_path):
    """Manim's encoder threads end when a scene fails (they once kept the process alive)."""
    import threading

    class Broken(ThreeDScene):
        def construct(self):
            grid = CubeGrid(np.ones((2, 2)), cube_size=0.8)
            self.add(grid)

            def explode(mob, alpha):
                if alpha > 0.5:
                    raise RuntimeError("boom")

            from manim import UpdateFromAlphaFunc
            self.play(UpdateFromAlphaFunc(grid, explode), run_time=1.0)

    options = render_options("low_quality", "mp4", sections=False, media_dir=tmp_path, output_file="broken")
    options.update(pixel_width=64, pixel_height=36, frame_rate=10)
    with tempconfig(options):
        scene = Broken(renderer=CubeRenderer(camera_class=CubeCamera), camera_class=CubeCamera)
        with pytest.raises(RuntimeError, match="boom"):
            scene.render()
        manim_hooks.abort_encoding(scene)
    lingering = [t.name for t in threading.enumerate() if t.name.startswith("partial-movie-encoder")]
    assert not lingering
