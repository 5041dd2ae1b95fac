"""Every outline the reader finds in a labelled folder, matched to the labels' centres, with
the reader's decision on it and its crops: what photolab/failures.py and
photolab/train_crops.py learn and count from.

    .venv/bin/python -m photolab.looks DIR [--jitter 6] [--seed 5]

For every photo of DIR (``labels.json`` as bench/photos.py reads it) whose labels carry
``centres``: the outlines of step 1 (``reader._outlines``), each with

- ``truth``: the index of the labelled tile whose centre is nearest its middle among those
  inside it (grown :data:`GROW` times), or -1 for no tile; photos with partial tiles give -2
  (unknown: it may be a partial one) instead of -1;
- ``decided``: what step 2 made of it (``reader._decide``): None (not a tile), or its
  candidates and confidence, and whether the reader kept it (a tile found twice is kept once);
- crops (:func:`crop_of`, the classifier's input): the outline as found, and *jitter* more
  with the outline shifted, scaled and turned a little (as another finder would give it),
  turned at random a half turn or not.

Written to photolab/out/looks-DIR.npz (crops) and .json (the rest).  Seeded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.photo import reader  # noqa: E402
from scorekeeper.photo.decode import decode  # noqa: E402
from scorekeeper.photo.find import box_width, inside as _inside  # noqa: E402
from scorekeeper.photo.tilenet import crop_of  # noqa: E402

OUT = ROOT / "photolab" / "out"
#: A labelled centre inside an outline grown this much is that outline's tile.
GROW = 1.3


def source_of(entry: dict) -> str:
    """The repository a labelled photo comes from (its label's source, without the path in
    it; "render" for a render)."""
    return entry.get("source", "render").split(":")[0]


def inside(box: np.ndarray, point, grow: float) -> bool:
    """Whether *point* lies in the 4-corner *box* grown *grow* times about its middle."""
    c = box.mean(axis=0)
    return _inside(np.asarray(point, np.float64), c + (box - c) * grow)


def truth_of(box: np.ndarray, points: list, partial: bool) -> int:
    """The labelled tile of *box* (index into *points*), -1 none, -2 unknown."""
    hits = [i for i, p in enumerate(points) if inside(box, p, GROW)]
    if hits:
        c = box.mean(axis=0)
        return min(hits, key=lambda i: float(np.hypot(*(np.asarray(points[i]) - c))))
    return -2 if partial else -1


def jittered(rng: np.random.Generator, box: np.ndarray) -> np.ndarray:
    """*box* shifted (up to 8% of its width), scaled (0.9-1.12) and turned (up to 6 degrees)
    about its middle, and half the time turned a half turn (its corners' order)."""
    c = box.mean(axis=0)
    w = box_width(box)
    a = np.radians(rng.uniform(-6, 6))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    out = (box - c) @ rot.T * rng.uniform(0.9, 1.12) + c + rng.uniform(-0.08, 0.08, 2) * w
    return np.roll(out, 2, axis=0) if rng.random() < 0.5 else out


def look(rgb: np.ndarray, set_n: int) -> list[dict]:
    """Every outline of step 1 in *rgb*, with step 2's decision on it (the reader's own
    functions, so that what is learnt matches what it sees)."""
    tiles = reader._outlines(rgb)
    judged = reader._judged(rgb, tiles, set_n)
    kept = {id(s) for s in reader._once(judged)}
    return [{"box": b, "kept": id(s) in kept, "decided": None if s is None else {
        "candidates": [c.to_json() for c in s.judgement.candidates],
        "confidence": s.judgement.confidence}} for b, s in zip(tiles, judged)]


def extract(folder: Path, jitter: int, seed: int) -> tuple[list[dict], np.ndarray]:
    """Every photo of *folder* with centres: its outlines and their crops."""
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    rng = np.random.default_rng(seed)
    photos, crops = [], []
    for name in sorted(labels):
        entry = labels[name]
        centres = entry.get("centres")
        if not centres or len(centres) != len(entry.get("tiles", [])):
            continue
        dec = decode((folder / name).read_bytes(), long_side=reader.READ_SIDE)
        rgb = dec.rgb
        h, w = rgb.shape[:2]
        set_n = int(entry.get("set", 12))
        points = [(cx * w, cy * h) for cx, cy in centres]
        outlines = []
        for o in look(rgb, set_n):
            box = o["box"]
            first = len(crops)
            crops.append(crop_of(rgb, box))
            crops.extend(crop_of(rgb, jittered(rng, box)) for _ in range(jitter))
            outlines.append({"box": box.tolist(), "kept": o["kept"], "decided": o["decided"],
                             "truth": truth_of(box, points, bool(entry.get("partial"))),
                             "crops": [first, len(crops)]})
        photos.append({"name": name, "source": source_of(entry),
                       "set": set_n, "style": entry.get("style", ""),
                       "tiles": entry["tiles"], "partial": entry.get("partial", []),
                       "centres": centres, "size": [w, h], "outlines": outlines})
        print(f"{name}: {len(outlines)} outlines", flush=True)
    return photos, np.stack(crops) if crops else np.zeros((0, 1, 1, 3), np.uint8)


def load(folder: Path) -> tuple[list[dict], np.ndarray]:
    """What :func:`main` wrote for *folder*."""
    photos = json.loads((OUT / f"looks-{folder.name}.json").read_text())
    crops = np.load(OUT / f"looks-{folder.name}.npz")["crops"]
    return photos, crops


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--jitter", type=int, default=6)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    t = time.time()
    OUT.mkdir(parents=True, exist_ok=True)
    photos, crops = extract(args.dir, args.jitter, args.seed)
    np.savez_compressed(OUT / f"looks-{args.dir.name}.npz", crops=crops)
    (OUT / f"looks-{args.dir.name}.json").write_text(json.dumps(photos))
    print(f"{len(photos)} photos, {sum(len(p['outlines']) for p in photos)} outlines, "
          f"{len(crops)} crops in {time.time() - t:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
