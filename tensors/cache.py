"""Where Attention Cubes keeps what it can make again: the user's cache folder,
and what a cached file's name hashes besides the configuration.

``$XDG_CACHE_HOME/attention-cubes`` (``~/.cache/attention-cubes`` when the
variable is unset), one folder for every render and every output folder: the
traces and trained weights (``traces/``), Manim's formula and text SVGs
(``manim/``) and the reveal.js copy the offline slide deck is made with.
Nothing in it is needed twice in one place, so deleting it only costs time.

A cached file is named by a digest of everything its numbers depend on: the
configuration, the code that computes them (the package's own modules, read
here by name) and the installed torch's version, so a change in any of them
never reads an old file. Every writer publishes a finished file with an
atomic rename, so renders running at once never read each other's
half-written files.

Examples
--------
>>> cache_home({"XDG_CACHE_HOME": "/tmp/c"})
PosixPath('/tmp/c/attention-cubes')
>>> cache_home({"HOME": "/home/ada"})
PosixPath('/home/ada/.cache/attention-cubes')
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_home", "cache_folder", "code_bytes", "torch_version"]

PACKAGE = Path(__file__).parent


def cache_home(environ=None) -> Path:
    """The user's cache folder for Attention Cubes (not created here)."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME") or os.path.join(
        environ.get("HOME") or os.path.expanduser("~"), ".cache")
    return Path(base) / "attention-cubes"


def cache_folder() -> Path | None:
    """The folder traces (and trained weights) are kept in between processes:
    ``ATTENTION_CUBES_TRACE_CACHE``, else ``traces/`` in :func:`cache_home`;
    None with ``ATTENTION_CUBES_TRACE_CACHE=off``."""
    folder = os.environ.get("ATTENTION_CUBES_TRACE_CACHE")
    if folder == "off":
        return None
    return Path(folder) if folder else cache_home() / "traces"


def torch_version() -> str:
    """The installed torch's version, read without importing it ("none" without torch)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("torch")
    except PackageNotFoundError:
        return "none"


def code_bytes(*modules: str) -> bytes:
    """The source of these modules of the package (``"config.py"``, ...), joined."""
    return b"".join((PACKAGE / module).read_bytes() for module in modules)
