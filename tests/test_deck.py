"""The slide deck: speaker notes, and a deck that opens in a browser with no network.

The fast tests check the deck's rules without rendering; the slow ones
render two scenes with ``--slides`` and open the deck in Debian's headless
Chromium (driven by playwright; scripts/setup.sh --test installs the
``chromium`` package, and no browser is ever downloaded), with every request
that leaves the deck's folder refused.

``ATTENTION_CUBES_DECK_SCREENSHOT=docs/deck.png`` also keeps a screenshot of
the first slide (the README's).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scenes import deck
from scenes.cli import cli

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


# -- without rendering -------------------------------------------------------------
def test_without_reveal_the_render_stops_first_with_one_line(tmp_path, monkeypatch):
    import scenes.jobs

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    rendered = []
    monkeypatch.setattr(scenes.jobs, "render_many", lambda jobs, workers, report: rendered.extend(jobs) or [])
    result = CliRunner().invoke(cli, ["render", "1", "--slides", "--out-dir", str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "attention-cubes deck-assets" in lines[0] and "reveal.js" in lines[0]
    assert rendered == [] and not (tmp_path / "out").exists()


def test_a_tarball_that_is_not_reveal_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fake = tmp_path / f"reveal.js-{deck.REVEAL_VERSION}.tgz"
    fake.write_bytes(b"not the npm package")
    result = CliRunner().invoke(cli, ["deck-assets", "--from", str(fake)])
    assert result.exit_code == 1 and "is not reveal.js" in result.output
    assert not deck.reveal_folder().exists()
    assert [p.name for p in (tmp_path / "cache" / "attention-cubes").iterdir()] == []  # no leftovers


def test_the_real_tarball_unpacks_into_the_cache(tmp_path, monkeypatch):
    """From the cached copy, packed as npm packs it, through the CLI."""
    import tarfile

    source = deck.require_reveal()  # scripts/setup.sh fetched it
    tarball = tmp_path / "reveal.tgz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(source, arcname="package")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # not the registry's bytes: refused even though the files are right
    assert CliRunner().invoke(cli, ["deck-assets", "--from", str(tarball)]).exit_code == 1
    import base64
    import hashlib

    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    monkeypatch.setattr(deck, "REVEAL_INTEGRITY", digest)
    result = CliRunner().invoke(cli, ["deck-assets", "--from", str(tarball)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(tmp_path / "cache" / "attention-cubes" / f"reveal.js-{deck.REVEAL_VERSION}")
    for name in deck.REVEAL_FILES:
        assert (deck.reveal_folder() / name).read_bytes() == (source / name).read_bytes()


def test_a_killed_deck_s_working_folders_are_cleared_by_the_next_render(tmp_path):
    from scenes.jobs import clear_stale_work

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = [tmp_path / f".work-deck-{gone.pid}", tmp_path / f".work-deck-{gone.pid}-old"]
    live = tmp_path / f".work-deck-{os.getpid()}"
    for folder in (*stale, live):
        folder.mkdir()
    assert sorted(clear_stale_work(tmp_path)) == sorted(stale)
    assert [p.name for p in tmp_path.iterdir()] == [live.name]


def test_the_template_loads_nothing_from_outside_the_folder():
    text = deck.TEMPLATE.read_text()
    assert "cdn_url" not in text and "http" not in text.split("#}", 1)[1]
    assert 'class="notes"' in text and "data-markdown" not in text


# -- rendered -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def rendered_deck(tmp_path_factory):
    """Stages 1 and 6 rendered with --slides, the deck copied elsewhere (a USB stick)."""
    out = tmp_path_factory.mktemp("videos")
    result = subprocess.run([sys.executable, "render.py", "render", "1", "6", "--slides", "--out-dir", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == str(out / "deck" / "attention_cubes.html")
    stick = tmp_path_factory.mktemp("usb-stick")
    shutil.copytree(out / "deck", stick / "deck")
    return out, stick / "deck" / "attention_cubes.html"


@pytest.mark.slow
def test_slides_and_notes_in_the_json(rendered_deck):
    out, _ = rendered_deck
    presentation = json.loads((out / "slides" / "ProjectionMatrices.json").read_text())
    # one slide per step of the scene: matrices, shapes, one token, result
    slides = presentation["slides"]
    assert len(slides) == 4
    for slide in slides:
        assert (out / slide["file"]).exists()  # paths relative to the slides' parent folder
    assert [s["notes"].splitlines()[0] for s in slides] == [
        "6. Projection matrices - matrices", "6. Projection matrices - shapes",
        "6. Projection matrices - one token", "6. Projection matrices - result"]
    # every caption of the scene is in the notes, once, in order, with the true numbers
    captions = [line[2:] for s in slides for line in s["notes"].splitlines() if line.startswith("• ")]
    import srt

    assert captions == [sub.content for sub in srt.parse((out / "06_projections.srt").read_text())]
    assert any(c.startswith("q⁽⁰⁾[0] = ") for c in captions)
    assert all("Colors: " in s["notes"] for s in slides)
    assert not list(out.glob(".work-*"))
    page = (out / "deck" / "attention_cubes.html").read_text()
    assets = {p.name for p in (out / "deck" / "attention_cubes_assets").glob("*.mp4")}
    assert len(assets) == 2 + 4 and all(name in page for name in assets)


@pytest.mark.slow
def test_notes_reach_the_powerpoint_export(rendered_deck, tmp_path):
    import pptx

    out, _ = rendered_deck
    deck_file = tmp_path / "deck.pptx"
    subprocess.run([sys.executable, "-m", "manim_slides", "convert", "--folder", str(out / "slides"),
                    "--to", "pptx", "-v", "error", "TokenIds", "ProjectionMatrices", str(deck_file)],
                   check=True, capture_output=True, timeout=300)
    notes = [s.notes_slide.notes_text_frame.text for s in pptx.Presentation(str(deck_file)).slides]
    assert len(notes) == 2 + 4
    assert notes[0].startswith("1. Token ids") and notes[2].startswith("6. Projection matrices")
    assert "• " in notes[0] and "d_k = d+1" in "\n".join(notes)  # plain text, no Markdown escapes


@pytest.mark.slow
def test_the_deck_plays_in_chromium_with_no_network(rendered_deck):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is missing: bash scripts/setup.sh --test installs the test tools")
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: bash scripts/setup.sh --test installs it"
    out, page_path = rendered_deck
    folder = page_path.parent.as_uri() + "/"
    refused, failed, errors = [], [], []

    def guard(route):
        if route.request.url.startswith(folder):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            context.route("**/*", guard)
            page = context.new_page()
            page.on("requestfailed", lambda request: failed.append((request.url, request.failure)))
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(page_path.as_uri(), wait_until="load")
            page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
            first = _playing_video(page)
            assert first["time"] > 0.3 and first["src"].startswith("attention_cubes_assets/"), first
            first_subtitle = _first_subtitle(out / "01_token_ids.srt")
            notes = page.evaluate("() => Reveal.getSlideNotes()")
            assert notes.startswith("1. Token ids") and first_subtitle in notes, notes
            if os.environ.get("ATTENTION_CUBES_DECK_SCREENSHOT"):
                page.wait_for_timeout(1500)  # into the scene, past its opening hold
                page.evaluate("() => Reveal.configure({showNotes: true})")  # the notes, on the slide
                page.screenshot(path=os.environ["ATTENTION_CUBES_DECK_SCREENSHOT"])
                page.evaluate("() => Reveal.configure({showNotes: false})")
            page.keyboard.press("ArrowRight")
            page.wait_for_function("() => Reveal.getIndices().h === 1", timeout=5_000)
            second = _playing_video(page)
            assert second["src"] != first["src"], (first, second)
            assert page.evaluate("() => Reveal.getSlideNotes()").startswith("1. Token ids - result")
        finally:
            browser.close()
    assert refused == [] and failed == [] and errors == [], (refused, failed, errors)


def _playing_video(page) -> dict:
    """The current slide's background video once its clock has moved on."""
    page.wait_for_function(
        """() => {
            const video = Reveal.getCurrentSlide().slideBackgroundContentElement.querySelector('video');
            return video && !video.error && video.currentTime > 0.3;
        }""", timeout=15_000)
    return page.evaluate(
        """() => {
            const video = Reveal.getCurrentSlide().slideBackgroundContentElement.querySelector('video');
            return {time: video.currentTime, src: video.querySelector('source') ?
                    video.querySelector('source').getAttribute('src') : video.getAttribute('src')};
        }""")


def _first_subtitle(path: Path) -> str:
    import srt

    return next(srt.parse(path.read_text())).content
