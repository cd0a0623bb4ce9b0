#!/usr/bin/env bash
# The main job: set up when needed, then render every scene (480p MP4 by
# default) into media/videos/. Extra arguments go to `render.py render`,
# e.g. `bash scripts/videos.sh --quality high` or `bash scripts/videos.sh 3 7-9`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
if [ $# -eq 0 ] || [[ "$1" == -* ]]; then set -- --all "$@"; fi
exec "$ROOT/.venv/bin/python" render.py render "$@"
