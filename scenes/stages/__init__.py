"""One module a stage; importing this package registers all of them."""

import importlib
import pkgutil

from tensors.stagelist import stage_list

from ..registry import check_numbers, registered

__all__ = ["stage_registry"]

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")


def stage_registry() -> dict[int, type]:
    """All stages by number. Raises :class:`~scenes.registry.StageRegistryError`
    unless the numbers are 1..N, those of the tensors' stage list."""
    return check_numbers(registered(), list(stage_list()))
