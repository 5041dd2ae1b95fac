"""Draw the app's home-screen icons: a double-six domino, upright, on the top bar's colour.

    .venv/bin/python scripts/make_icons.py

Writes static/icons/ (committed; run again only to change the drawing):

- ``icon-192.png``, ``icon-512.png``: the icons a web app manifest offers ("any");
- ``icon-maskable-192.png``, ``icon-maskable-512.png``: the same drawing inside the safe
  circle (80% of the side), for launchers that cut the icon to their own shape;
- ``apple-touch-icon.png`` (180×180): what an iPhone or iPad shows on its home screen
  (it rounds the corners itself, so the square is full).

Pillow comes with reportlab (a dependency of the app).  Each icon is drawn at four times
its size and scaled down, so edges and pips are smooth.  The pips are the app's own
(:mod:`scorekeeper.domino`: their places and the colour of six).
"""

from __future__ import annotations

import os
import sys

from PIL import Image, ImageDraw

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scorekeeper.domino import PIP_COLOURS, pip_positions, pip_radius  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "static", "icons")
BACKGROUND = "#223333"   # the top bar's colour (app.css .topbar), also the theme colour
FACE, EDGE, LINE = "#fffdf6", "#1b1b1b", "#3a3a3a"
OVERSAMPLE = 4

#: name → (side in px, the domino's height as a share of the side)
ICONS = {
    "icon-192.png": (192, 0.80),
    "icon-512.png": (512, 0.80),
    # Maskable: the domino's corners stay inside the safe circle of radius 0.4 × side
    # (its half-diagonal is 0.559 × its height, so a height of 0.66 leaves a margin).
    "icon-maskable-192.png": (192, 0.66),
    "icon-maskable-512.png": (512, 0.66),
    "apple-touch-icon.png": (180, 0.78),
}


def draw(side: int, share: float) -> Image.Image:
    """The icon at *side* pixels: the domino *share* of the side tall, centred."""
    big = side * OVERSAMPLE
    image = Image.new("RGB", (big, big), BACKGROUND)
    pen = ImageDraw.Draw(image)
    height = big * share
    width = height / 2
    left, top = (big - width) / 2, (big - height) / 2
    radius = width * 0.14
    # A soft shadow below, then the tile with its edge.
    shadow = big * 0.02
    pen.rounded_rectangle((left + shadow, top + shadow * 1.5, left + width + shadow,
                           top + height + shadow * 1.5), radius, fill="#142020")
    pen.rounded_rectangle((left, top, left + width, top + height), radius, fill=FACE,
                          outline=EDGE, width=max(2, round(width * 0.035)))
    middle = top + height / 2
    inset = width * 0.16
    pen.line((left + inset, middle, left + width - inset, middle), fill=LINE,
             width=max(2, round(width * 0.03)))
    # Six pips in each half (the app's places for six, in its colour for six).
    for half_top in (top, middle):
        pad = width * 0.12
        span = width - 2 * pad
        r = pip_radius(6) * span * 1.15
        for x, y in pip_positions(6):
            cx, cy = left + pad + x * span, half_top + pad + y * span
            pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PIP_COLOURS[6])
    return image.resize((side, side), Image.LANCZOS)


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    for name, (side, share) in ICONS.items():
        path = os.path.join(OUT, name)
        draw(side, share).save(path, optimize=True)
        print(f"{path}: {side}×{side}")


if __name__ == "__main__":
    main()
