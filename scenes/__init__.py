"""Everything visual: cube grids, motions and the 21 stage scenes.

Importing :func:`stage_registry` loads the stages; nothing here computes
tensor values beyond layout.
"""

from .base import StageScene, stage_registry

__all__ = ["StageScene", "stage_registry"]
