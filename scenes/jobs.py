"""The job runner: render stages to files, each atomically, in parallel.

Not a Manim renderer (that is :class:`~.engine.manim_hooks.CubeRenderer`):
this module takes render jobs, runs each scene inside its own Manim
``tempconfig`` in a private working folder, and moves only a finished file to
its final name ``NN_slug.ext``. A scene that fails or is interrupted leaves
nothing under that name, and the other scenes of the run go on.

One job, or one worker, renders in this process (no second process importing
everything again); more run in fresh worker processes, biggest scene first.
A working folder is named after the process that renders in it
(``.work-NN-PID``), so the next render into the same folder clears those of
processes that died (``kill -9``).

Examples
--------
>>> output_name(RenderJob(3, "low", "mp4", Path("media/videos"), None))
'03_omega.mp4'
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import shutil
import signal
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from tensors.cache import cache_home

from . import interrupts
from .components.palette import LOOK, Look

__all__ = ["RenderJob", "RenderResult", "render_many", "render_one", "output_name",
           "clear_stale_work", "FORMATS", "QUALITY_PRESETS", "SLIDES_FOLDER"]

# The command line's quality names -> Manim's preset and what it gives.
QUALITY_PRESETS = {
    "low": ("low_quality", "854x480, 15 fps"),
    "medium": ("medium_quality", "1280x720, 30 fps"),
    "high": ("high_quality", "1920x1080, 60 fps"),
    "4k": ("fourk_quality", "3840x2160, 60 fps"),
}
FORMATS = ("mp4", "gif", "png")
SLIDES_FOLDER = "slides"
WORK_PATTERN = re.compile(r"^\.work-(?:\d+|deck)-(\d+)(?:-old)?$")  # a scene's, or the slide deck's
STOP_GRACE = 3.0  # seconds a worker gets to stop before it is killed


@dataclass(frozen=True)
class RenderJob:
    number: int
    quality: str
    fmt: str
    out_dir: Path
    config: object = None  # tensors.AttentionConfig; None means the default
    look: Look = field(default=LOOK)
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


def output_name(job: RenderJob) -> str:
    from .catalogue import stage_catalogue

    return f"{job.number:02d}_{stage_catalogue()[job.number].slug}.{job.fmt}"


def work_folder(job: RenderJob, pid: int | None = None) -> Path:
    """The private folder a job renders in, named after the rendering process."""
    return Path(job.out_dir).resolve() / f".work-{job.number:02d}-{pid or os.getpid()}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clear_stale_work(out_dir: Path) -> list[Path]:
    """Remove the working folders in ``out_dir`` whose process is gone; returns them."""
    cleared = []
    if not Path(out_dir).is_dir():
        return cleared
    for folder in Path(out_dir).iterdir():
        match = WORK_PATTERN.match(folder.name)
        if match and folder.is_dir() and not _alive(int(match.group(1))):
            shutil.rmtree(folder, ignore_errors=True)
            cleared.append(folder)
    return cleared


# -- one job ----------------------------------------------------------------------
def render_one(job: RenderJob) -> RenderResult:
    """Render one stage in this process; a failure becomes the result's error.

    Ctrl-C (KeyboardInterrupt) is not a failure of the scene: the working
    folder is removed and the interrupt goes on to the caller.
    """
    start = time.perf_counter()
    work = work_folder(job)
    scene = None
    try:
        work.mkdir(parents=True)
        from manim import tempconfig

        from .engine.manim_hooks import render_options

        options = render_options(QUALITY_PRESETS[job.quality][0], job.fmt, sections=job.sections,
                                 media_dir=work, output_file=Path(output_name(job)).stem, slides=job.slides)
        shared = cache_home() / "manim"  # one for every output folder
        # manim-slides writes its paths relative to the working directory
        place = _inside(work) if job.slides else contextlib.nullcontext()
        with tempconfig(options), place, _shared_cache(shared / "Tex", work / "Tex"), \
                _shared_cache(shared / "texts", work / "texts"):
            scene = _build_scene(job)  # Manim reads its output settings when a scene is made
            scene.render()
        interrupts.check()  # one swallowed by a callback during the last frames: publish nothing
        produced = _produced(scene, job, options["format"])
        final = _publish(scene, job, produced, work)
        return RenderResult(job, final, time.perf_counter() - start)
    except KeyboardInterrupt:
        _abort(scene)
        raise
    except Exception as error:  # noqa: BLE001 - report, never leave a partial file
        _abort(scene)
        return RenderResult(job, None, time.perf_counter() - start, _describe(error))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _build_scene(job: RenderJob):
    """The stage's scene object, or its manim-slides twin, with the job's options."""
    from .stages import stage_registry
    from .engine.manim_hooks import slide_class

    stage = stage_registry()[job.number]
    kwargs = {"attention_config": job.config, "look": job.look}
    if job.slides:
        return slide_class(stage)(output_folder=Path(SLIDES_FOLDER), **kwargs)
    return stage(**kwargs)


def _produced(scene, job: RenderJob, manim_format: str) -> Path:
    """The file the job asked for, from what Manim wrote (mp4, gif or png)."""
    from .engine.manim_hooks import written_files

    files = written_files(scene)
    if manim_format == "png":
        return files["image"]
    if job.fmt == "gif":
        return files["movie"].with_suffix(".gif")
    return _last_frame_png(files["movie"]) if job.fmt == "png" else files["movie"]


def _publish(scene, job: RenderJob, produced: Path, work: Path) -> Path:
    """Move the finished files to their final names; the main file last."""
    from .engine.manim_hooks import written_files

    if not produced.exists():
        raise RuntimeError(f"Manim wrote no file at {produced}")
    out_dir = Path(job.out_dir).resolve()
    final = out_dir / output_name(job)
    subtitles = produced.with_suffix(".srt")
    if subtitles.exists() and job.fmt != "png":
        os.replace(subtitles, final.with_suffix(".srt"))
    if job.sections:
        sections = written_files(scene)["sections"]
        if job.fmt == "png":
            _section_stills(sections, final.stem)
        _replace_dir(sections, out_dir / f"{final.stem}_sections")
    if job.slides:
        _move_slides(work / SLIDES_FOLDER, out_dir / SLIDES_FOLDER, str(scene))
    os.replace(produced, final)
    return final


def _abort(scene) -> None:
    if scene is not None:
        from .engine.manim_hooks import abort_encoding

        with contextlib.suppress(Exception):
            abort_encoding(scene)


def _describe(error: BaseException) -> str:
    """One line: the error and where it was raised."""
    message = f"{type(error).__name__}: {error}".splitlines()[0]
    last = traceback.extract_tb(error.__traceback__)[-1:]
    if last:
        message += f" (at {Path(last[0].filename).name}:{last[0].lineno})"
    return message


@contextlib.contextmanager
def _inside(folder: Path):
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def _shared_cache(shared: Path, private: Path):
    """Formula and text SVGs in a private folder, seeded from and published to
    a shared cache, the user's (:func:`~tensors.cache.cache_home`); drawing a
    Text's glyphs costs ~80 ms; a formula, a TeX run.

    Manim takes an SVG as done once the file exists, so two renders writing
    the same one into one folder read each other's half-written files. Each
    render writes in its own folder; finished SVGs come in from the shared
    cache and new ones go out with an atomic rename, only after the render
    succeeded (an interrupted dvisvgm leaves a cut-off SVG). A shared cache
    that cannot be written only costs the next render the time.
    """
    private.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        shared.mkdir(parents=True, exist_ok=True)
    for svg in shared.glob("*.svg") if shared.is_dir() else ():
        shutil.copyfile(svg, private / svg.name)
    yield
    for svg in private.glob("*.svg"):
        if not (shared / svg.name).exists():
            partial = shared / f".{svg.name}.{os.getpid()}"
            with contextlib.suppress(OSError):
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


# -- many jobs --------------------------------------------------------------------
def _cost(job: RenderJob) -> int:
    """How much a scene draws, roughly: the elements of the tensors it shows."""
    from tensors import AttentionConfig, compute_trace, stage_list

    config = job.config or AttentionConfig()
    trace = compute_trace(config)
    return sum(trace[key].size for key in stage_list()[job.number].export_keys(config))


def render_many(jobs: list[RenderJob], workers: int, report=print) -> list[RenderResult]:
    """Render ``jobs``, up to ``workers`` at once; results in stage order.

    Stale working folders of dead renders are cleared first. Ctrl-C stops
    every worker within seconds and removes their working folders, also when
    the interrupt landed in a callback that swallowed it (see :mod:`.interrupts`).
    """
    for out_dir in {Path(job.out_dir) for job in jobs}:
        clear_stale_work(out_dir)
    workers = max(1, min(workers, len(jobs)))
    results: list[RenderResult] = []

    def done(result: RenderResult) -> None:
        results.append(result)
        status = "ok" if result.ok else f"FAILED: {result.error}"
        report(f"[{len(results)}/{len(jobs)}] scene {result.job.number:2d} "
               f"{result.seconds:6.1f} s  {status}")

    with interrupts.watched():
        if workers == 1:
            for job in jobs:
                interrupts.check()
                done(render_one(job))
        else:
            _render_in_workers(sorted(jobs, key=_cost, reverse=True), workers, done)
        interrupts.check()
    return sorted(results, key=lambda r: r.job.number)


def _worker(tasks, messages) -> None:
    """A worker process: render jobs until told to stop.

    Ctrl-C at the terminal reaches every process of the group; the main
    process alone decides, and stops the workers itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for job in iter(tasks.get, None):
        messages.put(("start", os.getpid(), job))
        messages.put(("done", os.getpid(), render_one(job)))


def _render_in_workers(jobs: list[RenderJob], workers: int, done) -> None:
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    tasks, messages = context.Queue(), context.Queue()
    for job in jobs:
        tasks.put(job)
    processes = [context.Process(target=_worker, args=(tasks, messages), daemon=True)
                 for _ in range(workers)]
    for process in processes:
        tasks.put(None)
        process.start()
    running: dict[int, RenderJob] = {}  # worker pid -> the job it renders
    left = len(jobs)
    try:
        while left:
            interrupts.check()
            try:
                kind, pid, payload = messages.get(timeout=0.5)
            except queue.Empty:
                for process in processes:
                    if not process.is_alive() and process.pid in running:
                        job = running.pop(process.pid)
                        done(RenderResult(job, None, 0.0, f"the worker process died "
                                                          f"(exit code {process.exitcode})"))
                        left -= 1
                if left and not any(p.is_alive() for p in processes):
                    raise RuntimeError("every worker process died")
                continue
            if kind == "start":
                running[pid] = payload
            else:
                running.pop(pid, None)
                done(payload)
                left -= 1
    finally:
        _stop(processes, jobs, finished=not left)
        for channel in (tasks, messages):
            channel.close()
            channel.join_thread()


def _stop(processes, jobs: list[RenderJob], finished: bool) -> None:
    """End the workers and remove their working folders.

    After a finished run they are leaving on their own and get the time to
    clean up (a worker stopped mid-exit leaks its semaphores); after Ctrl-C
    or a fault they are stopped at once.
    """
    deadline = time.monotonic() + STOP_GRACE
    if finished:
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)
    for process in processes:
        for job in jobs:
            shutil.rmtree(work_folder(job, process.pid), ignore_errors=True)
