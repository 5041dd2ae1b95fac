"""Train the photo reader's segmenter on synthetic renders.

The model labels every pixel of a photo as background, tile face, a face's edge band, divider
or pip (scorekeeper.photo.classes.CLASSES); the reader finds tiles, their halves and pips from
that map.  Renders use only the training styles (photolab.styles.HELD_OUT is never drawn),
so the bench on held-out renders measures photos of an unseen kind.

    OMP_NUM_THREADS=2 nice -n 10 .venv/bin/python -m photolab.train --threads 2 [--install]

The model is written to photolab/out/model.onnx (--out), never into the package, unless
``--install`` is given: then it is copied to scorekeeper/photo/model.onnx with its
provenance beside it, scorekeeper/photo/model.json (its sha256, the command, the data and
seeds, the library versions, the time it took), which tests/test_photo_reader.py checks.

Needs the "train" extra (torch, onnx; ``pip install torch==2.13.0`` takes the CPU build).
Seeded (renders, crops and weights): the same arguments give the same model on the same
torch build.  The shipped model.onnx is this command with its defaults (3,000
scenes of 320x320 rendered with seed 17, 2,200 steps of 10 crops of 176x176): 200 s of
rendering and 990 s of training on 2 threads of the shared 2-core machine (a quiet
machine takes about a third of that).  --cache keeps the scenes for another run, --init
and --lr fine-tune from a checkpoint (the .pt written beside the model).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import shutil
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from photolab.render import render_scene  # noqa: E402
from scorekeeper.photo.classes import CLASSES  # noqa: E402

OUT = ROOT / "photolab" / "out" / "model.onnx"
SHIPPED = ROOT / "scorekeeper" / "photo" / "model.onnx"
WEIGHTS = (1.0, 1.0, 2.0, 5.0, 3.0)


def segmenter():
    """A small encoder-decoder (about 90k weights): input 0..255 RGB (N, 3, H, W), H and W
    multiples of 8; output logits of the 5 classes at full size."""
    import torch
    from torch import nn
    import torch.nn.functional as F

    def conv(i, o, s=1, d=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False),
                             nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class Segmenter(nn.Module):
        def __init__(self):
            super().__init__()
            self.e1 = nn.Sequential(conv(3, 16, 2), conv(16, 16))
            self.e2 = nn.Sequential(conv(16, 32, 2), conv(32, 32))
            self.e3 = nn.Sequential(conv(32, 48, 2), conv(48, 48, d=2), conv(48, 48, d=4))
            self.d2 = nn.Sequential(nn.Conv2d(80, 32, 1), nn.ReLU(inplace=True), conv(32, 32))
            self.d1 = nn.Sequential(nn.Conv2d(48, 16, 1), nn.ReLU(inplace=True), conv(16, 16))
            self.head = nn.Conv2d(16, 5, 1)

        def forward(self, x):
            x = x / 127.5 - 1
            a = self.e1(x)
            b = self.e2(a)
            c = self.e3(b)
            u = F.interpolate(c, scale_factor=2, mode="bilinear", align_corners=False)
            u = self.d2(torch.cat([u, b], 1))
            u = F.interpolate(u, scale_factor=2, mode="bilinear", align_corners=False)
            u = self.d1(torch.cat([u, a], 1))
            return F.interpolate(self.head(u), scale_factor=2, mode="bilinear",
                                 align_corners=False)

    return Segmenter()


def make_data(n: int, seed: int, size: int = 320, touching: float = 0.0):
    """*n* scenes; a *touching* share of them of tiles pressed together (render_scene's
    *touching*), drawn after the scene's other choices."""
    rng = np.random.default_rng(seed)
    images = np.zeros((n, size, size, 3), np.uint8)
    masks = np.zeros((n, size, size), np.uint8)
    t = time.time()
    for i in range(n):
        kw = {}
        r = rng.random()
        if r < 0.3:      # close-ups like the reader's rectified crops: big, square to the frame
            kw = dict(tile_w=float(rng.uniform(40, 80)), mode="rows",
                      n_tiles=int(rng.integers(2, 6)))
        elif r < 0.42:   # small tiles, many of them
            kw = dict(tile_w=float(rng.uniform(14, 28)), n_tiles=int(rng.integers(6, 16)))
        if touching and rng.random() < touching:
            kw["touching"] = True
            kw.pop("mode", None)
        scene = render_scene(rng, size, size, split="train", **kw)
        images[i], masks[i] = scene.image, scene.mask
        if i % 200 == 0:
            print(f"rendered {i}/{n} ({time.time() - t:.0f} s)", flush=True)
    return images, masks


def scenes(n: int, seed: int, cache: Path | None, touching: float = 0.0):
    """make_data's images and masks, from *cache* (an .npz) when it exists, else rendered
    (and kept there when *cache* is given)."""
    if cache and cache.exists():
        with np.load(cache) as z:
            return z["images"], z["masks"]
    images, masks = make_data(n, seed, touching=touching)
    if cache:
        np.savez(cache, images=images, masks=masks)
    return images, masks


def export(net, out: str) -> None:
    """Write *net* as ONNX (any batch and size) to *out*."""
    import torch
    net.eval()
    dummy = torch.zeros(1, 3, 256, 256)
    tmp = out + ".tmp"
    torch.onnx.export(net, dummy, tmp, input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"},
                                    "logits": {0: "n", 2: "h", 3: "w"}},
                      opset_version=17, dynamo=False)
    Path(tmp).replace(out)
    torch.save(net.state_dict(), str(Path(out).with_suffix(".pt")) + ".tmp")
    Path(str(Path(out).with_suffix(".pt")) + ".tmp").replace(Path(out).with_suffix(".pt"))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def provenance(model: Path, argv: list[str], seconds: float) -> dict:
    """What made *model*: its sha256, the command, the data and seeds, the versions."""
    import onnx
    import torch
    return {
        "sha256": sha256(model), "bytes": model.stat().st_size,
        "classes": list(CLASSES),
        "command": "python -m photolab.train " + " ".join(argv),
        "data": "synthetic renders of photolab/render.py, training styles only "
                "(photolab/styles.py HELD_OUT never drawn)",
        "seeds": {"renders and weights": _arg(argv, "--seed", 17),
                  "crops": _arg(argv, "--seed", 17) + 1},
        "versions": {"python": platform.python_version(), "torch": torch.__version__,
                     "onnx": onnx.__version__, "numpy": np.__version__},
        "seconds": round(seconds),
    }


def _arg(argv: list[str], name: str, default: int) -> int:
    return int(argv[argv.index(name) + 1]) if name in argv else default


def install(model: Path, argv: list[str], seconds: float) -> None:
    """Copy *model* into the package with its provenance (model.json) beside it."""
    shutil.copyfile(model, SHIPPED)
    record = provenance(SHIPPED, argv, seconds)
    SHIPPED.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n")
    print(f"installed {SHIPPED} (sha256 {record['sha256'][:12]}…) and its model.json")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=3000)
    ap.add_argument("--steps", type=int, default=2200)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--crop", type=int, default=176)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--touching", type=float, default=0.0,
                    help="share of scenes of tiles pressed together, their seams labelled "
                         "edges (0, the default: the scenes the shipped model was trained on)")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--cache", default=None, help="keep the rendered scenes in this .npz")
    ap.add_argument("--every", type=int, default=500, help="write the model every N steps")
    ap.add_argument("--init", default=None, help="start from these weights (a .pt file)")
    ap.add_argument("--lr", type=float, default=3e-3, help="the schedule's highest rate")
    ap.add_argument("--install", action="store_true",
                    help="copy the model into scorekeeper/photo/ with its model.json")
    args = ap.parse_args(argv)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)

    import torch
    import torch.nn.functional as F
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    started = time.time()
    cache = Path(args.cache) if args.cache else None
    images, masks = scenes(args.scenes, args.seed, cache, args.touching)
    print(f"data: {len(images)} scenes in {time.time() - started:.0f} s", flush=True)
    rng = np.random.default_rng(args.seed + 1)
    net = segmenter()
    if args.init:
        net.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps,
                                                pct_start=0.1)
    weights = torch.tensor(WEIGHTS)
    c = args.crop
    n, size = len(images), images.shape[1]
    t0 = time.time()
    net.train()
    for step in range(1, args.steps + 1):
        idx = rng.integers(0, n, args.batch)
        xs, ys = [], []
        for i in idx:
            y0, x0 = rng.integers(0, size - c + 1, 2)
            im = images[i, y0:y0 + c, x0:x0 + c]
            m = masks[i, y0:y0 + c, x0:x0 + c]
            k = int(rng.integers(4))
            im, m = np.rot90(im, k), np.rot90(m, k)
            if rng.random() < 0.5:
                im, m = im[:, ::-1], m[:, ::-1]
            xs.append(np.ascontiguousarray(im))
            ys.append(np.ascontiguousarray(m))
        x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).float()
        # colour jitter: gain, channel shuffle now and then
        x = x * torch.empty(len(idx), 3, 1, 1).uniform_(0.8, 1.2)
        if rng.random() < 0.3:
            x = x[:, torch.from_numpy(rng.permutation(3))]
        x = x.clamp(0, 255)
        y = torch.from_numpy(np.stack(ys)).long()
        logits = net(x)
        loss = F.cross_entropy(logits, y, weight=weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == 1:
            with torch.no_grad():
                pred = logits.argmax(1)
                acc = [(pred[y == k] == k).float().mean().item() if (y == k).any() else float("nan")
                       for k in range(5)]
            print(f"step {step} loss {loss.item():.3f} recall "
                  + " ".join(f"{a:.2f}" for a in acc) + f" ({time.time() - t0:.0f} s)", flush=True)
        if step % args.every == 0 or step == args.steps:
            export(net, args.out)
            net.train()
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1e6:.2f} MB) after "
          f"{time.time() - started:.0f} s", flush=True)
    if args.install:
        install(Path(args.out), [a for a in argv if a != "--install"], time.time() - started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
