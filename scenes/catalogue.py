"""The stages as the command line lists them, read without importing Manim.

A stage is its tensor function and its scene class. Its number and name
come from the tensors' stage list (:mod:`tensors.stagelist`, read without
torch); its scene class's name and ``summary`` from the stage files' syntax
trees, since importing the files loads Manim and torch (seconds), which
``render.py list``, ``--help`` and argument checks should not pay; a stage
class no file declares (one defined at run time, by a test) is taken from
the classes registered in this process. :func:`~scenes.stages.stage_registry`
imports the same classes, and a test checks that both agree.

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

from tensors.stagelist import stage_list

from .registry import StageRegistryError, registered

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
def _stage_files() -> dict[int, tuple[str, str]]:
    """Every stage class in the stage files that declares a ``number``: its
    class name and summary, by number."""
    entries: dict[int, tuple[str, str]] = {}
    for path in sorted(STAGES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                values = _literals(node)
                if isinstance(values.get("number"), int):
                    entries[values["number"]] = (node.name, values.get("summary", ""))
    return entries


def stage_catalogue() -> dict[int, StageEntry]:
    """Every stage by number (sorted). :class:`~scenes.registry.StageRegistryError`
    when a stage has a tensor function but no scene class, or the other way round."""
    scenes = {n: (stage.__name__, stage.summary) for n, stage in registered().items()}
    scenes.update(_stage_files())
    tensors = stage_list()
    unmatched = sorted(set(tensors) ^ set(scenes))
    if unmatched:
        raise StageRegistryError(f"stages {unmatched} have a tensor function or a scene class, not both: "
                                 "a stage is its function in the tensors' stage list and its scene class")
    return {n: StageEntry(n, spec.slug, *scenes[n]) for n, spec in tensors.items()}


def stage_count() -> int:
    """How many stages there are (their numbers run 1..N)."""
    return len(stage_catalogue())
