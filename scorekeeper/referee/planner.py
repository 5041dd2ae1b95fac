"""The opening-train planner: the best train a hand can start from the engine (R4.1).

A graph search unrelated to the rest of the referee: the numbers are vertices,
the non-double tiles edges, and the best train an Euler trail from the engine.
Pure: no Flask, storage or PDF.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable

from ..errors import BadInput
from ..text import _
from ..tiles import SETS, Tile, check_hand, parse_tiles


@dataclass(frozen=True, slots=True)
class TrainPlan:
    """The best opening train of a hand (R4.1): most tiles, then most pips."""

    train: tuple[tuple[int, int], ...]
    tiles: int
    pips: int
    left: tuple[Tile, ...]
    left_pips: int
    tree: list | None = None     # under chicken foot: the train with its feet (R10.6)

    def to_json(self) -> dict:
        data = {"train": [list(p) for p in self.train], "tiles": self.tiles,
                "pips": self.pips, "left": [t.to_json() for t in self.left],
                "left_pips": self.left_pips}
        if self.tree is not None:
            data["tree"] = self.tree
        return data


def plan_train(set_n: int, engine: int, hand: Iterable) -> TrainPlan:
    """The best opening train from *hand*: most tiles, then most face-value pips.

    Exact: a depth-first search over trails from the engine with a transposition
    table on (open end, tiles left) and an upper bound (tiles reachable from the
    open end, less what the degree parity makes unusable).  Doubles need no
    search: reaching a number whose double is in hand, the double is always
    worth playing at once (it keeps the same open end).
    """
    tiles = checked_hand(set_n, engine, hand)
    path = _best_train(set_n, engine, tiles)
    used = set(path)
    train, end = [], engine
    for tile in path:
        nxt = tile.other(end)
        train.append((end, nxt))
        end = nxt
    left = tuple(t for t in tiles if t not in used)
    return TrainPlan(tuple(train), len(path), sum(t.pips for t in path), left,
                     sum(t.pips for t in left))


def checked_hand(set_n, engine, hand: Iterable) -> list[Tile]:
    """The hand's tiles, once the set, the engine and the hand are checked (BadInput)."""
    if isinstance(set_n, bool) or not isinstance(set_n, int) or set_n not in SETS:
        raise BadInput(_("The set must be double-6, 9, 12, 15 or 18."), "set")
    if isinstance(engine, bool) or not isinstance(engine, int) or not 0 <= engine <= set_n:
        raise BadInput(_("The engine must be a double from 0-0 to %(n)s-%(n)s in a "
                         "double-%(n)s set (R2.1).", n=set_n), "engine")
    hand = list(hand)
    if any(not isinstance(t, Tile) for t in hand):
        hand = parse_tiles(hand, "hand")
    return check_hand(hand, set_n, engine)


def _best_train(n: int, engine: int, tiles: list[Tile]) -> list[Tile]:
    """The tiles of a best train, in order from the engine.

    A train from the engine is a trail in the graph whose numbers are vertices and
    whose non-double tiles are edges; doubles ride along free (a double is worth
    playing as soon as the train shows its number, and the open end stays).  So
    the question is which *set* H of non-double tiles to use: H must be connected
    to the engine and have at most one odd-degree number besides the engine's
    (then an Euler trail from the engine uses all of H).  Best-first search over
    H, starting from every tile reachable and removing one tile at a time: two
    numbers other than the engine's that are odd cannot both stay odd, so one of
    the tiles at them goes.  The score of H only falls as tiles go, less at least
    one tile per pair of odd numbers still to fix, so the first H that qualifies
    is the best.

    One function of about 100 lines on purpose: the search, its bound and its queue
    share their state, and the argument above reads against it in one piece.
    """
    doubles = {t.low: t for t in tiles if t.is_double}
    # Cheapest tiles first: the bound below takes the cheapest tiles left as the losses.
    edges = sorted((t for t in tiles if not t.is_double), key=lambda t: t.pips)
    count_e = len(edges)
    inc = [0] * (n + 1)  # bitmask of the edges at each number
    nbrs: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
    for i, t in enumerate(edges):
        inc[t.low] |= 1 << i
        inc[t.high] |= 1 << i
        nbrs[t.low].append((t.high, 1 << i))
        nbrs[t.high].append((t.low, 1 << i))
    pips = [t.pips for t in edges]
    # Per 8-edge chunk of a mask: its pips and the numbers its tiles touch.
    chunks = []
    for base in range(0, count_e, 8):
        part = edges[base:base + 8]
        sums, touch = [0] * 256, [0] * 256
        for m in range(1, 256):
            low = m & -m
            j = low.bit_length() - 1
            if j < len(part):
                sums[m] = sums[m ^ low] + part[j].pips
                touch[m] = touch[m ^ low] | (1 << part[j].low) | (1 << part[j].high)
            else:
                sums[m], touch[m] = sums[m ^ low], touch[m ^ low]
        chunks.append((base, sums, touch))
    dlist = [(v, d.pips) for v, d in doubles.items()]
    s = engine
    numbers = [v for v in range(n + 1) if v != s and inc[v]]

    def component(h: int) -> int:
        """The edges of h connected to the engine's number."""
        reached, todo, got = 1 << s, [s], 0
        while todo:
            u = todo.pop()
            got |= inc[u] & h
            for w, bit in nbrs[u]:
                if bit & h and not (reached >> w) & 1:
                    reached |= 1 << w
                    todo.append(w)
        return got

    def score(h: int) -> tuple[int, int, list[int]]:
        """Upper bound (tiles, pips) of any train within h, and the odd numbers besides s."""
        count, total, touched = h.bit_count(), 0, 1 << s
        for base, sums, touch in chunks:
            part = (h >> base) & 255
            total += sums[part]
            touched |= touch[part]
        for v, p in dlist:
            if (touched >> v) & 1:
                count += 1
                total += p
        odd = [v for v in numbers if (inc[v] & h).bit_count() & 1]
        # Odd numbers besides s that must become even: all of them if s is even, all
        # but one if s is odd; each tile removed fixes at most two, and costs at least
        # as much as the cheapest tiles left.
        need = (len(odd) - 1) // 2 if (inc[s] & h).bit_count() & 1 else len(odd) // 2
        if need:
            count -= need
            i = 0
            while need:
                if (h >> i) & 1:
                    total -= pips[i]
                    need -= 1
                i += 1
        return count, total, odd

    start = component((1 << count_e) - 1)
    count, total, odd = score(start)
    heap = [(-count, -total, len(odd), start, odd)]
    seen = {start}
    while heap:
        _c, _t, _k, h, odd = heapq.heappop(heap)
        if len(odd) <= 1:
            return _euler_train(s, h, edges, doubles)
        # two odd numbers besides the engine's: one of the tiles at them must go
        u, w = sorted(odd, key=lambda v: (inc[v] & h).bit_count())[:2]
        m = (inc[u] | inc[w]) & h
        while m:
            low = m & -m
            m ^= low
            child = component(h & ~low)
            if child not in seen:
                seen.add(child)
                count, total, codd = score(child)
                heapq.heappush(heap, (-count, -total, len(codd), child, codd))
    return []  # not reached: the empty train always qualifies


def _euler_train(s: int, h: int, edges: list[Tile], doubles: dict[int, Tile]) -> list[Tile]:
    """All the tiles of h as one train from s (Hierholzer); each double goes in where
    the train first shows its number."""
    adj: dict[int, list[int]] = {}
    for i, t in enumerate(edges):
        if (h >> i) & 1:
            adj.setdefault(t.low, []).append(i)
            adj.setdefault(t.high, []).append(i)
    used: set[int] = set()
    stack: list[tuple[int, int | None]] = [(s, None)]
    trail: list[int] = []
    while stack:
        v, via = stack[-1]
        nxt = adj.get(v)
        while nxt and nxt[-1] in used:
            nxt.pop()
        if nxt:
            i = nxt.pop()
            used.add(i)
            stack.append((edges[i].other(v), i))
        else:
            stack.pop()
            if via is not None:
                trail.append(via)
    trail.reverse()
    out, end, shown = [], s, {s}
    for i in trail:
        tile = edges[i]
        end = tile.other(end)
        out.append(tile)
        if end not in shown:
            shown.add(end)
            if end in doubles:
                out.append(doubles[end])
    return out
