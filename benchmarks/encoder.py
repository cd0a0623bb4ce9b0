"""x264 preset benchmark: CPU per frame and file size for a real scene's frames.

Encodes the same frames (a stage's frames at the chosen resolution, moving the
way its camera orbit moves them) with several x264 presets at Manim's CRF 23,
and prints the CPU milliseconds per frame (all of x264's threads, the total
over the clip divided by its frames: x264 works ahead and behind, so single
calls mean little) and the file size of each.

    .venv/bin/python benchmarks/encoder.py             # stage 14's last frame, 1080p
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import av
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PRESETS = ("medium", "veryfast", "ultrafast")


def stage_frames(number: int, width: int, height: int, count: int) -> list[np.ndarray]:
    """The stage's last frame, then ``count`` frames of the camera turning away from it."""
    from manim import tempconfig

    from scenes.stages import stage_registry
    from scenes.components.projection import view_angles
    from scenes.engine.manim_hooks import frame_of

    with tempfile.TemporaryDirectory() as folder, tempconfig({
        "pixel_width": width, "pixel_height": height, "media_dir": folder, "format": "none",
        "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none",
    }):
        scene = stage_registry()[number]()
        scene.render()
        frames = []
        yaw, pitch = getattr(scene, "current_view", scene.view)
        for k in range(count):
            angles = view_angles(yaw + 0.3 * k / count, pitch)
            scene.camera.set_phi(angles["phi"])
            scene.camera.set_theta(angles["theta"])
            scene.camera.set_gamma(angles["gamma"])
            scene.renderer.update_frame(scene)
            frames.append(np.array(frame_of(scene)))
        return frames


def encode(frames: list[np.ndarray], preset: str, path: Path) -> list[float]:
    container = av.open(str(path), mode="w")
    stream = container.add_stream("libx264", rate=60, options={"an": "1", "crf": "23", "preset": preset})
    stream.pix_fmt = "yuv420p"
    stream.height, stream.width = frames[0].shape[:2]
    costs = []
    for frame in frames:
        start = time.process_time()
        for packet in stream.encode(av.VideoFrame.from_ndarray(frame, format="rgba")):
            container.mux(packet)
        costs.append(time.process_time() - start)
    start = time.process_time()
    for packet in stream.encode():
        container.mux(packet)
    container.close()
    flush = time.process_time() - start  # x264 holds frames back (lookahead): charge them evenly
    return [c + flush / len(costs) for c in costs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", type=int, default=14)
    parser.add_argument("--frames", type=int, default=90)
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()
    width, height = map(int, args.size.split("x"))
    frames = stage_frames(args.stage, width, height, args.frames)
    print(f"stage {args.stage}, {len(frames)} frames at {width}x{height}, CRF 23")
    print(f"{'preset':>10} {'CPU ms/frame':>13} {'KiB':>8}")
    base = None
    with tempfile.TemporaryDirectory() as folder:
        for preset in PRESETS:
            path = Path(folder) / f"{preset}.mp4"
            cost = float(np.mean(encode(frames, preset, path))) * 1000
            base = base or cost
            print(f"{preset:>10} {cost:13.1f} {path.stat().st_size // 1024:8d}   {cost / base:.2f}x medium")


if __name__ == "__main__":
    main()
