"""The figures the scoresheet draws as paths: the engine domino with its pips, the star,
a seat's train marker and the QR code of the sheet's verification page.

The pips take the colours and places of the pages' tiles (:mod:`scorekeeper.domino`),
so the engine printed beside a round looks as it does on screen; the train marker is
the pages' (``template_helpers.train_mark``), in the seat's train colour.
"""

from __future__ import annotations

from functools import lru_cache
from math import cos, pi, sin

import segno
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from ..domino import PIP_COLOURS, pip_positions, pip_radius
from .pen import FRAME, TILE_FILL, WHITE

#: The QR code's dark modules: black, whatever the ink of the text.
QR_DARK = HexColor("#000000")


def draw_star(c: Canvas, cx: float, cy: float, r: float, color) -> None:
    """A five-pointed star of radius *r* centred on (cx, cy), filled with *color*."""
    path = c.beginPath()
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = pi / 2 + i * pi / 5
        x, y = cx + rad * cos(a), cy + rad * sin(a)
        path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
    path.close()
    c.setFillColor(color)
    c.drawPath(path, stroke=0, fill=1)


@lru_cache(maxsize=None)
def _pip_colour(n: int):
    """The pips' colour of an n end, one object per n (the canvas skips a colour it has)."""
    return HexColor(PIP_COLOURS.get(n, "#222"))


#: A circle as four Bézier quarter arcs: the control-point distance for a unit radius.
_KAPPA = 0.5523


def _dots(c: Canvas, centres, r: float) -> None:
    """Fill circles of radius *r* at *centres* in the current fill colour, as one path.

    Written as raw operators: reportlab's c.circle() formats each number through its
    pure-Python fp_str, which made the pips a third of the sheet's drawing time.
    """
    k = r * _KAPPA
    ops = []
    for x, y in centres:
        ops.append(
            f"{x + r:.2f} {y:.2f} m "
            f"{x + r:.2f} {y + k:.2f} {x + k:.2f} {y + r:.2f} {x:.2f} {y + r:.2f} c "
            f"{x - k:.2f} {y + r:.2f} {x - r:.2f} {y + k:.2f} {x - r:.2f} {y:.2f} c "
            f"{x - r:.2f} {y - k:.2f} {x - k:.2f} {y - r:.2f} {x:.2f} {y - r:.2f} c "
            f"{x + k:.2f} {y - r:.2f} {x + r:.2f} {y - k:.2f} {x + r:.2f} {y:.2f} c h")
    if ops:
        c.addLiteral(" ".join(ops) + " f")


def draw_domino(c: Canvas, x: float, y: float, half: float, n: int) -> None:
    """The engine double n|n, lying down, lower-left corner at (x, y); *half* is one end's side."""
    c.setFillColor(TILE_FILL)
    c.setStrokeColor(FRAME)
    c.setLineWidth(0.6)
    c.roundRect(x, y, 2 * half, half, half * 0.16, stroke=1, fill=1)
    c.setLineWidth(0.4)
    c.line(x + half, y + half * 0.14, x + half, y + half * 0.86)
    inset = half * 0.1
    inner = half - 2 * inset
    c.setFillColor(_pip_colour(n))
    # pip_positions has y growing downwards (SVG); the PDF grows upwards.
    _dots(c, [(x + end * half + inset + px * inner, y + half - inset - py * inner)
              for end in (0, 1) for px, py in pip_positions(n)], pip_radius(n) * inner)


#: The pages' train marker (template_helpers.train_mark), on its 22 × 16 grid, y downwards.
_LOCOMOTIVE = [(1.5, 12.5), (1.5, 6), (4, 6), (4, 2.5), (7, 2.5), (7, 6), (13, 6), (13, 1.5),
               (20, 1.5), (20, 12.5)]
_WHEELS = [(6, 13), (16, 13)]


def draw_train_mark(c: Canvas, x: float, y: float, width: float, colour: str) -> None:
    """A seat's train marker (a locomotive) in *colour*, *width* wide, its lower-left
    corner at (x, y), outlined in ink so a pale or a black one shows on paper."""
    unit = width / 22
    c.setFillColor(HexColor(colour))
    c.setStrokeColor(FRAME)
    c.setLineWidth(max(0.4, unit * 1.1))
    path = c.beginPath()
    for k, (px, py) in enumerate(_LOCOMOTIVE):
        point = (x + px * unit, y + (16 - py) * unit)
        path.moveTo(*point) if k == 0 else path.lineTo(*point)
    path.close()
    c.drawPath(path, stroke=1, fill=1)
    for px, py in _WHEELS:
        c.circle(x + px * unit, y + (16 - py) * unit, 2.3 * unit, stroke=1, fill=1)


@lru_cache(maxsize=64)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The dark modules of *url*'s QR code (error correction M, no quiet zone), row by row
    from the top.  Kept for the few addresses printed again and again (a sheet reprinted
    while nothing changed): segno weighs all eight masks, a few tens of milliseconds."""
    code = segno.make(url, error="m", micro=False, boost_error=False)
    return tuple(tuple(bool(v) for v in row) for row in code.matrix)


def draw_qr(c: Canvas, x: float, y: float, size: float, url: str) -> float:
    """*url*'s QR code in a *size* square, lower-left corner at (x, y), with a quiet zone
    of two modules inside it (the paper around is blank); answers one module's side.

    Each row's runs of dark modules are one rectangle each, written as raw operators in
    one filled path (as the pips are: reportlab's path.rect formats each number in pure
    Python)."""
    rows = qr_modules(url)
    module = size / (len(rows) + 4)
    c.setFillColor(WHITE)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColor(QR_DARK)
    ops = []
    for r, row in enumerate(rows):
        bottom = y + size - (r + 3) * module
        start = None
        for col, dark in enumerate((*row, False)):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                ops.append(f"{x + (start + 2) * module:.3f} {bottom:.3f} "
                           f"{(col - start) * module:.3f} {module:.3f} re")
                start = None
    if ops:
        c.addLiteral(" ".join(ops) + " f")
    return module


__all__ = ["draw_domino", "draw_star", "draw_train_mark", "draw_qr", "qr_modules"]
