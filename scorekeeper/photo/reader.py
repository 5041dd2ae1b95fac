"""Read which tiles a photo of a hand shows.

Two passes of one small segmenter (``model.onnx``, trained on renders by
scripts/train_photo_model.py), which labels every pixel background, tile face, a face's edge
band, divider or pip:

1. *Find the tiles.*  The photo at 1024 px on its longer side: every divider is a tile (its
   middle the tile's, its direction the tile's across), measured by rays over the label map
   that stop at an edge band (touching tiles) or at the background; a face standing alone in
   a domino's shape gives its outline directly.
2. *Read each tile.*  The tile is cut out of the sharper decode, square to the frame: first
   wider, to find its own outline, then in four views (64 and 80 px wide, each as is and
   turned half a turn).  A view must look like a domino; each half's pips are counted from the pip
   blobs (a blob bigger than a pip counts as several).

A tile is read with confidence only when the four views agree and nothing looks doubtful
(blobs that had to be split, faint blobs, slivers at the outline, pips of unequal size);
otherwise it comes back ``unsure``, its candidates ranked by the views' votes.  A face of a
domino's shape with pips on it but no divider in any view comes back ``unsure`` too, never
dropped: a tile left out is an error nothing on the screen would show.  The work is
done by OpenCV and onnxruntime, one thread each, both releasing the GIL.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from ..tiles import Tile
from .decode import decode
from .reading import Box, Found, Reading, Unsure

MODEL = Path(__file__).resolve().parent / "model.onnx"
BG, FACE, EDGE, DIVIDER, PIP = range(5)
#: Pictures go to the segmenter padded (edge pixels repeated) to sides that are multiples of
#: this: the net needs 8 (it halves them three times); 32 is what the deeper net tried in
#: round A2 needed, and what the figures in docs/photo-reader.md were measured with.
MULTIPLE = 32

#: Detection works on the photo scaled to this longer side (and to half of it); tiles are
#: cut out of a decode at least READ_SIDE long (a 12 MP JPEG is decoded at half size).
DETECT_SIDE = 1024
READ_SIDE = 1600
#: A tile is first cut out at this width (its short side), then read at these widths.
CROP_W = 56
VIEW_WIDTHS = (64, 80)
#: A tile must look like one in this many views to be read at all.
MIN_VIEWS = 1
PAD = 8   # crops stay multiples of 8 (the widths are too)
#: At most this many dividers are followed up in a photo (a hand has 12 or so tiles).
MAX_TILES = 40
#: Below this confidence, a tile comes back unsure; the penalties of a doubtful count.
CONFIDENT = 0.8
#: (calibrated on renders of the training styles: merged blobs and slivers summed over all
#: views' halves, the largest spread of pip sizes in a half, the weakest pip's probability)
MERGED, SLIVERS, SPREAD, STRENGTH = 12, 3, 0.15, 0.9
#: A tile whose divider no view shows is never read with confidence (a face with pips but no
#: divider may be something else, or a tile seen badly): at most this, below CONFIDENT.
NO_DIVIDER = 0.4

_session = None
_lock = threading.Lock()


def _net():
    """The segmenter's onnxruntime session, made once (one thread per run)."""
    global _session
    if _session is None:
        with _lock:
            if _session is None:
                import onnxruntime as ort
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = 1
                opts.inter_op_num_threads = 1
                opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
                cv2.setNumThreads(1)
                _session = ort.InferenceSession(str(MODEL), opts,
                                                providers=["CPUExecutionProvider"])
    return _session


def _segment(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The most likely class of every pixel (N, H, W) uint8, and the pip class's probability
    (N, H, W) float32, of a batch of RGB images (N, H, W, 3) of any size (padded to the
    model's multiple and cut back)."""
    n, h, w, _ = batch.shape
    H, W = -(-h // MULTIPLE) * MULTIPLE, -(-w // MULTIPLE) * MULTIPLE
    if (H, W) != (h, w):
        batch = np.pad(batch, ((0, 0), (0, H - h), (0, W - w), (0, 0)), mode="edge")
    x = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)
    logits = _net().run(None, {"image": x})[0]
    # the pip's softmax without the whole softmax: 1 / sum(exp(l_k - l_pip))
    rel = np.exp(np.minimum(logits - logits[:, PIP:PIP + 1], 60.0))
    classes, pip = logits.argmax(axis=1).astype(np.uint8), 1.0 / rel.sum(axis=1)
    return classes[:, :h, :w], pip[:, :h, :w].astype(np.float32)


# ---------------------------------------------------------------- pass 1: find the tiles

def _box_from_rect(cx, cy, along, across, length, width) -> np.ndarray:
    """Corners p0..p3 of a tile: p0->p1 runs along its length."""
    a = np.asarray(along, np.float64) * length / 2
    c = np.asarray(across, np.float64) * width / 2
    o = np.array([cx, cy], np.float64)
    return np.array([o - a - c, o + a - c, o + a + c, o - a + c])


def _ray(classes: np.ndarray, o: np.ndarray, d: np.ndarray, start: float, limit: float,
         gap: int) -> float:
    """How far from *o* along *d* the tile goes: to the first edge band, or the first run of
    *gap* background pixels, past *start*."""
    h, w = classes.shape
    t = np.arange(int(start), int(limit) + 1, dtype=np.float64)
    if t.size == 0:
        return start
    xs = np.clip(np.round(o[0] + d[0] * t).astype(int), 0, w - 1)
    ys = np.clip(np.round(o[1] + d[1] * t).astype(int), 0, h - 1)
    c = classes[ys, xs]
    outside = (xs <= 0) | (xs >= w - 1) | (ys <= 0) | (ys >= h - 1)
    stop = (c == EDGE) | outside
    bg = c == BG
    if gap > 1 and bg.size >= gap:
        run = np.convolve(bg.astype(np.int32), np.ones(gap, np.int32), "valid") >= gap
        bg_stop = np.zeros_like(bg)
        bg_stop[:run.size] = run
    else:
        bg_stop = bg
    hit = np.nonzero(stop | bg_stop)[0]
    return float(t[hit[0]]) if hit.size else float(limit)


def _dividers(classes: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """The dividers seen: centre, unit direction along the divider, length (pixels)."""
    div = (classes == DIVIDER).astype(np.uint8)
    n, comp, stats, _ = cv2.connectedComponentsWithStats(div, connectivity=8)
    segs = []
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < 5:
            continue
        x, y, bw, bh = stats[k, :4]
        ys, xs = np.nonzero(comp[y:y + bh, x:x + bw] == k)
        pts = np.stack([xs + x, ys + y], 1).astype(np.float64)
        segs.append(pts)
    # pieces of one divider (broken by a spinner's rim, say) are joined: one pass, pairs of
    # pieces in line and close, joined through a union-find
    geo = [_line(p) for p in segs]
    parent = list(range(len(segs)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    if segs:
        cs = np.array([g[0] for g in geo])
        us = np.array([g[1] for g in geo])
        ls = np.array([g[2] for g in geo])
        near = (np.abs(cs[:, None] - cs[None]).max(axis=2) <= ls[:, None] + ls[None]) \
            & (np.abs(us @ us.T) >= 0.96)
        pairs = list(zip(*np.nonzero(np.triu(near, 1))))
    else:
        pairs = []
    for i, j in pairs:
        (ci, ui, li), (cj, _uj, lj) = geo[i], geo[j]
        rel = cj - ci
        off = abs(float(rel @ np.array([-ui[1], ui[0]])))
        gap = abs(float(rel @ ui)) - (li + lj) / 2
        if off < 0.12 * max(li, lj) + 1.5 and gap < 0.2 * max(li, lj) + 1:
            # not across an edge: touching tiles in a row have their dividers in line
            t = np.linspace(0, 1, int(np.abs(cj - ci).max()) + 2)[:, None]
            line = np.round(ci + (cj - ci) * t).astype(int)
            hh, ww = classes.shape
            xs, ys = np.clip(line[:, 0], 0, ww - 1), np.clip(line[:, 1], 0, hh - 1)
            if not (classes[ys, xs] == EDGE).any():
                parent[root(j)] = root(i)
    groups: dict[int, list[np.ndarray]] = {}
    for i, p in enumerate(segs):
        groups.setdefault(root(i), []).append(p)
    segs = [np.concatenate(g) for g in groups.values()]
    out = []
    for pts in segs:
        c, u, length = _line(pts)
        thick = len(pts) / max(length, 1.0)
        if length >= 6 and length >= 2.5 * thick:
            out.append((c, u, length))
    # the dividers of tiles touching side by side may run into one: a divider much longer
    # than the others is cut in as many as it spans
    if len(out) >= 3:
        lengths = np.array([d[2] for d in out])
        ref = float(np.median(lengths[lengths >= 0.3 * lengths.max()]))
        cut = []
        for c, u, length in out:
            k = int(round(length / ref))
            if length > 1.6 * ref and k >= 2:
                step = length / k
                cut += [(c + u * (step * (i + 0.5) - length / 2), u, step) for i in range(k)]
            else:
                cut.append((c, u, length))
        out = cut
    return out


def _line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Centre, unit direction and length of a set of points lying along a line."""
    c = pts.mean(axis=0)
    if len(pts) < 2:
        return c, np.array([1.0, 0.0]), 1.0
    d = pts - c
    sxx, syy, sxy = float(d[:, 0] @ d[:, 0]), float(d[:, 1] @ d[:, 1]), float(d[:, 0] @ d[:, 1])
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)      # the principal axis
    u = np.array([math.cos(angle), math.sin(angle)])
    proj = d @ u
    k = len(proj) // 100
    lo, hi = np.partition(proj, (k, len(proj) - 1 - k))[[k, len(proj) - 1 - k]]
    c = c + u * (lo + hi) / 2
    return c, u / np.linalg.norm(u), float(hi - lo + 1)


def _face_boxes(classes: np.ndarray) -> list[np.ndarray]:
    """Outlines of faces that stand alone, shaped like a domino (twice as long as wide)."""
    inside = ((classes == FACE) | (classes == DIVIDER) | (classes == PIP)).astype(np.uint8)
    # a face seen in patches (ivory on white paper) is closed up at the scale of its pips
    pn, _, pstats, _ = cv2.connectedComponentsWithStats((classes == PIP).astype(np.uint8))
    if pn > 1:
        d = float(np.median(np.sqrt(pstats[1:, cv2.CC_STAT_AREA])))
        size = int(np.clip(d, 3, 15)) | 1
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
        closed = cv2.morphologyEx(inside, cv2.MORPH_CLOSE, kernel)
        closed[classes == EDGE] = 0          # touching tiles stay apart where an edge shows
        contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        inside = np.zeros_like(inside)
        cv2.drawContours(inside, contours, -1, 1, -1)
    n, comp, stats, _ = cv2.connectedComponentsWithStats(inside, connectivity=4)
    out = []
    for k in range(1, n):
        area = stats[k, cv2.CC_STAT_AREA]
        if area < 150:
            continue
        x, y, bw, bh = stats[k, :4]
        ys, xs = np.nonzero(comp[y:y + bh, x:x + bw] == k)
        pts = np.stack([xs + x, ys + y], 1).astype(np.float32)
        rect = cv2.minAreaRect(pts)
        rw, rh = rect[1]
        if min(rw, rh) < 8 or not 1.6 <= max(rw, rh) / min(rw, rh) <= 2.6 \
                or area / (rw * rh) < 0.8:
            continue
        c, axis, _ = _line(pts.astype(np.float64))
        across = np.array([-axis[1], axis[0]])
        out.append(_box_from_rect(rect[0][0], rect[0][1], axis, across,
                                  max(rw, rh) + 3, min(rw, rh) + 3))
    return out


def _find_tiles(classes: np.ndarray) -> list[np.ndarray]:
    """Tile outlines (4 corners p0..p3 in detection pixels, p0->p1 along the tile), one for
    each divider: its middle is the tile's, its direction the tile's across."""
    boxes = []
    tile_px = classes != BG
    h, w = classes.shape
    for c, u, dlen in sorted(_dividers(classes), key=lambda d: -d[2])[:MAX_TILES]:
        v = np.array([-u[1], u[0]])
        gap = max(2, int(0.12 * dlen))
        # across: from the divider's ends outwards, a few parallel rays
        widths = []
        for off in (-0.25, 0.0, 0.25):
            o = c + v * off * dlen
            a = _ray(classes, o, u, dlen / 2, dlen * 1.2, gap)
            b = _ray(classes, o, -u, dlen / 2, dlen * 1.2, gap)
            widths.append((a, b))
        a = float(np.median([w[0] for w in widths]))
        b = float(np.median([w[1] for w in widths]))
        width = a + b
        # along: each half about as long as the tile is wide
        lens = []
        for off in (-0.25, 0.0, 0.25):
            o = c + u * off * width + u * (a - b) / 2
            lens.append((_ray(classes, o, v, 0.5 * width, 1.6 * width, gap),
                         _ray(classes, o, -v, 0.5 * width, 1.6 * width, gap)))
        p = float(np.median([x[0] for x in lens]))
        q = float(np.median([x[1] for x in lens]))
        # a real tile is twice as long as wide; trust the halves only near that
        width = float(np.clip(width, dlen * 1.05, dlen * 2.0))
        p = float(np.clip(p, 0.8 * width, 1.2 * width))
        q = float(np.clip(q, 0.8 * width, 1.2 * width))
        centre = c + u * (a - b) / 2 + v * (p - q) / 2
        box = _box_from_rect(centre[0], centre[1], v, u, p + q + 1.5, width + 1.5)
        # mostly tile inside (a line on a busy cloth is not a divider)
        g = np.linspace(0.1, 0.9, 7)
        pts = np.array([box[0] + (box[1] - box[0]) * s_ + (box[3] - box[0]) * t_
                        for s_ in g for t_ in g])
        xs = np.clip(pts[:, 0].astype(int), 0, w - 1)
        ys = np.clip(pts[:, 1].astype(int), 0, h - 1)
        if tile_px[ys, xs].mean() >= 0.6:
            boxes.append(box)
    # faces seen whole and apart give a tile's outline directly (better than its divider)
    faces = _face_boxes(classes)
    boxes = faces + boxes
    # one box a tile: drop a box whose centre lies inside an earlier or bigger one's middle
    keep = []
    order = list(range(len(faces))) + sorted(range(len(faces), len(boxes)),
                                             key=lambda i: -_box_width(boxes[i]))
    for i in order:
        ci = boxes[i].mean(axis=0)
        if all(np.linalg.norm(ci - boxes[j].mean(axis=0)) > 0.4 * _box_width(boxes[j])
               for j in keep):
            keep.append(i)
    return [boxes[i] for i in keep]


# ---------------------------------------------------------------- pass 2: count the pips

def _rectify(rgb: np.ndarray, box: np.ndarray, w: int, grow: float = 1.0):
    """The tile in *box* (photo-array pixels), its surroundings enlarged *grow* times, cut out
    so that the box is w px wide and 2w long, with a margin; and the map photo -> crop."""
    W, H = 2 * w + 2 * PAD, w + 2 * PAD
    c = box.mean(axis=0)
    src = (c + (box - c) * grow).astype(np.float32)
    dst = np.float32([[PAD, PAD], [PAD + 2 * w, PAD], [PAD + 2 * w, PAD + w], [PAD, PAD + w]])
    M = cv2.getPerspectiveTransform(src, dst)
    shrink = _box_width(src) > w * 1.5
    crop = cv2.warpPerspective(rgb, M, (W, H), flags=cv2.INTER_AREA if shrink
                               else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return crop, M


def _box_width(box: np.ndarray) -> float:
    return float(np.linalg.norm(box[3] - box[0]) + np.linalg.norm(box[2] - box[1])) / 2


def _region(classes: np.ndarray, within: float):
    """The tile a crop is centred on: its face with pips and divider, holes filled, kept
    within *within* times the box the crop was cut for (a neighbour touching it without a
    visible edge stays out); with its outline.  None when no face is centred there."""
    H, W = classes.shape
    inside = ((classes == FACE) | (classes == PIP) | (classes == DIVIDER)).astype(np.uint8)
    bw, bh = (W - 2 * PAD) * within / 2, (H - 2 * PAD) * within / 2
    keep = np.zeros_like(inside)
    keep[max(0, int(H / 2 - bh)):int(H / 2 + bh) + 1, max(0, int(W / 2 - bw)):int(W / 2 + bw) + 1] = 1
    inside &= keep
    n, comp = cv2.connectedComponents(inside, connectivity=4)
    if n <= 1:
        return None
    # the component holding most of the crop's middle (where the divider is)
    cy, cx = H // 2, W // 2
    r = max(2, H // 6)
    mid = comp[cy - r:cy + r, cx - r:cx + r]
    mid = mid[mid > 0]
    if mid.size == 0:
        return None
    k = int(np.bincount(mid).argmax())
    region = (comp == k).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=len)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, [outline], -1, 1, -1)
    return filled.astype(bool), outline


def _count(pip_p: np.ndarray, where: np.ndarray, w: int) -> dict:
    """Count the pips among one half's pip probabilities, and say how clean the count was."""
    hard = ((pip_p > 0.5) & where).astype(np.uint8)
    n, comp, stats, _ = cv2.connectedComponentsWithStats(hard, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    min_area = max(3.0, (0.03 * w) ** 2)
    keep = areas >= min_area
    if keep.sum() >= 2:        # slivers (a neighbour's pip cut by the crop) are not pips
        keep &= areas >= 0.35 * np.median(areas[keep])
    slivers = int(((areas >= min_area) & ~keep).sum())
    soft = ((pip_p > 0.25) & where).astype(np.uint8)
    _, _, sstats, _ = cv2.connectedComponentsWithStats(soft, connectivity=8)
    soft_blobs = int((sstats[1:, cv2.CC_STAT_AREA] >= min_area).sum())
    if not keep.any():
        return {"count": 0, "spread": 0.0, "strength": 1.0, "merged": 0, "slivers": slivers,
                "blobs": 0, "soft": soft_blobs, "radius": 0.0}
    # per blob at once: its strongest pip probability, and its widest inscribed circle
    # (one pip's: touching pips make a longer blob)
    on = np.flatnonzero(hard)
    lab = comp.ravel()[on]
    peaks = np.zeros(n, np.float32)
    np.maximum.at(peaks, lab, pip_p.ravel()[on])
    dt = cv2.distanceTransform(hard, cv2.DIST_L2, 3)
    radii = np.zeros(n, np.float32)
    np.maximum.at(radii, lab, dt.ravel()[on])
    areas = areas[keep]
    radii = np.maximum(radii[1:][keep].astype(np.float64), 1.0)
    disc = np.pi * radii ** 2
    round_ = areas / disc < 1.5
    unit = float(np.median(areas[round_])) if round_.any() else float(np.median(disc) * 1.1)
    parts = np.maximum(1, np.round(areas / unit)).astype(int)
    spread = float(np.std(areas[round_]) / (np.mean(areas[round_]) + 1e-6)) \
        if round_.sum() >= 2 else 0.0
    return {"count": int(parts.sum()), "spread": spread,
            "strength": float(peaks[1:][keep].min()), "merged": int((parts > 1).sum()),
            "slivers": slivers, "blobs": int(areas.size), "soft": soft_blobs,
            "radius": float(np.median(radii))}


_grids: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _grid(H: int, W: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates (yy, xx) of an H x W crop, made once per size."""
    if (H, W) not in _grids:
        _grids[(H, W)] = tuple(a.astype(np.float32) for a in np.mgrid[0:H, 0:W])
    return _grids[(H, W)]


def _read_view(classes: np.ndarray, pip_p: np.ndarray, w: int,
               within: float = 1.04) -> dict | None:
    """What one rectified view of a tile shows: the pips of its two halves, how clear its
    divider is, and the tile's outline in the crop (None when no tile is centred there)."""
    found = _region(classes, within)
    if found is None:
        return None
    region, outline = found
    H, W = classes.shape
    rect = cv2.minAreaRect(outline)
    (rw, rh) = rect[1]
    div = ((classes == DIVIDER) & region).astype(np.uint8)
    # the divider: the biggest divider blob near the middle (not bits of a pip's rim)
    nd, dcomp, dstats, dcent = cv2.connectedComponentsWithStats(div, connectivity=8)
    near = np.nonzero(np.abs(dcent[1:, 0] - W / 2) < 0.3 * w)[0] + 1
    divider = 0.0
    if near.size:
        best = int(near[np.argmax(dstats[near, cv2.CC_STAT_AREA])])
        dys, dxs = np.nonzero(dcomp == best)
    else:
        dys = dxs = np.zeros(0, np.int64)
    if dxs.size >= 4:
        c, u, length = _line(np.stack([dxs, dys], 1).astype(np.float64))
        divider = length / max(1.0, min(rw, rh))
    else:
        c, u = np.array([W / 2, H / 2]), np.array([0.0, 1.0])
    n = np.array([-u[1], u[0]])          # across the divider: along the tile
    yy, xx = _grid(H, W)
    side = (xx - c[0]) * n[0] + (yy - c[1]) * n[1]
    margin = max(1.5, 0.03 * w)
    halves = [_count(pip_p, region & (side < -margin), w),
              _count(pip_p, region & (side > margin), w)]
    if n[0] < 0:                          # keep "first" the half towards the crop's left
        halves.reverse()
    long_, short = max(rw, rh), min(rw, rh)
    angle = math.radians(rect[2] + (0 if rw >= rh else 90))
    axis = np.array([math.cos(angle), math.sin(angle)])     # the long axis
    area = float(region.sum())
    return {"halves": halves, "divider": divider, "rect": rect,
            "aspect": long_ / max(short, 1.0), "short": short,
            "fill": area / max(1.0, rw * rh),
            "across": float(abs(u @ axis)),       # 0 when the divider is square to the tile
            "face": float((classes[region] == FACE).mean()),
            "offset": float(abs((c - np.array(rect[0])) @ n)) / max(long_, 1.0)}


def _looks_like_a_tile(v: dict) -> bool:
    """A view's outline and divider as a domino's: twice as long as wide, filled, a divider
    square across its middle, and no half with more pips than any set has."""
    return (_shaped_like_a_tile(v, pips=0) and v["divider"] >= 0.4
            and v["across"] <= 0.35 and v["offset"] <= 0.15)


def _shaped_like_a_tile(v: dict, pips: int = 1) -> bool:
    """A view's outline as a face-up domino's, its divider seen or not: twice as long as
    wide, filled, mostly face, at least *pips* pips on it, no half above any set."""
    return (1.5 <= v["aspect"] <= 2.7 and v["fill"] >= 0.6 and v["face"] >= 0.4
            and all(h["count"] <= 18 for h in v["halves"])
            and sum(h["count"] for h in v["halves"]) >= pips)


def _candidates(votes: list[tuple[int, int]], set_n: int) -> list[Tile]:
    """Tiles from the views' votes for (left, right), most votes first; counts above the set
    go last."""
    tally = Counter(Tile.of(a, b) for a, b in votes)
    ranked = sorted(tally, key=lambda t: (-tally[t], not t.in_set(set_n), t))
    return ranked


def _judge(views: list[dict], set_n: int) -> tuple[list[Tile], float]:
    """Candidates and a confidence from the views of one tile.

    Confidence starts from how many of the four views read the same tile (and how many views
    saw a tile at all), and drops for every sign that a count may be off: many pip blobs
    that had to be split (touching pips), slivers cut at the outline, pips of unequal size,
    a weak pip, a half above the set.  The thresholds were set on renders of the training
    styles; see docs/photo-reader.md.
    """
    votes = [(v["halves"][0]["count"], v["halves"][1]["count"]) for v in views]
    cands = _candidates(votes, set_n)
    best = cands[0]
    agree = sum(Tile.of(*v) == best for v in votes)
    if agree == len(views):     # all four views, or three, or two of them agree
        conf = {4: 1.0, 3: 0.9, 2: 0.75}.get(len(views), 0.5)
    else:
        conf = 0.6 * agree / len(views)
    halves = [h for v in views for h in v["halves"]]
    if sum(h["merged"] for h in halves) > MERGED:
        conf *= 0.6             # many blobs had to be split: touching pips
    if sum(h["slivers"] for h in halves) >= SLIVERS:
        conf *= 0.6             # bits of pips at the outline: the outline may be off
    if max(h["spread"] for h in halves) > SPREAD:
        conf *= 0.7             # pips of unequal size in a half
    if min(h["strength"] for h in halves) < STRENGTH:
        conf *= 0.8             # a pip the model is not sure of
    if not best.in_set(set_n):
        conf *= 0.5
    # near misses become candidates too: one pip more or fewer on a half
    extra = []
    for da, db in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        a, b = best.low + da, best.high + db
        if 0 <= a and 0 <= b and max(a, b) <= max(set_n, 6):
            t = Tile.of(a, b)
            if t not in cands and t not in extra:
                extra.append(t)
    return cands + extra[:2], float(conf)


def read_hand(data: bytes, set_n: int = 12) -> Reading:
    """Read the tiles of the photo in *data* (JPEG, PNG, WebP, HEIC) of a hand laid face up;
    *set_n* is the set in play (double-*set_n*).  Raises PhotoError for a photo it cannot
    decode."""
    dec = decode(data, long_side=READ_SIDE)
    return read_array(dec.rgb, set_n, dec.width, dec.height)


def _refined(view: dict, M: np.ndarray) -> np.ndarray:
    """The tile's outline seen in a view, as corners p0..p3 in photo-array pixels."""
    pts = cv2.boxPoints(view["rect"]).astype(np.float64)
    # order: p0->p1 along the long side
    e01, e12 = pts[1] - pts[0], pts[2] - pts[1]
    if np.linalg.norm(e01) < np.linalg.norm(e12):
        pts = np.roll(pts, -1, axis=0)
    grow = 1.5                                 # the edge band around the inside
    c = pts.mean(axis=0)
    d = pts - c
    d += np.sign(d) * grow / 2
    pts = c + d
    inv = np.linalg.inv(M)
    return cv2.perspectiveTransform(pts[None].astype(np.float64), inv)[0]


def read_array(rgb: np.ndarray, set_n: int = 12, width: int | None = None,
               height: int | None = None) -> Reading:
    """Read the tiles of an RGB array (the photo, maybe reduced from *width* x *height*)."""
    h, w = rgb.shape[:2]
    width, height = width or w, height or h
    to_photo = width / w
    found: list[Found] = []
    unsure: list[Unsure] = []
    for t in _detect(rgb, set_n):
        box: Box = tuple((float(x * to_photo), float(y * to_photo))  # type: ignore[assignment]
                         for x, y in t["box"])
        if t["confidence"] >= CONFIDENT:
            found.append(Found(t["candidates"][0], box, round(t["confidence"], 3)))
        else:
            unsure.append(Unsure(box, tuple(t["candidates"][:4])))
    return Reading(tuple(found), tuple(unsure), width, height)


def _boxes(small: np.ndarray) -> list[np.ndarray]:
    """Tile outlines found in *small* (the photo scaled for detection), in its pixels."""
    classes, _ = _segment(small[None])
    return _find_tiles(classes[0])


def _first_look(rgb: np.ndarray, boxes: list[np.ndarray]) -> list[np.ndarray | None]:
    """Each box looked at closely (cut out 1.3 times wider): the tile's own outline there
    (its divider showing, or failing that a face shaped like a tile with pips on it); None
    where no face-up tile is centred."""
    if not boxes:
        return []
    w0 = CROP_W
    first = [_rectify(rgb, b, w0, grow=1.3) for b in boxes]
    classes, pips = _segment(np.stack([c for c, _ in first]))
    out = []
    for (crop, M), cl, pp in zip(first, classes, pips):
        view = _read_view(cl, pp, w0, within=1.15 / 1.3)
        if view is None or view["short"] < 0.4 * w0:
            out.append(None)
        elif view["divider"] >= 0.3 or _shaped_like_a_tile(view):
            out.append(_refined(view, M))
        else:
            out.append(None)        # no divider and no pips: face down, or not a tile
    return out


def _detect(rgb: np.ndarray, set_n: int) -> list[dict]:
    """Every tile seen in *rgb*: its outline (array pixels), candidates best first, confidence,
    and the views it was judged from."""
    # at two sizes: tiles of a close-up are too big for the model at the first
    h, w = rgb.shape[:2]
    k = DETECT_SIDE / max(h, w)
    small = cv2.resize(rgb, (max(8, round(w * k)), max(8, round(h * k))),
                       interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    half = cv2.resize(small, (max(8, small.shape[1] // 2), max(8, small.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    found = _boxes(small)
    found += [b * (small.shape[1] / half.shape[1]) for b in _boxes(half)]
    tiles = [look for look in _first_look(rgb, [b / k for b in found]) if look is not None]
    if not tiles:
        return []
    # then views of the outline at two sizes, each as is and turned half a turn
    seen = {}
    for vw in VIEW_WIDTHS:
        batch = [_rectify(rgb, b, vw)[0] for b in tiles]
        seen[vw] = _segment(np.stack(batch + [c[::-1, ::-1] for c in batch]))
    out: list[dict] = []
    n = len(tiles)
    for i, b in enumerate(tiles):
        views = [_read_view(seen[vw][0][j * n + i], seen[vw][1][j * n + i], vw)
                 for vw in VIEW_WIDTHS for j in (0, 1)]
        views = [v for v in views if v is not None]
        tiled = [v for v in views if _looks_like_a_tile(v)]
        if len(tiled) >= MIN_VIEWS:
            cands, conf = _judge(tiled, set_n)
        else:
            # a face with pips but no divider to be seen: a tile it cannot read for sure (a
            # missed tile is a silent error; an unsure one is flagged)
            tiled = [v for v in views if _shaped_like_a_tile(v)]
            if not tiled:
                continue        # not a tile (or one too hidden to be sure it is one)
            cands, conf = _judge(tiled, set_n)
            conf = min(conf, NO_DIVIDER)
        out.append({"box": b, "candidates": cands, "confidence": conf, "views": tiled})
    # a tile found twice (at both sizes, or from its divider and its face): the surer reading
    kept: list[dict] = []
    for t in sorted(out, key=lambda t: -t["confidence"]):
        c = t["box"].mean(axis=0)
        if all(np.linalg.norm(c - k["box"].mean(axis=0)) >= 0.4 * min(
                _box_width(k["box"]), _box_width(t["box"])) for k in kept):
            kept.append(t)
    return kept
