"""Cube-grid engine benchmark: engine vs naive Manim Cubes vs the pycairo floor.

Renders, in one run, the same grids three ways with an orbiting camera (a new
angle every frame, so nothing is cached) and prints the median seconds per
frame and the ratios:

* naive  - one Manim ``Cube`` (6 VMobject faces) per element, ThreeDCamera;
* engine - :class:`CubeGrid` drawn by :class:`CubeCamera` (all grids, one pass);
* floor  - the same visible faces, already projected, filled by bare pycairo.

Sizes: 128 cubes (X, 8x16), 1,296 (9x8x18 multi-head context), 7,488 (stage
13's three 3D blocks). Also the build time of the 7,488-cube grids and the
peak memory of the process.

    .venv/bin/python benchmarks/engine.py            # full run (naive 7,488 is slow)
    .venv/bin/python benchmarks/engine.py --quick    # fewer frames, naive only <= 1,296
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import cairo
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from manim import Cube, ThreeDCamera, VGroup, tempconfig  # noqa: E402

from scenes.components.projection import view_angles
from scenes.engine.drawing import project_cube_faces
from scenes.engine.manim_hooks import CubeCamera  # noqa: E402
from scenes.components.cubegrid import CubeGrid  # noqa: E402
from scenes.components.palette import HEADLIGHT  # noqa: E402
from tensors import AttentionConfig, compute_trace  # noqa: E402

RESOLUTIONS = {"480p": (854, 480), "1080p": (1920, 1080)}


def workloads():
    trace = compute_trace(AttentionConfig())
    return {
        128: [trace["s02_embedded_sentence"]],
        1296: [trace["s19_multihead_context_vectors"]],
        7488: [trace[k] for k in ("s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value")],
    }


def build_grids(arrays) -> list[CubeGrid]:
    grids = [CubeGrid(a, cube_size=0.1, gap=0.025) for a in arrays]
    for grid, x in zip(grids, np.linspace(-3.5, 3.5, len(grids)) if len(grids) > 1 else [0.0]):
        grid.move_to([x, 0, 0])
    return grids


def build_naive(grids: list[CubeGrid]) -> VGroup:
    cubes = VGroup()
    for grid in grids:
        centers = grid.cell_centers().reshape(-1, 3)
        for center, rgb in zip(centers, grid.cube_rgb):
            color = "#" + "".join(f"{int(c * 255):02X}" for c in rgb)
            cubes.add(Cube(side_length=grid.cube_edge, fill_opacity=1, fill_color=color,
                           stroke_width=0).move_to(center))
    return cubes


def orbit(camera, frame: int) -> None:
    angles = view_angles(0.3 + 0.02 * frame, 0.25 + 0.01 * frame)
    camera.set_phi(angles["phi"])
    camera.set_theta(angles["theta"])
    camera.set_gamma(angles["gamma"])


def time_frames(camera, mobjects, frames: int) -> float:
    seconds = []
    for frame in range(frames):
        orbit(camera, frame)
        camera.reset()
        start = time.perf_counter()
        camera.capture_mobjects(mobjects)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def time_floor(camera, grids, frames: int) -> float:
    """Bare pycairo filling the engine's visible faces (projection excluded)."""
    seconds = []
    for frame in range(frames):
        orbit(camera, frame)
        camera.reset_rotation_matrix()
        polygons, colors, _ = project_cube_faces(camera, grids, HEADLIGHT)
        polygons, colors = polygons.tolist(), colors.tolist()
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, camera.pixel_width, camera.pixel_height)
        ctx = cairo.Context(surface)
        ctx.set_matrix(cairo.Matrix(camera.pixel_width / camera.frame_width, 0, 0,
                                    -camera.pixel_height / camera.frame_height,
                                    camera.pixel_width / 2, camera.pixel_height / 2))
        start = time.perf_counter()
        for (p0, p1, p2, p3), (b, g, r, a) in zip(polygons, colors):
            ctx.move_to(*p0)
            ctx.line_to(*p1)
            ctx.line_to(*p2)
            ctx.line_to(*p3)
            ctx.close_path()
            ctx.set_source_rgba(b, g, r, a)
            ctx.fill()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer frames; naive only up to 1,296 cubes")
    args = parser.parse_args()
    frames = 5 if args.quick else 9
    naive_frames = 2 if args.quick else 3
    naive_limit = 1296 if args.quick else 7488

    print(f"{'cubes':>6} {'res':>6} {'naive s/f':>10} {'engine s/f':>11} {'floor s/f':>10} "
          f"{'naive/engine':>13} {'engine/floor':>13}")
    for count, arrays in workloads().items():
        grids = build_grids(arrays)
        naive = build_naive(grids) if count <= naive_limit else None
        for res, (width, height) in RESOLUTIONS.items():
            with tempconfig({"pixel_width": width, "pixel_height": height}):
                engine_camera = CubeCamera()
                engine = time_frames(engine_camera, grids, frames)
                floor = time_floor(engine_camera, grids, frames)
                slow = None
                if naive is not None and not (res == "1080p" and count > 1296 and args.quick):
                    slow = time_frames(ThreeDCamera(), [naive], naive_frames)
            slow_text = f"{slow:10.3f}" if slow is not None else f"{'-':>10}"
            ratio = f"{slow / engine:12.0f}x" if slow is not None else f"{'-':>13}"
            print(f"{count:6d} {res:>6} {slow_text} {engine:11.4f} {floor:10.4f} {ratio} "
                  f"{engine / floor:12.2f}x", flush=True)

    arrays = workloads()[7488]
    builds = []
    for _ in range(7):
        start = time.perf_counter()
        build_grids(arrays)
        builds.append(time.perf_counter() - start)
    print(f"build 7,488 cubes: median {statistics.median(builds) * 1000:.1f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
