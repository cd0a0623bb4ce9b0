"""Render stages to files: one process per scene, atomic output.

Each scene renders in a fresh worker process inside its own Manim
``tempconfig``, into a private working folder; only a finished file is moved
(atomically) to its final name ``NN_slug.ext``. A scene that fails or is
interrupted leaves nothing under that name, and the other scenes go on.

Examples
--------
>>> output_name(RenderJob(3, "low", "mp4", Path("media/videos"), None))
'03_omega.mp4'
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

__all__ = ["RenderJob", "RenderResult", "render_many", "render_one", "output_name", "QUALITY_PRESETS"]

QUALITY_PRESETS = {
    "low": "low_quality",        # 854x480, 15 fps
    "medium": "medium_quality",  # 1280x720, 30 fps
    "high": "high_quality",      # 1920x1080, 60 fps
    "4k": "fourk_quality",       # 3840x2160, 60 fps
}


@dataclass(frozen=True)
class RenderJob:
    number: int
    quality: str
    fmt: str
    out_dir: Path
    config: object  # tensors.AttentionConfig; None means the default
    theme: str = "dark"
    flat: bool = False
    sections: bool = False


@dataclass
class RenderResult:
    job: RenderJob
    path: Path | None
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _slug(number: int) -> str:
    from scenes.base import stage_registry

    return stage_registry()[number].slug


def output_name(job: RenderJob) -> str:
    return f"{job.number:02d}_{_slug(job.number)}.{job.fmt}"


def _stop_writer_thread(scene) -> None:
    """Manim's movie-writer thread waits forever after a failed animation."""
    writer = getattr(getattr(scene, "renderer", None), "file_writer", None)
    thread = getattr(writer, "writing_process", None)
    if thread is not None and thread.is_alive():
        writer.queue.put((-1, None))
        thread.join(timeout=5)


def render_one(job: RenderJob) -> RenderResult:
    """Render one stage in this process (called inside a fresh worker)."""
    from manim import tempconfig

    from scenes.base import stage_registry
    from scenes.components.palette import DARK, FLAT, HEADLIGHT, LIGHT
    from tensors import AttentionConfig

    THEMES = {"dark": DARK, "light": LIGHT}
    start = time.perf_counter()
    out_dir = Path(job.out_dir).resolve()
    final = out_dir / output_name(job)
    work = out_dir / f".work-{job.number:02d}-{os.getpid()}"
    tex_cache = out_dir.parent / "manim" / "Tex"
    scene = None
    try:
        tex_cache.mkdir(parents=True, exist_ok=True)
        stage = stage_registry()[job.number]
        stage.attention_config = job.config or AttentionConfig()
        stage.theme = THEMES[job.theme]
        stage.lighting = FLAT if job.flat else HEADLIGHT
        options = {
            "quality": QUALITY_PRESETS[job.quality],
            "media_dir": str(work),
            "tex_dir": str(tex_cache),
            "output_file": final.stem,
            "save_sections": job.sections and job.fmt != "png",
            "verbosity": "ERROR",
            "progress_bar": "none",
            "disable_caching": True,
            "write_to_movie": job.fmt != "png",
            "save_last_frame": job.fmt == "png",
            "format": "gif" if job.fmt == "gif" else "mp4",
        }
        with tempconfig(options):
            scene = stage()
            scene.render()
            writer = scene.renderer.file_writer
            produced = Path(writer.image_file_path if job.fmt == "png" else writer.movie_file_path)
            if job.fmt == "gif":
                produced = produced.with_suffix(".gif")
        if not produced.exists():
            raise RuntimeError(f"Manim wrote no file at {produced}")
        subtitles = produced.with_suffix(".srt")
        if subtitles.exists() and job.fmt != "png":
            os.replace(subtitles, final.with_suffix(".srt"))
        if job.sections and job.fmt != "png":
            sections = out_dir / f"{final.stem}_sections"
            shutil.rmtree(sections, ignore_errors=True)
            os.replace(writer.sections_output_dir, sections)
        os.replace(produced, final)
        return RenderResult(job, final, time.perf_counter() - start)
    except BaseException as error:  # noqa: BLE001 - report, never leave a partial file
        if scene is not None:
            _stop_writer_thread(scene)
        if isinstance(error, KeyboardInterrupt):
            message = "interrupted"
        else:
            message = f"{type(error).__name__}: {error}"
            last = traceback.extract_tb(error.__traceback__)[-1:]
            if last:
                message += f" (at {Path(last[0].filename).name}:{last[0].lineno})"
        return RenderResult(job, None, time.perf_counter() - start, message)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def render_many(jobs: list[RenderJob], workers: int, report=print) -> list[RenderResult]:
    """Render ``jobs`` in up to ``workers`` fresh processes; results in stage order."""
    workers = max(1, min(workers, len(jobs)))
    context = multiprocessing.get_context("spawn")
    results: list[RenderResult] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(render_one, job): job for job in jobs}
        try:
            for done, future in enumerate(as_completed(futures), start=1):
                result = future.result()
                results.append(result)
                status = "ok" if result.ok else f"FAILED: {result.error}"
                report(f"[{done}/{len(jobs)}] scene {result.job.number:2d} "
                       f"{result.seconds:6.1f} s  {status}")
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return sorted(results, key=lambda r: r.job.number)
