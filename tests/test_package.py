"""The package as users get it: a wheel, installed into a fresh venv (slow; CI).

The wheel is built from a copy of the source tree, installed with no
editable link (torch: the same build as this venv's, from this machine's
wheels where it has them, so no CUDA build is ever pulled), and the
installed command runs from a folder outside the repository with its own
home and cache folders: it writes ``media/`` there and its caches in the
user's cache folder, and nothing else.
"""

import os
import shutil
import subprocess
import sys
import time
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"  # as scripts/setup.sh
pytestmark = pytest.mark.slow


def source_files() -> list[Path]:
    """The files of the source tree: git's (tracked, and new ones not ignored)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\n")
    return [Path(name) for name in listed if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a clean copy of the tree (a stale build/ cannot leak in)."""
    work = tmp_path_factory.mktemp("build")
    for name in source_files():
        (work / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, work / "src" / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"),
                    str(work / "src")], check=True, capture_output=True, timeout=600)
    (built,) = (work / "dist").glob("attention_cubes-*.whl")
    return built


def test_the_wheel_holds_every_module_and_no_top_level_render(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(p) for p in source_files() if p.suffix == ".py" and p.parts[0] in ("scenes", "tensors")}
    assert modules and not modules - names, f"not in the wheel: {sorted(modules - names)}"
    assert "scenes/deck.html" in names  # the deck's page template
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"scenes", "tensors"}, top
    info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "attention-cubes = scenes.cli:main" in zipfile.ZipFile(wheel).read(info).decode()


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh venv with the wheel and its dependencies; returns its bin folder."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    torch = f"torch=={version('torch')}"  # exactly this venv's build (CPU), never a CUDA one
    probe = tmp_path_factory.mktemp("probe")
    local = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-index", "-q",
                            "-d", str(probe), torch], capture_output=True).returncode == 0
    extra = [] if local or "+" not in torch else ["--extra-index-url", TORCH_CPU_INDEX]
    start = time.monotonic()
    result = subprocess.run([*pip, str(wheel), torch, *extra], capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    print(f"fresh venv install: {time.monotonic() - start:.0f} s, wheel {wheel.stat().st_size / 1024:.0f} KiB")
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert not list(Path(site).glob("__editable__*")) and not list(Path(site).glob("*.egg-link"))
    yield venv / "bin"
    shutil.rmtree(venv, ignore_errors=True)  # about 1 GiB with torch: not kept among pytest's last runs


def run_installed(bin_folder: Path, cwd: Path, home: Path, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "ATTENTION_CUBES_TRACE_CACHE", "VIRTUAL_ENV")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), PATH=f"{bin_folder}:{env['PATH']}")
    result = subprocess.run([str(bin_folder / "attention-cubes"), *args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result


def test_the_installed_command_works_from_any_folder(installed, tmp_path):
    home, here = tmp_path / "home", tmp_path / "lecture"
    home.mkdir()
    here.mkdir()
    python = str(installed / "python")
    found = subprocess.run([python, "-c", "import scenes, tensors; print(scenes.__file__, tensors.__file__)"],
                           cwd=here, capture_output=True, text=True, check=True).stdout
    assert str(ROOT) not in found and "site-packages" in found
    assert subprocess.run([python, "-c", "import render"], cwd=here, capture_output=True).returncode != 0

    listed = run_installed(installed, here, home, "list").stdout.splitlines()
    assert len(listed) == 21 and listed[2].split()[:3] == ["3", "omega", "Omega"]
    summary = run_installed(installed, here, home, "tensors", "--format", "summary").stdout
    assert "s21_output" in summary and "8x18" in summary
    still = run_installed(installed, here, home, "render", "3", "--format", "png")
    assert still.stdout.split() == [str(here / "media" / "videos" / "03_omega.png")]

    # the output folder and the user's cache, nothing else (not beside the output, not in home)
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert [p for p in written if not p.startswith("home/.cache/attention-cubes/")] == [
        "lecture/media/videos/03_omega.png"]
    assert any(p.startswith("home/.cache/attention-cubes/traces/") for p in written)
    assert any(p.startswith("home/.cache/attention-cubes/manim/texts/") for p in written)
