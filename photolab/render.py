"""Synthetic photos of hands of dominoes with known tiles, for training and measuring.

Each render is a scene drawn top-down (background, tiles with bevel, side, shadow,
divider, spinner and pips), then seen through a mild perspective, lit unevenly, blurred,
noised and JPEG-compressed.  With every picture comes a label mask (one class a pixel, see
``CLASSES``) for training the segmenter, and the tiles drawn, for measuring the reader.

Styles are split in two (:data:`HELD_OUT`): tile colours, backgrounds and a pip layout that
training never sees, so that a measure on ``split="heldout"`` renders is a measure on
photos of an unseen kind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from scorekeeper.photo.classes import BG, CLASSES, DIVIDER, EDGE, FACE, PIP  # noqa: F401
from .styles import (BACKGROUNDS, HELD_OUT, LAYOUTS, NUMBER_COLOURS,  # noqa: F401
                     TILE_COLOURS, Style, _contrasting, pip_layout, pip_radius,
                     sample_style)

# ---------------------------------------------------------------- backgrounds

def _smooth_noise(rng, h, w, scale, channels=1):
    sh, sw = max(2, int(h / scale)), max(2, int(w / scale))
    small = rng.random((sh, sw, channels)).astype(np.float32)
    out = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return out.reshape(h, w, channels)


def background(rng: np.random.Generator, kind: str, h: int, w: int) -> np.ndarray:
    """A float32 RGB background in 0..255."""
    base = np.array([rng.uniform(20, 235) for _ in range(3)], np.float32)
    if kind in ("plain", "paper"):
        if kind == "paper" or rng.random() < 0.4:
            base = np.full(3, rng.uniform(200, 250), np.float32) + rng.normal(0, 6, 3)
        img = np.ones((h, w, 3), np.float32) * base
        img += (_smooth_noise(rng, h, w, 40) - 0.5) * 12
    elif kind == "gradient":
        other = np.array([rng.uniform(20, 235) for _ in range(3)], np.float32)
        t = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
        if rng.random() < 0.5:
            t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
        img = base * (1 - t) + other * t + np.zeros((h, w, 3), np.float32)
    elif kind == "wood":
        base = np.array([rng.uniform(90, 200), rng.uniform(55, 140), rng.uniform(25, 90)],
                        np.float32)
        if rng.random() < 0.3:
            base *= 0.45
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        u = xx * np.cos(ang) + yy * np.sin(ang)
        warp = _smooth_noise(rng, h, w, rng.uniform(30, 120))[..., 0] * rng.uniform(20, 80)
        period = rng.uniform(6, 30)
        grain = 0.5 + 0.5 * np.sin((u + warp) * 2 * np.pi / period)
        grain = grain ** rng.uniform(1, 4)
        img = base * (1 - 0.35 * grain[..., None])
        planks = rng.uniform(60, 250)
        v = -xx * np.sin(ang) + yy * np.cos(ang)
        seam = (np.abs(((v / planks) % 1) - 0.5) > 0.49)
        img[seam] *= 0.5
        img *= (0.85 + 0.3 * _smooth_noise(rng, h, w, 80))
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(2.5, 9)
        weave = (np.sin(xx * 2 * np.pi / p) * np.sin(yy * 2 * np.pi / p))
        img = base + weave[..., None] * rng.uniform(8, 30)
        if rng.random() < 0.5:  # a printed pattern
            img += (_smooth_noise(rng, h, w, rng.uniform(15, 60), 3) - 0.5) * 120
    elif kind == "noise":
        img = base + (rng.random((h, w, 1)).astype(np.float32) - 0.5) * rng.uniform(20, 90)
        img = img + (_smooth_noise(rng, h, w, 20, 3) - 0.5) * 60
    elif kind == "leather":
        base = base * 0.35
        img = base + (_smooth_noise(rng, h, w, 3) - 0.5) * 25
        img = img * (0.5 + _smooth_noise(rng, h, w, 150))
    elif kind == "shapes":
        img = np.ones((h, w, 3), np.float32) * base
        img += (_smooth_noise(rng, h, w, 60, 3) - 0.5) * 50
    elif kind == "carpet":
        n = (rng.random((h, w, 3)).astype(np.float32) - 0.5)
        n = cv2.GaussianBlur(n, (0, 0), rng.uniform(0.6, 1.5)) * rng.uniform(150, 300)
        img = base + n + (_smooth_noise(rng, h, w, 50, 3) - 0.5) * 50
    elif kind == "checker":
        c = rng.uniform(15, 60)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi / 2)
        u = xx * np.cos(ang) + yy * np.sin(ang)
        v = -xx * np.sin(ang) + yy * np.cos(ang)
        chk = ((np.floor(u / c) + np.floor(v / c)) % 2)[..., None]
        other = np.array([rng.uniform(150, 250) for _ in range(3)], np.float32)
        img = base * chk + other * (1 - chk)
    else:
        raise ValueError(kind)
    img = np.ascontiguousarray(img, dtype=np.float32)
    if kind in ("shapes", "cloth", "carpet", "wood") or rng.random() < 0.35:
        _distractors(rng, img, h, w)
    return img


def _distractors(rng, img, h, w, count=None):
    """Circles, dots, bars and blobs: things that look like pips or dividers but are not."""
    count = int(rng.integers(3, 25)) if count is None else count
    for _ in range(count):
        colour = tuple(float(rng.uniform(0, 255)) for _ in range(3))
        x, y = int(rng.integers(w)), int(rng.integers(h))
        kind = rng.integers(5)
        size = float(np.exp(rng.uniform(np.log(2), np.log(max(3, min(h, w) / 6)))))
        if kind == 0:
            cv2.circle(img, (x, y), int(size), colour, -1, cv2.LINE_AA)
        elif kind == 1:
            for _ in range(int(rng.integers(2, 9))):
                cv2.circle(img, (x + int(rng.normal(0, size * 3)), y + int(rng.normal(0, size * 3))),
                           max(1, int(size * 0.4)), colour, -1, cv2.LINE_AA)
        elif kind == 2:
            a = rng.uniform(0, np.pi)
            L = size * rng.uniform(2, 8)
            cv2.line(img, (x, y), (int(x + L * np.cos(a)), int(y + L * np.sin(a))), colour,
                     max(1, int(size * rng.uniform(0.1, 0.5))), cv2.LINE_AA)
        elif kind == 3:
            cv2.ellipse(img, (x, y), (int(size * 2), int(size)), float(rng.uniform(0, 180)), 0, 360,
                        colour, -1, cv2.LINE_AA)
        else:
            pts = (np.array([x, y]) + rng.normal(0, size * 2, (5, 2))).astype(np.int32)
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)


# ---------------------------------------------------------------- one tile

def _rounded_rect(canvas, x0, y0, x1, y1, r, value):
    r = int(max(0, min(r, (x1 - x0) / 2 - 1, (y1 - y0) / 2 - 1)))
    cv2.rectangle(canvas, (x0 + r, y0), (x1 - r, y1), value, -1)
    cv2.rectangle(canvas, (x0, y0 + r), (x1, y1 - r), value, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(canvas, (cx, cy), r, value, -1)


def draw_tile(rng, style: Style, a: int, b: int, w: int, band: float, face_down=False,
              rim: float = 0.0):
    """One tile lying along x: half *a* left, *b* right, *w* px wide (its short side).

    Returns (rgb float32, alpha float32 0..1, label uint8), each of the tile's canvas with a
    margin, and the canvas' centre.  *band* is the edge band's width in canvas pixels.
    *rim* (0..1) darkens the face's outermost band by that much at its very edge, as a
    rounded edge in shade looks: where two such tiles are pressed together the seam is a
    dark line across the tiles that a divider also is, and it is labelled an edge.
    """
    m = int(w * 0.25) + 4
    H, W = w + 2 * m, 2 * w + 2 * m
    rgb = np.zeros((H, W, 3), np.float32)
    label = np.zeros((H, W), np.uint8)
    face_mask = np.zeros((H, W), np.uint8)
    r = int(style.radius * w)
    x0, y0, x1, y1 = m, m, m + 2 * w - 1, m + w - 1
    _rounded_rect(face_mask, x0, y0, x1, y1, r, 255)
    # bevel: darker and lighter towards the edges, by a directional light
    dist = cv2.distanceTransform(face_mask, cv2.DIST_L2, 3)
    face = np.array(style.face, np.float32)
    shade = np.ones((H, W), np.float32)
    if style.bevel > 0:
        bw = max(1.0, w * rng.uniform(0.04, 0.12))
        gx = cv2.Sobel(dist, cv2.CV_32F, 1, 0)
        gy = cv2.Sobel(dist, cv2.CV_32F, 0, 1)
        norm = np.sqrt(gx * gx + gy * gy) + 1e-6
        lx, ly = rng.normal(size=2)
        ln = math.hypot(lx, ly) + 1e-6
        light = (gx * lx + gy * ly) / norm / ln
        edge = np.clip(1 - dist / bw, 0, 1)
        shade += style.bevel * edge * light * 0.8
    shade *= 1 + (_smooth_noise(rng, H, W, max(4, w / 2))[..., 0] - 0.5) * 0.08
    if rim > 0:
        shade *= 1 - rim * np.clip(1 - dist / band, 0, 1) ** 0.7
    rgb[:] = face * shade[..., None]
    label[face_mask > 0] = FACE
    # the edge band: where a face ends (touching tiles stay apart in the mask)
    label[(face_mask > 0) & (dist <= band)] = EDGE
    if not face_down:
        # divider
        dl = rng.uniform(0.5, 0.95)
        t = max(1, int(round(w * rng.uniform(0.025, 0.095))))
        xd = m + w
        ya, yb = int(m + w * (1 - dl) / 2), int(m + w * (1 + dl) / 2)
        style_div = rng.random()
        dcol = _contrasting(style.divider_colour, face)
        if style_div < 0.2:   # engraved: a groove darker than the face
            dcol = face * 0.45
        cv2.line(rgb, (xd, ya), (xd, yb), dcol.tolist(), t, cv2.LINE_AA)
        cv2.line(label, (xd, ya), (xd, yb), DIVIDER, max(t, 2))
        if t >= 3 and rng.random() < 0.5:    # a bar with rounded ends
            for yy in (ya, yb):
                cv2.circle(rgb, (xd, yy), t // 2, dcol.tolist(), -1, cv2.LINE_AA)
                cv2.circle(label, (xd, yy), t // 2, DIVIDER, -1)
        if rng.random() < style.spinner:
            sr = max(2, int(w * rng.uniform(0.05, 0.09)))
            brass = np.array([rng.uniform(170, 215), rng.uniform(130, 170), rng.uniform(40, 80)])
            if rng.random() < 0.3:
                brass = np.array([190, 190, 195.0])
            cv2.circle(rgb, (xd, m + w // 2), sr, brass.tolist(), -1, cv2.LINE_AA)
            cv2.circle(rgb, (xd - sr // 3, m + w // 2 - sr // 3), max(1, sr // 3),
                       (brass * 1.2).clip(0, 255).tolist(), -1, cv2.LINE_AA)
            cv2.circle(label, (xd, m + w // 2), sr, DIVIDER, -1)
        # pips
        inner = style.extras["inner"] if "inner" in style.extras else rng.uniform(0.1, 0.2)
        jitter = rng.uniform(0, 0.02)
        size_k = rng.uniform(0.75, 1.35)
        glint = rng.random() < 0.4
        sunk = rng.random() < 0.5
        for half, n in ((0, a), (1, b)):
            pts = pip_layout(n, style.layout)
            rad = pip_radius(n, style.layout) * size_k * w
            if "pip" in style.extras:      # one pip size for the whole set, as real sets have
                rad = style.extras["pip"] * w
            elif len(pts) >= 2:    # pips never touch: at most 0.4 of the closest spacing
                q = np.array(pts) * (1 - 2 * inner) * w
                dmin = min(float(np.linalg.norm(q[i] - q[j])) for i in range(len(q))
                           for j in range(i + 1, len(q)))
                rad = min(rad, 0.4 * dmin)
            if style.pips == "number":
                col = np.array(NUMBER_COLOURS[n], np.float32)
            else:
                col = np.array(style.pip_colour, np.float32)
            col = _contrasting(col, face)
            for u, v in pts:
                u += rng.normal(0, jitter)
                v += rng.normal(0, jitter)
                # v runs away from the divider: left half mirrors it
                lx = (1 - v) if half == 0 else v
                px = m + half * w + (inner + lx * (1 - 2 * inner)) * w
                py = m + (inner + u * (1 - 2 * inner)) * w
                c = (int(round(px * 4)), int(round(py * 4)))
                rr = max(2, int(round(rad * 4)))
                cv2.circle(rgb, c, rr, col.tolist(), -1, cv2.LINE_AA, shift=2)
                if sunk and rad > 2:   # a pip's hollow: a darker rim on one side
                    cv2.circle(rgb, (c[0] - rr // 5, c[1] - rr // 5), rr, (col * 0.7).tolist(),
                               max(1, int(rad / 4)), cv2.LINE_AA, shift=2)
                if glint and rad > 2.5:   # a shiny pip reflects the lamp
                    g = (c[0] + int(rr * 0.35), c[1] - int(rr * 0.35))
                    cv2.circle(rgb, g, max(2, rr // 4), (col * 0.3 + 180).clip(0, 255).tolist(),
                               -1, cv2.LINE_AA, shift=2)
                cv2.circle(label, c, rr, PIP, -1, shift=2)
    alpha = cv2.GaussianBlur(face_mask.astype(np.float32) / 255, (3, 3), 0.7)
    return rgb, alpha, label, face_mask


@dataclass
class Placed:
    """A tile in a scene: its halves and the 4 corners of its face in the final image."""

    a: int
    b: int
    corners: np.ndarray
    visible: float = 1.0          # share of the face inside the picture
    face_down: bool = False


def _placements(rng, n, w, H, W, mode, touching=False):
    """Centres and angles (radians) of *n* tiles *w* px wide, laid out by *mode*;
    *touching*: rows pressed together side by side (and often row against row), chains end
    against end."""
    L = 2 * w
    out = []
    if mode == "rows":
        ang = rng.uniform(0, np.pi)
        gap = 0.0 if touching else rng.uniform(0, 0.12) * w
        per_row = int(rng.integers(2 if touching else 3, 9))
        rows = math.ceil(n / per_row)
        ax = np.array([np.cos(ang), np.sin(ang)])   # tile length direction
        px = np.array([-np.sin(ang), np.cos(ang)])  # across the row
        if touching and rng.random() < 0.6:
            row_gap = rng.uniform(0, 0.02) * L
        else:
            row_gap = rng.uniform(0.02, 0.6) * L
        cx, cy = W / 2, H / 2
        for i in range(n):
            row, col = divmod(i, per_row)
            off = (col - (per_row - 1) / 2) * (w + gap) * px + (row - (rows - 1) / 2) * (L + row_gap) * ax
            jit = rng.normal(0, 0.02 * w, 2)
            jit = jit * 0.3 if touching else jit
            out.append((cx + off[0] + jit[0], cy + off[1] + jit[1], ang + rng.normal(0, 0.015)))
    elif mode == "chain":
        ang = rng.uniform(0, np.pi)
        x, y = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H
        for i in range(n):
            out.append((x, y, ang))
            step = L + (0.0 if touching else rng.uniform(0, 0.08) * w)
            if rng.random() < 0.25:   # a turn: the next tile across
                x += np.cos(ang) * (L * 0.75)
                y += np.sin(ang) * (L * 0.75)
                ang += np.pi / 2 * rng.choice([-1, 1])
                x += np.cos(ang) * (L * 0.25 + 0.5 * w)
                y += np.sin(ang) * (L * 0.25 + 0.5 * w)
            else:
                x += np.cos(ang) * step
                y += np.sin(ang) * step
    else:   # scatter / grid
        grid = mode == "grid"
        ang0 = rng.uniform(0, np.pi)
        for i in range(n):
            if grid:
                cols = max(1, int(math.sqrt(n * 2)))
                r_, c_ = divmod(i, cols)
                s = rng.uniform(1.05, 1.5)
                x = W / 2 + (c_ - (cols - 1) / 2) * L * s
                y = H / 2 + (r_ - (math.ceil(n / cols) - 1) / 2) * w * s * 1.1
                out.append((x, y, ang0 + rng.normal(0, 0.05)))
            else:
                out.append((rng.uniform(0.08, 0.92) * W, rng.uniform(0.08, 0.92) * H,
                            rng.uniform(0, 2 * np.pi)))
    return out


@dataclass
class Scene:
    image: np.ndarray            # uint8 RGB
    mask: np.ndarray             # uint8 classes
    tiles: list[Placed]
    style: Style
    set_n: int


def _overlaps(occ, poly):
    m = np.zeros_like(occ)
    cv2.fillPoly(m, [poly.astype(np.int32)], 1)
    return bool((m & occ).any()), m


def render_scene(rng: np.random.Generator, H: int = 320, W: int = 320, n_tiles: int | None = None,
                 set_n: int | None = None, split: str = "train", tile_w: float | None = None,
                 mode: str | None = None, style: Style | None = None, allow_partial: bool = True,
                 jpeg: bool = True, tiles: list[tuple[int, int]] | None = None,
                 touching: bool = False) -> Scene:
    """One synthetic photo with its label mask and tiles.  *touching*: the tiles pressed
    together in rows or chains (*mode* one of those, drawn if not given), their faces'
    edges often darkened (:func:`draw_tile`'s *rim*), so that the seam between two tiles is
    learnt as an edge, not a divider; off, the scene is drawn as it always was (the same
    random draws)."""
    style = style or sample_style(rng, split)
    set_n = set_n if set_n is not None else int(rng.integers(6, 19))
    if tiles is not None:
        n_tiles = len(tiles)
    n_tiles = n_tiles if n_tiles is not None else int(rng.integers(1, 13))
    if touching:
        mode = mode or str(rng.choice(["rows", "rows", "chain"]))
    mode = mode or str(rng.choice(["scatter", "scatter", "rows", "chain", "grid"]))
    if tile_w is None:
        # tile width so the tiles take a fair share of the frame
        area = H * W * rng.uniform(0.05, 0.45)
        tile_w = math.sqrt(area / (2 * max(1, n_tiles)))
        tile_w = float(np.clip(tile_w, 14, min(H, W) / 2.3))
    w = tile_w
    img = background(rng, style.background, H, W)
    mask = np.zeros((H, W), np.uint8)
    occ = np.zeros((H, W), np.uint8)
    placed: list[Placed] = []
    full = list(tiles) if tiles is not None else []
    if tiles is None:
        pool = [(x, y) for x in range(set_n + 1) for y in range(x, set_n + 1)]
        idx = rng.permutation(len(pool))[:n_tiles]
        full = [pool[i] for i in idx]
    spots = _placements(rng, len(full), w, H, W, mode, touching)
    rim = float(rng.uniform(0.3, 0.85)) if touching and rng.random() < 0.7 else 0.0
    # tiles are drawn in a canvas with this many pixels across, then warped down
    w_loc = int(np.clip(round(w * 1.6), 24, 200))
    scale = w / w_loc
    band = max(1.0, 1.6 / scale)
    light_dir = rng.normal(size=2)
    shadow_off = light_dir / (np.linalg.norm(light_dir) + 1e-6) * w * rng.uniform(0.02, 0.15)
    side_off = rng.normal(size=2)
    side_off = side_off / (np.linalg.norm(side_off) + 1e-6) * w * rng.uniform(0.0, 0.18)
    for (a, b), (cx, cy, ang) in zip(full, spots):
        if rng.random() < 0.5:
            a, b = b, a
        face_down = rng.random() < 0.05 and tiles is None
        rgb, alpha, lab, fmask = draw_tile(rng, style, a, b, w_loc, band, face_down, rim)
        h_c, w_c = lab.shape
        c, s = math.cos(ang) * scale, math.sin(ang) * scale
        # canvas centre -> (cx, cy), rotated and scaled
        M = np.array([[c, -s, cx - c * w_c / 2 + s * h_c / 2],
                      [s, c, cy - s * w_c / 2 - c * h_c / 2]], np.float32)
        m_ = int(w_loc * 0.25) + 4
        corners_loc = np.array([[m_, m_], [m_ + 2 * w_loc, m_], [m_ + 2 * w_loc, m_ + w_loc],
                                [m_, m_ + w_loc]], np.float32)
        corners = corners_loc @ M[:, :2].T + M[:, 2]
        poly = corners
        hit, pm = _overlaps(occ, poly)
        if hit and mode in ("scatter", "grid"):
            continue
        if (not allow_partial) and (corners.min() < 1 or corners[:, 0].max() > W - 2
                                    or corners[:, 1].max() > H - 2):
            continue
        occ |= pm
        warp = lambda x, interp=cv2.INTER_LINEAR: cv2.warpAffine(  # noqa: E731
            x, M, (W, H), flags=interp, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        A = warp(alpha)
        # shadow and side (the tile's thickness), drawn under the face
        Ms = M.copy()
        Ms[:, 2] += shadow_off + side_off
        sh = cv2.warpAffine(alpha, Ms, (W, H))
        sh = cv2.GaussianBlur(sh, (0, 0), max(0.5, w * 0.08))
        img *= (1 - rng.uniform(0.3, 0.6) * sh)[..., None]
        if np.linalg.norm(side_off) > 1:
            Md = M.copy()
            Md[:, 2] += side_off
            S = cv2.warpAffine(alpha, Md, (W, H))
            img = img * (1 - S[..., None]) + np.array(style.side, np.float32) * S[..., None]
            mask[(S > 0.5) & (mask != PIP) & (mask != DIVIDER)] = EDGE
            # the side hides what lies under it of the mask of earlier tiles
        R = warp(rgb)
        img = img * (1 - A[..., None]) + R * A[..., None]
        L_ = warp(lab, cv2.INTER_NEAREST)
        F = warp(fmask, cv2.INTER_NEAREST) > 127
        mask[F] = L_[F]
        inside = float(np.clip(cv2.contourArea(cv2.convexHull(
            np.clip(corners, [0, 0], [W - 1, H - 1]).astype(np.float32))) / (2 * w * w), 0, 1))
        placed.append(Placed(a, b, corners, inside, face_down))
    if touching:
        seams_as_edges(mask)
    # later tiles may cover earlier ones: visible share from the final mask
    # perspective
    if rng.random() < 0.7:
        d = min(H, W) * rng.uniform(0.0, 0.08)
        src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
        dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32)
        P = cv2.getPerspectiveTransform(src, dst)
        img = cv2.warpPerspective(img, P, (W, H), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REFLECT)
        mask = cv2.warpPerspective(mask, P, (W, H), flags=cv2.INTER_NEAREST,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        for p in placed:
            p.corners = cv2.perspectiveTransform(p.corners[None].astype(np.float32), P)[0]
    # light: a gradient or vignette, a colour cast
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    g = rng.normal(size=2)
    lightmap = 1 + rng.uniform(0, 0.5) * ((xx / W - 0.5) * g[0] + (yy / H - 0.5) * g[1])
    if rng.random() < 0.4:
        rr = ((xx / W - 0.5) ** 2 + (yy / H - 0.5) ** 2)
        lightmap *= 1 - rng.uniform(0, 0.6) * rr
    cast = 1 + rng.normal(0, 0.06, 3)
    img = img * lightmap[..., None] * cast * rng.uniform(0.6, 1.15)
    if rng.random() < 0.3:   # a strong highlight patch
        hx, hy = rng.uniform(0, W), rng.uniform(0, H)
        spot = np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (min(H, W) * rng.uniform(0.05, 0.2)) ** 2))
        img += spot[..., None] * rng.uniform(30, 120)
    sigma = rng.uniform(0, 1.0) * max(1.0, w / 60)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += rng.normal(0, rng.uniform(1, 7), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg and rng.random() < 0.8:
        q = int(rng.integers(35, 96))
        ok, enc = cv2.imencode(".jpg", out[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1].copy()
    # visibility from the final mask (a tile's share of pixels not covered)
    for p in placed:
        pm = np.zeros((H, W), np.uint8)
        cv2.fillPoly(pm, [p.corners.astype(np.int32)], 1)
        area = 2 * w * w
        p.visible = min(p.visible, float(((mask > 0) & (pm > 0)).sum() / max(1, area)))
    return Scene(out, mask, placed, style, set_n)


def seams_as_edges(mask: np.ndarray) -> None:
    """Label as an edge, in place, each background pixel of *mask* between tiles at most two
    pixels apart: a seam no face covers (their outlines rounded to pixels) is the tiles'
    sides seen, not the table."""
    closed = cv2.morphologyEx((mask != BG).astype(np.uint8), cv2.MORPH_CLOSE,
                              np.ones((3, 3), np.uint8))
    mask[(closed > 0) & (mask == BG)] = EDGE


def labels_of(scene: Scene) -> dict:
    """The bench's labels entry for *scene*: fully visible face-up tiles with their centres
    (fractions of the picture's width and height, as in the shared photos' labels), and
    partial ones."""
    tiles, partial, centres = [], [], []
    H, W = scene.image.shape[:2]
    for p in scene.tiles:
        if p.face_down:
            continue
        if p.visible > 0.9:
            tiles.append(sorted([p.a, p.b]))
            cx, cy = np.asarray(p.corners, np.float64).mean(axis=0)
            centres.append([round(float(cx) / W, 4), round(float(cy) / H, 4)])
        else:
            partial.append(sorted([p.a, p.b]))
    return {"tiles": tiles, "partial": partial, "centres": centres, "set": max(6, scene.set_n),
            "style": f"{scene.style.tile} tiles, {scene.style.pips} pips, "
                     f"{scene.style.layout} layout, {scene.style.background} background"}
