"""Where traces and trained weights are kept between processes, and what
their file names hash besides the configuration.

A cached file is named by a digest of everything its numbers depend on:
the configuration, the code that computes them (the package's own modules,
read here by name) and the installed torch's version, so a change in any of
them never reads an old file.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_folder", "code_bytes", "torch_version"]

PACKAGE = Path(__file__).parent


def cache_folder() -> Path | None:
    """The folder traces (and trained weights) are kept in between processes:
    ``ATTENTION_CUBES_TRACE_CACHE``, else ``$XDG_CACHE_HOME/attention-cubes/traces``
    (``~/.cache/...``); None with ``ATTENTION_CUBES_TRACE_CACHE=off``."""
    folder = os.environ.get("ATTENTION_CUBES_TRACE_CACHE")
    if folder == "off":
        return None
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "attention-cubes", "traces")
    return Path(folder)


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
