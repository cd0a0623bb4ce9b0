"""Real renders through the command line (slow; run in CI)."""

import os
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest

from golden import render_still
from scenes.base import OPENING_HOLD
from scenes.engine.manim_hooks import scene_time

from scenes import stage_registry

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def scene_duration(number, tmp_path) -> tuple[float, int]:
    """The stage's length in seconds and its number of plays, from Manim itself
    with animations skipped. Each play is written as whole frames, so a video
    may run up to one frame per play longer."""
    scene = render_still(stage_registry()[number], tmp_path / "probe",
                         size={"pixel_width": 64, "pixel_height": 36})
    return scene_time(scene), scene.renderer.num_plays


def render_cli(*args) -> subprocess.CompletedProcess:
    """``render.py render ARGS`` in a new process; it must succeed."""
    result = subprocess.run([sys.executable, "render.py", "render", *map(str, args)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result


def frames(path):
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        images = [f.to_ndarray(format="rgb24") for f in container.decode(stream)]
        return images, float(stream.average_rate)


def test_render_two_scenes_through_the_cli(tmp_path):
    out = tmp_path / "videos"
    result = render_cli("1", "6", "--quality", "low", "--jobs", "2", "--out-dir", out)
    written = [Path(line) for line in result.stdout.split()]
    assert [p.name for p in written] == ["01_token_ids.mp4", "06_projections.mp4"]
    # each video with its captions as subtitles beside it, nothing else
    assert sorted(p.name for p in out.iterdir()) == [
        "01_token_ids.mp4", "01_token_ids.srt", "06_projections.mp4", "06_projections.srt"]
    for path, number in zip(written, (1, 6)):
        images, fps = frames(path)
        assert fps == pytest.approx(15, abs=0.01) and images[0].shape == (480, 854, 3)
        duration, plays = scene_duration(number, tmp_path)
        assert duration - 1 / fps <= len(images) / fps <= duration + (plays + 1) / fps
        first, middle, last = images[0], images[len(images) // 2], images[-1]
        assert np.abs(first.astype(int) - middle).mean() > 1.0  # something happens
        assert np.abs(middle.astype(int) - last).mean() > 1.0
        # the closing hold: the last second does not change
        assert np.abs(images[-1].astype(int) - images[-int(fps)]).mean() < 0.5


def test_png_still_in_light_theme(tmp_path):
    out = tmp_path / "stills"
    render_cli("6", "--format", "png", "--theme", "light", "--out-dir", out)
    assert [p.name for p in out.iterdir()] == ["06_projections.png"]
    from PIL import Image

    image = np.array(Image.open(out / "06_projections.png").convert("RGB"))
    assert (image[5, 5] > 240).all()  # a white background


def test_sections_and_subtitles(tmp_path):
    import json

    import srt

    out = tmp_path / "videos"
    render_cli("6", "--sections", "--out-dir", out)
    index = json.loads((out / "06_projections_sections" / "06_projections.json").read_text())
    assert [s["name"] for s in index] == ["matrices", "shapes", "one token", "result"]
    for section in index:
        assert (out / "06_projections_sections" / section["video"]).exists()
    images, fps = frames(out / "06_projections.mp4")
    duration = len(images) / fps
    subtitles = list(srt.parse((out / "06_projections.srt").read_text()))
    assert len(subtitles) >= len(index) - 1  # at least a line per step before the closing hold
    assert subtitles[0].end.total_seconds() >= OPENING_HOLD - 1 / fps  # the opening's caption, held with it
    for sub, after in zip(subtitles, subtitles[1:] + [None]):
        assert 0 <= sub.start.total_seconds() < sub.end.total_seconds() <= duration + 1 / fps
        assert after is None or sub.end <= after.start  # one line at a time
        assert sub.content


def test_two_renders_at_once_share_a_cold_cache_and_write_nowhere_else(tmp_path):
    """Two renders start together on an empty user cache: the trace, stage 21's
    formula (a TeX run) and its texts are made by both and published whole,
    once each (a render once read the other's half-written SVG). They write
    their stills and the cache, and nothing else: not in the working folder,
    the output folders' parents or the home folder."""
    home, cache, cwd = tmp_path / "home", tmp_path / "cache", tmp_path / "cwd"
    for folder in (home, cache, cwd):
        folder.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "ATTENTION_CUBES_TRACE_CACHE"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(cache))
    runs = [subprocess.Popen([sys.executable, str(ROOT / "render.py"), "render", "21", "--format", "png",
                              "--out-dir", str(tmp_path / name / "stills")],
                             cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name in ("a", "b")]
    for run in runs:
        _, stderr = run.communicate(timeout=600)
        assert run.returncode == 0, stderr
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if not p.is_dir())
    mine = [p for p in written if not p.startswith("cache/attention-cubes/")]
    assert mine == ["a/stills/21_linear.png", "b/stills/21_linear.png"]
    cached = [Path(p) for p in written if p not in mine]
    assert {p.parts[2] for p in cached} == {"traces", "manim"}
    assert not [p for p in cached if p.name.startswith(".")]  # no partial file left
    assert len([p for p in cached if p.parts[2] == "traces"]) == 1
    tex = [p for p in cached if p.parts[3:4] == ("Tex",)]
    assert tex and all(p.suffix == ".svg" for p in tex)
    assert not [p for p in tmp_path.rglob(".work-*")]


def test_a_still_per_section(tmp_path):
    import json

    from PIL import Image

    out = tmp_path / "stills"
    render_cli("6", "--format", "png", "--sections", "--out-dir", out)
    folder = out / "06_projections_sections"
    index = json.loads((folder / "06_projections.json").read_text())
    assert [s["still"] for s in index] == [
        "06_projections_01_matrices.png", "06_projections_02_shapes.png", "06_projections_03_one_token.png",
        "06_projections_04_result.png"]
    stills = [np.array(Image.open(folder / s["still"]).convert("RGB")).astype(int) for s in index]
    assert all(s.shape == (480, 854, 3) for s in stills)
    assert np.abs(stills[0] - stills[1]).mean() > 1.0  # each step looks different
    final = np.array(Image.open(out / "06_projections.png").convert("RGB")).astype(int)
    assert np.abs(final - stills[-1]).mean() < 2.0  # the last step ends on the final frame
    assert not list(folder.glob("*.mp4"))
