"""A new stage is its tensor function and its stage class: nothing else to edit.

Stage 22 is defined here, in the test: the attention weights averaged over
the heads, what ``nn.MultiheadAttention`` returns by default
(``average_attn_weights=True``). Registered, it is in every trace and the
export, the scene registry and the command line's list, and the existing
tests of the command line's list, the goldens and the layout run on it as
they stand (called here, with its number). A fixture takes it out again,
so the other tests of the process see the stages of the files.
"""

import numpy as np
import pytest
import torch
from click.testing import CliRunner

import golden
import test_cli
import test_goldens
import test_layout
from render import cli
from scenes import StageScene, stage_registry
from scenes.catalogue import stage_catalogue, stage_count
from manim import RIGHT

from scenes.components.fades import appear
from scenes.layout import Margins
from scenes.registry import StageRegistryError
from scenes.registry import unregister as unregister_scene
from tensors import AttentionConfig, compute_trace, stage, stage_list
from tensors import trace as trace_module
from tensors.stagelist import StageListError
from tensors.stagelist import unregister as unregister_function

KEY = "s22_averaged_attention_weights"
NUMBER = len(stage_list()) + 1  # 22: after the stages of the files


def averaged_weights_function():
    """The tensor function of the new stage, registered."""

    @stage(NUMBER, "averaged_weights", reads=("s18_multihead_attention_weights",),
           exports={KEY: ("tokens", "tokens")})
    def averaged_weights(run):
        return {KEY: run["s18_multihead_attention_weights"].mean(0)}


def averaged_weights_scene() -> type:
    """The stage class of the new stage, registered: one block with its label (name, shape, scale) and its words."""

    class AveragedWeights(StageScene):
        number = NUMBER
        title = "Weights averaged over the heads"
        summary = "the mean of the heads' softmax weights: what nn.MultiheadAttention returns by default"
        code = "attention_weights = multihead_attention_weights.mean(0)"

        def storyboard(self):
            block = self.block(KEY, "Ā", direction=RIGHT)
            room = self.layout.word_room(self.cfg.sentence)
            self.layout.fit([block], margins=Margins(left=room, top=room, right=block.label.width + 0.4))
            block.is_map = True  # an attention map: words on its rows and columns
            words = [self.layout.word_labels(block, self.cfg.sentence),
                     self.layout.column_words(block, self.cfg.sentence)]
            self.step("average")
            self.say(f"the {self.cfg.heads} heads' weights averaged: one pattern, each row still sums to 1")
            self.play(appear(block), appear(self.layout.place(block)), *map(appear, words))

    return AveragedWeights


@pytest.fixture
def new_stage():
    """Stage 22 registered for one test, then taken out."""
    try:
        averaged_weights_function()
        yield averaged_weights_scene()
    finally:
        unregister_scene(NUMBER)
        unregister_function(NUMBER)


def test_the_new_stage_is_in_every_trace(new_stage):
    for config in (AttentionConfig(), AttentionConfig(mask="causal"), AttentionConfig(variant="paper")):
        trace = compute_trace(config)
        assert trace.export_keys()[-1] == KEY and trace.axes(KEY) == ("tokens", "tokens")
        assert np.allclose(trace[KEY], trace["s18_multihead_attention_weights"].mean(axis=0), atol=1e-7)
        assert np.allclose(trace[KEY].sum(axis=-1), 1.0, atol=1e-5)
    # it reads stage 18's weights: the mask and the variant change it, and its title says so
    described = stage_list()[NUMBER]
    assert described.follows_mask and described.follows_variant
    assert new_stage.title_text(AttentionConfig(mask="causal", variant="paper")).endswith("(paper, causal)")


def test_it_is_what_multihead_attention_returns_by_default(new_stage):
    config = AttentionConfig(variant="paper")
    trace, d = compute_trace(config), config.d
    x = torch.from_numpy(np.array(trace["s02_embedded_sentence"]))
    mha = torch.nn.MultiheadAttention(d, config.heads)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([torch.from_numpy(np.array(trace[f"s13_multihead_U_{n}"])).reshape(d, d)
                                            for n in ("query", "key", "value")]))
        mha.in_proj_bias.zero_()
        _, averaged = mha(x, x, x)  # need_weights=True, average_attn_weights=True
    assert np.allclose(trace[KEY], averaged.numpy(), atol=1e-5)


def test_the_registry_and_the_list_have_it(new_stage):
    assert list(stage_registry()) == list(range(1, NUMBER + 1)) and stage_registry()[NUMBER] is new_stage
    assert new_stage.slug == "averaged_weights"
    assert stage_count() == NUMBER and stage_catalogue()[NUMBER].class_name == "AveragedWeights"
    listed = CliRunner().invoke(cli, ["list"]).output.splitlines()
    assert listed[-1].split()[:3] == [str(NUMBER), "averaged_weights", "AveragedWeights"]
    test_cli.test_list_shows_every_stage()
    scene = new_stage()
    scene.setup()
    assert scene.code_text() == new_stage.code and scene.trace[KEY].shape == (8, 8)


def test_the_command_line_exports_it(new_stage, tmp_path):
    runner = CliRunner()
    assert runner.invoke(cli, ["tensors", "--out", str(tmp_path / "a.npz")]).exit_code == 0
    data = np.load(tmp_path / "a.npz")
    assert list(data)[-1] == KEY and data[KEY].shape == (8, 8)
    assert np.array_equal(data[KEY], compute_trace(AttentionConfig())[KEY])
    summary = runner.invoke(cli, ["tensors", "--format", "summary"]).output
    assert any(line.startswith(KEY) and "tokens × tokens" in line for line in summary.splitlines())
    beyond = runner.invoke(cli, ["render", str(NUMBER + 1)])
    assert beyond.exit_code == 2 and f"numbered 1 to {NUMBER}" in beyond.output


def test_the_golden_test_runs_on_it(new_stage, tmp_path, monkeypatch):
    monkeypatch.setattr(golden, "CONTROL", tmp_path / "control")
    monkeypatch.setenv("ATTENTION_CUBES_SET_GOLDENS", "1")
    test_goldens.test_stage_golden(NUMBER, tmp_path / "record")  # records its golden
    stored = np.load(tmp_path / "control" / f"stage_{NUMBER:02d}_averaged_weights.npz")
    assert "Weights averaged over the heads" in stored["texts"] and "Ā" in stored["texts"]
    monkeypatch.delenv("ATTENTION_CUBES_SET_GOLDENS")
    test_goldens.test_stage_golden(NUMBER, tmp_path / "check")  # and meets it


@pytest.mark.parametrize("corner", list(test_layout.CORNERS))
def test_the_layout_test_runs_on_it(new_stage, corner, tmp_path):
    test_layout.test_every_step_keeps_the_layout_rules(NUMBER, corner, tmp_path)


# -- what the stage list refuses ------------------------------------------------------
def test_a_new_stage_changes_the_trace_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_CUBES_TRACE_CACHE", str(tmp_path))
    config = AttentionConfig(seed=41)
    before = trace_module._cache_file(config)
    assert KEY not in compute_trace(config)
    try:
        averaged_weights_function()
        assert trace_module._cache_file(config) != before
        assert KEY in compute_trace(config)  # not the trace computed before it was registered
    finally:
        unregister_function(NUMBER)
    assert trace_module._cache_file(config) == before and KEY not in compute_trace(config)


def test_a_stage_function_sees_only_what_it_reads_and_returns_what_it_declares():
    try:
        @stage(NUMBER, "sneaky", reads=("s18_multihead_attention_weights",), exports={KEY: ("tokens", "tokens")})
        def sneaky(run):
            return {KEY: run["s17_multihead_omegas"][0]}

        with pytest.raises(StageListError, match="reads s17_multihead_omegas without declaring it"):
            compute_trace(AttentionConfig(seed=42))
        unregister_function(NUMBER)

        @stage(NUMBER, "sloppy", exports={KEY: ("tokens", "tokens")})
        def sloppy(run):
            return {KEY: torch.zeros(8, 8), "s22_extra": torch.zeros(8)}

        with pytest.raises(StageListError, match="returned s22_extra undeclared"):
            compute_trace(AttentionConfig(seed=43))
    finally:
        unregister_function(NUMBER)


@pytest.mark.parametrize("number, slug, reads, exports, message", [
    (3, "again", (), {"s03_again": ("tokens",)}, "stage 3 .again. declared twice"),
    (NUMBER, "omega", (), {KEY: ("tokens",)}, "not another stage's"),
    (NUMBER, "renamed", (), {"s18_multihead_attention_weights": ("tokens",)}, "must be named s22_"),
    (NUMBER, "later", ("s23_future",), {KEY: ("tokens",)}, "no earlier stage computes s23_future"),
    (NUMBER, "shapeless", (), {KEY: ("words",)}, "unknown axes"),
])
def test_a_stage_against_the_rules_is_refused(number, slug, reads, exports, message):
    with pytest.raises(StageListError, match=message):
        stage(number, slug, reads=reads, exports=exports)(lambda run: {})
    assert len(stage_list()) == NUMBER - 1


def test_a_scene_without_its_tensor_function_is_refused():
    try:
        averaged_weights_scene()
        with pytest.raises(StageRegistryError, match="a stage is its tensor function and its scene"):
            stage_registry()
        with pytest.raises(StageRegistryError, match="not both"):
            stage_catalogue()
    finally:
        unregister_scene(NUMBER)
