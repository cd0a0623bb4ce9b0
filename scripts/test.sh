#!/usr/bin/env bash
# Set up when needed, then run the whole test suite (slow renders included).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m "not slow"`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh" --test  # also chromium, for the slide deck's browser test
cd "$ROOT"
# two or more cores share the work (pytest-xdist); `-n 0` runs in one process
exec "$ROOT/.venv/bin/python" -m pytest -n auto --dist worksteal "$@"
