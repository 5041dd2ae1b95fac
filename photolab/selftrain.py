"""Teach the segmenter how real photos look under other light: a student starts from the
shipped segmenter and learns that segmenter's own probabilities of the real photos, seen
through other light, colour casts, blur, noise and JPEG (self-training; no label of the
photos is used), mixed with renders as the shipped one was trained on.

    OMP_NUM_THREADS=1 .venv/bin/python -m photolab.selftrain /work/shared/photos \
        [--fold K ...] [--all] [--steps 600] [--out photolab/out/seg-self]

The teacher reads each photo at 512, 1024 and 1536 px on its longer side (no larger than
1.5 times the photo); the student learns the teacher's probabilities of the classes at
each pixel (not only its most likely class: the reader's pip counts rest on the pip
probability), on the photo relit.  --fold K trains the student that never saw fold K's sources
(photolab/train_crops.py's folds, by tiles), written as seg-fold-K.onnx beside
seg-folds.json, so that photolab/crops_bench.py --segs DIR reads each photo with a segmenter
that never saw its source; --all trains the one on every photo (model.onnx; no student
is shipped: docs/photo-reader.md, round L, says why).  A source without tile
centres is in no fold: no fold's student sees it.

Needs the "train" extra (torch, onnx).  Seeded: renders (--seed), crops and weights.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from photolab.looks import source_of  # noqa: E402
from photolab.train import WEIGHTS, export, scenes, segmenter  # noqa: E402
from photolab.train_crops import folds_of  # noqa: E402
from scorekeeper.photo import segment  # noqa: E402

OUT = ROOT / "photolab" / "out" / "seg-self"
SCALES = (512, 1024, 1536)


def from_onnx(path: Path):
    """The segmenter of train.py with the weights of the ONNX model at *path*.  Export
    folded each batch norm into its convolution, so the norms become the identity (their
    shift the folded bias): fine-tune with the norms held in eval mode (:func:`frozen`)."""
    import onnx
    import torch
    from onnx import numpy_helper
    net = segmenter()
    init = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
    folded = [k for k in init if k.startswith("onnx::Conv_")]
    folded.sort(key=lambda k: int(k.rsplit("_", 1)[1]))
    pairs = iter(zip(folded[0::2], folded[1::2]))
    state = net.state_dict()
    for name, mod in net.named_modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            conv = name.rsplit(".", 1)[0] + ".0"
            w, b = next(pairs)
            state[conv + ".weight"] = torch.from_numpy(init[w].copy())
            state[name + ".weight"] = torch.ones_like(state[name + ".weight"])
            state[name + ".bias"] = torch.from_numpy(init[b].copy())
            state[name + ".running_mean"] = torch.zeros_like(state[name + ".running_mean"])
            state[name + ".running_var"] = torch.full_like(state[name + ".running_var"],
                                                           1 - mod.eps)
    for k in ("d2.0.weight", "d2.0.bias", "d1.0.weight", "d1.0.bias", "head.weight",
              "head.bias"):
        state[k] = torch.from_numpy(init[k].copy())
    net.load_state_dict(state)
    return net


def frozen(net):
    """*net* in training mode with its batch norms' statistics held."""
    import torch
    net.train()
    for mod in net.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.eval()
    return net


def taught(folder: Path, labels: dict, crop_side: int) -> list[dict]:
    """Every photo of *folder* (*labels*: its labels.json) at each of :data:`SCALES` (both
    sides at least *crop_side*) with the shipped segmenter's probabilities: dicts of
    source, image, target."""
    out = []
    for name in sorted(labels):
        rgb = cv2.cvtColor(cv2.imread(str(folder / name), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        side = max(rgb.shape[:2])
        for s in SCALES:
            f = s / side
            if s > 1.5 * side or min(rgb.shape[:2]) * f < crop_side:
                continue
            im = cv2.resize(rgb, (round(rgb.shape[1] * f), round(rgb.shape[0] * f)),
                            interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
            out.append({"source": source_of(labels[name]), "image": im, "target": teach(im)})
    return out


def teach(im: np.ndarray) -> np.ndarray:
    """The shipped segmenter's probabilities of the classes at each pixel of *im*
    (H, W, classes) float16."""
    z = segment.logits(im[None])[0]
    p = np.exp(z - z.max(0))
    p /= p.sum(0)
    return p.transpose(1, 2, 0).astype(np.float16)


def relit(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """*im* under other light and another camera: a tone curve, a colour cast, brighter or
    dimmer, now and then blurred, noisy or saved as JPEG again."""
    x = (im.astype(np.float32) / 255) ** np.exp(rng.uniform(np.log(0.6), np.log(1.7)))
    x *= rng.uniform(0.75, 1.25, 3) * rng.uniform(0.7, 1.2)
    x = np.clip(x * 255, 0, 255)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        x = np.clip(x + rng.normal(0, rng.uniform(1, 6), x.shape), 0, 255)
    x = x.astype(np.uint8)
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", x[..., ::-1],        # OpenCV's order: BGR
                               [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        x = np.ascontiguousarray(cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1])
    return x


def crop(im, target, c: int, rng: np.random.Generator):
    """A random *c*-square crop of *im* and *target* (its labels or probabilities), turned
    a random quarter and mirrored half the time."""
    h, w = im.shape[:2]
    y0, x0 = rng.integers(0, h - c + 1), rng.integers(0, w - c + 1)
    im, target = im[y0:y0 + c, x0:x0 + c], target[y0:y0 + c, x0:x0 + c]
    k = int(rng.integers(4))
    im, target = np.rot90(im, k), np.rot90(target, k)
    if rng.random() < 0.5:
        im, target = im[:, ::-1], target[:, ::-1]
    return np.ascontiguousarray(im), np.ascontiguousarray(target)


def student(teacher: Path, real: list[dict], renders, steps: int, seed: int, share: float,
            lr: float, relight: float, batch: int = 10, c: int = 176):
    """The shipped segmenter fine-tuned on *real* (relit) and *renders* (images, masks)."""
    import torch
    import torch.nn.functional as F
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    net = frozen(from_onnx(teacher))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps,
                                                pct_start=0.1)
    images, masks = renders
    t0 = time.time()
    weights = torch.tensor(WEIGHTS)
    for step in range(1, steps + 1):
        xs, ys, ps = [], [], []
        for _ in range(batch):
            if rng.random() < share:
                r = real[int(rng.integers(len(real)))]
                im, p = crop(r["image"], r["target"], c, rng)
                xs.append(relit(im, rng) if rng.random() < relight else im)
                ps.append(p)
            else:
                i = int(rng.integers(len(images)))
                im, m = crop(images[i], masks[i], c, rng)
                xs.insert(len(ys), im)
                ys.append(m)
        x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).float()
        out = net(x)
        loss = out.sum() * 0
        if ys:     # renders: their true labels, as train.py
            y = torch.from_numpy(np.stack(ys)).long()
            loss = loss + F.cross_entropy(out[:len(ys)], y, weight=weights) * len(ys) / batch
        if ps:     # photos: the teacher's probabilities on the photo as it was
            p = torch.from_numpy(np.stack(ps).astype(np.float32)).permute(0, 3, 1, 2)
            soft = -(p * F.log_softmax(out[len(ys):], 1)).sum(1).mean()
            loss = loss + soft * len(ps) / batch
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == 1:
            print(f"step {step} loss {loss.item():.3f} ({time.time() - t0:.0f} s)", flush=True)
    return net.eval()


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--fold", type=int, action="append", default=[])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--all", action="store_true", help="the student of every photo")
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--share", type=float, default=0.5, help="the photos' share of a batch")
    ap.add_argument("--relight", type=float, default=0.75,
                    help="the share of photo crops seen relit (the rest as they are)")
    ap.add_argument("--scenes", type=int, default=800)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--teacher", type=Path, default=segment.MODEL)
    ap.add_argument("--cache", type=Path, help="keep the renders in this .npz")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    segment.MODEL = args.teacher
    started = time.time()
    labels = json.loads((args.dir / "labels.json").read_text(encoding="utf-8"))
    real = taught(args.dir, labels, 176)
    renders = scenes(args.scenes, args.seed, args.cache)
    print(f"{len(real)} photo scales taught, {len(renders[0])} renders "
          f"({time.time() - started:.0f} s)", flush=True)
    groups = folds_of([{"source": source_of(e), "tiles": e["tiles"]}
                       for e in labels.values() if "centres" in e], args.folds)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "seg-folds.json").write_text(json.dumps(groups, indent=1))
    for g in args.fold:
        seen = [r for r in real if groups.get(r["source"], -1) not in (-1, g)]
        print(f"fold {g}: {len(seen)} photo scales", flush=True)
        net = student(args.teacher, seen, renders, args.steps, args.seed, args.share, args.lr,
                      args.relight)
        export(net, str(args.out / f"seg-fold-{g}.onnx"))
    if args.all:
        net = student(args.teacher, real, renders, args.steps, args.seed, args.share, args.lr,
                      args.relight)
        export(net, str(args.out / "model.onnx"))
    print(f"done in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
