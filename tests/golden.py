"""Frame goldens at tiny resolution, in the manner of Manim's frames_comparison.

A test renders the last frame of a scene (animations skipped, nothing written
but into a temporary folder) at 320x180, where labels are drawn in whole
letters, and compares it with the control data ``tests/control_data/NAME.npz``:
few pixels may differ, and none in a cluster (a dropped label, a moved block
is a cluster; font antialiasing that differs between machines is not). The
texts on screen are stored beside the frame and must match exactly.
Regenerate on purpose with

    ATTENTION_CUBES_SET_GOLDENS=1 .venv/bin/python -m pytest tests -k golden

which also writes ``tests/control_data/png/NAME.png`` to check by eye before
committing the new ``.npz``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from manim import tempconfig

from scenes.engine.manim_hooks import frame_of

CONTROL = Path(__file__).parent / "control_data"
SIZE = {"pixel_width": 320, "pixel_height": 180, "frame_rate": 15}
# Differences allowed: font hinting and antialiasing wobble between machines.
MEAN_TOLERANCE = 1.0  # mean absolute difference per channel, of 255
PIXEL_TOLERANCE = 48  # a pixel counts as different beyond this ...
FRACTION_TOLERANCE = 0.002  # ... and at most this share of pixels may ...
TILE, TILE_TOLERANCE = 8, 12  # ... and at most this many in any 8x8 tile


def render_still(scene_class, tmp_path, size=SIZE, **scene_kwargs):
    """Render a scene's last frame only (animations skipped, a PNG into
    ``tmp_path``); returns the scene. ``scene_kwargs`` go to the scene
    (``attention_config``, ``look``)."""
    options = dict(size, media_dir=str(tmp_path), format="png", disable_caching=True,
                   verbosity="ERROR", progress_bar="none")
    with tempconfig(options):
        scene = scene_class(**scene_kwargs)
        scene.render()
        return scene


def last_frame(scene_class, tmp_path, **scene_kwargs) -> np.ndarray:
    return frame_of(render_still(scene_class, tmp_path, **scene_kwargs))[..., :3]


def screen_texts(scene) -> list[str]:
    """Every text on screen (a Text's string, a formula's TeX), sorted."""
    from manim import MathTex, Text

    found = []

    def walk(mob):
        if isinstance(mob, Text):
            found.append(mob.original_text)
        elif isinstance(mob, MathTex):
            found.append(mob.tex_string)
        else:
            for sub in mob.submobjects:
                walk(sub)

    for top in scene.mobjects:
        walk(top)
    return sorted(found)


def check_golden(name: str, frame: np.ndarray, texts: list[str] | None = None) -> None:
    path = CONTROL / f"{name}.npz"
    if os.environ.get("ATTENTION_CUBES_SET_GOLDENS"):
        CONTROL.mkdir(exist_ok=True)
        np.savez_compressed(path, frame=frame, texts=np.array(texts or [], dtype=str))
        from PIL import Image

        (CONTROL / "png").mkdir(exist_ok=True)
        Image.fromarray(frame).resize((frame.shape[1] * 2, frame.shape[0] * 2), Image.NEAREST).save(
            CONTROL / "png" / f"{name}.png")
        return
    assert path.exists(), f"no control data {path.name}: run with ATTENTION_CUBES_SET_GOLDENS=1"
    stored = np.load(path)
    expected = stored["frame"]
    assert frame.shape == expected.shape
    if texts is not None:
        assert texts == list(stored["texts"]), f"{name}: the texts on screen differ from the golden's"
    mean, fraction, tile = frame_difference(frame, expected)
    assert mean <= MEAN_TOLERANCE and fraction <= FRACTION_TOLERANCE and tile <= TILE_TOLERANCE, (
        f"{name}: frame differs from its golden (mean {mean:.2f}, {fraction:.2%} of pixels, "
        f"{tile} in one {TILE}x{TILE} tile)")


def frame_difference(frame: np.ndarray, expected: np.ndarray) -> tuple[float, float, int]:
    """Mean absolute difference, the share of pixels that differ, and the most
    differing pixels in one tile."""
    diff = np.abs(frame.astype(int) - expected.astype(int))
    different = diff.max(axis=-1) > PIXEL_TOLERANCE
    h, w = (different.shape[0] // TILE) * TILE, (different.shape[1] // TILE) * TILE
    tiles = different[:h, :w].reshape(h // TILE, TILE, w // TILE, TILE).sum(axis=(1, 3))
    return float(diff.mean()), float(different.mean()), int(tiles.max())
