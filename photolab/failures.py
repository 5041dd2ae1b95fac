"""Where the reader loses the tiles of a labelled folder: never found, found but dropped,
unsure, misread (which half, by how much), and the questions where no tile is.

    .venv/bin/python -m photolab.looks DIR          # first: the outlines, cached
    .venv/bin/python -m photolab.failures DIR [--show]

Photos whose labels carry ``centres`` only (photolab/looks.py matches an outline to the
labelled centre inside it).  Each labelled tile gets the best of what its outlines became,
in this order: **right** (kept, read with confidence, the labelled tile), **unsure, right
candidate** (kept, unsure, the labelled tile among its candidates), **misread** (kept,
read with confidence, another tile), **unsure, no right candidate**, **dropped as a
duplicate** (decided, but another outline near it was surer), **not a tile to step 2** (an
outline, but no view looked like a tile), **never found** (no outline holds its centre).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from photolab.looks import load  # noqa: E402
from scorekeeper.photo.judge import CONFIDENT  # noqa: E402

ORDER = ("right", "unsure, right candidate", "misread", "unsure, no right candidate",
         "dropped as a duplicate", "not a tile to step 2", "never found")


def _pair(t) -> tuple[int, int]:
    a, b = int(t[0]), int(t[1])
    return (a, b) if a <= b else (b, a)


def status(o: dict, tile) -> str:
    """What outline *o* made of the labelled *tile*."""
    d = o["decided"]
    if d is None:
        return "not a tile to step 2"
    if not o["kept"]:
        return "dropped as a duplicate"
    cands = [_pair(c) for c in d["candidates"]]
    if d["confidence"] >= CONFIDENT:
        return "right" if cands[0] == _pair(tile) else "misread"
    return "unsure, right candidate" if _pair(tile) in cands[:4] else \
        "unsure, no right candidate"


def half_error(read, tile) -> str:
    """How a misread differs: the halves' differences, the closer way round."""
    a, b = tile
    c, d = read
    e1, e2 = (c - a, d - b), (d - a, c - b)
    e = min(e1, e2, key=lambda x: abs(x[0]) + abs(x[1]))
    if e[0] and e[1]:
        return f"both halves ({e[0]:+d}, {e[1]:+d})"
    return f"one half {e[0] or e[1]:+d}"


def breakdown(photos: list[dict], show: bool = False) -> dict:
    counts: Counter = Counter()
    misreads: Counter = Counter()
    questions = Counter()
    per_source: dict[str, Counter] = {}
    for p in photos:
        src = per_source.setdefault(p["source"], Counter())
        for i, tile in enumerate(p["tiles"]):
            mine = [o for o in p["outlines"] if o["truth"] == i]
            got = min((status(o, tile) for o in mine), key=ORDER.index,
                      default="never found")
            counts[got] += 1
            src[got] += 1
            if got == "misread":
                o = next(o for o in mine if status(o, tile) == "misread")
                misreads[half_error(o["decided"]["candidates"][0], tile)] += 1
            if show and got != "right":
                print(f"{p['name']}: {tile[0]}-{tile[1]} {got}")
        for o in p["outlines"]:
            d = o["decided"]
            if d is None or not o["kept"]:
                continue
            where = {-1: "no tile", -2: "no labelled tile (the photo has partial ones)"}.get(
                o["truth"], "a tile")
            kind = "question" if d["confidence"] < CONFIDENT else "read with confidence"
            questions[f"{kind} on {where}"] += 1
    return {"tiles": counts, "misreads": misreads, "entries": questions,
            "sources": per_source}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--show", action="store_true", help="each tile not read right")
    args = ap.parse_args(argv)
    photos, _crops = load(args.dir)
    b = breakdown(photos, args.show)
    total = sum(b["tiles"].values())
    print(f"{len(photos)} photos with centres, {total} labelled tiles:")
    for k in ORDER:
        print(f"  {k}: {b['tiles'][k]}")
    print("misreads: " + ", ".join(f"{k} {n}" for k, n in b["misreads"].most_common()))
    print("entries kept: " + ", ".join(f"{k} {n}" for k, n in sorted(b["entries"].items())))
    print("by source (right / tiles): " + ", ".join(
        f"{s.split('/')[0]} {c['right']}/{sum(c.values())}"
        for s, c in sorted(b["sources"].items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
