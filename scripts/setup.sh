#!/usr/bin/env bash
# Creates .venv with everything razz-env needs: the CPU build of torch first (so pip never
# fetches a multi-GB CUDA build), then the project with its extras (default: dev = all).
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS="${1:-dev}"
PYTHON="${PYTHON:-$(command -v python3.11 || command -v python3)}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
case "$EXTRAS" in
  train|dev) .venv/bin/python -m pip install --quiet "torch==2.13.0" ;;
esac
.venv/bin/python -m pip install --quiet -e ".[$EXTRAS]"
echo "razz-env installed in .venv with extras [$EXTRAS]"
