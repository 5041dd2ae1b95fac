"""The opening planner under chicken foot (R10.6): the first turn's chain becomes a tree.

In the first turn each tile may go at any open end of the player's own train: the end of
the chain, a new toe on one of its doubles (up to three, R10.1), or the end of a toe.  The
best opening is then a tree: most tiles, then most pips, as :func:`.planner.plan_train`
says for the plain chain (R4.1).  Exact, by a search over the open ends' numbers and the
tiles left (memoised): which tree grows from an open end depends on its number alone, so
the state is the multiset of open numbers; a double at an end turns that end into three
toe ends of its number.  Pure: no Flask, storage or PDF.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from ..tiles import Tile
from . import feet
from .planner import TrainPlan, checked_hand


def plan_tree(set_n: int, engine: int, hand: Iterable) -> TrainPlan:
    """The best first-turn tree from *hand* under chicken foot (R10.6): most tiles, then
    most face-value pips.  ``train`` lists its tiles in an order they can be played (each
    at an open end when it goes down, oriented from that end); ``tree`` is the train as
    API.md writes it under the option (feet and toes)."""
    tiles = checked_hand(set_n, engine, hand)
    by_number: dict[int, list[Tile]] = {}
    for tile in tiles:
        by_number.setdefault(tile.low, []).append(tile)
        if tile.high != tile.low:
            by_number.setdefault(tile.high, []).append(tile)

    @lru_cache(maxsize=None)
    def best(opens: tuple[int, ...], left: frozenset) -> tuple[int, int, Tile | None]:
        """(tiles, pips, the tile played at the first open end or None to close it)."""
        while opens and not any(t in left for t in by_number.get(opens[0], ())):
            opens = opens[1:]                    # nothing left fits this end: closed
        if not opens:
            return 0, 0, None
        x, rest = opens[0], opens[1:]
        count, pips, _ = best(rest, left)
        choice: tuple[int, int, Tile | None] = (count, pips, None)
        for tile in by_number[x]:
            if tile not in left:
                continue
            grown = (x, x, x) if tile.is_double else (tile.other(x),)
            c, p, _ = best(tuple(sorted(rest + grown)), left - {tile})
            if (c + 1, p + tile.pips) > choice[:2]:
                choice = (c + 1, p + tile.pips, tile)
        return choice

    # Replay the choices, keeping where each open end is (the tile a new one joins).
    items: tuple = ()
    opens: list[tuple[int, Tile | None]] = [(engine, None)]
    left = frozenset(tiles)
    order: list[tuple[int, int]] = []
    while opens:
        opens.sort(key=lambda end: end[0])
        if not any(t in left for t in by_number.get(opens[0][0], ())):
            opens.pop(0)                         # closed, as best() skips it
            continue
        _c, _p, tile = best(tuple(n for n, _ in opens), left)
        x, at = opens.pop(0)
        if tile is None:
            continue
        items = feet.place(items, engine, at, tile)
        order.append((x, tile.other(x)))
        left = left - {tile}
        opens.extend([(x, tile)] * 3 if tile.is_double else [(tile.other(x), tile)])
    played = [Tile.of(a, b) for a, b in order]
    rest = tuple(t for t in tiles if t not in set(played))
    return TrainPlan(tuple(order), len(order), sum(t.pips for t in played), rest,
                     sum(t.pips for t in rest), tree=feet.train_json(items))
