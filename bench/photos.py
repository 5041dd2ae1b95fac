"""Benchmark: read every labelled photo of a folder and score the readings against the labels.

    .venv/bin/python bench/photos.py DIR [--json] [--set N] [--show] [--url http://127.0.0.1:PORT]

``DIR/labels.json`` maps a file name to ``{"tiles": [[a, b], ...], "partial": [[a, b] or
"unknown", ...]}`` (other keys are ignored, but ``set`` gives the photo's set when --set is
not given; else 12).  One line per photo, then last exactly one line::

    tiles right R/T (P%), photos all right A/N, wrong and not flagged W, unsure U, read p50 X ms p99 Y ms

preceded by one line of how people use it::

    questions Q, where no tile is Z (z per photo); taps to the right hand K for T tiles (k per tile; by hand 1 per tile)

(with --json the same as one JSON object).  Labelled folders of renders come from
photolab/renders.py.  Reading (in process, through scorekeeper.photo; with --url through
a running server's ``POST /api/hand-photo``, the photo's set sent with it) is kept apart
from scoring: scoring sees
only the answer as the API gives it (tiles with confidence, unsure with candidates, and the
problems of scorekeeper.photo.checks for the photo's set, no engine and nothing counted).

Scoring rules, per photo (labels have no boxes, so readings and labels are matched as
multisets):

1. A tile read with confidence that equals a labelled tile still unmatched is **right**.
2. An unsure entry whose candidates include a labelled tile still unmatched takes it (its
   best-ranked such candidate): that tile is **unsure** — not right, not silent.
3. What is left of the readings may be a ``partial`` tile (cut by the edge or covered): a
   confident tile equal to a listed partial one, or any reading when an "unknown" partial is
   left, takes that partial and does not count at all.  Partial tiles are never required.
4. The rest are **wrong**: a confident tile left over is a misread or a tile where none is;
   a labelled tile left over was missed, or misread (then it pairs with a wrong reading and
   counts once).  A wrong confident tile is flagged when checks give it a problem (a wrong
   reading shown with a problem is caught by the person confirming); an unsure entry left
   over is flagged by being unsure (and counts as wrong, like a wrong confident tile).
   **Wrong and not flagged** = unflagged wrong confident tiles + labelled tiles missed
   beyond the wrong readings that could stand for them (a missed tile is silent: nothing on
   the screen says it is missing).

**Questions where no tile is** (clutter asked about): with the labels' ``centres`` (the
shared photos' newer entries, and every render), a question (an unsure entry) whose outline,
grown 1.5 times about its middle, holds no labelled tile's centre, less as many as the photo
has partial tiles (they have no centre and may be what it asks about); without centres, the
unsure entries matching no labelled or partial tile.

**Taps to the right hand**, as the Count tiles dialog takes them (static/js/photo.js): each
question ("?" unsure, "!" a tile read with a problem) answered in one tap (a candidate, a
tile of the picker, or "Not a tile": the next question is asked at once); each tile read
wrong without a problem fixed in two (its outline, then the right tile or "Not a tile");
each labelled tile still missing after those picked in one.  By hand, one tap a tile.

``T`` counts labelled (fully visible) tiles, ``R`` the right ones; a photo is all right when
every labelled tile is right and nothing else is read (no unsure, no wrong; partial tiles
aside).  ``U`` counts every unsure entry.  Times are of the whole read (decode included) of
each photo's bytes, p50 and p99 over the photos (nearest rank).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.server import multipart as form_body  # noqa: E402  (one form body for the benches)

Pair = tuple[int, int]


def _pair(v) -> Pair:
    a, b = int(v[0]), int(v[1])
    return (a, b) if a <= b else (b, a)


# ---------------------------------------------------------------- reading

def read_local(data: bytes, set_n: int) -> dict:
    """Read a photo in this process; the answer shaped as the API's."""
    from scorekeeper.photo.reader import read_hand
    return answer_of(read_hand(data, set_n), set_n)


def answer_of(reading, set_n: int) -> dict:
    """A reading as the API answers it: its tiles and unsure entries, and the problems the
    checks find for the set (no engine, nothing counted elsewhere)."""
    from scorekeeper.photo.checks import problems
    answer = reading.to_json()
    answer["problems"] = [{"code": p.code, "tile": p.tile.to_json(), "message": p.message}
                          for p in problems(reading, set_n, None, set())]
    return answer


def multipart(photo: bytes, **fields) -> tuple[bytes, str]:
    """A multipart/form-data body with *fields* and the photo as its file, and its type."""
    return form_body(fields, "photo", photo, "photo")


def read_url(base: str, data: bytes, set_n: int) -> dict:
    """Read a photo through a server's POST /api/hand-photo (its answer, or a refusal's
    sentence as ``error`` beside an empty reading)."""
    import urllib.error
    import urllib.request
    body, kind = multipart(data, set=set_n)
    req = urllib.request.Request(base.rstrip("/") + "/api/hand-photo", data=body,
                                 method="POST", headers={"Content-Type": kind})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        return {"tiles": [], "unsure": [], "problems": [], "error": json.load(e)["error"]}


# ---------------------------------------------------------------- scoring

@dataclass
class Score:
    tiles: int = 0
    right: int = 0
    unsure: int = 0
    unsure_matched: int = 0
    wrong: int = 0
    silent: int = 0
    missed: int = 0
    partial_read: int = 0
    no_tile: int = 0             # questions where no tile is
    taps: int = 0                # to reach the right hand from this reading
    notes: list[str] = field(default_factory=list)

    @property
    def all_right(self) -> bool:
        return self.right == self.tiles and self.wrong == 0 and self.unsure == 0


def score(answer: dict, labels: dict) -> Score:
    """Score one photo's answer against its labels entry (rules in the module docstring)."""
    want = Counter(_pair(t) for t in labels.get("tiles", []))
    partial = Counter(_pair(t) for t in labels.get("partial", []) if t != "unknown")
    unknown = sum(1 for t in labels.get("partial", []) if t == "unknown")
    flagged = Counter(_pair(p["tile"]) for p in answer.get("problems", []))
    s = Score(tiles=sum(want.values()), unsure=len(answer.get("unsure", [])))
    left_found = []
    for f in answer.get("tiles", []):
        t = _pair(f["tile"])
        if want[t] > 0:
            want[t] -= 1
            s.right += 1
        else:
            left_found.append(t)
    left_unsure = []
    for u in answer.get("unsure", []):
        cands = [_pair(c) for c in u["candidates"]]
        hit = next((c for c in cands if want[c] > 0), None)
        if hit is not None:
            want[hit] -= 1
            s.unsure_matched += 1
        else:
            left_unsure.append(cands)
    wrong_found = []
    for t in left_found:
        if partial[t] > 0:
            partial[t] -= 1
            s.partial_read += 1
        elif unknown > 0:
            unknown -= 1
            s.partial_read += 1
        else:
            wrong_found.append(t)
    for cands in left_unsure:
        hit = next((c for c in cands if partial[c] > 0), None)
        if hit is not None:
            partial[hit] -= 1
        elif unknown > 0:
            unknown -= 1
    missed = sum(want.values())
    for t in wrong_found:
        if flagged[t] > 0:
            s.notes.append(f"wrong {t[0]}-{t[1]} (flagged)")
        else:
            s.silent += 1
            s.notes.append(f"wrong {t[0]}-{t[1]}")
    # a labelled tile left over pairs with a wrong reading (a misread) when there is one
    s.missed = max(0, missed - len(wrong_found) - len(left_unsure))
    s.silent += s.missed
    s.wrong = len(wrong_found) + len(left_unsure) + s.missed
    if missed:
        s.notes.append("not read right: " + " ".join(f"{a}-{b}" for (a, b), n in want.items()
                                                     for _ in range(n)))
    s.no_tile = _questions_where_no_tile(answer, labels, len(left_unsure))
    s.taps = _taps(answer, want, wrong_found, flagged)
    return s


def _questions_where_no_tile(answer: dict, labels: dict, unmatched: int) -> int:
    """Questions asked where no tile is (rules in the module docstring)."""
    centres = labels.get("centres")
    partial = len(labels.get("partial", []))
    if not centres or len(centres) != len(labels.get("tiles", [])):
        return max(0, unmatched - partial) if partial else unmatched
    w, h = answer.get("width") or 1, answer.get("height") or 1
    points = [(cx * w, cy * h) for cx, cy in centres]
    empty = sum(1 for u in answer.get("unsure", [])
                if not any(_inside(u["box"], p, 1.5) for p in points))
    return max(0, empty - partial)


def _inside(box, point, grow: float) -> bool:
    """Whether *point* lies in the 4-corner *box* grown *grow* times about its middle."""
    cx = sum(x for x, _ in box) / 4
    cy = sum(y for _, y in box) / 4
    pts = [(cx + (x - cx) * grow, cy + (y - cy) * grow) for x, y in box]
    sign = None
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
        if cross != 0:
            if sign is None:
                sign = cross > 0
            elif (cross > 0) != sign:
                return False
    return True


def _taps(answer: dict, missing: Counter, wrong_found: list, flagged: Counter) -> int:
    """Taps to the right hand: questions 1 each, unflagged wrong tiles 2 each, and what is
    still missing after those 1 each (rules in the module docstring)."""
    problem_tiles = {_pair(p["tile"]) for p in answer.get("problems", [])}
    questions = len(answer.get("unsure", [])) + sum(
        1 for f in answer.get("tiles", []) if _pair(f["tile"]) in problem_tiles)
    silent_wrong = sum(1 for t in wrong_found if flagged[t] == 0)
    # every question and every wrong tile can become one of the tiles still missing
    fixes = len(answer.get("unsure", [])) + len(wrong_found)
    still_missing = max(0, sum(missing.values()) - fixes)
    return questions + 2 * silent_wrong + still_missing


def _nearest_rank(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def summary(scores: list[Score], times_ms: list[float]) -> dict:
    return {
        "tiles": sum(s.tiles for s in scores),
        "tiles_right": sum(s.right for s in scores),
        "photos": len(scores),
        "photos_right": sum(s.all_right for s in scores),
        "silent_wrong": sum(s.silent for s in scores),
        "unsure": sum(s.unsure for s in scores),
        "no_tile": sum(s.no_tile for s in scores),
        "taps": sum(s.taps for s in scores),
        "p50_ms": round(_nearest_rank(times_ms, 0.5), 1),
        "p99_ms": round(_nearest_rank(times_ms, 0.99), 1),
    }


def usage_line(s: dict) -> str:
    """How people use it: questions, those where no tile is, taps against one a tile."""
    photos, tiles = max(1, s["photos"]), max(1, s["tiles"])
    return (f"questions {s['unsure']}, where no tile is {s['no_tile']} "
            f"({s['no_tile'] / photos:.2f} per photo); taps to the right hand {s['taps']} for "
            f"{s['tiles']} tiles ({s['taps'] / tiles:.2f} per tile; by hand 1 per tile)")


def last_line(s: dict) -> str:
    pct = 100.0 * s["tiles_right"] / s["tiles"] if s["tiles"] else 0.0
    return (f"tiles right {s['tiles_right']}/{s['tiles']} ({pct:.1f}%), photos all right "
            f"{s['photos_right']}/{s['photos']}, wrong and not flagged {s['silent_wrong']}, "
            f"unsure {s['unsure']}, read p50 {s['p50_ms']:.0f} ms p99 {s['p99_ms']:.0f} ms")


def _describe(answer: dict) -> str:
    parts = [f"{a}-{b}" for a, b in (f["tile"] for f in answer.get("tiles", []))]
    parts += ["?(" + "|".join(f"{a}-{b}" for a, b in u["candidates"]) + ")"
              for u in answer.get("unsure", [])]
    return " ".join(parts) or "nothing"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--json", action="store_true", help="last line as a JSON object")
    ap.add_argument("--set", type=int, default=None, help="the set (default: the entry's, or 12)")
    ap.add_argument("--show", action="store_true", help="say what was read for each photo")
    ap.add_argument("--url", help="read through this server's POST /api/hand-photo, e.g. "
                                  "http://127.0.0.1:5000 (default: in this process)")
    args = ap.parse_args(argv)
    labels = json.loads((args.dir / "labels.json").read_text(encoding="utf-8"))
    scores, times = [], []
    for name in sorted(labels):
        entry = labels[name]
        set_n = args.set if args.set is not None else int(entry.get("set", 12))
        data = (args.dir / name).read_bytes()
        t = time.perf_counter()
        answer = read_url(args.url, data, set_n) if args.url else read_local(data, set_n)
        ms = (time.perf_counter() - t) * 1000
        s = score(answer, entry)
        scores.append(s)
        times.append(ms)
        line = (f"{name}: right {s.right}/{s.tiles}, unsure {s.unsure}, wrong {s.wrong} "
                f"(not flagged {s.silent}), no tile {s.no_tile}, taps {s.taps}, {ms:.0f} ms")
        if s.notes:
            line += "; " + "; ".join(s.notes)
        if "error" in answer:
            line += "; refused: " + answer["error"]
        if args.show:
            line += " | read " + _describe(answer)
        print(line, flush=True)
    result = summary(scores, times)
    if not args.json:
        print(usage_line(result))
    print(json.dumps(result) if args.json else last_line(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
