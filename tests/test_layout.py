"""Every scene at the corners of what the command line accepts, checked on
screen as geometry (:mod:`scenes.screen`): at the end of every step, and
every quarter second through every animation (frames a still can catch:
in-between frames show no seams either).

Through every animation: nothing leaves the frame, runs into the code panel,
overlaps another text or lies on a block; no text is too small for a
projector; a block in view is labelled; one caption at a time. At the end of
every step, as well: the blocks use the stage area; a label names what its
block shows and its scale is its block's colors; no caption is half-faded;
an attention map has words on its rows and columns. At every play's first
frame, a label on screen names the numbers its block shows. And no still stretch
lasts more than 2 s; the first frame shows the operands.

The corners: the blog's default (what the first-time viewers saw); the
fewest words and sizes with one head and a causal mask; 16 long words at the
largest d with the most heads that fit; the paper variant with one head and
with the most heads; and the trained model with positions.
"""

import numpy as np
import pytest
from manim import Wait

from golden import render_still
from scenes import stage_registry
from scenes.catalogue import stage_count
from scenes.components.labels import BlockLabel
from scenes.engine.manim_hooks import frame_of, sampled
from scenes.screen import (
    caption_faults, fill_faults, label_faults, layout_faults, map_faults, name_faults, text_faults,
)
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
    "trained, positions": AttentionConfig(weights="trained"),
}
SIZE = {"pixel_width": 320, "pixel_height": 180}  # Text wraps lines below ~320 px: not a real render
EVERY = 0.25  # seconds between two checks inside an animation (at the default configuration)
CORNER_EVERY = 0.75  # ... at the other corners (the suite's time: CI keeps under 30 minutes)
LONGEST_STILL = 2.0  # seconds a scene may stand still


def in_between(scene) -> list[str]:
    """The rules a frame inside an animation keeps: all of a step end's but
    those a moving block breaks for a moment (it passes under a label, it
    changes its numbers and its name in one play, it swings past the
    frame's edge while the camera turns)."""
    return [f for f in layout_faults(scene) if " lies on " not in f and not f.startswith("block ")] + text_faults(scene)


def at_step_end(scene) -> list[str]:
    """The rules a step's end keeps: all of them."""
    return (layout_faults(scene) + fill_faults(scene) + label_faults(scene) + text_faults(scene)
            + caption_faults(scene) + map_faults(scene))


def watched(stage, every: float | None = EVERY):
    """``stage`` recording every broken rule: at each step's end (and its
    last frame) and, with ``every``, inside every animation that often."""

    def sample(scene):
        found = in_between(scene)
        scene.faults += [f"[{scene.step_name}, inside a play] {fault}" for fault in found]

    base = sampled(stage, every, sample) if every else stage

    class Watched(base):
        def setup(self):
            super().setup()
            self.faults, self.step_name, self.still = [], "start", 0.0

        def step(self, name):
            self.check()
            self.step_name = name
            super().step(name)

        def check(self):
            self.faults += [f"[{self.step_name}] {fault}" for fault in at_step_end(self)]

        def play(self, *animations, **kwargs):
            if self.opening:  # the opening's instant fade-ins take no time
                return super().play(*animations, **kwargs)
            # a play's first frame is the state before it: every label on screen names what its block shows
            self.faults += [f"[{self.step_name}, a play's first frame] {fault}" for fault in name_faults(self)]
            if all(isinstance(a, Wait) for a in animations):
                self.still += sum(a.run_time for a in animations)
                if self.still > LONGEST_STILL + 1e-6:
                    self.faults.append(f"[{self.step_name}] nothing moves for {self.still:.1f} s")
            else:
                self.still = 0.0
            return super().play(*animations, **kwargs)

    Watched.__name__ = stage.__name__
    return Watched


@pytest.mark.parametrize("corner", list(CORNERS))
@pytest.mark.parametrize("number", range(1, stage_count() + 1))
def test_every_step_keeps_the_layout_rules(number, corner, tmp_path):
    every = EVERY if corner == "default" else CORNER_EVERY
    scene = render_still(watched(stage_registry()[number], every), tmp_path, size=SIZE,
                         attention_config=CORNERS[corner])
    scene.check()  # the last step's end: the closing frame
    assert frame_of(scene)[..., :3].std() > 5  # something is drawn
    assert not scene.faults, "\n".join(dict.fromkeys(scene.faults))
    # the first frame (a video's poster frame) shows the operands, not only a title and a caption
    assert [m for m in scene.opened_on if not getattr(m, "is_caption", False)]


def _label_named(scene, name):
    return next(m for top in scene.mobjects for m in top.get_family()
                if isinstance(m, BlockLabel) and m.tensor_name == name)


def test_the_rules_catch_what_the_reviews_saw(tmp_path):
    """The rules themselves: each planted defect is reported, by the rule
    that names it, where the scene as rendered has none."""
    from scenes.stages.s03_omega import Omega

    scene = render_still(watched(Omega, every=None), tmp_path, size=SIZE)
    assert not at_step_end(scene)
    grid = next(m for m in scene.mobjects if type(m).__name__ == "CubeGrid" and getattr(m, "is_map", False))
    label = _label_named(scene, "ω")
    home = label.get_center().copy()

    label.move_to(grid.get_center())  # a label on its block
    assert any("lies on" in f for f in layout_faults(scene))
    label.shift(20 * np.array([1.0, 0, 0]))  # ... or off the frame
    assert any("leaves the frame" in f for f in layout_faults(scene))
    label.move_to(home)

    caption = scene.captions.current.copy()  # a second caption over the first
    scene.add(caption)
    assert any("overlaps caption" in f for f in layout_faults(scene))
    scene.remove(caption)

    words = grid.row_words[0]  # a word shrunk below 12 px
    words.scale(0.5)
    assert any("px high" in f for f in text_faults(scene))
    words.scale(2.0)
    label.submobjects[0].scale(0.8)  # a name under 16 px
    assert any("px high" in f for f in text_faults(scene))
    label.submobjects[0].scale(1.25)
    assert not text_faults(scene)

    scene.remove(grid.column_words)  # an attention map without its columns' words
    assert any("no words on its columns" in f for f in map_faults(scene))
    scene.add(grid.column_words)

    scene.remove(label)  # a block without its label
    assert any("without its label" in f for f in label_faults(scene))
    scene.add(label)
    values = grid.values.copy()
    grid.recolor(values[0] / 2)  # new numbers under the old name
    assert any("no longer shows" in f for f in label_faults(scene))
    assert any("not its block's colors" in f for f in label_faults(scene))
    grid.recolor(values[0], label.value_range)
    assert not label_faults(scene)
    grid.value_range = label.value_range = (label.value_range[0] * 2, label.value_range[1] * 2)
    assert any("does not say whose" in f for f in label_faults(scene))  # a slice's scale, said as its own
    label.scale_of = "all heads"
    assert not label_faults(scene)

    caption = scene.captions.current
    caption.set_opacity(0.5)  # a caption held half-faded
    assert caption_faults(scene)
    caption.set_opacity(1.0)
    assert not caption_faults(scene)
    scene.captions.say("0.65 + 0.23 + (−0.69) ≈ 0.30")  # a written sum that does not add up (0.19)
    assert any("adds up to 0.19" in f for f in caption_faults(scene))
    grid.scale(0.2)
    assert fill_faults(scene)


def test_rows_too_thin_for_a_word_each_get_every_other_word_and_a_dot_between(tmp_path):
    """Where rows are too thin for a word each, every second row gets its
    word at full size and each row between a dot (every other word alone
    read as half the tokens: 18_0129); where they are wide enough, a word each."""
    from scenes.stages.s03_omega import Omega

    scene = render_still(Omega, tmp_path, size=SIZE)
    grid = next(m for m in scene.mobjects if type(m).__name__ == "CubeGrid" and getattr(m, "is_map", False))
    words = scene.cfg.sentence
    whole = scene.layout.word_labels(grid, words)
    assert [t.original_text for t in whole] == list(words)
    grid.scale(0.55)  # rows about half a word's height
    for labels in (scene.layout.word_labels(grid, words), scene.layout.column_words(grid, words)):
        shown = [t.original_text for t in labels]
        assert len(shown) == len(words)
        assert shown[0::2] == list(words[0::2]) and set(shown[1::2]) == {"·"}
        assert all(getattr(t, "skipped", False) for t in labels[1::2])


def test_a_still_stretch_and_an_animation_seam_are_caught(tmp_path):
    """A scene standing still for 3 s, and a label that leaves the frame only
    half-way through an animation, are both reported."""
    from scenes.components.fades import appear
    from scenes.stages.s03_omega import Omega

    class Slow(Omega):
        def storyboard(self):
            super().storyboard()
            self.wait(3.0)
            label = _label_named(self, "ω")
            there = label.get_center().copy()
            self.play(label.animate.shift(30 * np.array([1.0, 0, 0])), run_time=0.5, rate_func=lambda t: t)
            self.play(label.animate.move_to(there), appear(label), run_time=0.5)

    scene = render_still(watched(Slow), tmp_path, size=SIZE)
    assert any("nothing moves for 3" in f for f in scene.faults)
    assert any("inside a play" in f and "leaves the frame" in f for f in scene.faults)
