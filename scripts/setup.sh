#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: the system packages Manim
# needs (when missing), a .venv with Python 3.11, torch (the CPU build where
# no GPU is present) and this project. A second run only checks and skips.
# Sourced by scripts/videos.sh and scripts/test.sh; runnable on its own.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
TORCH_CPU_VERSION="2.13.0"
APT_PACKAGES=(
  build-essential pkg-config libcairo2-dev libpango1.0-dev
  texlive-latex-base texlive-latex-recommended texlive-latex-extra
  texlive-fonts-recommended dvisvgm
)

say() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else say "need root (or sudo) to install: ${APT_PACKAGES[*]}"; exit 1
  fi
}

find_python() {
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys, venv; assert sys.version_info[:2] == (3, 11)' 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  return 1
}

install_system_packages() {
  local missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  local python_ok=1
  find_python >/dev/null || { python_ok=0; missing+=(python3 python3-venv python3-dev); }
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

install_python_env() {
  local python stamp
  python="$(find_python)" || { say "no Python 3.11 found after installing python3"; exit 1; }
  stamp="$VENV/.attention-cubes-$(cat "$ROOT/pyproject.toml" | sha1sum | cut -c1-12)"
  if [ -f "$stamp" ]; then say ".venv up to date"; return; fi
  [ -x "$VENV/bin/python" ] || { say "creating .venv with $python"; "$python" -m venv "$VENV"; }
  local pip=("$VENV/bin/python" -m pip --disable-pip-version-check -q)
  if ! "$VENV/bin/python" -c 'import torch' 2>/dev/null; then
    if has_gpu; then
      say "GPU found: installing torch from pyproject's range"
    else
      say "no GPU: installing the CPU build torch==$TORCH_CPU_VERSION"
      "${pip[@]}" install "torch==$TORCH_CPU_VERSION" >&2 ||
        "${pip[@]}" install "torch==$TORCH_CPU_VERSION" --index-url https://download.pytorch.org/whl/cpu >&2
    fi
  fi
  say "installing the project and its test tools into .venv"
  "${pip[@]}" install -e "$ROOT[test]" >&2
  rm -f "$VENV"/.attention-cubes-*
  touch "$stamp"
}

install_system_packages
install_python_env
