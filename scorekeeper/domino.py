"""Pip layouts and the SVG drawing of a domino, shared by the pages and the PDF."""

from __future__ import annotations

from functools import lru_cache
from math import ceil

from markupsafe import Markup

# Classic positions on a 3×3 grid (0..2, 0..2) for 0 to 9 pips.
_CLASSIC = {
    0: [],
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    7: [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2)],
    8: [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
    9: [(x, y) for y in range(3) for x in range(3)],
}

#: Pip colours by number, as on coloured double-12+ sets (the ends tell apart at a glance).
PIP_COLOURS = {
    0: "#222", 1: "#1e88e5", 2: "#2e7d32", 3: "#c62828", 4: "#6d4c41", 5: "#1565c0",
    6: "#f9a825", 7: "#8e24aa", 8: "#00838f", 9: "#5d4037", 10: "#d81b60", 11: "#37474f",
    12: "#ef6c00", 13: "#283593", 14: "#558b2f", 15: "#ad1457", 16: "#00695c",
    17: "#4527a0", 18: "#bf360c",
}


@lru_cache(maxsize=None)
def pip_positions(n: int) -> tuple[tuple[float, float], ...]:
    """Centres of *n* pips in a unit square (0..1), readable from 0 up to 18."""
    if n in _CLASSIC:
        return tuple(((x + 0.5) / 3, (y + 0.5) / 3) for x, y in _CLASSIC[n])
    rows = ceil(n / 3)
    out = []
    for i in range(n):
        row, col = divmod(i, 3)
        in_row = min(3, n - row * 3)
        # centre a short last row
        offset = (3 - in_row) / 2
        out.append(((col + offset + 0.5) / 3, (row + 0.5) / rows))
    return tuple(out)


def pip_radius(n: int) -> float:
    """Pip radius in the unit square, smaller when many pips share a half."""
    return 0.11 if n <= 9 else (0.085 if n <= 12 else 0.065)


@lru_cache(maxsize=4096)   # a round page draws ~100 dominoes, the same ones every time
def domino_svg(a: int, b: int, size: int = 48, vertical: bool = False,
               label: str | None = None, css_class: str = "domino") -> Markup:
    """An SVG domino showing a|b; *size* is the width of one half in pixels."""
    half = 100
    w, h = (half, 2 * half) if vertical else (2 * half, half)
    parts = [f'<rect x="2" y="2" width="{w - 4}" height="{h - 4}" rx="14" '
             f'fill="#fffdf6" stroke="#333" stroke-width="4"/>']
    if vertical:
        parts.append(f'<line x1="14" y1="{half}" x2="{w - 14}" y2="{half}" '
                     f'stroke="#333" stroke-width="3"/>')
    else:
        parts.append(f'<line x1="{half}" y1="14" x2="{half}" y2="{h - 14}" '
                     f'stroke="#333" stroke-width="3"/>')
    for i, n in enumerate((a, b)):
        ox, oy = (0, i * half) if vertical else (i * half, 0)
        r = pip_radius(n) * (half - 20)
        for x, y in pip_positions(n):
            cx = ox + 10 + x * (half - 20)
            cy = oy + 10 + y * (half - 20)
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" '
                         f'fill="{PIP_COLOURS.get(n, "#222")}"/>')
    width, height = (size, 2 * size) if vertical else (2 * size, size)
    title = label if label is not None else f"{a}-{b}"
    return Markup(
        f'<svg class="{css_class}" viewBox="0 0 {w} {h}" width="{width}" height="{height}" '
        f'role="img" aria-label="{Markup.escape(title)}"><title>{Markup.escape(title)}</title>'
        + "".join(parts) + "</svg>")
