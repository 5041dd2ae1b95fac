"""Write a folder of synthetic hand photos with labels.json, for bench/photos.py.

    .venv/bin/python -m photolab.renders DIR [--count 60] [--seed 1] \
        [--split heldout] [--twelve 4] [--standard 0]

``--split heldout`` (the default) draws every photo with at least one style training never
saw (photolab.styles.HELD_OUT: tile colours, backgrounds, a pip layout); "train"
draws training styles, "any" both.  Sizes vary (800x600 to 2000x1500, either way up);
``--twelve K`` makes K of the photos 12 megapixels (4000x3000: rendered at 2000x1500 and
enlarged, then re-noised and saved as a phone would).  ``--standard P`` draws the pips of a
share P of the photos in the layout of most sets sold for the game (photolab.styles.STANDARD;
0 leaves every other draw as it was).  Each entry's ``set`` is a set size in
use (6, 9, 12, 15, 18) holding every tile drawn; 1 to 12 tiles a photo, all fully inside the
frame unless covered (then listed as partial).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from photolab.render import labels_of, render_scene  # noqa: E402
from photolab.styles import STANDARD, sample_style, standard_extras  # noqa: E402

SIZES = ((800, 600), (1024, 768), (1280, 960), (1600, 1200), (2000, 1500))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--split", default="heldout", choices=("train", "heldout", "any"))
    ap.add_argument("--twelve", type=int, default=4, help="how many 12-megapixel photos")
    ap.add_argument("--standard", type=float, default=0.0,
                    help="the share of photos with the sets' standard pip layout")
    args = ap.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    labels = {}
    for i in range(args.count):
        twelve = i < args.twelve
        W, H = (2000, 1500) if twelve else SIZES[rng.integers(len(SIZES))]
        if rng.random() < 0.4:
            W, H = H, W
        set_n = int(rng.choice([6, 9, 12, 15, 18]))
        for _try in range(10):   # a layout may fall off the frame: draw again
            style = None
            if args.standard and rng.random() < args.standard:
                style = replace(sample_style(rng, args.split), layout=STANDARD,
                                extras=standard_extras(rng, set_n))
            scene = render_scene(rng, H, W, n_tiles=int(rng.integers(1, 13)), set_n=set_n,
                                 split=args.split, allow_partial=False, jpeg=False,
                                 style=style)
            if labels_of(scene)["tiles"]:
                break
        img = scene.image
        if twelve:
            img = cv2.resize(img, (W * 2, H * 2), interpolation=cv2.INTER_CUBIC)
            img = np.clip(img + rng.normal(0, 2.5, img.shape), 0, 255).astype(np.uint8)
        name = f"render{i:03d}.jpg"
        q = int(rng.integers(70, 96))
        cv2.imwrite(str(args.dir / name), img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
        entry = labels_of(scene)
        entry["set"] = set_n
        entry["split"] = args.split
        labels[name] = entry
        print(name, W * (2 if twelve else 1), H * (2 if twelve else 1), entry["style"],
              entry["tiles"], flush=True)
    (args.dir / "labels.json").write_text(json.dumps(labels, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
