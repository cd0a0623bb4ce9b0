"""Scene rendering benchmark: render seconds per second of video.

Renders the chosen scenes through the real renderer (the same code path as
``render.py render``) with N parallel jobs, then prints, per scene, the video
length and the worker's render time, and in total the wall time divided by the
video length (render seconds per second of video; lower is better).

    .venv/bin/python benchmarks/scenes.py                         # all scenes at 480p15, 2 jobs
    .venv/bin/python benchmarks/scenes.py --quality high 3 13 20  # 1080p60, a subset
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import av

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render import QUALITIES, parse_scene_spec  # noqa: E402
from scenes.catalogue import stage_catalogue  # noqa: E402
from scenes.jobs import RenderJob, render_many  # noqa: E402
from tensors import AttentionConfig  # noqa: E402


def video_seconds(path: Path) -> float:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return stream.frames / float(stream.average_rate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", nargs="*", help="scene numbers/ranges (default: all)")
    parser.add_argument("--quality", choices=QUALITIES, default="low")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    numbers = parse_scene_spec(tuple(args.scenes)) if args.scenes else list(stage_catalogue())

    with tempfile.TemporaryDirectory() as folder:
        jobs = [RenderJob(n, args.quality, "mp4", Path(folder), AttentionConfig()) for n in numbers]
        start = time.perf_counter()
        results = render_many(jobs, args.jobs, report=lambda line: print(line, file=sys.stderr))
        wall = time.perf_counter() - start
        failed = [r for r in results if not r.ok]
        if failed:
            sys.exit(f"failed: {[r.job.number for r in failed]}")
        lengths = {r.job.number: video_seconds(r.path) for r in results}

    print(f"quality {args.quality}, {args.jobs} jobs, {len(numbers)} scenes")
    print(f"{'scene':>5} {'video s':>8} {'render s':>9} {'render/video':>13}")
    for r in results:
        print(f"{r.job.number:5d} {lengths[r.job.number]:8.1f} {r.seconds:9.1f} "
              f"{r.seconds / lengths[r.job.number]:13.2f}")
    total = sum(lengths.values())
    print(f"total video {total:.1f} s, wall {wall:.1f} s, "
          f"wall per second of video {wall / total:.2f}, "
          f"CPU-side per second of video {sum(r.seconds for r in results) / total:.2f}")


if __name__ == "__main__":
    main()
