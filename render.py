"""Attention Cubes from a checkout: ``python render.py --help``.

The command line lives in the package (:mod:`scenes.cli`), where the
installed ``attention-cubes`` command finds it; this file is the project's
entry point at the repository's top and only runs it.
"""

from scenes.cli import QUALITIES, cli, main, parse_scene_spec

__all__ = ["QUALITIES", "cli", "main", "parse_scene_spec"]

if __name__ == "__main__":
    main(prog_name="render.py")
