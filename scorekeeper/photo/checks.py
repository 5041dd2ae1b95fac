"""Checks of a photo's reading against the set and the round (R3.3)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..text import _
from ..tiles import Tile
from .reading import Reading


@dataclass(frozen=True)
class Problem:
    """Something wrong with a tile read from a photo: *code* for programs, *message* a
    sentence for the person who confirms the reading."""

    code: str          # not_in_set, engine, already_counted, twice
    tile: Tile
    message: str


def problems(reading: Reading, set_n: int, engine: int | None,
             counted: set[Tile] | frozenset[Tile] = frozenset()) -> list[Problem]:
    """The problems of the tiles read with confidence, in the order they were read.

    *set_n*: the round's set (double-*set_n*); *engine*: the round's engine double, or None;
    *counted*: the tiles already in another hand of this round.  Each tile exists once (R3.3),
    so a tile read twice is reported once, at its second reading.
    """
    out: list[Problem] = []
    engine_tile = None if engine is None else Tile.double(engine)
    seen: Counter[Tile] = Counter()
    for found in reading.tiles:
        tile = found.tile
        seen[tile] += 1
        if not tile.in_set(set_n):
            out.append(Problem("not_in_set", tile, _(
                "%(tile)s is not in a double-%(n)s set: check that tile (R3.3).",
                tile=tile, n=set_n)))
        if tile == engine_tile:
            out.append(Problem("engine", tile, _(
                "%(tile)s is this round's engine: it is on the table, not in a hand (R3.3).",
                tile=tile)))
        elif tile in counted:
            out.append(Problem("already_counted", tile, _(
                "%(tile)s is already counted in another hand this round; each tile exists "
                "once (R3.3).", tile=tile)))
        if seen[tile] == 2:
            out.append(Problem("twice", tile, _(
                "%(tile)s is in the photo twice; each tile exists once (R3.3): check both.",
                tile=tile)))
    return out
