"""Pass 1 of reading a photo: where the tiles are.

The photo's label map (:mod:`.segment`) at detection size: every divider is a tile (its
middle the tile's, its direction the tile's across), measured by rays over the label map
that stop at an edge band (touching tiles) or at the background; a face standing alone in
a domino's shape gives its outline directly.  An outline is 4 corners p0..p3 (an array,
p0->p1 along the tile) in the map's pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .classes import BG, DIVIDER, EDGE, FACE, PIP

#: At most this many dividers are followed up in a photo (a hand has 12 or so tiles).
MAX_TILES = 40
#: A divider's rays measured one tile when each half is as long as the tile is wide and the
#: divider sits in the middle of the tile's width, each within this share of the width; a
#: ray that runs on into a tile pressed against this one (or a seam taken for a divider)
#: measures more, or less.
FIT = 0.2


@dataclass(frozen=True, eq=False)
class Divider:
    """A divider seen: its centre, its unit direction (along the divider), its length."""

    centre: np.ndarray
    along: np.ndarray
    length: float


def _box_from_rect(cx, cy, along, across, length, width) -> np.ndarray:
    """Corners p0..p3 of a tile: p0->p1 runs along its length."""
    a = np.asarray(along, np.float64) * length / 2
    c = np.asarray(across, np.float64) * width / 2
    o = np.array([cx, cy], np.float64)
    return np.array([o - a - c, o + a - c, o + a + c, o - a + c])


def _rays(classes: np.ndarray, origins: np.ndarray, dirs: np.ndarray, start: float,
          limit: float, gap: int) -> np.ndarray:
    """How far from each of *origins* (k, 2) along its direction in *dirs* (k, 2) the tile
    goes, in whole steps from *start* to *limit*: to the first edge band, the map's border,
    or the first run of *gap* background pixels (any one, on a ray shorter than *gap*);
    *limit* where none comes, *start* where there is no step.  All the rays at once: one
    tile's are a handful."""
    h, w = classes.shape
    t = np.arange(int(start), int(limit) + 1, dtype=np.float64)
    if t.size == 0:
        return np.full(len(origins), float(start))
    xs = np.clip(np.round(origins[:, :1] + dirs[:, :1] * t).astype(int), 0, w - 1)
    ys = np.clip(np.round(origins[:, 1:] + dirs[:, 1:] * t).astype(int), 0, h - 1)
    c = classes[ys, xs]
    outside = (xs <= 0) | (xs >= w - 1) | (ys <= 0) | (ys >= h - 1)
    stop = (c == EDGE) | outside
    bg = c == BG
    if gap > 1 and t.size >= gap:
        # a window of *gap* pixels all background, by the running count
        count = np.zeros((len(bg), t.size + 1), np.int32)
        np.cumsum(bg, axis=1, out=count[:, 1:])
        bg_stop = np.zeros_like(bg)
        bg_stop[:, :t.size - gap + 1] = count[:, gap:] - count[:, :-gap] >= gap
    else:
        bg_stop = bg
    hit = stop | bg_stop
    first = hit.argmax(axis=1)
    return np.where(hit.any(axis=1), t[first], float(limit))


def dividers(classes: np.ndarray) -> list[Divider]:
    """The dividers seen in a label map."""
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
    geo = [line(p) for p in segs]
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
        # (the two axes apart: a max over an axis of 2 is numpy's slowest, and a cluttered
        # photo has a thousand pieces)
        apart = np.maximum(np.abs(cs[:, None, 0] - cs[None, :, 0]),
                           np.abs(cs[:, None, 1] - cs[None, :, 1]))
        near = (apart <= ls[:, None] + ls[None]) & (np.abs(us @ us.T) >= 0.96)
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
            joint = np.round(ci + (cj - ci) * t).astype(int)
            hh, ww = classes.shape
            xs, ys = np.clip(joint[:, 0], 0, ww - 1), np.clip(joint[:, 1], 0, hh - 1)
            if not (classes[ys, xs] == EDGE).any():
                parent[root(j)] = root(i)
    groups: dict[int, list[np.ndarray]] = {}
    for i, p in enumerate(segs):
        groups.setdefault(root(i), []).append(p)
    segs = [np.concatenate(g) for g in groups.values()]
    out = []
    for pts in segs:
        c, u, length = line(pts)
        thick = len(pts) / max(length, 1.0)
        if length >= 6 and length >= 2.5 * thick:
            out.append((c, u, length))
    # the dividers of tiles touching side by side may run into one: a divider much longer
    # than the others is cut in as many as it spans
    if len(out) >= 3:
        lengths = np.array([d[2] for d in out])
        ref = median(lengths[lengths >= 0.3 * lengths.max()])
        cut = []
        for c, u, length in out:
            k = int(round(length / ref))
            if length > 1.6 * ref and k >= 2:
                step = length / k
                cut += [(c + u * (step * (i + 0.5) - length / 2), u, step) for i in range(k)]
            else:
                cut.append((c, u, length))
        out = cut
    return [Divider(c, u, length) for c, u, length in out]


def median(a: np.ndarray) -> float:
    """np.median of a small 1-d float array, to the bit, without its general machinery (the
    reader takes a few thousand medians of a handful of values a photo)."""
    s = np.sort(a, axis=None)
    n = s.size
    if n == 0:
        return math.nan
    m = n // 2
    return float(s[m]) if n % 2 else float((s[m - 1] + s[m]) / 2)


def line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
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
        d = median(np.sqrt(pstats[1:, cv2.CC_STAT_AREA]))
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
        mine = comp[y:y + bh, x:x + bw] == k
        # the smallest rectangle around the face: around its outline's points, the same as
        # around all of its pixels (one hull) at a fraction of the points
        edge, _ = cv2.findContours(mine.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE, offset=(int(x), int(y)))
        rect = cv2.minAreaRect(np.concatenate(edge).astype(np.float32))
        rw, rh = rect[1]
        if min(rw, rh) < 8 or not 1.6 <= max(rw, rh) / min(rw, rh) <= 2.6 \
                or area / (rw * rh) < 0.8:
            continue
        ys, xs = np.nonzero(mine)
        c, axis, _ = line(np.stack([xs + x, ys + y], 1).astype(np.float64))
        across = np.array([-axis[1], axis[0]])
        out.append(_box_from_rect(rect[0][0], rect[0][1], axis, across,
                                  max(rw, rh) + 3, min(rw, rh) + 3))
    return out


@dataclass(frozen=True, eq=False)
class Outline:
    """A tile's outline found from its divider or its face: 4 corners p0..p3 (p0->p1 along
    the tile), and whether it was measured as one tile (a face seen whole; a divider whose
    rays agreed, :data:`FIT`)."""

    box: np.ndarray
    measured: bool


def find_tiles(classes: np.ndarray) -> list[np.ndarray]:
    """Tile outlines (4 corners p0..p3 in detection pixels, p0->p1 along the tile), one for
    each divider: its middle is the tile's, its direction the tile's across; faces seen
    whole and apart give theirs directly (better than their divider's)."""
    tile_px = classes != BG
    from_dividers = [o for d in sorted(dividers(classes), key=lambda d: -d.length)[:MAX_TILES]
                     if (o := _divider_outline(classes, tile_px, d)) is not None]
    faces = [Outline(box, True) for box in _face_boxes(classes)]
    return [o.box for o in _one_a_tile(faces, from_dividers)]


def _divider_outline(classes: np.ndarray, tile_px: np.ndarray, d: Divider) -> Outline | None:
    """The outline of the tile across divider *d*, measured by rays over the label map;
    None where it is mostly not tile inside (a line on a busy cloth is not a divider)."""
    h, w = classes.shape
    c, u, dlen = d.centre, d.along, d.length
    v = np.array([-u[1], u[0]])
    gap = max(2, int(0.12 * dlen))
    # across: from the divider's ends outwards, a few parallel rays
    offs = np.array([-0.25, 0.0, 0.25])
    origins = np.repeat(c + (v * offs[:, None]) * dlen, 2, axis=0)
    ends = _rays(classes, origins, np.tile([u, -u], (3, 1)), dlen / 2, dlen * 1.2, gap)
    a, b = median(ends[0::2]), median(ends[1::2])
    width = a + b
    # along: each half about as long as the tile is wide
    origins = np.repeat(c + (u * offs[:, None]) * width + u * (a - b) / 2, 2, axis=0)
    ends = _rays(classes, origins, np.tile([v, -v], (3, 1)), 0.5 * width, 1.6 * width, gap)
    p, q = median(ends[0::2]), median(ends[1::2])
    measured = abs(a - b) <= FIT * width and abs(p - width) <= FIT * width \
        and abs(q - width) <= FIT * width
    # a real tile is twice as long as wide; trust the halves only near that
    width = float(np.clip(width, dlen * 1.05, dlen * 2.0))
    p = float(np.clip(p, 0.8 * width, 1.2 * width))
    q = float(np.clip(q, 0.8 * width, 1.2 * width))
    centre = c + u * (a - b) / 2 + v * (p - q) / 2
    box = _box_from_rect(centre[0], centre[1], v, u, p + q + 1.5, width + 1.5)
    g = np.linspace(0.1, 0.9, 7)
    pts = (box[0] + (box[1] - box[0]) * g[:, None, None]
           + (box[3] - box[0]) * g[None, :, None]).reshape(-1, 2)
    xs = np.clip(pts[:, 0].astype(int), 0, w - 1)
    ys = np.clip(pts[:, 1].astype(int), 0, h - 1)
    return Outline(box, bool(measured)) if tile_px[ys, xs].mean() >= 0.6 else None


def _one_a_tile(faces: list[Outline], from_dividers: list[Outline]) -> list[Outline]:
    """One outline a tile: faces first, then the outlines measured as one tile, then the
    others, each group the wider first; an outline whose middle lies in an earlier one's
    middle is dropped, and so is one not measured that holds the middles of two measured
    ones (it spans tiles pressed together: it is none of them)."""
    order = faces + sorted(from_dividers, key=lambda o: (not o.measured, -box_width(o.box)))
    centres = [o.box.mean(axis=0) for o in order]
    widths = [box_width(o.box) for o in order]
    keep: list[int] = []
    for i, o in enumerate(order):
        if not all(np.linalg.norm(centres[i] - centres[j]) > 0.4 * widths[j] for j in keep):
            continue
        if not o.measured and sum(order[j].measured and inside(centres[j], o.box)
                                  for j in keep) >= 2:
            continue
        keep.append(i)
    return [order[i] for i in keep]


def inside(point: np.ndarray, box: np.ndarray) -> bool:
    """Whether *point* lies inside the convex outline *box* (its corners in order: a tile's
    4, or a hull's)."""
    edge, to = np.roll(box, -1, axis=0) - box, point - box
    cross = edge[:, 0] * to[:, 1] - edge[:, 1] * to[:, 0]
    return bool((cross > 0).all() or (cross < 0).all())


def box_width(box: np.ndarray) -> float:
    """A tile outline's width (its short side, the mean of both)."""
    return float(np.linalg.norm(box[3] - box[0]) + np.linalg.norm(box[2] - box[1])) / 2
