"""Loaded at start-up by every Python process that has this folder on its
PYTHONPATH (the command line and its worker processes): stage 6 raises in
the middle of its second animation. tests/test_faults.py uses it."""

import os

if os.environ.get("ATTENTION_CUBES_FAULT") == "stage6":
    import warnings

    warnings.filterwarnings("ignore", message="Couldn't find ffmpeg or avconv", category=RuntimeWarning)
    from manim import UpdateFromAlphaFunc

    from scenes.components.cubegrid import CubeGrid
    from scenes.stages.s06_projections import ProjectionMatrices

    original = ProjectionMatrices.storyboard

    def storyboard(self):
        grid = CubeGrid([[0.0, 1.0]])
        self.add(grid)

        def explode(mob, alpha):
            if alpha > 0.5:
                raise RuntimeError("a fault planted by the test, mid-animation")

        self.play(UpdateFromAlphaFunc(grid, explode), run_time=1.0)
        original(self)

    ProjectionMatrices.storyboard = storyboard
