"""Faults end cleanly: a scene that raises, Ctrl-C at any moment, an output
folder that cannot be made, working folders of dead renders."""

import os
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path

import pytest
from click.testing import CliRunner

from render import cli
from scenes.jobs import RenderJob, RenderResult, clear_stale_work, render_many

ROOT = Path(__file__).resolve().parent.parent


def dead_pid() -> int:
    """The pid of a process that has ended."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_stale_work_folders_of_dead_renders_are_cleared(tmp_path):
    stale = tmp_path / f".work-03-{dead_pid()}"
    live = tmp_path / f".work-04-{os.getpid()}"
    other = tmp_path / ".work-notes"
    for folder in (stale, live, other):
        (folder / "partial").mkdir(parents=True)
    assert clear_stale_work(tmp_path) == [stale]
    assert not stale.exists() and live.exists() and other.exists()


def test_a_render_clears_stale_work_first(tmp_path, monkeypatch):
    import scenes.jobs

    stale = tmp_path / f".work-03-{dead_pid()}"
    stale.mkdir()
    seen = []
    monkeypatch.setattr(scenes.jobs, "render_one",
                        lambda job: seen.append(stale.exists()) or RenderResult(job, None, 0.0, "skipped"))
    render_many([RenderJob(3, "low", "mp4", tmp_path)], workers=1, report=lambda line: None)
    assert seen == [False]


@pytest.mark.parametrize("folder", ["/proc/attention-cubes", "/dev/null/videos"])
def test_an_output_folder_that_cannot_be_made_is_one_line(folder):
    result = CliRunner().invoke(cli, ["render", "3", "--out-dir", folder])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("attention-cubes: error: cannot create the output folder")
    assert "Traceback" not in result.output


def swallowed_interrupt() -> None:
    """Ctrl-C arriving inside a weak-reference callback, as it can while Manim
    or PyAV frees objects mid-render: Python prints "Exception ignored" and
    drops the KeyboardInterrupt."""
    class Freed:
        pass

    thing = Freed()
    token = weakref.ref(thing, lambda ref: signal.raise_signal(signal.SIGINT))  # noqa: F841
    del thing


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raising KeyboardInterrupt in this process, as in a terminal,
    however the tests were started (a run started in the background by a
    non-interactive shell ignores SIGINT, and a render there is left as is:
    these tests then saw nothing raised)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("workers", [1, 2])
def test_a_ctrl_c_swallowed_by_a_callback_still_stops_the_render(tmp_path, monkeypatch, capfd, workers,
                                                                   ctrl_c_raises):
    import scenes.jobs
    rendered = []

    def render_one(job):
        rendered.append(job.number)
        swallowed_interrupt()  # the render goes on, as Manim's would
        return RenderResult(job, tmp_path / f"{job.number}.mp4", 0.0)

    monkeypatch.setattr(scenes.jobs, "render_one", render_one)
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)  # Python's own: prints a traceback
    monkeypatch.setattr(scenes.jobs, "_render_in_workers",  # in this process, as a worker would
                        lambda jobs, workers, done: [done(render_one(job)) for job in jobs])
    with pytest.raises(KeyboardInterrupt):
        render_many([RenderJob(n, "low", "mp4", tmp_path) for n in (3, 4)], workers=workers,
                    report=lambda line: None)
    assert "Exception ignored" not in capfd.readouterr().err  # no traceback for Ctrl-C
    assert rendered == [3] if workers == 1 else rendered == [3, 4]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_swallowed_ctrl_c_stops_the_scene_at_its_next_play_and_publishes_nothing(tmp_path, monkeypatch,
                                                                                   ctrl_c_raises):
    from scenes import interrupts
    from scenes.jobs import render_one

    calls = []

    def storyboard(scene):
        calls.append("first play")
        swallowed_interrupt()
        scene.wait(0.1)
        calls.append("second play")

    from scenes.stages import stage_registry
    monkeypatch.setattr(stage_registry()[1], "storyboard", storyboard)
    with interrupts.watched(), pytest.raises(KeyboardInterrupt):
        render_one(RenderJob(1, "low", "png", tmp_path))
    assert calls == ["first play"]
    assert list(tmp_path.iterdir()) == []
    interrupts.check()  # nothing left pending for the next render in this process


def run_cli(*args, env=None, timeout=600):
    return subprocess.run([sys.executable, "render.py", "render", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_scene_that_raises_mid_animation_fails_alone(tmp_path, jobs):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tests" / "faults"), ATTENTION_CUBES_FAULT="stage6")
    out = tmp_path / "videos"
    start = time.monotonic()
    result = run_cli("1", "6", "--jobs", jobs, "--out-dir", str(out), env=env)
    elapsed = time.monotonic() - start
    assert result.returncode == 1, result.stderr
    failed = [line for line in result.stderr.splitlines() if "FAILED" in line]
    assert len(failed) == 1 and "scene  6" in failed[0] and "planted by the test" in failed[0]
    assert result.stderr.strip().splitlines()[-1] == (
        "render.py: error: 1 of 2 scenes failed: 6 (reasons above)")
    assert "Traceback" not in result.stderr
    assert result.stdout.split() == [str(out / "01_token_ids.mp4")]  # the other scene finished
    assert sorted(p.name for p in out.iterdir()) == ["01_token_ids.mp4", "01_token_ids.srt"]
    assert elapsed < 120


def interrupt_when(out: Path, ready, jobs: str = "1") -> tuple[float, subprocess.Popen]:
    """Start a render of scene 3, send Ctrl-C (to the whole process group, as
    a terminal does) once ``ready(out)``; the seconds it took to exit."""
    process = subprocess.Popen(
        [sys.executable, "render.py", "render", "3", "12", "--jobs", jobs, "--out-dir", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        # as from a terminal: a suite started in the background (`… &`) hands its
        # children Ctrl-C ignored, and Python keeps it ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    started = time.monotonic()
    deadline = started + 300
    while not ready(out, time.monotonic() - started):
        assert process.poll() is None and time.monotonic() < deadline, "the render ended before the moment"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    sent = time.monotonic()
    try:
        process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail("still running 30 s after Ctrl-C")
    return time.monotonic() - sent, process


MOMENTS = {  # (output folder, seconds since start) -> now
    "importing": lambda out, age: age > 0.8,
    "building the scene": lambda out, age: bool(list(out.glob(".work-*"))),
    "encoding": lambda out, age: bool(list(out.glob(".work-*/**/partial_movie_files/**/*.mp4"))),
}


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_ctrl_c_at_any_moment_exits_fast_and_leaves_nothing(tmp_path, moment, jobs):
    out = tmp_path / "videos"
    seconds, process = interrupt_when(out, MOMENTS[moment], jobs)
    # 130 from our handler; -SIGINT when Python had not yet started ours (a shell shows 130 either way)
    assert process.returncode in (130, -signal.SIGINT)
    assert seconds < 5, f"took {seconds:.1f} s to stop"
    assert not out.exists() or list(out.iterdir()) == []
