"""Your own sentence and sizes flow through the configuration to the scenes."""

import numpy as np
import pytest
from manim import Text, tempconfig

from scenes import stage_registry
from tensors import AttentionConfig

CONFIG = AttentionConfig.from_text("I love Transformers", d=4, heads=2, seed=7)


def render_with(config, number, tmp_path):
    """Render stage ``number``'s last frame with ``config``; the scene and its frame."""
    stage = stage_registry()[number]
    try:
        stage.attention_config = config
        scene = render_last_frame(stage, tmp_path)
    finally:
        stage.attention_config = AttentionConfig()
    frame = np.array(scene.renderer.get_frame())
    assert frame[..., :3].std() > 5  # something is drawn
    return scene


def render_last_frame(stage, tmp_path):
    with tempconfig({"media_dir": str(tmp_path), "write_to_movie": False, "save_last_frame": True,
                     "pixel_width": 192, "pixel_height": 108, "disable_caching": True,
                     "verbosity": "ERROR", "progress_bar": "none"}):
        scene = stage()
        scene.render()
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
