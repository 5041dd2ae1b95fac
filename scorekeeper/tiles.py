"""Tiles and double-N sets (R1.2, R3.3)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .errors import BadInput
from .parsing import whole_number
from .text import _

#: The double-N sets in use (R1.2).
SETS = (6, 9, 12, 15, 18)
DEFAULT_SET = 12


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One domino, stored with its smaller end first so that 5-12 == 12-5."""

    low: int
    high: int

    @classmethod
    def of(cls, a: int, b: int) -> "Tile":
        """The tile with ends *a* and *b*, in either order."""
        return cls(a, b) if a <= b else cls(b, a)

    @classmethod
    def double(cls, n: int) -> "Tile":
        """The double-n tile (an engine, for instance)."""
        return cls(n, n)

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        """Face value: both ends added (0-0 is 0 here; R7.3 scoring is in scoring)."""
        return self.low + self.high

    def has(self, n: int) -> bool:
        """True when one end of the tile shows *n*."""
        return self.low == n or self.high == n

    def other(self, n: int) -> int:
        """The end opposite an end showing *n* (the new open end after matching n)."""
        if self.low == n:
            return self.high
        if self.high == n:
            return self.low
        raise ValueError(f"{self} has no end {n}")

    def in_set(self, n: int) -> bool:
        """True when the tile belongs to a double-*n* set."""
        return 0 <= self.low and self.high <= n

    def to_json(self) -> list[int]:
        return [self.low, self.high]

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}-{self.high})"


@lru_cache(maxsize=None)
def full_set(n: int) -> tuple[Tile, ...]:
    """Every tile of a double-*n* set, each once (R1.2)."""
    return tuple(Tile(a, b) for a in range(n + 1) for b in range(a, n + 1))


def set_size(n: int) -> int:
    """Number of tiles in a double-*n* set: (n+1)(n+2)/2 (R1.2)."""
    return (n + 1) * (n + 2) // 2


def set_pips(n: int) -> int:
    """Face-value pips of a whole double-*n* set: n(n+1)(n+2)/2 (R1.2)."""
    return n * (n + 1) * (n + 2) // 2


def not_in_set(tile: Tile, n: int, cite: bool = False) -> str:
    """The sentence saying *tile* is not in a double-*n* set (R3.3), citing the rule or not.

    A negative number is named on its own: "-1-12" does not read as a tile.
    """
    if tile.low < 0:
        if cite:
            return _("A tile with the number %(number)s is not in a double-%(n)s set: numbers "
                     "run from 0 to %(n)s (R3.3).", number=tile.low, n=n)
        return _("A tile with the number %(number)s is not in a double-%(n)s set: numbers run "
                 "from 0 to %(n)s.", number=tile.low, n=n)
    if cite:
        return _("%(tile)s is not in a double-%(n)s set (R3.3).", tile=tile, n=n)
    return _("%(tile)s is not in a double-%(n)s set.", tile=tile, n=n)


def check_hand(hand: Iterable[Tile], set_n: int | None, engine: int | None = None,
               field: str = "hand", *, held: dict[Tile, str] | None = None,
               player: str | None = None) -> list[Tile]:
    """The tiles of a hand, each in the set, not the engine and held once (R3.3).

    The one place a hand is checked; BadInput names the tile (``hand.2``).
    *set_n* None: any set in use will do (the hand-score calculator is not told
    the set); *engine* None: there is no engine to keep out.  With *held* (tile →
    player, filled in as the round's hands are checked) the hand is *player*'s,
    one of a round's: a tile another player holds is in two hands, and the
    sentences speak of this round's engine.
    """
    tiles: list[Tile] = []
    seen: set[Tile] = set()
    engine_tile = None if engine is None else Tile(engine, engine)
    for i, tile in enumerate(hand):
        where = f"{field}.{i}"
        if set_n is None:
            if not tile.in_set(max(SETS)):
                raise BadInput(_("%(tile)s is not in any set in use (double-6 to double-18).",
                                 tile=tile), where)
        elif not tile.in_set(set_n):
            raise BadInput(not_in_set(tile, set_n, cite=True), where)
        if tile == engine_tile:
            if held is None:
                raise BadInput(_("%(tile)s is the engine: it is on the table, not in a hand "
                                 "(R3.3).", tile=tile), where)
            raise BadInput(_("%(tile)s is this round's engine; it cannot be in a hand (R3.3).",
                             tile=tile), where)
        if tile in seen:
            raise BadInput(_("%(tile)s is in the hand twice; each tile exists once (R3.3).",
                             tile=tile), where)
        if held is not None and tile in held:
            raise BadInput(_("%(tile)s is in two hands (%(first)s and %(second)s); each tile "
                             "exists once (R3.3).", tile=tile, first=held[tile], second=player),
                           where)
        seen.add(tile)
        tiles.append(tile)
    if held is not None:
        held.update(dict.fromkeys(tiles, player))
    return tiles


def parse_set(value, field: str = "set") -> int:
    """A set size from input: one of 6, 9, 12, 15, 18."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in SETS:
        raise BadInput(_("The set must be double-6, 9, 12, 15 or 18."), field)
    return value


def parse_tile(value, field: str = "tile") -> Tile:
    """A tile from JSON: a two-number array; order does not matter."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise BadInput(_("A tile is two whole numbers, like [5, 12]."), field)
    return Tile.of(value[0], value[1])


def parse_tiles(values, field: str = "tiles") -> list[Tile]:
    """A list of tiles from JSON."""
    if not isinstance(values, (list, tuple)):
        raise BadInput(_("Tiles must be given as a list, like [[5, 12], [0, 0]]."), field)
    return [parse_tile(v, f"{field}.{i}") for i, v in enumerate(values)]


def parse_tile_text(text: str | None, field: str = "tile") -> Tile | None:
    """A tile typed or picked on a page as "5-12"; empty text is None."""
    text = (text or "").strip()
    if not text:
        return None
    a, sep, b = text.partition("-")
    low, high = whole_number(a), whole_number(b)
    if not sep or low is None or high is None:
        raise BadInput(_("Pick a tile."), field)
    return Tile.of(low, high)


def set_rows(n: int) -> list[list[Tile]]:
    """A set's tiles for a picker, one row per low end (0-0 … 0-N, 1-1 … 1-N, …)."""
    return [[Tile(a, b) for b in range(a, n + 1)] for a in range(n + 1)]
