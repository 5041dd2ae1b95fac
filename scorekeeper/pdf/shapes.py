"""The figures the scoresheet draws as paths: the engine domino with its pips, the star.

The pips take the colours and places of the pages' tiles (:mod:`scorekeeper.domino`),
so the engine printed beside a round looks as it does on screen.
"""

from __future__ import annotations

from functools import lru_cache
from math import cos, pi, sin

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from ..domino import PIP_COLOURS, pip_positions, pip_radius
from .pen import FRAME, TILE_FILL


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


__all__ = ["draw_domino", "draw_star"]
