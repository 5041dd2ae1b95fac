"""The reader's decisions with the tile classifier, scored on photos of sources each fold's
net never saw, without reading the photos again: choosing :mod:`scorekeeper.photo.choose`'s
thresholds.

    .venv/bin/python -m photolab.crops_bench /work/shared/photos [--grid] [--twice] [--apart]
        [--by-number] [--views one|mirror|jitter] [--nets DIR] [--read]

Uses photolab/looks.py's outlines (and their crops) and photolab/train_crops.py's fold nets
(photolab/out/tilenet-fold-K.onnx, tilenet-folds.json): every outline of a photo is
guessed by the net of the fold that held its source out; then decided as the reader
decides (``choose``, the surer of a tile found twice, ``consistent``, the hand's steps of
:mod:`scorekeeper.photo.hand`; not the re-centred outlines, which need the photo) and scored by
bench/photos.py's rules.  Photos with labelled centres only (61 of the shared 76); the
figure to report is bench/photos.py over all of them read with the fold nets
(``python -m photolab.crops_bench DIR --read``, which also prints the share of the
tiles shown as read, partial ones aside, that are right).

--grid prints the figures for a grid of thresholds (each row: tiles right, wrong and not
flagged, questions, where no tile is, taps per tile); the thresholds chosen so are then
seen by every source's predictions (a mild optimism, said in docs/photo-reader.md).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.photos import (answer_of, read_local, score, summary, usage_line,  # noqa: E402
                          last_line)
from photolab.looks import OUT, load, source_of  # noqa: E402
from scorekeeper.photo import hand, reader, segment, tilenet  # noqa: E402
from scorekeeper.photo.choose import RULES, Rules, choose, consistent  # noqa: E402
from scorekeeper.photo.judge import CONFIDENT, Judgement  # noqa: E402
from scorekeeper.photo.reading import Found, Reading, Unsure  # noqa: E402
from scorekeeper.photo.seen import Seen  # noqa: E402
from scorekeeper.tiles import Tile  # noqa: E402


#: Where the fold nets are (--nets; train_crops.py's --nets).
NETS = OUT
#: Where the fold segmenters are (--segs; selftrain.py's --out), None for the shipped one.
SEGS: Path | None = None


def fold_model(source: str) -> Path:
    """The fold net that never saw *source* (the net on every source for one never seen)."""
    folds = json.loads((NETS / "tilenet-folds.json").read_text())
    if source in folds:
        return NETS / f"tilenet-fold-{folds[source]}.onnx"
    return NETS / "tilenet.onnx" if (NETS / "tilenet.onnx").exists() else tilenet.MODEL


def use_segmenter(source: str) -> None:
    """Read with the fold segmenter that never saw *source* (with --segs; fold 0's for a
    source in no fold, which no fold's segmenter saw)."""
    if SEGS is None:
        return
    g = _seg_folds(SEGS).get(source, 0)
    if segment.MODEL != SEGS / f"seg-fold-{g}.onnx":
        segment.MODEL = SEGS / f"seg-fold-{g}.onnx"
        segment._session = None


@functools.cache
def _seg_folds(folder: Path) -> dict[str, int]:
    return json.loads((folder / "seg-folds.json").read_text())


def guessed(photos: list[dict], crops: np.ndarray, views: str = "one") -> None:
    """Each outline's raw net outputs (V, OUTPUTS), from the fold net that never saw its
    photo's source: its crop as it is (*views* "one") or as the reader reads it (as it is
    and mirrored, tilenet.views: "mirror"), or "jitter": those and each jittered crop's."""
    for p in photos:
        model = fold_model(p["source"])
        for o in p["outlines"]:
            first, last = o["crops"]
            x = crops[first:first + 1 if views != "jitter" else last].transpose(0, 3, 1, 2)
            if views != "one":
                x = tilenet.views(x).reshape(-1, *x.shape[1:])
            o["net"] = tilenet.session(model).run(
                None, {"crop": np.ascontiguousarray(x, dtype=np.float32)})[0]


def answer(p: dict, rules: Rules | None) -> dict:
    """The API's answer for photo *p* as the reader decides it (None: without the net)."""
    seen = []
    guesses = tilenet.guesses(np.stack([o["net"] for o in p["outlines"]]), p["set"]) \
        if p["outlines"] else []
    for o, g in zip(p["outlines"], guesses):
        d = o["decided"]
        if d is None:
            continue
        j = Judgement(tuple(Tile.of(*c) for c in d["candidates"]), d["confidence"])
        if rules is not None:
            j = choose(j, g, rules)
            if j is None:
                continue
        seen.append(Seen(np.asarray(o["box"]), j, (), g))
    kept = reader._once(seen)
    if rules is not None:
        decided = consistent([(s.judgement, s.guess) for s in kept], rules)
        kept = hand.alike(hand.taken(hand.apart([Seen(s.box, j, (), s.guess)
                                                 for s, j in zip(kept, decided)
                                                 if j is not None])))
    found, unsure = [], []
    for s in kept:
        box = tuple((float(x), float(y)) for x, y in s.box)
        j = s.judgement
        if j.confidence >= CONFIDENT:
            found.append(Found(j.candidates[0], box, round(j.confidence, 3)))
        else:
            unsure.append(Unsure(box, j.candidates[:4]))
    w, h = p["size"]
    return answer_of(Reading(tuple(found), tuple(unsure), w, h), p["set"])


def figures(photos: list[dict], labels: dict, rules: Rules | None) -> dict:
    """bench/photos.py's summary, and *shown*: the tiles read with confidence, partial ones
    aside (their share right is the confidence's calibration)."""
    answers = [answer(p, rules) for p in photos]
    scores = [score(a, labels[p["name"]]) for a, p in zip(answers, photos)]
    out = summary(scores, [0.0])
    out["shown"] = sum(len(a.get("tiles", [])) - s.partial_read
                       for a, s in zip(answers, scores))
    return out


def row(s: dict) -> str:
    return (f"right {s['tiles_right']}/{s['tiles']}, silent {s['silent_wrong']}, questions "
            f"{s['unsure']}, no tile {s['no_tile']}, taps {s['taps'] / max(1, s['tiles']):.2f}"
            f", photos all right {s['photos_right']}/{s['photos']}, shown as read right "
            f"{s['tiles_right']}/{s['shown']} ({100 * s['tiles_right'] / max(1, s['shown']):.1f}%)")


def read_all(folder: Path) -> int:
    """bench/photos.py over *folder*, each photo read by the net that never saw its source."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    scores, times, shown = [], [], 0
    for name in sorted(labels):
        entry = labels[name]
        tilenet.MODEL = fold_model(source_of(entry))
        use_segmenter(source_of(entry))
        data = (folder / name).read_bytes()
        t = time.perf_counter()
        ans = read_local(data, int(entry.get("set", 12)))
        times.append((time.perf_counter() - t) * 1000)
        s = score(ans, entry)
        scores.append(s)
        shown += len(ans.get("tiles", [])) - s.partial_read
        print(f"{name}: right {s.right}/{s.tiles}, unsure {s.unsure}, wrong {s.wrong} "
              f"(not flagged {s.silent}), no tile {s.no_tile}, taps {s.taps}, "
              f"{times[-1]:.0f} ms" + ("; " + "; ".join(s.notes) if s.notes else ""),
              flush=True)
    result = summary(scores, times)
    print(f"shown as read (partial tiles aside) that are right: {result['tiles_right']}/{shown}"
          f" ({100 * result['tiles_right'] / max(1, shown):.1f}%)")
    print(usage_line(result))
    print(last_line(result))
    return 0


def by_number(photos: list[dict]) -> None:
    """For the outlines on labelled tiles, by the tile's higher half: how often the net's
    best tile (from the fold that never saw the source) is right, and the blob counts' first
    candidate, and that candidate read with confidence."""
    rows: dict[int, list[int]] = {}
    for p in photos:
        for o in p["outlines"]:
            if o["truth"] < 0:
                continue
            tile = Tile.of(*p["tiles"][o["truth"]])
            (g,) = tilenet.guesses(o["net"][None], p["set"])
            d = o["decided"]
            blob = d is not None and Tile.of(*d["candidates"][0]) == tile
            r = rows.setdefault(tile.high, [0, 0, 0, 0])
            r[0] += g.best == tile
            r[1] += blob
            r[2] += blob and d["confidence"] >= CONFIDENT
            r[3] += 1
    print("higher half: the net right, blob counts right (with confidence), of outlines")
    for high in sorted(rows):
        net, blob, sure, n = rows[high]
        print(f"{high:2d}: {net}/{n}, {blob}/{n} ({sure})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--grid", action="store_true")
    ap.add_argument("--twice", action="store_true",
                    help="figures for ways to treat a tile read twice (choose.consistent)")
    ap.add_argument("--nets", type=Path, default=OUT, help="the fold nets' folder")
    ap.add_argument("--segs", type=Path, default=None,
                    help="with --read: the fold segmenters' folder (photolab.selftrain)")
    ap.add_argument("--views", default="one", choices=("one", "mirror", "jitter"),
                    help="the crops the net reads of each outline (the reader: one)")
    ap.add_argument("--by-number", action="store_true",
                    help="how often each reader is right, by the tile's higher half")
    ap.add_argument("--apart", action="store_true",
                    help="figures for not asking questions inside or unlike the sure tiles")
    ap.add_argument("--read", action="store_true",
                    help="read every photo again, each with the net that never saw its source")
    args = ap.parse_args(argv)
    global NETS, SEGS
    NETS, SEGS = args.nets, args.segs
    if args.read:
        return read_all(args.dir)
    labels = json.loads((args.dir / "labels.json").read_text(encoding="utf-8"))
    photos, crops = load(args.dir)
    guessed(photos, crops, args.views)
    if args.by_number:
        by_number(photos)
    print("without the net:", row(figures(photos, labels, None)))
    print(f"with it ({RULES}):", row(figures(photos, labels, RULES)))
    if args.twice:
        for drop in (False, True):
            r = replace(RULES, drop_twice=drop)
            print(f"a tile read twice {'dropped' if drop else 'asked'}:",
                  row(figures(photos, labels, r)), flush=True)
    if args.apart:
        shipped = hand.APART_INSIDE, hand.LARGER, hand.SMALLER
        for inside, sized in itertools.product((False, True), (False, True)):
            hand.APART_INSIDE = inside
            hand.LARGER, hand.SMALLER = shipped[1:] if sized else (None, None)
            print(f"apart: inside {inside}, unlike in size {sized}:",
                  row(figures(photos, labels, RULES)), flush=True)
        hand.APART_INSIDE, hand.LARGER, hand.SMALLER = shipped
    if args.grid:
        for agree, alone, not_tile, veto in itertools.product(
                (0.6, 0.7, 0.8), (0.95, 0.97, 0.985), (0.0, 0.05, 0.1, 0.2, 0.3),
                (0.05, 0.1, 0.2)):
            r = Rules(agree, alone, not_tile, veto)
            print(f"{agree} {alone} {not_tile} {veto}:", row(figures(photos, labels, r)),
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
