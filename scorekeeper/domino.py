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


def _half(n: int, dx: int = 0, dy: int = 0) -> str:
    """The pips of one half (100×100 units, offset by dx, dy) as SVG circles."""
    half = 100
    r = pip_radius(n) * (half - 20)
    return "".join(
        f'<circle cx="{dx + 10 + x * (half - 20):.1f}" cy="{dy + 10 + y * (half - 20):.1f}" '
        f'r="{r:.1f}" fill="{PIP_COLOURS.get(n, "#222")}"/>' for x, y in pip_positions(n))


#: The train marker beside a player's name (22×16, ``train``): a locomotive without a fill of
#: its own, so that it takes the seat's colour from the ``fill`` of the <svg> that uses it
#: (template_helpers.train_mark), outlined in the text's colour.
TRAIN_MARK = (
    '<g id="train" stroke="currentColor" stroke-width="1.3">'
    '<path d="M1.5 12.5V6h2.5V2.5h3V6h6V1.5h7v11z" stroke-linejoin="round"/>'
    '<circle cx="6" cy="13" r="2.3"/><circle cx="16" cy="13" r="2.3"/></g>')


@lru_cache(maxsize=1)
def sprite() -> str:
    """One SVG file holding every drawing a domino is made of, referenced with <use>.

    ``fh``/``fv``: the blank tile, horizontal (200×100) and vertical (100×200);
    ``p0`` … ``p18``: the pips of one half (100×100); ``train``: the train marker
    (:data:`TRAIN_MARK`).  Pages draw each domino as
    three ``<use>`` references instead of repeating its circles inline, so a page
    with a picker of 190 tiles stays small, and the browser caches this file.
    """
    frame = ('<rect x="2" y="2" width="{w}" height="{h}" rx="14" fill="#fffdf6" '
             'stroke="#333" stroke-width="4"/>')
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg"><defs>',
        '<g id="fh">' + frame.format(w=196, h=96)
        + '<line x1="100" y1="14" x2="100" y2="86" stroke="#333" stroke-width="3"/></g>',
        '<g id="fv">' + frame.format(w=96, h=196)
        + '<line x1="14" y1="100" x2="86" y2="100" stroke="#333" stroke-width="3"/></g>',
    ]
    parts += [f'<g id="p{n}">{_half(n)}</g>' for n in PIP_COLOURS]
    parts.append(TRAIN_MARK)
    parts.append("</defs></svg>")
    return "".join(parts)


@lru_cache(maxsize=4096)   # a page draws the same dominoes every time
def domino_svg(a: int, b: int, size: int = 48, vertical: bool = False,
               label: str | None = None, css_class: str = "domino",
               sprite_url: str | None = None) -> Markup:
    """An SVG domino showing a|b; *size* is the width of one half in pixels.

    With *sprite_url* (the address of :func:`sprite`), the tile is three
    ``<use>`` references into that file; without it, a self-contained drawing.
    An empty *label* makes the picture decorative (hidden from screen readers).
    """
    w, h = (100, 200) if vertical else (200, 100)
    width, height = (size, 2 * size) if vertical else (2 * size, size)
    bx, by = (0, 100) if vertical else (100, 0)
    if sprite_url is not None:
        body = (f'<use href="{sprite_url}#f{"v" if vertical else "h"}"/>'
                f'<use href="{sprite_url}#p{a}"/><use href="{sprite_url}#p{b}" x="{bx}" y="{by}"/>')
    else:
        frame = (f'<rect x="2" y="2" width="{w - 4}" height="{h - 4}" rx="14" fill="#fffdf6" '
                 f'stroke="#333" stroke-width="4"/>')
        line = ('<line x1="14" y1="100" x2="86" y2="100" stroke="#333" stroke-width="3"/>'
                if vertical else
                '<line x1="100" y1="14" x2="100" y2="86" stroke="#333" stroke-width="3"/>')
        body = frame + line + _half(a) + _half(b, bx, by)
    title = label if label is not None else f"{a}-{b}"
    role = (f'role="img" aria-label="{Markup.escape(title)}"' if title
            else 'aria-hidden="true" focusable="false"')
    return Markup(f'<svg class="{css_class}" viewBox="0 0 {w} {h}" width="{width}" '
                  f'height="{height}" {role}>{body}</svg>')
