"""Everything visual: cube grids, motions and one scene per stage.

Importing :func:`stage_registry` loads the stages (and Manim); importing this
package alone loads neither, so the command line starts fast.
"""

import warnings

# pydub, imported by Manim for sound, warns at import when no ffmpeg program is
# installed. Manim encodes video with PyAV and these scenes have no sound.
warnings.filterwarnings("ignore", message="Couldn't find ffmpeg or avconv", category=RuntimeWarning)

__all__ = ["StageScene", "stage_registry"]


def __getattr__(name):
    if name == "StageScene":
        from .base import StageScene

        return StageScene
    if name == "stage_registry":
        from .stages import stage_registry

        return stage_registry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
