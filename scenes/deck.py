"""The slide deck: rendered scenes as one HTML page that needs no network.

``render --slides`` renders each scene as manim-slides slides, then
:func:`write_deck` joins them into a folder that holds everything the page
loads, so it can be copied to a USB stick and opened in a lecture hall with
no network::

    OUT_DIR/deck/attention_cubes.html
    OUT_DIR/deck/attention_cubes_assets/   the slides' videos, reveal.js

The page comes from manim-slides' reveal.js converter with this package's
template (``deck.html``): it loads reveal.js from the assets folder, never
from a CDN, and every slide carries speaker notes ("s" opens the speaker
view). reveal.js itself comes from the npm registry once, at set-up
(:func:`fetch_reveal`, ``attention-cubes deck-assets``), into the user's
cache; a render that needs it and does not find it stops before rendering
with one line saying how to get it.

Examples
--------
>>> REVEAL_FILES[:2]
('dist/reveal.css', 'dist/reveal.js')
>>> is_local_reference("attention_cubes_assets/reveal.js/dist/reveal.js")
True
>>> is_local_reference("https://cdn.jsdelivr.net/npm/reveal.js@6.0.1/dist/reveal.js")
False
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from tensors.cache import cache_home

__all__ = ["DECK_FOLDER", "DECK_PAGE", "DeckError", "REVEAL_VERSION", "fetch_reveal", "is_local_reference",
           "require_reveal", "reveal_folder", "write_deck"]

# The reveal.js that manim-slides 5.7's converter is made for (its
# ``reveal_version``), as the npm registry serves it, and npm's integrity
# hash of that tarball: a copy that does not match is refused.
REVEAL_VERSION = "6.0.1"
REVEAL_INTEGRITY = "sha512-9eacArNIgqO2HGWOK+93gJNn+gvdGDVbSq+i2u3Ja9kjiHps0XNLpgYTZTYjKRH91uXy3clGimeGiw4umHG/tg=="
# What the page loads (the theme's fonts are inside its CSS), and the licence.
REVEAL_FILES = ("dist/reveal.css", "dist/reveal.js", "dist/theme/black.css", "dist/plugin/notes.js", "LICENSE")
DECK_FOLDER = "deck"
DECK_PAGE = "attention_cubes.html"
TEMPLATE = Path(__file__).with_name("deck.html")
TITLE = "Attention Cubes"
# Every src= and href= of the written page, to check none leaves the folder.
REFERENCE = re.compile(r'''\b(?:src|href|data-background-video|data-background-image)\s*=\s*"([^"]*)"''')


class DeckError(RuntimeError):
    """The deck cannot be written; the message is one line saying why and what to do."""


def reveal_folder() -> Path:
    """Where the offline copy of reveal.js is kept (in the user's cache)."""
    return cache_home() / f"reveal.js-{REVEAL_VERSION}"


def _complete(folder: Path) -> bool:
    return all((folder / name).is_file() for name in REVEAL_FILES)


def require_reveal() -> Path:
    """The offline reveal.js, or a :class:`DeckError` saying how to get it."""
    folder = reveal_folder()
    if not _complete(folder):
        raise DeckError(f"the offline slide deck needs reveal.js {REVEAL_VERSION} in {folder}: "
                        f"get it once with `attention-cubes deck-assets` (needs npm; "
                        f"in a checkout, `bash scripts/setup.sh` does it)")
    return folder


def fetch_reveal(tarball: Path | None = None) -> Path:
    """Put reveal.js into the cache, from ``tarball`` (an npm package file) or
    with ``npm pack`` from the npm registry. Does nothing when it is there.

    The tarball must be the one the npm registry serves (its integrity hash is
    checked). The files are unpacked beside the cache folder and renamed into
    place, so two set-ups at once, or one interrupted, leave a whole copy or none.
    """
    final = reveal_folder()
    if _complete(final):
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=final.parent, prefix=".reveal-") as work:
        work = Path(work)
        if tarball is None:
            tarball = _npm_pack(work)
        data = Path(tarball).read_bytes()
        digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        if digest != REVEAL_INTEGRITY:
            raise DeckError(f"{tarball} is not reveal.js {REVEAL_VERSION} as the npm registry serves it "
                            f"(integrity {digest[:19]}…, expected {REVEAL_INTEGRITY[:19]}…)")
        unpacked = work / "reveal.js"
        with tarfile.open(tarball) as archive:
            for name in REVEAL_FILES:
                member = archive.getmember(f"package/{name}")
                target = unpacked / name
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.extractfile(member) as source, open(target, "wb") as out:
                    shutil.copyfileobj(source, out)
        shutil.rmtree(final, ignore_errors=True)  # an incomplete copy
        try:
            os.rename(unpacked, final)
        except OSError:
            if not _complete(final):  # else another set-up put it there first
                raise
    return final


def _npm_pack(folder: Path) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise DeckError(f"npm is needed once to get reveal.js {REVEAL_VERSION} for the offline deck: "
                        f"install it (Debian/Ubuntu: apt-get install nodejs npm), or pass the "
                        f"package file: `attention-cubes deck-assets --from reveal.js-{REVEAL_VERSION}.tgz`")
    # npm's own cache and logs stay in the working folder, not in the user's home
    command = [npm, "pack", f"reveal.js@{REVEAL_VERSION}", "--cache", str(folder / "npm-cache"),
               "--no-audit", "--no-fund", "--loglevel", "error"]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    tarball = folder / f"reveal.js-{REVEAL_VERSION}.tgz"
    if result.returncode != 0 or not tarball.is_file():
        reason = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise DeckError(f"npm could not get reveal.js {REVEAL_VERSION} from the npm registry: {reason}")
    return tarball


def is_local_reference(url: str) -> bool:
    """True for a path inside the deck's folder (relative, not going up)."""
    return not (re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) or url.startswith(("/", "//", "..")))


def write_deck(slides_folder: Path, scene_names: list[str], out_dir: Path) -> Path:
    """Join the scenes' slides (manim-slides JSON in ``slides_folder``) into
    ``out_dir/deck/``, replacing the deck there; returns the HTML page.

    The deck is built in a private folder and moved into place when whole.
    """
    reveal = require_reveal()
    out_dir = Path(out_dir)
    work = out_dir / f".work-deck-{os.getpid()}"  # cleared by the next render if this one is killed
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        page = work / DECK_PAGE
        assets = work / f"{page.stem}_assets"
        command = [sys.executable, "-m", "manim_slides", "convert", "--folder", str(slides_folder),
                   "--to", "html", "--use-template", str(TEMPLATE), "-v", "error",
                   f"-ctitle={TITLE}", *scene_names, str(page)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0 or not page.is_file():
            reason = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise DeckError(f"the slide deck could not be written: {reason}")
        for name in REVEAL_FILES:
            target = assets / "reveal.js" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(reveal / name, target)
        _check_self_contained(page)
        final, old = out_dir / DECK_FOLDER, out_dir / f"{work.name}-old"
        if final.exists():
            os.replace(final, old)  # the previous deck leaves only as the new one comes
        os.replace(work, final)
        return final / DECK_PAGE
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(out_dir / f"{work.name}-old", ignore_errors=True)


def _check_self_contained(page: Path) -> None:
    """Every file the page refers to lies in its folder (no CDN, no absolute path)."""
    folder = page.parent
    for url in REFERENCE.findall(page.read_text(encoding="utf-8")):
        if not is_local_reference(url):
            raise DeckError(f"the slide deck refers to {url}, outside its folder")
        if not (folder / url).is_file():
            raise DeckError(f"the slide deck refers to {url}, which is not in {folder}")
