"""The repository holds sources, not what running them leaves behind.

A folder named ``--help/`` of 119 screenshots was once committed (the screenshot
script took its first argument as the output folder): images belong in docs/,
static/ and tests/photos/ only, and build outputs, trained weights, caches and
bench results are never tracked.
"""

import subprocess
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMAGES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".svg", ".ppm"}
IMAGE_FOLDERS = ("docs/", "static/", "tests/photos/")
#: What builds, training, benches and test runs leave: never committed.
GENERATED = {".pyc", ".pyo", ".mo", ".pt", ".npz", ".prof", ".pstats", ".db", ".sqlite",
             ".sqlite3", ".log", ".tmp", ".whl", ".pdf"}
GENERATED_FOLDERS = {"__pycache__", "build", "dist", ".pytest_cache", ".hypothesis", ".venv",
                     "htmlcov", "node_modules"}


def tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [p for p in out.stdout.decode().split("\0") if p]


def test_images_only_in_docs_static_and_test_photos():
    stray = [p for p in tracked() if PurePosixPath(p).suffix.lower() in IMAGES
             and not p.startswith(IMAGE_FOLDERS)]
    assert stray == []


def test_no_build_outputs_or_generated_files():
    stray = [p for p in tracked()
             if PurePosixPath(p).suffix.lower() in GENERATED
             or GENERATED_FOLDERS & set(PurePosixPath(p).parts[:-1])
             or any(part.endswith(".egg-info") for part in PurePosixPath(p).parts)]
    assert stray == []


def test_no_path_looks_like_a_command_line_option():
    # "scripts/screenshots.py --help" once wrote its screenshots into a folder "--help".
    assert [p for p in tracked() if any(part.startswith("-") for part in p.split("/"))] == []


def test_only_the_shipped_model_is_a_large_file():
    big = [p for p in tracked() if (ROOT / p).is_file() and (ROOT / p).stat().st_size > 300_000]
    assert big == ["scorekeeper/photo/model.onnx"]


def test_gitignore_covers_what_training_and_benches_leave():
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "scorekeeper/photo/model.pt", "model.pt.tmp",
         "scenes.npz", "instance/scorekeeper.db", "build/lib/x.py", "bench/out/pdf.json",
         "screens/home.png"],
        cwd=ROOT, capture_output=True, text=True)
    assert ignored.stdout.split() == ["scorekeeper/photo/model.pt", "model.pt.tmp", "scenes.npz",
                                      "instance/scorekeeper.db", "build/lib/x.py",
                                      "bench/out/pdf.json", "screens/home.png"]


def test_screenshot_script_refuses_a_folder_inside_the_checkout(tmp_path):
    import sys
    script = ROOT / "scripts" / "screenshots.py"
    inside = subprocess.run([sys.executable, str(script), str(ROOT / "shots")],
                            capture_output=True, text=True)
    assert inside.returncode == 2 and "inside the checkout" in inside.stderr
    assert not (ROOT / "shots").exists()
    helped = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "usage:" in helped.stdout
    assert not (ROOT / "--help").exists()
