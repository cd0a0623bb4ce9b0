"""The stages as the command line lists them, read without importing Manim.

The stage files are the one list of stages: each declares its ``number``,
``slug`` and ``summary`` as class attributes. Importing them loads Manim and
torch (seconds), which ``render.py list``, ``--help`` and argument checks
should not pay, so this module reads those literals from the files' syntax
trees. :func:`~scenes.stages.stage_registry` imports the same classes, and a
test checks that both agree.

Examples
--------
>>> entries = stage_catalogue()
>>> entries[3].slug, entries[3].class_name
('omega', 'Omega')
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["StageEntry", "stage_catalogue", "stage_count"]

STAGES_DIR = Path(__file__).parent / "stages"


@dataclass(frozen=True)
class StageEntry:
    number: int
    slug: str
    class_name: str
    summary: str


def _literals(node: ast.ClassDef) -> dict:
    values = {}
    for statement in node.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    values[target.id] = statement.value.value
    return values


@lru_cache(maxsize=1)
def stage_catalogue() -> dict[int, StageEntry]:
    """Every stage class that declares a ``number``, by number (sorted)."""
    entries: dict[int, StageEntry] = {}
    for path in sorted(STAGES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                values = _literals(node)
                if isinstance(values.get("number"), int):
                    entries[values["number"]] = StageEntry(
                        values["number"], values.get("slug", ""), node.name, values.get("summary", ""))
    return dict(sorted(entries.items()))


def stage_count() -> int:
    """How many stages there are (their numbers run 1..N)."""
    return len(stage_catalogue())
