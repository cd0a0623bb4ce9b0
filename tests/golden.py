"""Frame goldens at tiny resolution, in the manner of Manim's frames_comparison.

A test renders the last frame of a scene (animations skipped, nothing written
but into a temporary folder) at 192x108 and compares it with the control data
``tests/control_data/NAME.npz``. Regenerate on purpose with

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
SIZE = {"pixel_width": 192, "pixel_height": 108, "frame_rate": 15}
# Differences allowed: font hinting and antialiasing wobble between machines.
MEAN_TOLERANCE = 2.0  # mean absolute difference per channel, of 255
PIXEL_TOLERANCE = 48  # a pixel counts as different beyond this ...
FRACTION_TOLERANCE = 0.01  # ... and at most this share of pixels may


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


def check_golden(name: str, frame: np.ndarray) -> None:
    path = CONTROL / f"{name}.npz"
    if os.environ.get("ATTENTION_CUBES_SET_GOLDENS"):
        CONTROL.mkdir(exist_ok=True)
        np.savez_compressed(path, frame=frame)
        from PIL import Image

        (CONTROL / "png").mkdir(exist_ok=True)
        Image.fromarray(frame).resize((frame.shape[1] * 4, frame.shape[0] * 4), Image.NEAREST).save(
            CONTROL / "png" / f"{name}.png")
        return
    assert path.exists(), f"no control data {path.name}: run with ATTENTION_CUBES_SET_GOLDENS=1"
    expected = np.load(path)["frame"]
    assert frame.shape == expected.shape
    diff = np.abs(frame.astype(int) - expected.astype(int))
    mean = diff.mean()
    fraction = (diff.max(axis=-1) > PIXEL_TOLERANCE).mean()
    assert mean <= MEAN_TOLERANCE and fraction <= FRACTION_TOLERANCE, (
        f"{name}: frame differs from its golden (mean {mean:.2f}, {fraction:.1%} of pixels)")
