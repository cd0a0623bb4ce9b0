"""Every stage builds and declares itself properly (no rendering)."""

import pytest

from scenes.catalogue import stage_catalogue, stage_count

from scenes import StageScene, stage_registry
from scenes.description import StageDescription
from scenes.registry import StageRegistryError
from tensors import AttentionConfig, stage_list

REGISTRY = stage_registry()


def test_numbers_run_1_to_n_contiguous_and_unique():
    assert list(REGISTRY) == list(range(1, stage_count() + 1))
    assert len({s.slug for s in REGISTRY.values()}) == stage_count()


def test_the_catalogue_read_without_manim_is_the_registry():
    """render.py list reads the stage files' syntax; it must agree with the classes."""
    assert {n: (e.slug, e.class_name, e.summary) for n, e in stage_catalogue().items()} == {
        n: (s.slug, s.__name__, s.summary) for n, s in REGISTRY.items()}


def test_the_scenes_are_the_stages_of_the_tensors_stage_list():
    """A scene class reads its name and what changes it from the tensors' description of its number."""
    assert list(REGISTRY) == list(stage_list())
    for number, stage in REGISTRY.items():
        tensors = stage_list()[number]
        assert (stage.slug, stage.follows_mask, stage.follows_variant) == (
            tensors.slug, tensors.follows_mask, tensors.follows_variant), number


def test_a_stage_class_restating_the_stage_list_is_refused():
    with pytest.raises(TypeError, match="stage list states it"):
        type("Restated", (StageDescription,), {"number": 3, "slug": "omega"})
    with pytest.raises(TypeError, match="follows_mask"):
        type("Restated", (StageDescription,), {"number": 4, "follows_mask": True})


@pytest.mark.parametrize("number", range(1, stage_count() + 1))
def test_stage_declares_what_it_shows(number):
    stage = REGISTRY[number]
    assert issubclass(stage, StageScene) and stage.number == number
    assert stage.slug and stage.title and stage.summary and stage.code
    scene = stage()
    scene.setup()
    assert scene.trace["s01_sentence"].shape == (8,)
    text = scene.code_text()
    assert "{" not in text or "}" not in text.split("{", 1)[1]


def test_a_second_class_with_a_taken_number_is_refused():
    with pytest.raises(StageRegistryError, match="declared twice"):
        type("Impostor", (StageScene,), {"number": 3})


def test_code_lines_follow_the_configuration():
    stage = REGISTRY[1]
    assert "[0, 7, 1, 2, 5, 6, 4, 3]" in stage().code_text()
    scene = stage(attention_config=AttentionConfig.from_text("I love Transformers"))
    assert "[0, 2, 1]" in scene.code_text(scene.cfg)
    assert "[0, 7, 1, 2, 5, 6, 4, 3]" in stage().code_text()  # nothing left behind on the class


def test_titles_follow_the_configuration_and_mark_the_paper_variant():
    linear = REGISTRY[21]
    assert linear.title_text() == "Output projection: Linear(162, 18)"
    small = AttentionConfig.from_text("I love Transformers", d=4, heads=2)
    assert linear.title_text(small) == "Output projection: Linear(12, 6)"
    paper = AttentionConfig(variant="paper")
    assert linear.title_text(paper) == "Output projection W_O: Linear(16, 16) (paper)"
    assert "W_O = torch.nn.Linear(d, d)" in linear.code_text(paper)
    assert "torch.rand(h, d // h, d)" in REGISTRY[13].code_text(paper)
    # the stages the variant leaves alone (1-12) are the same in both variants, the others marked
    assert not REGISTRY[12].follows_variant and REGISTRY[13].follows_variant
    for stage in REGISTRY.values():
        if stage.follows_variant:
            assert stage.title_text(paper).endswith("(paper)")
        else:
            assert stage.title_text(paper) == stage.title_text() and stage.code_text(paper) == stage.code_text()


def test_titles_mark_the_stages_a_causal_mask_changes():
    causal = AttentionConfig(mask="causal")
    marked = [n for n, stage in REGISTRY.items() if stage.title_text(causal).endswith("(causal)")]
    assert marked == [n for n, stage in REGISTRY.items() if stage.follows_mask]
    assert marked[:4] == [4, 5, 11, 12]  # the softmax stages and what follows them


def test_a_code_panel_lights_the_statement_a_step_shows():
    """A panel of two statements, the second lit: its glyphs in the accent
    color, the first's muted (a continuation line belongs to its statement);
    unmarked, every glyph in ink; a one-statement panel is never marked."""
    from manim import ManimColor

    from scenes.components.labels import code_box, mark_statements
    from scenes.components.palette import DARK

    code = "out = torch.nn.functional.softmax(scores,\n    dim=-1)\nout = out.T"
    box = code_box(code, DARK, max_width=40.0)
    glyphs = box[1].submobjects
    first, second = box.statements
    assert len(first) == len("out=torch.nn.functional.softmax(scores,dim=-1)") and len(second) == len("out=out.T")

    def colors(indices):
        return {glyphs[g].get_fill_color().to_hex().upper() for g in indices}

    mark_statements(box, DARK, (1,))
    assert colors(second) == {ManimColor(DARK.accent).to_hex().upper()}
    assert colors(first) == {ManimColor(DARK.muted).to_hex().upper()}
    mark_statements(box, DARK, None)
    assert colors(range(len(glyphs))) == {ManimColor(DARK.ink).to_hex().upper()}
    single = code_box("out = out.T", DARK)
    mark_statements(single, DARK, (0,))
    ink = ManimColor(DARK.ink).to_hex().upper()
    assert {g.get_fill_color().to_hex().upper() for g in single[1].submobjects} == {ink}
