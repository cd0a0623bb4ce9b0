"""The stages by number: a stage class registers itself by declaring ``number``.

A second class declaring a taken number is refused when it is defined.
:func:`scenes.stages.stage_registry` imports the stage modules and checks
that the numbers run 1..N with no gap, the numbers of the tensors' stage list.
"""

from __future__ import annotations

__all__ = ["register", "registered", "unregister", "check_numbers", "StageRegistryError"]

_REGISTRY: dict[int, type] = {}


class StageRegistryError(RuntimeError):
    """The stage numbers are not 1..N, unique and contiguous."""


def register(stage: type) -> None:
    """Add ``stage`` under its ``number`` (a redefinition of the same class replaces it)."""
    other = _REGISTRY.get(stage.number)
    if other is not None and other.__qualname__ != stage.__qualname__:
        raise StageRegistryError(
            f"stage {stage.number} declared twice: {other.__qualname__} and {stage.__qualname__}")
    _REGISTRY[stage.number] = stage


def unregister(number: int) -> None:
    """Take stage ``number`` out (a test's stage, after the test)."""
    _REGISTRY.pop(number, None)


def registered() -> dict[int, type]:
    """The stages registered so far, by number (sorted)."""
    return dict(sorted(_REGISTRY.items()))


def check_numbers(registry: dict[int, type], numbers: list[int] | None = None) -> dict[int, type]:
    """``registry`` itself, or :class:`StageRegistryError` unless its numbers
    are 1..N and, if given, exactly ``numbers`` (the stages that have tensors)."""
    expected = list(range(1, len(registry) + 1))
    if list(registry) != expected:
        raise StageRegistryError(f"stage numbers must be 1..{len(registry)}, got {list(registry)}")
    if numbers is not None and list(registry) != list(numbers):
        raise StageRegistryError(f"the scenes are stages 1..{len(registry)} but the tensors' stage list has "
                                 f"{list(numbers)}: a stage is its tensor function and its scene")
    return registry
