#!/usr/bin/env bash
# Install everything the tests need and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/system-deps.sh fonts-noto-core fonts-droid-fallback poppler-utils chromium
bash scripts/venv.sh test
exec .venv/bin/python -m pytest -q "$@"
