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

import contextlib
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
    panel: object = None  # scenes.components.palette.Panel; None means the default
    sections: bool = False  # mp4/gif: one clip per step; png: one still per step
    slides: bool = False  # also the manim-slides data, in out_dir/slides/


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
    from scenes.components.palette import DARK, FLAT, HEADLIGHT, LIGHT, PANEL
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
        scene_class, scene_kwargs = stage, {}
        if job.slides:
            scene_class, scene_kwargs = _as_slide(stage), {"output_folder": Path(SLIDES_FOLDER)}
        stage.attention_config = job.config or AttentionConfig()
        stage.theme = THEMES[job.theme]
        stage.lighting = FLAT if job.flat else HEADLIGHT
        stage.panel = job.panel or PANEL
        options = {
            "quality": QUALITY_PRESETS[job.quality],
            "media_dir": str(work),
            "tex_dir": str(work / "Tex"),
            "output_file": final.stem,
            "save_sections": job.sections,
            "verbosity": "ERROR",
            "progress_bar": "none",
            "disable_caching": True,
            "format": "gif" if job.fmt == "gif" else "mp4",
        }
        # A still is the last frame. Stills per step (and slides) need the
        # movie and its sections; the still is then the movie's last frame.
        movie = job.fmt != "png" or job.sections or job.slides
        options.update(write_to_movie=movie, save_last_frame=not movie)
        work.mkdir(parents=True)
        with tempconfig(options), _inside(work), _tex_cache(tex_cache, work / "Tex"):
            scene = scene_class(**scene_kwargs)
            scene.render()
            writer = scene.renderer.file_writer
            produced = Path(writer.movie_file_path if movie else writer.image_file_path)
            if job.fmt == "gif":
                produced = produced.with_suffix(".gif")
        if job.fmt == "png" and movie:
            produced = _last_frame_png(produced)
        if not produced.exists():
            raise RuntimeError(f"Manim wrote no file at {produced}")
        subtitles = produced.with_suffix(".srt")
        if subtitles.exists() and job.fmt != "png":
            os.replace(subtitles, final.with_suffix(".srt"))
        if job.sections:
            sections = out_dir / f"{final.stem}_sections"
            if job.fmt == "png":
                _section_stills(Path(writer.sections_output_dir), final.stem)
            _replace_dir(Path(writer.sections_output_dir), sections)
        if job.slides:
            _move_slides(work / SLIDES_FOLDER, out_dir / SLIDES_FOLDER, str(scene))
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


SLIDES_FOLDER = "slides"


def _as_slide(stage):
    """The stage as a manim-slides ``ThreeDSlide``: each step is a slide.

    Going back shows a slide from its start (no reversed clips: half the work).
    """
    import logging

    from manim_slides import ThreeDSlide

    logging.getLogger("manim-slides").setLevel(logging.ERROR)
    return type(stage.__name__, (stage, ThreeDSlide),
                {"__module__": stage.__module__, "skip_reversing": True})


@contextlib.contextmanager
def _inside(folder: Path):
    """Work inside ``folder``: manim-slides writes paths relative to the cwd."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def _tex_cache(shared: Path, private: Path):
    """TeX in a private folder, seeded from and published to the shared cache.

    Manim takes a formula's SVG as done once the file exists, so two renders
    writing the same formula into one folder read each other's half-written
    files. Each render compiles in its own folder; finished SVGs come in from
    the shared cache and new ones go out with an atomic rename, only after
    the render succeeded (an interrupted dvisvgm leaves a cut-off SVG).
    """
    private.mkdir(parents=True, exist_ok=True)
    for svg in shared.glob("*.svg"):
        shutil.copyfile(svg, private / svg.name)
    yield
    for svg in private.glob("*.svg"):
        if not (shared / svg.name).exists():
            partial = shared / f".{svg.name}.{os.getpid()}"
            shutil.copyfile(svg, partial)
            os.replace(partial, shared / svg.name)


def _replace_dir(source: Path, target: Path) -> None:
    shutil.rmtree(target, ignore_errors=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(source, target)


def _move_slides(source: Path, target: Path, name: str) -> None:
    """Move one scene's slide clips and JSON; its paths stay valid (relative)."""
    _replace_dir(source / "files" / name, target / "files" / name)
    os.replace(source / f"{name}.json", target / f"{name}.json")


def _last_frame(video: Path):
    import av

    last = None
    with av.open(str(video)) as container:
        for frame in container.decode(container.streams.video[0]):
            last = frame
    return last.to_image()


def _last_frame_png(video: Path) -> Path:
    still = video.with_suffix(".png")
    _last_frame(video).save(still)
    return still


def _section_stills(folder: Path, stem: str) -> None:
    """Replace each section clip by its last frame as PNG (the JSON index follows)."""
    import json

    index_path = folder / f"{stem}.json"
    index = json.loads(index_path.read_text())
    for number, section in enumerate(index, start=1):
        if not section.get("video"):
            continue
        clip = folder / section["video"]
        still = f"{stem}_{number:02d}_{section['name'].replace(' ', '_')}.png"
        _last_frame(clip).save(folder / still)
        clip.unlink()
        section["video"] = None
        section["still"] = still
    index_path.write_text(json.dumps(index, indent=4))


def _cost(job: RenderJob) -> int:
    """How much a scene draws, roughly: the elements of the tensors it shows."""
    from tensors import STAGE_KEYS, AttentionConfig, compute_trace

    trace = compute_trace(job.config or AttentionConfig())
    return sum(trace[key].size for key in STAGE_KEYS[job.number])


def render_many(jobs: list[RenderJob], workers: int, report=print) -> list[RenderResult]:
    """Render ``jobs`` in up to ``workers`` fresh processes; results in stage order."""
    workers = max(1, min(workers, len(jobs)))
    context = multiprocessing.get_context("spawn")
    results: list[RenderResult] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        # Biggest first, so that no long scene starts last while the other
        # workers sit idle (longest-processing-time-first scheduling).
        futures = {pool.submit(render_one, job): job for job in sorted(jobs, key=_cost, reverse=True)}
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
