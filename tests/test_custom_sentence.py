"""Render options reach the scenes: your own sentence and sizes, the paper
variant, and the view panel (axes, floor, captions)."""

import pytest
from manim import Text

from golden import render_still

from scenes import stage_registry
from scenes.components.palette import PANEL, Look, Panel
from scenes.engine.manim_hooks import frame_of, scene_time
from tensors import AttentionConfig

CONFIG = AttentionConfig.from_text("I love Transformers", d=4, heads=2, seed=7)


def render_with(config, number, tmp_path, panel=PANEL):
    """Render stage ``number``'s last frame with ``config``; the scene and its frame."""
    scene = render_still(stage_registry()[number], tmp_path, attention_config=config,
                         look=Look(panel=panel))
    assert frame_of(scene)[..., :3].std() > 5  # something is drawn
    return scene


def texts(scene):
    return {m.text for top in scene.mobjects for m in top.get_family() if isinstance(m, Text)}


@pytest.mark.parametrize("number", [1, 2, 3, 5, 7, 14, 20, 21])
def test_stage_renders_with_own_sentence(number, tmp_path):
    scene = render_with(CONFIG, number, tmp_path)
    shown = texts(scene)
    if number in (1, 2, 3, 5, 7, 21):  # stages whose rows are tokens label them with the words
        assert {"I", "love", "Transformers"} <= {t.replace(" ", "") for t in shown}
    assert scene.trace["s01_sentence"].tolist() == [0, 2, 1]
    assert scene.trace["s20_multihead_flattened"].shape == (3, 12)


PAPER = AttentionConfig(variant="paper")


@pytest.mark.parametrize("number", [13, 18, 21])
def test_paper_variant_scenes_show_the_split_heads(number, tmp_path):
    scene = render_with(PAPER, number, tmp_path)
    shown = " ".join(texts(scene))
    assert "(paper)" in shown
    assert scene.trace["s13_multihead_U_query"].shape == (4, 4, 16)
    if number == 21:
        assert "Linear(16,16)" in shown.replace(" ", "")  # W_O maps d to d


@pytest.mark.parametrize("variant", ["blog", "paper"])
def test_axes_name_every_block_by_what_it_counts(variant, tmp_path):
    """Stage 14 ends on multihead_queries: heads x tokens x per-head features."""
    config = AttentionConfig(variant=variant)
    plain = texts(render_with(config, 14, tmp_path))
    shown = texts(render_with(config, 14, tmp_path, Panel(axes=True)))
    named = {t.replace(" ", "") for t in shown - plain}
    per_head = "features(d_k)" if variant == "blog" else "features(d/h)"
    assert {"heads", "tokens", per_head} <= named


def test_axes_follow_a_transpose(tmp_path):
    """Stage 7 ends on Q (tokens x d_k) beside U_query·Xᵀ (d_k x tokens), the block it was turned from."""
    scene = render_with(AttentionConfig(), 7, tmp_path, Panel(axes=True))
    grids = {m.label.tensor_name: m.dims for m in scene.mobjects if type(m).__name__ == "CubeGrid"}
    assert grids == {"Q": (None, "tokens", "features (d_k)"), "U_query·Xᵀ": (None, "features (d_k)", "tokens")}


def test_floor_grid_lies_behind_every_block(tmp_path):
    scene = render_with(AttentionConfig(), 13, tmp_path, Panel(floor=True))
    floors = [m for m in scene.mobjects if getattr(m, "is_backdrop", False)]
    assert len(floors) == 1
    deepest = min(g.points[:, 2].min() for top in scene.mobjects for g in top.get_family()
                  if type(g).__name__ == "CubeGrid")
    assert floors[0].get_all_points()[:, 2].max() < deepest


def test_captions_off_the_picture_keep_the_subtitles_and_the_timing(tmp_path):
    burned = render_with(AttentionConfig(), 4, tmp_path)
    srt_only = render_with(AttentionConfig(), 4, tmp_path, Panel(captions=False))
    assert srt_only.captions.said == burned.captions.said  # same lines at the same times
    assert scene_time(srt_only) == scene_time(burned)
    captions = {text.replace(" ", "") for _, text in burned.captions.said}
    assert captions & texts(burned)  # Manim's Text keeps no spaces in .text
    assert not captions & texts(srt_only)


def test_a_chinese_sentence_shows_its_words(tmp_path):
    """The set-up installs a CJK font (fonts-noto-cjk): the words draw as glyphs.
    An emoji (a color bitmap, no outline) is written as its code point."""
    import shutil
    import subprocess

    if shutil.which("fc-list"):
        fonts = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout
        assert fonts.strip(), "no font for Chinese: install fonts-noto-cjk (scripts/setup.sh does)"
    config = AttentionConfig.from_text("我 爱 变形金刚 🤖", d=4, heads=2)
    scene = render_with(config, 1, tmp_path)
    words = [m for top in scene.mobjects for m in top.get_family()
             if isinstance(m, Text) and m.text in ("我", "爱", "变形金刚", "U+1F916")]
    assert {w.text for w in words} == {"我", "爱", "变形金刚", "U+1F916"}
    assert all(len(w.get_all_points()) and w.width > 0.1 for w in words)
