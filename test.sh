#!/usr/bin/env bash
# Install everything the tests need and run the whole test suite.
#
# Extra arguments go to pytest.  The whole suite runs on every core (pytest-xdist, -n auto;
# each test file whole on one worker).  Naming a test file or a test (./test.sh
# tests/test_scoring.py) runs in this one process, which starts at once; so does a run
# that says -n itself.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/system-deps.sh fonts-noto-core fonts-droid-fallback poppler-utils chromium
bash scripts/venv.sh test
# The tests' temporary folders (a database per test, synced to disk at every save) go to
# the memory file system when it has room (2 GB): on a busy disk the syncs took half the
# suite's time.  A TMPDIR of your own is kept.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
   [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 2097152 ]; then
  export TMPDIR=/dev/shm
fi
workers=(-n auto)
for arg in "$@"; do
  case $arg in
    -n | -n* | --numprocesses | --numprocesses=*) workers=() ;;
    -*) ;;
    *) [ -f "${arg%%::*}" ] && workers=() ;;   # a test file, or file::test
  esac
done
exec .venv/bin/python -m pytest -q ${workers[@]+"${workers[@]}"} "$@"
