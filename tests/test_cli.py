"""The command line through click's CliRunner."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from render import cli, parse_scene_spec
from scenes.catalogue import stage_count
from tensors import Trace

runner = CliRunner()


def run(*args):
    return runner.invoke(cli, list(args))


def test_help_and_version():
    result = run("--help")
    assert result.exit_code == 0 and "render" in result.output and "tensors" in result.output
    result = run("--version")
    assert result.exit_code == 0 and "attention-cubes" in result.output


def test_list_shows_every_stage():
    result = run("list")
    lines = result.output.strip().splitlines()
    assert result.exit_code == 0 and len(lines) == stage_count()
    assert lines[2].split()[:3] == ["3", "omega", "Omega"]
    assert lines[-1].split()[0] == str(stage_count())


def test_tensors_export_npz(tmp_path):
    out = tmp_path / "attention.npz"
    result = run("tensors", "--out", str(out))
    assert result.exit_code == 0 and result.output.strip() == str(out)
    data = np.load(out)
    assert list(data.keys()) == list(Trace.stage_keys())
    assert data["s14_multihead_queries"].shape == (9, 8, 17)
    assert data["s01_sentence"].tolist() == [0, 7, 1, 2, 5, 6, 4, 3]


def test_tensors_export_json_and_summary(tmp_path):
    out = tmp_path / "attention.json"
    assert run("tensors", "--out", str(out)).exit_code == 0
    payload = json.loads(out.read_text())
    assert payload["s20_multihead_flattened"]["shape"] == [8, 162]
    assert payload["s20_multihead_flattened"]["axes"] == ["tokens", "features (h·d_v)"]
    summary = run("tensors", "--format", "summary")
    assert summary.exit_code == 0 and "s21_output" in summary.output and "8x18" in summary.output


def test_tensors_with_own_configuration(tmp_path):
    out = tmp_path / "mine.npz"
    result = run("tensors", "--out", str(out), "--sentence", "I love Transformers", "--heads", "2",
                 "--d-model", "4", "--seed", "7")
    assert result.exit_code == 0
    assert np.load(out)["s20_multihead_flattened"].shape == (3, 12)


def test_view_panel_options_reach_the_render_jobs(tmp_path, monkeypatch):
    import scenes.jobs
    from scenes.components.palette import Panel

    seen = []
    monkeypatch.setattr(scenes.jobs, "render_many", lambda jobs, workers, report: seen.extend(jobs) or [])
    result = run("render", "3", "7", "--axes", "--floor", "--captions", "srt", "--out-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [job.look.panel for job in seen] == [Panel(axes=True, floor=True, captions=False)] * 2
    run("render", "3", "--out-dir", str(tmp_path))
    assert seen[-1].look.panel == Panel()  # default: no axes, no floor, captions burned in


def test_parse_scene_spec():
    assert parse_scene_spec(("3", "7-9", "20")) == [3, 7, 8, 9, 20]
    assert parse_scene_spec(("1,2", "2")) == [1, 2]


@pytest.mark.parametrize("args, message", [
    (("render", "0"), f"numbered 1 to {stage_count()}"),
    (("render", str(stage_count() + 1)), f"numbered 1 to {stage_count()}"),
    (("render", "9-3"), "runs backwards"),
    (("render", "abc"), "not a scene number"),
    (("render", "3", "--quality", "ultra"), "'ultra' is not one of"),
    (("render", "3", "--format", "avi"), "'avi' is not one of"),
    (("render", "3", "--all"), "not both"),
    (("render", "3", "--theme", "sepia"), "'sepia' is not one of"),
    (("render", "3", "--captions", "off"), "'off' is not one of"),
    (("render",), "name the scenes"),
    (("render", "3", "--heads", "0"), "heads must be from 1 to 12"),
    (("render", "3", "--sentence", "one"), "2 to 16 words"),
    (("tensors", "--heads", "12"), "too wide"),
    (("tensors", "--format", "json"), "needs --out"),
    (("bogus",), "No such command"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = [l for l in result.output.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("attention-cubes: error:"), result.output
    assert message in lines[0]
    assert "Traceback" not in result.output


def test_unwritable_output_is_exit_1_and_leaves_nothing(tmp_path):
    missing = tmp_path / "no" / "such" / "dir" / "x.npz"
    result = run("tensors", "--out", str(missing))
    assert result.exit_code == 1 and "does not exist" in result.output
    folder = tmp_path / "adir"
    folder.mkdir()
    result = run("tensors", "--out", str(folder))
    assert result.exit_code in (1, 2)
    assert list(folder.iterdir()) == []


def test_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    out = tmp_path / "x.npz"

    def explode(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez", explode)
    result = run("tensors", "--out", str(out))
    assert result.exit_code == 1 and "No space left" in result.output
    assert list(tmp_path.iterdir()) == []
