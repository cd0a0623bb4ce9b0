"""Where Attention Cubes keeps what it can make again: the user's cache folder.

``$XDG_CACHE_HOME/attention-cubes`` (``~/.cache/attention-cubes`` when the
variable is unset), one folder for every render and every output folder: the
traces (``traces/``), Manim's formula and text SVGs (``manim/``) and the
reveal.js copy the offline slide deck is made with. Nothing in it is needed
twice in one place, so deleting it only costs time.

Every writer publishes a finished file with an atomic rename, so renders
running at once never read each other's half-written files.

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

__all__ = ["cache_home"]


def cache_home(environ=None) -> Path:
    """The user's cache folder for Attention Cubes (not created here)."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME") or os.path.join(
        environ.get("HOME") or os.path.expanduser("~"), ".cache")
    return Path(base) / "attention-cubes"
