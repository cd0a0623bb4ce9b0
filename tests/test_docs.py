"""The documents describe this repository and only it.

docs/stages.md lists every exported key with the shape the export has, and no
tracked file points at a path outside the repository (the project once sent
its readers to a folder beside the checkout).
"""

import re
import subprocess
from pathlib import Path

import pytest

from tensors import MASK_KEY, AttentionConfig, compute_trace

ROOT = Path(__file__).resolve().parent.parent
STAGES = (ROOT / "docs" / "stages.md").read_text(encoding="utf-8")
OUTSIDE = "shared" + "/"  # spelled apart, so this file does not match itself


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = []
    for name in names.splitlines():
        path = ROOT / name
        if path.is_file() and b"\0" not in path.read_bytes()[:4096]:
            files.append(path)
    return files


def test_no_tracked_file_refers_to_a_folder_outside_the_repository():
    hits = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for path in tracked_text_files()
            for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if OUTSIDE in line or "../" + "shared" in line]
    assert hits == []


def test_readme_links_point_at_files_of_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\((?!https?://|#)([^)\s]+)\)", readme)
    assert "docs/stages.md" in targets and "docs/deck.png" in targets
    assert [t for t in targets if not (ROOT / t.split("#")[0]).exists()] == []


def shapes_in(text: str) -> dict[str, tuple[int, ...]]:
    """``key``: (shape) pairs, and table rows of keys followed by a shape."""
    found = {key: _shape(shape) for key, shape in re.findall(r"`(s\d\d_\w+)`: \(([\d, ]+)\)", text)}
    for keys, shape in re.findall(r"^\| ((?:`s\d\d_\w+`(?:, )?)+) \| \(([\d, ]+)\)", text, flags=re.M):
        found.update({key: _shape(shape) for key in re.findall(r"`(s\d\d_\w+)`", keys)})
    return found


def _shape(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.replace(" ", "").split(",") if n)


def test_the_stage_table_has_every_key_with_its_shape():
    documented = shapes_in(STAGES.split("### With `--variant paper`")[0])
    exported = {k: a.shape for k, a in compute_trace(AttentionConfig()).export().items()}
    assert documented == exported


def test_the_paper_table_has_the_paper_shapes():
    section = STAGES.split("### With `--variant paper`")[1].split("###")[0]
    exported = {k: a.shape for k, a in compute_trace(AttentionConfig(variant="paper")).export().items()}
    documented = shapes_in(section)
    assert documented and all(exported[k] == shape for k, shape in documented.items()), documented
    default = {k: a.shape for k, a in compute_trace(AttentionConfig()).export().items()}
    changed = {k for k, shape in exported.items() if shape != default[k]}
    assert changed <= set(documented)


def test_the_causal_mask_key():
    mask = compute_trace(AttentionConfig(mask="causal"))[MASK_KEY]
    assert shapes_in(STAGES.split("### With `--mask causal`")[1]) == {MASK_KEY: mask.shape}


@pytest.mark.parametrize("name", ["TokenIds", "QueryKeyScores", "LinearProjection"])
def test_scene_classes_are_the_registry_s(name):
    from scenes.catalogue import stage_catalogue

    assert name in {stage.class_name for stage in stage_catalogue().values()}
    assert f"`{name}`" in STAGES
