"""Train colours: each seat's colour (its train marker's), the Mexican train's, and the
check of colours a new game is given.

Pure: the pages, the API, the PDF and the chart read a game's colours from here.  The
default palette is Okabe & Ito's eight colours (Color Universal Design, 2008) extended
with six of Paul Tol's (the "bright", "muted", "dark" and "discrete rainbow" schemes,
2021), picked so that every pair stays apart for normal vision and under protanopia,
deuteranopia and tritanopia: ``tests/test_colours.py`` simulates each deficiency
(Machado, Oliveira & Fernandes 2009, full severity) and asserts a CIEDE2000 distance of
at least 10 between any two seats, and of 9 from each seat to the Mexican train.
Colour is never the only cue: a name is always written beside it.
"""

from __future__ import annotations

import re
from typing import Sequence

from .errors import BadInput
from .text import _, ngettext

#: The seats' colours in seating order: the first seats get the most saturated ones.
PALETTE = (
    "#0072b2",   # Okabe–Ito blue
    "#d55e00",   # Okabe–Ito vermillion
    "#009e73",   # Okabe–Ito bluish green
    "#cc79a7",   # Okabe–Ito reddish purple
    "#e69f00",   # Okabe–Ito orange
    "#56b4e9",   # Okabe–Ito sky blue
    "#000000",   # Okabe–Ito black
    "#f0e442",   # Okabe–Ito yellow
    "#aa3377",   # Tol bright purple
    "#332288",   # Tol muted indigo
    "#90c987",   # Tol rainbow light green
    "#225555",   # Tol dark cyan
    "#72190e",   # Tol rainbow dark brown-red
    "#bbbbbb",   # Tol bright grey
)

#: The Mexican train's own colour (Tol dark yellow), apart from every seat's.
MEXICAN_COLOUR = "#666633"

_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def default_colours(count: int) -> list[str]:
    """The default palette's first *count* colours (2 to 14 seats)."""
    return list(PALETTE[:count])


def parse_colour(value, field: str) -> str:
    """One colour as ``#rrggbb`` (any case in, lower case out); BadInput otherwise."""
    if not isinstance(value, str) or not _HEX.fullmatch(value.strip()):
        raise BadInput(_("A train colour is written #rrggbb, like #d55e00."), field)
    return value.strip().lower()


def parse_colours(value, players: Sequence[str], field: str = "colours") -> list[str]:
    """One colour per player in seating order, no two alike; None means the default
    palette.  BadInput names the seat at fault (``colours.2``)."""
    if value is None:
        return default_colours(len(players))
    if not isinstance(value, list) or len(value) != len(players):
        raise BadInput(ngettext("Give one train colour per player, in seating order "
                                "(%(num)s colour).", "Give one train colour per player, in "
                                "seating order (%(num)s colours).", len(players)), field)
    colours: list[str] = []
    for i, raw in enumerate(value):
        colour = parse_colour(raw, f"{field}.{i}")
        if colour in colours:
            raise BadInput(_("%(name)s and %(other)s have the same train colour (%(colour)s): "
                             "each player needs a colour of their own.", name=players[i],
                             other=players[colours.index(colour)], colour=colour),
                           f"{field}.{i}")
        colours.append(colour)
    return colours


def colour_map(players: Sequence[str], colours: Sequence[str] | None) -> dict[str, str]:
    """Each player's colour by name (the default palette for a game stored without)."""
    return dict(zip(players, colours or default_colours(len(players))))
