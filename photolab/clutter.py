"""Could the reader skip questions about no tile at all (clutter)?  Learnt from real photos,
judged on whole sources held out, and on the held-out renders.  Not shipped: see
docs/photo-reader.md (it dropped questions on real tiles of held-out renders, and the
bench's silent errors rose there from 9 to 12).

    .venv/bin/python -m photolab.clutter /work/shared/photos [--judge /tmp/heldout]
        [--logistic]

1. Reads every photo of DIR whose labels have ``centres`` (the reader as shipped) and keeps,
   for each tile it saw, the numbers of :func:`features` and whether a labelled tile's
   centre lies inside its outline (grown 1.3 times): a tile, or not.  Photos with partial
   tiles give only their tiles (what is left may be a partial one).  Cached in
   photolab/out/clutter-DIR.json.
2. Leave-one-source-out: for each source, limits learnt from the other sources judge that
   source's questions (the unsure entries): for each of --features (the size against the
   photo's tiles read with confidence, and the divider's distance from the middle), the
   largest value a question on a real tile had, times --margin (1.25).  A question past a
   limit is not asked.  (--logistic: the same by a logistic model over every feature, its
   threshold the highest that drops at most 1% of the real tiles' questions held out.)
3. Prints, on held-out sources, the questions where no tile is and the tiles' questions
   dropped, and the bench's figures of the readings before and after (bench/photos.py's
   rules: tiles right, wrong and not flagged, questions where no tile is, taps per tile).
   With --judge DIR2 (the held-out renders of photolab/renders.py), the limits learnt from
   every source of DIR judge DIR2's questions too: the bench's figures before and after.
4. Writes photolab/out/clutter.json (the limits learnt from every source, the held-out
   figures, its provenance).

Deterministic: no random numbers (the logistic model: full-batch gradient descent from zero).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.photos import answer_of, score, summary, usage_line, last_line  # noqa: E402
from photolab.looks import inside  # noqa: E402
from scorekeeper.photo import reader  # noqa: E402
from scorekeeper.photo.crops import View  # noqa: E402
from scorekeeper.photo.decode import decode  # noqa: E402
from scorekeeper.photo.find import box_width  # noqa: E402
from scorekeeper.photo.judge import CONFIDENT  # noqa: E402
from scorekeeper.photo.reading import Found, Reading, Unsure  # noqa: E402
from scorekeeper.tiles import Tile  # noqa: E402

OUT = ROOT / "photolab" / "out"

#: The features' names, in order (the weights file names them too, and must agree).
NAMES = ("views", "divided", "confidence", "aspect", "fill", "face", "divider", "across",
         "offset", "pips", "pips_per_half_max", "strength", "spread", "merged", "slivers",
         "soft_extra", "size_vs_photo", "size_vs_sure", "agree")


def features(views: tuple[View, ...], divided: bool, confidence: float, width: float,
             photo_widths: list[float], sure_widths: list[float],
             agree: float) -> list[float]:
    """The numbers one tile seen is judged by (in :data:`NAMES`' order)."""
    halves = [h for v in views for h in v.halves]

    def mean(values):
        values = list(values)
        return float(sum(values) / len(values)) if values else 0.0
    med_all = float(np.median(photo_widths)) if photo_widths else width
    med_sure = float(np.median(sure_widths)) if sure_widths else med_all
    return [
        float(len(views)), float(divided), float(confidence),
        mean(v.aspect for v in views), mean(v.fill for v in views), mean(v.face for v in views),
        mean(v.divider for v in views), mean(v.across for v in views),
        mean(v.offset for v in views),
        mean(sum(h.count for h in v.halves) for v in views),
        float(max((h.count for h in halves), default=0)),
        float(min((h.strength for h in halves), default=1.0)),
        float(max((h.spread for h in halves), default=0.0)),
        float(sum(h.merged for h in halves)), float(sum(h.slivers for h in halves)),
        float(sum(max(0, h.soft - h.blobs) for h in halves)),
        abs(math.log(max(width, 1e-3) / max(med_all, 1e-3))),
        abs(math.log(max(width, 1e-3) / max(med_sure, 1e-3))),
        float(agree),
    ]



def features_of(seen: list) -> list[list[float]]:
    """Each tile the reader saw (reader.Seen), in numbers, beside the photo's others."""
    widths = [box_width(t.box) for t in seen]
    sure = [w for t, w in zip(seen, widths) if t.judgement.confidence >= CONFIDENT]
    out = []
    for t, w in zip(seen, widths):
        best = t.judgement.candidates[0]
        agree = sum(Tile.of(v.halves[0].count, v.halves[1].count) == best
                    for v in t.views) / max(1, len(t.views))
        out.append(features(t.views, all(v.looks_like_a_tile() for v in t.views),
                            t.judgement.confidence, w, widths, sure, agree))
    return out


def not_a_tile(x: list[float], bounds: dict[int, float]) -> bool:
    """Whether a question with features *x* passes a limit: likely no tile at all."""
    return any(x[i] > value for i, value in bounds.items())



def extract(folder: Path) -> list[dict]:
    """Every photo read once: its tiles seen, their numbers and their truth."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    photos = []
    for name in sorted(labels):
        entry = labels[name]
        data = (folder / name).read_bytes()
        dec = decode(data, long_side=reader.READ_SIDE)
        set_n = int(entry.get("set", 12))
        seen = reader._detect(dec.rgb, set_n)
        h, w = dec.rgb.shape[:2]
        centres = entry.get("centres")
        truth = []
        for t in seen:
            if centres and len(centres) == len(entry.get("tiles", [])):
                hit = any(inside(t.box, (cx * w, cy * h), 1.3) for cx, cy in centres)
                truth.append(1 if hit else (-1 if entry.get("partial") else 0))
            else:
                truth.append(-1)           # unknown: no centres
        to_photo = dec.width / w
        photos.append({
            "name": name, "source": entry.get("source", "render").split(":")[0], "set": set_n,
            "entry": entry,
            "x": features_of(seen), "truth": truth,
            "confidence": [t.judgement.confidence for t in seen],
            "candidates": [[c.to_json() for c in t.judgement.candidates] for t in seen],
            "boxes": [(t.box * to_photo).tolist() for t in seen],
            "width": dec.width, "height": dec.height,
            "widths": [box_width(t.box) for t in seen]})
        print(f"{name}: {len(seen)} seen", flush=True)
    return photos


def fit(X: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 3000) -> dict:
    """Logistic regression, standardised, full-batch gradient descent from zero."""
    mean, scale = X.mean(axis=0), X.std(axis=0) + 1e-6
    Z = (X - mean) / scale
    w, b = np.zeros(Z.shape[1]), 0.0
    # tiles and not-tiles weigh alike
    pos = max(1, int(y.sum()))
    neg = max(1, len(y) - pos)
    sw = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * neg))
    lr = 0.5
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(Z @ w + b)))
        g = sw * (p - y)
        w -= lr * (Z.T @ g / len(y) + l2 * w / len(y))
        b -= lr * g.mean()
    return {"mean": mean.tolist(), "scale": scale.tolist(), "weights": w.tolist(),
            "bias": float(b)}


def prob(model: dict, X: np.ndarray) -> np.ndarray:
    Z = (X - np.asarray(model["mean"])) / np.asarray(model["scale"])
    return 1 / (1 + np.exp(-(Z @ np.asarray(model["weights"]) + model["bias"])))


def rows(photos: list[dict], which) -> tuple[np.ndarray, np.ndarray]:
    X, y = [], []
    for p in photos:
        if not which(p):
            continue
        for x, t in zip(p["x"], p["truth"]):
            if t >= 0:
                X.append(x)
                y.append(t)
    return np.asarray(X, float).reshape(-1, len(NAMES)), np.asarray(y, float)


def answer(p: dict, keep) -> dict:
    """The API's answer for photo *p*, keeping the seen entries *keep* says."""
    found, unsure = [], []
    for i, conf in enumerate(p["confidence"]):
        if not keep[i]:
            continue
        box = tuple(tuple(xy) for xy in p["boxes"][i])
        cands = tuple(Tile.of(*c) for c in p["candidates"][i])
        if conf >= reader.CONFIDENT:
            found.append(Found(cands[0], box, round(conf, 3)))
        else:
            unsure.append(Unsure(box, cands[:4]))
    return answer_of(Reading(tuple(found), tuple(unsure), p["width"], p["height"]),
                     p.get("set", 12))


def cached(folder: Path) -> list[dict]:
    """extract(folder), kept in photolab/out/ for the next run."""
    OUT.mkdir(parents=True, exist_ok=True)
    cache = OUT / f"clutter-{folder.name}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    photos = extract(folder)
    cache.write_text(json.dumps(photos))
    return photos


def questions(photos: list[dict], which) -> list[tuple[list[float], int]]:
    """(features, truth) of the questions with known truth of the photos *which* takes."""
    return [(x, t) for p in photos if which(p)
            for x, t, c in zip(p["x"], p["truth"], p["confidence"])
            if t >= 0 and c < reader.CONFIDENT]


def learn_limits(rows_: list, features: list[str], margin: float) -> dict[str, float]:
    """For each feature, the largest value a question on a real tile had, times *margin*."""
    return {f: margin * max(x[NAMES.index(f)] for x, t in rows_ if t == 1)
            for f in features}


def held_out_logistic(photos, sources, budget: float) -> str:
    """The logistic model's figure on held-out sources (an ablation)."""
    held = []
    for src in sources:
        X, y = rows(photos, lambda p: p["source"] != src)
        model = fit(X, y)
        for x, t in questions(photos, lambda p: p["source"] == src):
            held.append((float(prob(model, np.asarray([x], float))[0]), t))
    tiles_q = sorted(v for v, t in held if t == 1)
    limit = tiles_q[int(budget * len(tiles_q))]
    return (f"logistic (every feature), threshold {limit:.3f}: questions on no tile dropped "
            f"{sum(1 for v, t in held if t == 0 and v < limit)}/"
            f"{sum(1 for _v, t in held if t == 0)}, on tiles "
            f"{sum(1 for v, t in held if t == 1 and v < limit)}/{len(tiles_q)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--features", default="size_vs_sure,offset")
    ap.add_argument("--margin", type=float, default=1.25)
    ap.add_argument("--logistic", action="store_true", help="also the logistic ablation")
    ap.add_argument("--budget", type=float, default=0.01)
    ap.add_argument("--judge", type=Path, help="another labelled folder the limits judge")
    args = ap.parse_args(argv)
    features = args.features.split(",")
    started = time.time()
    OUT.mkdir(parents=True, exist_ok=True)
    photos = cached(args.dir)
    sources = sorted({p["source"] for p in photos})
    drop = {}                                  # (photo, i) -> dropped, judged held out
    dropped = {0: 0, 1: 0}
    for src in sources:
        bounds = {NAMES.index(f): v for f, v in
                  learn_limits(questions(photos, lambda p: p["source"] != src), features,
                               args.margin).items()}
        for p in photos:
            if p["source"] != src:
                continue
            for i, x in enumerate(p["x"]):
                unsure = p["confidence"][i] < reader.CONFIDENT
                drop[(p["name"], i)] = unsure and not_a_tile(x, bounds)
                if drop[(p["name"], i)] and p["truth"][i] >= 0:
                    dropped[p["truth"][i]] += 1
    known = questions(photos, lambda p: True)
    on_tiles, on_none = sum(t for _x, t in known), sum(1 - t for _x, t in known)
    print(f"\nheld-out sources ({len(sources)}), questions with known truth: "
          f"{on_tiles} on tiles, {on_none} on no tile")
    print(f"limits on {', '.join(features)} (margin {args.margin}): questions on no tile "
          f"dropped {dropped[0]}/{on_none}, on tiles dropped {dropped[1]}/{on_tiles}")
    if args.logistic:
        print(held_out_logistic(photos, sources, args.budget))
    figures = {}
    for label, screen in (("before", False), ("after", True)):
        scores = []
        for p in photos:
            keep = [not (screen and drop[(p["name"], i)]) for i in range(len(p["x"]))]
            scores.append(score(answer(p, keep), p["entry"]))
        s = summary(scores, [0.0])
        figures[label] = {k: v for k, v in s.items() if not k.endswith("_ms")}
        print(f"{label}, every source held out in turn:\n  {usage_line(s)}\n  "
              + last_line(s).split(", read")[0])
    learnt = learn_limits(known, features, args.margin)
    if args.judge:
        others = cached(args.judge)
        bounds = {NAMES.index(f): v for f, v in learnt.items()}
        for label, screen in (("before", False), ("after", True)):
            scores = [score(answer(p, [not (screen and c < reader.CONFIDENT
                                               and not_a_tile(x, bounds))
                                       for x, c in zip(p["x"], p["confidence"])]),
                            p["entry"]) for p in others]
            s = summary(scores, [0.0])
            print(f"{args.judge}, {label}:\n  {usage_line(s)}\n  "
                  + last_line(s).split(", read")[0])
    record = {"names": list(NAMES),
              "limits": learnt,
              "held_out": {"sources": len(sources), "questions_on_tiles": on_tiles,
                           "questions_on_no_tile": on_none,
                           "dropped_on_tiles": dropped[1], "dropped_on_no_tile": dropped[0],
                           "bench_before": figures["before"], "bench_after": figures["after"]},
              "command": "python -m photolab.clutter " + " ".join(sys.argv[1:]),
              "data": f"{len(photos)} photos of {args.dir} (labels' centres), "
                      f"{len(known)} questions with known truth, {len(sources)} sources",
              "versions": {"python": platform.python_version(), "numpy": np.__version__},
              "seconds": round(time.time() - started)}
    (OUT / "clutter.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT / 'clutter.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
