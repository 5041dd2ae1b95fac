#!/usr/bin/env bash
# Install and start Mexican Train Scorekeeper on port 5000 (all network interfaces).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/system-deps.sh fonts-noto-core fonts-droid-fallback
bash scripts/venv.sh
exec .venv/bin/scorekeeper "$@"
