#!/usr/bin/env bash
# Create .venv and install the app (editable) with the given extras, e.g. "test".
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
extras=${1:-}
spec="."
[ -n "$extras" ] && spec=".[$extras]"
.venv/bin/pip install -q --disable-pip-version-check -e "$spec"
# The translations (Vietnamese, Thai, Chinese, Malay, Greek) are kept as .po files in git;
# compile them to the .mo files the app reads.
.venv/bin/pybabel -q compile -d scorekeeper/translations
