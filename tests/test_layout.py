"""Every scene at the corners of what the command line accepts, checked on
screen as geometry (:mod:`scenes.screen`): at the end of every step nothing
leaves the frame, runs into the code panel or the color bar, overlaps another
text or lies on a block; the blocks use the stage area; the color bar names a
block on screen; and two captions are never on screen at once. The first
frame shows the operands.

The corners: the blog's default (what the first-time viewers saw); the
fewest words and sizes with one head and a causal mask; 16 long words at the
largest d with the most heads that fit; the paper variant with one head and
with the most heads.
"""

import numpy as np
import pytest

from golden import render_still
from scenes import stage_registry
from scenes.catalogue import stage_count
from scenes.engine.manim_hooks import frame_of
from scenes.screen import bar_faults, fill_faults, layout_faults
from tensors import LIMITS, AttentionConfig

pytestmark = pytest.mark.slow

LONG_WORDS = ("extraordinarily international representations collaborate remarkably throughout "
              "comprehensive multidimensional transformations demonstrating incomprehensibly "
              "sophisticated characteristics surrounding uncharacteristically interdisciplinary")
MOST_HEADS = LIMITS["concat_width"] // (LIMITS["d"][1] + 2)  # blog: heads x d_v must fit the concat row

CORNERS = {
    "default": AttentionConfig(),
    "2 words, d=2, 1 head, causal": AttentionConfig.from_text("hi there", d=2, heads=1, mask="causal"),
    f"16 long words, d=20, {MOST_HEADS} heads": AttentionConfig.from_text(
        LONG_WORDS, d=LIMITS["d"][1], heads=MOST_HEADS),
    "paper, 1 head": AttentionConfig.from_text("I love Transformers", d=4, heads=1, variant="paper"),
    "paper, d=20, 10 heads": AttentionConfig(d=20, heads=10, variant="paper"),
}
SIZE = {"pixel_width": 320, "pixel_height": 180}  # Text wraps lines below ~320 px: not a real render


def watched(stage):
    """``stage`` recording every broken rule at each step's end (and its last frame)."""

    class Watched(stage):
        def setup(self):
            super().setup()
            self.faults, self.step_name = [], "start"

        def step(self, name):
            self.check()
            self.step_name = name
            super().step(name)

        def check(self):
            found = layout_faults(self) + fill_faults(self) + bar_faults(self)
            self.faults += [f"[{self.step_name}] {fault}" for fault in found]

        def play(self, *animations, **kwargs):
            shown = {id(m) for m in self.mobjects if getattr(m, "is_caption", False)}
            shown |= {id(a.mobject) for a in animations if getattr(a.mobject, "is_caption", False)}
            if len(shown) > 1:
                self.faults.append(f"[{self.step_name}] {len(shown)} captions on screen at once")
            super().play(*animations, **kwargs)

    Watched.__name__ = stage.__name__
    return Watched


@pytest.mark.parametrize("corner", list(CORNERS))
@pytest.mark.parametrize("number", range(1, stage_count() + 1))
def test_every_step_keeps_the_layout_rules(number, corner, tmp_path):
    scene = render_still(watched(stage_registry()[number]), tmp_path, size=SIZE,
                         attention_config=CORNERS[corner])
    scene.check()  # the last step's end: the closing frame
    assert frame_of(scene)[..., :3].std() > 5  # something is drawn
    assert not scene.faults, "\n".join(scene.faults)
    # the first frame (a video's poster frame) shows the operands, not only a title and a caption
    assert [m for m in scene.opened_on if not getattr(m, "is_caption", False)]


def test_the_rules_catch_what_the_reviews_saw(tmp_path):
    """The check itself: a label moved onto its block, a block pushed off the
    frame and a second caption are each reported."""
    from scenes.stages.s03_omega import Omega

    scene = render_still(watched(Omega), tmp_path, size=SIZE)
    grid = next(m for m in scene.mobjects if type(m).__name__ == "CubeGrid")
    assert not layout_faults(scene)
    label = next(m for m in scene.mobjects if m is not scene.legend.bar and getattr(m, "submobjects", None)
                 and any(getattr(t, "original_text", "") == "ω" for t in m.get_family()))
    label.move_to(grid.get_center())
    assert any("lies on" in f for f in layout_faults(scene))
    label.shift(20 * np.array([1.0, 0, 0]))
    assert any("leaves the frame" in f for f in layout_faults(scene))
    label.shift(-20 * np.array([1.0, 0, 0]))
    caption = scene.captions.current.copy()
    scene.add(caption)
    assert any("overlaps caption" in f for f in layout_faults(scene))
    scene.remove(caption)
    grid.scale(0.2)
    assert fill_faults(scene)
    assert not bar_faults(scene)
    scene.legend.bar.tensor_name = "Q"  # a legend of another tensor
    assert bar_faults(scene)
