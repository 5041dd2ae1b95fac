"""How a render looks: tile and pip colours, backgrounds, pip layouts (:class:`Style`).

Styles are split in two (:data:`HELD_OUT`): tile colours, backgrounds and a pip layout that
training never sees, so that a measure on ``split="heldout"`` renders is a measure on
photos of an unseen kind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

# Tile face colours (RGB); the held-out ones are never rendered for training.
TILE_COLOURS = {
    "ivory": (238, 230, 200), "white": (245, 245, 242), "cream": (242, 228, 180),
    "pink": (240, 110, 170), "blue": (60, 110, 200), "black": (25, 25, 28),
    "red": (190, 30, 40), "navy": (25, 35, 80), "mint": (170, 225, 200),
    "grey": (150, 150, 155), "bone": (225, 215, 190),
    # held out
    "green": (30, 120, 60), "purple": (110, 50, 150), "yellow": (240, 210, 60),
}
BACKGROUNDS = ("plain", "gradient", "wood", "cloth", "noise", "shapes", "paper", "leather",
               # held out
               "carpet", "checker")
LAYOUTS = ("app", "classic", "two_col", "four_col", "hug",
           # held out
           "stagger")
#: The layout of most sets sold for the game (10: four down each side and one at each end of
#: the middle; 11: and one in the centre; 12: three by four; on to 18 the same way).  Not in
#: LAYOUTS, so that the styles drawn for the segmenter and the held-out renders stay as they
#: were made; ``photolab.renders --standard P`` gives it to a share P of its renders.
STANDARD = "standard"
HELD_OUT = {
    "tile": {"green", "purple", "yellow"},
    "background": {"carpet", "checker"},
    "layout": {"stagger"},
}

#: Pip colours by number on coloured sets (a variant of the app's own, scorekeeper.domino).
NUMBER_COLOURS = [
    (30, 30, 30), (60, 150, 230), (40, 130, 50), (200, 40, 40), (120, 80, 60), (20, 70, 170),
    (235, 175, 30), (140, 40, 160), (0, 130, 140), (90, 60, 50), (215, 30, 100), (60, 70, 80),
    (240, 110, 20), (40, 50, 150), (90, 140, 50), (170, 20, 90), (0, 105, 90), (70, 40, 160),
    (190, 55, 10)]


def _grid3(n: int) -> list[tuple[float, float]]:
    classic = {
        0: [], 1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
        7: [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2)],
        8: [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
        9: [(x, y) for y in range(3) for x in range(3)],
    }
    return [((x + 0.5) / 3, (y + 0.5) / 3) for x, y in classic[n]]


def _columns(n: int, cols: int, centre_last: bool = True) -> list[tuple[float, float]]:
    rows = math.ceil(n / cols)
    out = []
    for i in range(n):
        row, col = divmod(i, cols)
        in_row = min(cols, n - row * cols)
        off = (cols - in_row) / 2 if centre_last else 0
        out.append(((col + off + 0.5) / cols, (row + 0.5) / rows))
    return out


def pip_layout(n: int, kind: str) -> list[tuple[float, float]]:
    """Pip centres of a half showing *n*, in a unit square (x across the tile, y along it
    away from the divider), for a layout *kind* of :data:`LAYOUTS` or :data:`STANDARD`."""
    if n == 0:
        return []
    if kind == "app":                       # this app's own drawing (scorekeeper.domino)
        return _grid3(n) if n <= 9 else _columns(n, 3)
    if kind == "classic":                   # 3x3 up to 9, then 3 columns with the middle filled
        if n <= 9:
            return _grid3(n)
        rows = math.ceil(n / 3)
        pts = [((c + 0.5) / 3, (r + 0.5) / rows) for r in range(rows) for c in (0, 2)]
        mids = [(0.5, (r + 0.5) / rows) for r in range(rows)]
        k = n - len(pts)
        if k < 0:
            pts = pts[:n]
        else:
            order = sorted(range(rows), key=lambda r: abs(r - (rows - 1) / 2))
            pts += [mids[r] for r in sorted(order[:k])]
        return pts
    if kind == STANDARD:
        if n <= 9:
            return _grid3(n)
        rows = math.ceil(n / 3)             # two full side columns, the rest down the middle,
        mids = n - 2 * rows                 # spread from the row by the divider to the far one
        pts = [((c + 0.5) / 3, (r + 0.5) / rows) for r in range(rows) for c in (0, 2)]
        spread = np.linspace(0, rows - 1, mids) if mids > 1 else [(rows - 1) / 2]
        return pts + [(0.5, (float(r) + 0.5) / rows) for r in spread]
    if kind == "two_col":                   # 2 columns x up to 9 rows (small numbers classic)
        if n <= 6:
            return _grid3(n)
        return _columns(n, 2)
    if kind == "four_col":
        if n <= 9:
            return _grid3(n)
        return _columns(n, 4 if n > 12 else 3)
    if kind == "hug":                       # printed cards: pips in a tighter cluster
        pts = _grid3(n) if n <= 9 else _columns(n, 3)
        return [(0.5 + (x - 0.5) * 0.8, 0.05 + y * 0.8) for x, y in pts]
    if kind == "stagger":                   # rows of 3 and 2 alternating (held out)
        out, row = [], 0
        rows_counts = []
        left = n
        while left > 0:
            k = min(left, 3 if row % 2 == 0 else 2)
            rows_counts.append(k)
            left -= k
            row += 1
        rows = len(rows_counts)
        for r, k in enumerate(rows_counts):
            for c in range(k):
                x = (c + 0.5) / 3 if k == 3 else (c + 1) / 3
                out.append((x, (r + 0.5) / rows))
        return out
    raise ValueError(kind)


def standard_extras(rng: np.random.Generator, set_n: int) -> dict:
    """How a set in the :data:`STANDARD` layout spaces and sizes its pips: close to the half's
    edges, and one pip size for every number, as large as the set's fullest half allows (its
    pips nearly touching, as on the real sets)."""
    inner = float(rng.uniform(0.02, 0.08))
    rows = max(3, math.ceil(set_n / 3))
    pip = min(float(rng.uniform(0.085, 0.115)), 0.43 * (1 - 2 * inner) / rows)
    return {"inner": inner, "pip": pip}


def pip_radius(n: int, kind: str) -> float:
    """Pip radius as a share of the half's side."""
    if n <= 9:
        base = 0.10 if kind != "two_col" or n <= 6 else 0.075
    else:
        rows = math.ceil(n / (2 if kind == "two_col" else 3))
        base = min(0.085, 0.36 / rows)
    return base


@dataclass
class Style:
    """How one render looks."""

    tile: str
    face: tuple[int, int, int]
    pips: str                    # "one", "number", "light"
    pip_colour: tuple[int, int, int]
    divider_colour: tuple[int, int, int]
    layout: str
    background: str
    spinner: float               # chance a tile has one
    radius: float                # corner radius as a share of the width
    bevel: float
    side: tuple[int, int, int]
    extras: dict = field(default_factory=dict)


def _contrasting(colour, face):
    """*colour*, pushed towards white or black when it would vanish on *face*."""
    colour = np.asarray(colour, np.float32)
    face = np.asarray(face, np.float32)
    if np.linalg.norm(colour - face) >= 90:
        return colour
    lum = float(face @ np.array([0.3, 0.59, 0.11], np.float32))
    target = np.zeros(3, np.float32) if lum > 128 else np.full(3, 245, np.float32)
    for t in np.linspace(0.2, 1, 5):
        c = colour * (1 - t) + target * t
        if np.linalg.norm(c - face) >= 90:
            return c
    return target


def _vary(rng, colour, amount=18):
    return tuple(int(np.clip(c + rng.normal(0, amount), 0, 255)) for c in colour)


def sample_style(rng: np.random.Generator, split: str = "train") -> Style:
    """A random look; *split* "train" never uses :data:`HELD_OUT`, "heldout" always uses at
    least one held-out choice, "any" mixes both."""
    def pick(options, kind):
        opts = list(options)
        if split == "train":
            opts = [o for o in opts if o not in HELD_OUT[kind]]
        return opts[rng.integers(len(opts))]

    tile = pick(TILE_COLOURS, "tile")
    background = pick(BACKGROUNDS, "background")
    layout = pick(LAYOUTS, "layout") if rng.random() < 0.7 else "app"
    if split == "heldout":
        which = rng.integers(3)
        if which == 0:
            tile = sorted(HELD_OUT["tile"])[rng.integers(3)]
        elif which == 1:
            background = sorted(HELD_OUT["background"])[rng.integers(2)]
        else:
            layout = "stagger"
        if layout == "hug":
            layout = "app"
    if rng.random() < 0.25:   # the commonest and hardest: ivory or white tiles on light paper
        tile = ("ivory", "white", "cream", "bone")[rng.integers(4)]
        if background not in HELD_OUT["background"]:
            background = "paper"
    face = _vary(rng, TILE_COLOURS[tile], 12)
    lum = 0.3 * face[0] + 0.59 * face[1] + 0.11 * face[2]
    dark = lum < 110
    r = rng.random()
    if dark:
        pips = "light" if r < 0.6 else ("number" if r < 0.8 else "one")
    else:
        pips = "one" if r < 0.55 else ("number" if r < 0.85 else "light")
    if pips == "one":
        if dark:
            colour = (240, 240, 235)
        else:
            options = [(20, 20, 20), (20, 20, 20), (30, 30, 90), (230, 190, 30), (160, 20, 30),
                       (20, 70, 30)]
            colour = options[rng.integers(len(options))]
            if tile == "pink" and rng.random() < 0.6:
                colour = (245, 200, 40)
    elif pips == "light":
        colour = (245, 245, 240) if rng.random() < 0.6 else (235, 200, 60)
    else:
        colour = (0, 0, 0)
    colour = _vary(rng, colour, 10)
    if rng.random() < 0.5:
        divider = colour if pips != "number" else _vary(rng, (30, 30, 30), 10)
    else:
        divider = (240, 240, 235) if dark else _vary(rng, (30, 30, 30), 10)
    if pips == "light" and rng.random() < 0.5:
        divider = colour
    side = tuple(int(c * rng.uniform(0.55, 0.85)) for c in face)
    return Style(tile, face, pips, colour, divider, layout, background,
                 spinner=float(rng.choice([0.0, 0.0, 1.0, 0.5])),
                 radius=float(rng.uniform(0.03, 0.2)), bevel=float(rng.uniform(0.0, 0.35)),
                 side=side)
