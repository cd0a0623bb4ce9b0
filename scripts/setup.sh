#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian/Ubuntu machine: the system packages
# Manim needs (when missing), fonts for other scripts, a .venv with the
# system's Python 3.11, 3.12 or 3.13, torch (the CPU build where no GPU is
# present), this project, and reveal.js for the offline slide deck (from the
# npm registry, with npm; nodejs and npm are installed when missing).
# With --test (scripts/test.sh), also Debian's chromium, which the deck's
# browser test drives (no browser is ever downloaded).
# A second run only checks and skips.
# Called by scripts/videos.sh and scripts/test.sh; runnable on its own.
set -euo pipefail

FOR_TESTS=0
if [ "${1:-}" = "--test" ]; then FOR_TESTS=1; fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
TORCH_CPU_VERSION="2.13.0"
TORCH_CPU_INDEX="https://download.pytorch.org/whl/cpu"
PYTHONS="3.11 3.12 3.13"  # Debian 12, Ubuntu 24.04, Debian 13
APT_PACKAGES=(
  build-essential pkg-config libcairo2-dev libpango1.0-dev
  texlive-latex-base texlive-latex-recommended texlive-latex-extra
  texlive-fonts-recommended dvisvgm
  fonts-noto-cjk fonts-noto-color-emoji
)
TEST_APT_PACKAGES=(chromium)

say() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else say "need root (or sudo) to install system packages"; exit 1
  fi
}

# A python3 in the supported range that can make a venv with pip.
find_python() {
  local candidate
  for candidate in python3 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c "import sys, venv, ensurepip; sys.exit(f'{sys.version_info[0]}.{sys.version_info[1]}' not in '$PYTHONS'.split())" 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  return 1
}

python_version() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }

install_system_packages() {
  local missing=() pkg wanted=("${APT_PACKAGES[@]}")
  if [ "$FOR_TESTS" -eq 1 ]; then wanted+=("${TEST_APT_PACKAGES[@]}"); fi
  for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if ! find_python >/dev/null; then
    missing+=(python3 python3-venv python3-dev)
    # Debian's venv module for its own python3 is a versioned package
    if command -v python3 >/dev/null 2>&1; then missing+=("python$(python_version python3)-venv"); fi
  fi
  # npm fetches reveal.js once (install_deck_assets); Node.js from elsewhere (nodesource) is fine
  if ! command -v npm >/dev/null 2>&1 && ! deck_assets_present; then missing+=(nodejs npm); fi
  if [ ${#missing[@]} -eq 0 ]; then say "system packages present"; return; fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "missing system packages (${missing[*]}) and no apt-get: install them by hand"; exit 1
  fi
  say "installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q >&2
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

has_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

# The CPU build of torch: from this machine's own wheels if it has them, else
# from PyTorch's CPU index; where neither answers, the pyproject range from PyPI.
install_torch_cpu() {
  local pip=("$@") probe
  probe="$(mktemp -d)"
  if "${pip[@]}" download --no-deps --no-index -d "$probe" "torch==$TORCH_CPU_VERSION" >/dev/null 2>&1 &&
     ls "$probe"/torch-*+cpu-*.whl >/dev/null 2>&1; then
    rm -rf "$probe"
    say "no GPU: torch $TORCH_CPU_VERSION (CPU build) from this machine's wheels"
    "${pip[@]}" install "torch==$TORCH_CPU_VERSION" >&2; return
  fi
  rm -rf "$probe"
  say "no GPU: installing the CPU build of torch from $TORCH_CPU_INDEX"
  if "${pip[@]}" install --timeout 20 --retries 1 "torch==$TORCH_CPU_VERSION" \
       --index-url "$TORCH_CPU_INDEX" --extra-index-url https://pypi.org/simple >&2 2>/dev/null; then
    return
  fi
  say "PyTorch's CPU index did not answer: torch from PyPI instead (a larger download)"
}

install_python_env() {
  local python version stamp
  if ! python="$(find_python)"; then
    local found="none"
    command -v python3 >/dev/null 2>&1 && found="$(python_version python3)"
    say "needs Python 3.11, 3.12 or 3.13 with its venv module (found python3: $found)."
    say "Debian 12, Ubuntu 24.04 and Debian 13 ship one: apt-get install python3 python3-venv"
    exit 1
  fi
  version="$(python_version "$python")"
  stamp="$VENV/.attention-cubes-py$version-$(sha1sum < "$ROOT/pyproject.toml" | cut -c1-12)"
  if [ -f "$stamp" ]; then say ".venv up to date (Python $version)"; return; fi
  if [ -x "$VENV/bin/python" ] && [ "$(python_version "$VENV/bin/python")" != "$version" ]; then
    say "the .venv was made with another Python: making it anew"; rm -rf "$VENV"
  fi
  [ -x "$VENV/bin/python" ] || { say "creating .venv with $python (Python $version)"; "$python" -m venv "$VENV"; }
  local pip=("$VENV/bin/python" -m pip --disable-pip-version-check -q)
  if ! "$VENV/bin/python" -c 'import torch' 2>/dev/null; then
    if has_gpu; then say "GPU found: torch from the pyproject range"
    else install_torch_cpu "${pip[@]}"
    fi
  fi
  say "installing the project and its test tools into .venv"
  "${pip[@]}" install -e "$ROOT[test]" >&2
  rm -f "$VENV"/.attention-cubes-*
  touch "$stamp"
}

# The offline copy of reveal.js lives in the user's cache (scenes/deck.py).
deck_assets_present() {
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/attention-cubes"
  [ -f "$cache/reveal.js-$REVEAL_VERSION/dist/reveal.js" ] && [ -f "$cache/reveal.js-$REVEAL_VERSION/dist/plugin/notes.js" ]
}
REVEAL_VERSION="$(sed -n 's/^REVEAL_VERSION = "\(.*\)"$/\1/p' "$ROOT/scenes/deck.py")"

install_deck_assets() {
  if deck_assets_present; then say "reveal.js $REVEAL_VERSION present (offline slide deck)"; return; fi
  say "getting reveal.js $REVEAL_VERSION for the offline slide deck (npm pack, into the user's cache)"
  if (cd "$ROOT" && "$VENV/bin/python" render.py deck-assets >/dev/null); then return; fi
  if [ "$FOR_TESTS" -eq 1 ]; then exit 1; fi  # the deck's tests need it
  say "without it, render --slides stops with a line saying how to get it; the videos do not need it"
}

install_system_packages
install_python_env
install_deck_assets
