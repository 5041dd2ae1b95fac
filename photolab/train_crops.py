"""Train the tile classifier (scorekeeper/photo/tilenet.py) on the reader's own crops of real
photos and renders, judged on whole sources held out.

    OMP_NUM_THREADS=1 nice -n 10 python -m photolab.looks /work/shared/photos
    python -m photolab.renders /dev/shm/trainrenders --split train --count 200 --seed 41 \
        --twelve 0 --standard 0.5
    python -m photolab.looks /dev/shm/trainrenders --jitter 2
    OMP_NUM_THREADS=1 nice -n 10 python -m photolab.train_crops /work/shared/photos \
        --renders /dev/shm/trainrenders [--folds 5] [--steps 1500] [--seed 3] [--install]
        [--real-share 0.7] [--ensemble 1] [--fold K ...] [--nets DIR]

(--fold K: only fold K's net, no net on every source, so that two processes can share two
cores; --nets DIR: where the nets go, default photolab/out; crops_bench.py's --nets reads
them.)

Data (photolab/looks.py's cache): every outline the reader's step 1 finds in a photo with
labelled centres, with its crop and 6 jittered ones; an outline holding a labelled tile's
centre is that tile (its two counts, not which way round: the loss takes the likelier way,
log(pL(a) pR(b) + pL(b) pR(a))), one holding none is *not a tile* (photos with partial tiles
give no such crops: what is left may be one).  Crops of renders of the training styles
(never ``HELD_OUT``) add numbers the photos lack, up to 18.  Augmented in every batch: a
half turn, mirrors, the colour channels shuffled, grey, inverted, contrast, blur, noise
(the net itself normalises each crop's brightness and contrast).  Half of the renders draw
their pips as most sets sold for the game do (``--standard``: one pip size for the set,
close to the edges): the photos hardly show a number above 9, and a net that learnt 10 to 12
only from small, tightly packed render pips read a real set's 10, 11 and 12 as 6 to 9.
``--real-share`` is the share of each batch taken from the photos (the shipped net: 0.5; at
0.7 the photos, with hardly a number above 9, teach the net that a real-looking half holds
9 pips at most).

``--ensemble K`` trains K nets from seeds --seed, --seed + 1, … and ships them as one ONNX
net answering their mean outputs.

1. Leave-sources-out: the photos' sources in --folds groups (by tiles, largest first, each
   to the group with fewest); for each group a net trained without it writes its
   predictions for that group's outlines (photolab/out/tilenet-oof.json) and its model
   (photolab/out/tilenet-fold-K.onnx, with tilenet-folds.json: which source each read).
2. The net on every source: photolab/out/tilenet.onnx; --install copies it to
   scorekeeper/photo/tilenet.onnx with tilenet.json (sha256, command, data, seeds, versions).

Seeded (--seed): the folds' nets and the full one start from the same seed.
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

from photolab.looks import OUT, load  # noqa: E402
from scorekeeper.photo.tilenet import CLS_W, OUTPUTS, TOP  # noqa: E402

PACKAGE = ROOT / "scorekeeper" / "photo"


def make_net():
    """The classifier: one small net reads each half (the right one turned a half turn, so
    that both are seen the same way up: the divider at the right), a head on both halves'
    features says whether it is a tile at all."""
    import torch
    from torch import nn

    def block(cin, cout, stride=1):
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True)]

    class TileNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.halves = nn.Sequential(
                *block(3, 12, 2), *block(12, 24), nn.MaxPool2d(2),
                *block(24, 48), nn.MaxPool2d(2), *block(48, 64),
                nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.count = nn.Linear(64, TOP + 1)
            self.tile = nn.Sequential(nn.Linear(128, 32), nn.ReLU(inplace=True),
                                      nn.Linear(32, 1))

        def forward(self, crop):                 # (N, 3, H, W) RGB, 0..255
            mean = crop.mean(dim=(1, 2, 3), keepdim=True)
            std = crop.std(dim=(1, 2, 3), keepdim=True)
            x = (crop - mean) / (std + 4.0)
            mid = x.shape[3] // 2
            left = x[:, :, :, :mid]
            right = torch.flip(x[:, :, :, mid:], dims=(2, 3))
            fl, fr = self.halves(left), self.halves(right)
            return torch.cat([self.count(fl), self.count(fr),
                              self.tile(torch.cat([fl, fr], 1))], 1)
    return TileNet()


def augment(x, gen):
    """Every batch seen differently: turned, mirrored, colours shuffled, grey, inverted,
    contrast, blur and noise (x: (N, 3, H, W) float 0..255)."""
    import torch
    n = x.shape[0]

    def pick(p):
        return (torch.rand(n, generator=gen) < p).view(n, 1, 1, 1)
    x = torch.where(pick(0.5), torch.flip(x, dims=(2, 3)), x)      # a half turn
    x = torch.where(pick(0.25), torch.flip(x, dims=(2,)), x)       # mirrors: counts stay
    x = torch.where(pick(0.25), torch.flip(x, dims=(3,)), x)
    perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
    x = torch.gather(x, 1, perm.view(n, 3, 1, 1).expand_as(x))
    x = torch.where(pick(0.3), x.mean(dim=1, keepdim=True).expand_as(x), x)
    x = torch.where(pick(0.3), 255.0 - x, x)
    gain = torch.empty(n, 1, 1, 1).uniform_(0.5, 1.5, generator=gen)
    x = (x - 128) * gain + 128 + torch.empty(n, 1, 1, 1).uniform_(-30, 30, generator=gen)
    blur = torch.nn.functional.avg_pool2d(x, 3, 1, 1, count_include_pad=False)
    x = torch.where(pick(0.3), blur, x)
    sigma = torch.empty(n, 1, 1, 1).uniform_(0, 8, generator=gen)
    return x + torch.randn(x.shape, generator=gen) * sigma


def samples(photos: list[dict], real: bool) -> list[tuple]:
    """(crop index, a, b, is a tile, source, outline key, is the outline's own crop)."""
    out = []
    for p in photos:
        for k, o in enumerate(p["outlines"]):
            if o["truth"] == -2:
                continue
            a, b = p["tiles"][o["truth"]] if o["truth"] >= 0 else (0, 0)
            if max(a, b) > TOP:
                continue
            for c in range(*o["crops"]):
                out.append((c, int(a), int(b), o["truth"] >= 0,
                            p["source"] if real else "render", f"{p['name']}#{k}",
                            c == o["crops"][0]))
    return out


def loss_of(out, a, b, tile):
    """The symmetric counts' loss on tiles, and not-a-tile's on every crop."""
    import torch
    import torch.nn.functional as F
    lp = F.log_softmax(out[:, :TOP + 1], 1)
    rp = F.log_softmax(out[:, TOP + 1:2 * (TOP + 1)], 1)
    one = lp.gather(1, a[:, None])[:, 0] + rp.gather(1, b[:, None])[:, 0]
    two = lp.gather(1, b[:, None])[:, 0] + rp.gather(1, a[:, None])[:, 0]
    pair = torch.where(a == b, one, torch.logsumexp(torch.stack([one, two]), 0))
    counts = -(pair * tile).sum() / tile.sum().clamp(min=1)
    not_tile = F.binary_cross_entropy_with_logits(out[:, -1], 1.0 - tile)
    return counts + not_tile


def train(crops_real, crops_render, real, render, steps: int, seed: int, batch: int = 96,
          share: float = 0.7):
    """A net trained on the *real* and *render* samples (*share* of each batch real)."""
    import torch
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = make_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps,
                                                pct_start=0.15)
    n_real = int(batch * share) if render else batch
    net.train()
    t = time.time()
    for step in range(steps):
        pick = [real[i] for i in rng.integers(len(real), size=n_real)]
        imgs = [crops_real[s[0]] for s in pick]
        if render:
            more = [render[i] for i in rng.integers(len(render), size=batch - n_real)]
            pick += more
            imgs += [crops_render[s[0]] for s in more]
        x = torch.from_numpy(np.stack(imgs)).permute(0, 3, 1, 2).float()
        x = augment(x, gen)
        a = torch.tensor([s[1] for s in pick])
        b = torch.tensor([s[2] for s in pick])
        tile = torch.tensor([float(s[3]) for s in pick])
        loss = loss_of(net(x), a, b, tile)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == steps - 1:
            print(f"  step {step}: loss {loss.item():.3f} ({time.time() - t:.0f} s)", flush=True)
    net.eval()
    return net


def trained(crops_real, crops_render, real, render, steps: int, seed: int, share: float,
            ensemble: int):
    """*ensemble* nets trained alike from seeds *seed*, *seed* + 1, …, as one net whose
    outputs are their mean (each half's logits and not-a-tile's): one ONNX file."""
    import torch
    nets = [train(crops_real, crops_render, real, render, steps, seed + k, share=share)
            for k in range(ensemble)]
    if len(nets) == 1:
        return nets[0]

    class Mean(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.nets = torch.nn.ModuleList(nets)

        def forward(self, crop):
            return torch.stack([n(crop) for n in self.nets]).mean(dim=0)
    return Mean().eval()


def predict(net, crops: np.ndarray) -> np.ndarray:
    import torch
    with torch.no_grad():
        out = [net(torch.from_numpy(crops[i:i + 256]).permute(0, 3, 1, 2).float()).numpy()
               for i in range(0, len(crops), 256)]
    return np.concatenate(out) if out else np.zeros((0, OUTPUTS), np.float32)


def export(net, path: Path) -> None:
    import torch
    x = torch.zeros(1, 3, CLS_W + 16, 2 * CLS_W + 16)
    torch.onnx.export(net, x, str(path), input_names=["crop"], output_names=["out"],
                      dynamic_axes={"crop": {0: "n"}, "out": {0: "n"}}, opset_version=17,
                      dynamo=False)


def folds_of(photos: list[dict], k: int) -> dict[str, int]:
    """Sources in *k* groups by tiles: largest first, each to the group with fewest."""
    tiles: dict[str, int] = {}
    for p in photos:
        tiles[p["source"]] = tiles.get(p["source"], 0) + len(p["tiles"])
    load_ = [0] * k
    out = {}
    for s in sorted(tiles, key=lambda s: (-tiles[s], s)):
        g = min(range(k), key=lambda g: (load_[g], g))
        out[s] = g
        load_[g] += tiles[s]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--renders", type=Path)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--real-share", type=float, default=0.7,
                    help="the share of each batch taken from the photos")
    ap.add_argument("--ensemble", type=int, default=1,
                    help="nets trained from this many seeds, shipped as one (their mean)")
    ap.add_argument("--skip-folds", action="store_true", help="only the net on every source")
    ap.add_argument("--fold", type=int, action="append",
                    help="only this fold's net (repeatable; no net on every source): "
                         "two processes can share two cores")
    ap.add_argument("--nets", type=Path, default=OUT,
                    help="where the nets go (default photolab/out; --install needs it)")
    ap.add_argument("--install", action="store_true",
                    help="copy the net on every source into scorekeeper/photo/")
    args = ap.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    started = time.time()
    photos, crops = load(args.dir)
    real = samples(photos, True)
    rphotos, rcrops = load(args.renders) if args.renders else ([], np.zeros((0,)))
    render = samples(rphotos, False)
    print(f"{len(real)} real crops ({sum(s[3] for s in real)} of tiles), "
          f"{len(render)} render crops")
    groups = folds_of(photos, args.folds)
    nets = args.nets
    nets.mkdir(parents=True, exist_ok=True)
    if not args.skip_folds:
        oof = {}
        for g in (args.fold or range(args.folds)):
            held = {s for s, k in groups.items() if k == g}
            print(f"fold {g}: without {sorted(held)}", flush=True)
            net = trained(crops, rcrops, [s for s in real if s[4] not in held], render,
                          args.steps, args.seed, args.real_share, args.ensemble)
            export(net, nets / f"tilenet-fold-{g}.onnx")
            mine = [s for s in real if s[4] in held and s[6]]
            pred = predict(net, crops[[s[0] for s in mine]])
            for s, o in zip(mine, pred):
                oof[s[5]] = o.tolist()
        part = "" if args.fold is None else "-" + "-".join(map(str, args.fold))
        (nets / f"tilenet-oof{part}.json").write_text(json.dumps(oof))
        (nets / "tilenet-folds.json").write_text(json.dumps(groups, indent=1))
        if args.fold is not None:
            print(f"done in {time.time() - started:.0f} s")
            return 0
    net = trained(crops, rcrops, real, render, args.steps, args.seed, args.real_share,
                  args.ensemble)
    export(net, nets / "tilenet.onnx")
    record = {
        "sha256": hashlib.sha256((nets / "tilenet.onnx").read_bytes()).hexdigest(),
        "bytes": (nets / "tilenet.onnx").stat().st_size,
        "outputs": f"{TOP + 1} logits for the left half's pips (0..{TOP}), {TOP + 1} for the "
                   "right half's, 1 for not a tile (scorekeeper/photo/tilenet.py)",
        "command": "python -m photolab.train_crops " + " ".join(argv or sys.argv[1:]),
        "data": {"photos": f"{len(photos)} photos of {args.dir} with centres, "
                           f"{len(real)} crops", "sources": sorted(groups),
                 "renders": f"{len(rphotos)} renders of {args.renders} (training styles, "
                            f"{sum('standard layout' in p.get('style', '') for p in rphotos)}"
                            f" in the sets' standard layout), {len(render)} crops"},
        "seeds": {"training": list(range(args.seed, args.seed + args.ensemble)),
                  "looks (jitter)": 5, "renders": 41},
        "steps": args.steps,
        "real share": args.real_share,
        "versions": {"python": platform.python_version(), "torch": torch.__version__,
                     "numpy": np.__version__,
                     "onnx": __import__("onnx").__version__},
        "seconds": round(time.time() - started)}
    (nets / "tilenet.json").write_text(json.dumps(record, indent=1) + "\n")
    if args.install:
        shutil.copy(nets / "tilenet.onnx", PACKAGE / "tilenet.onnx")
        shutil.copy(nets / "tilenet.json", PACKAGE / "tilenet.json")
        print(f"installed {PACKAGE / 'tilenet.onnx'}")
    print(f"done in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
