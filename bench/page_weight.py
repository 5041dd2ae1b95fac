"""The round page's weight, side by side with another checkout (issue 26: 444e519).

Run from the project root:

    git worktree add /tmp/ph444 444e519       # once; then compile its catalogues:
    .venv/bin/pybabel -q compile -d /tmp/ph444/scorekeeper/translations
    .venv/bin/python bench/page_weight.py [--against /tmp/ph444]

Starts the real server (bench/server.py) from this checkout and from the one given (each
with its own code first on sys.path), seeds the game bench/pages.py seeds (six players,
double-12, three rounds in), and prints the round page's bytes as sent (brotli or gzip, as a
browser asks) and whole, in English and Greek; for this checkout also the photo dialog's
part (GET /api/hand-photo/dialog), which a browser fetches only when "Count tiles" is
first opened.  127.0.0.1 only; a few requests, no load.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pages import PLAYERS  # noqa: E402  (bench/pages.py: the same game)
from server import running_checkout  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ROWS = [[0, 23, 9, 41, 12, 5], [17, 0, 30, 8, 2, 22], [4, 11, 0, 19, 27, 3]]


def sizes(server, path: str, lang: str) -> tuple[int, int]:
    """(bytes sent compressed, bytes whole) of GET *path* in *lang*."""
    out = []
    for encoding in ("br, gzip", "identity"):
        status, body, _r = server.call("GET", path, headers={"Accept-Encoding": encoding,
                                                             "Accept-Language": lang})
        assert status == 200, (path, status)
        out.append(len(body))
    return out[0], out[1]


def measure(checkout: Path) -> dict:
    with running_checkout(checkout, threads=4) as server:
        gid = server.new_game(PLAYERS, name="Friday club")
        for n, row in enumerate(ROWS, 1):
            server.call("PUT", f"/api/games/{gid}/rounds/{n}",
                        {"scores": dict(zip(PLAYERS, row))})
        got = {}
        for lang in ("en", "el"):
            got[("round", lang)] = sizes(server, f"/games/{gid}/rounds/4", lang)
            status, _b, _r = server.call("GET", "/api/hand-photo/dialog")
            if status == 200:
                got[("dialog", lang)] = sizes(server, "/api/hand-photo/dialog", lang)
        return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", type=Path, default=Path("/tmp/ph444"),
                        help="the other checkout (default /tmp/ph444: commit 444e519)")
    args = parser.parse_args()
    rows = [("this checkout", measure(ROOT)), (str(args.against), measure(args.against))]
    print(f"\n{'checkout':<24} {'what':<26} {'sent':>9} {'whole':>9}")
    for label, got in rows:
        for (what, lang), (sent, whole) in got.items():
            name = ("round page" if what == "round" else "photo dialog, on opening")
            print(f"{label:<24} {name + ' (' + lang + ')':<26} {sent:>8,}B {whole:>8,}B")


if __name__ == "__main__":
    main()
