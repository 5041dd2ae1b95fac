"""Chicken foot's trains (RULES.md R10): a double written as a *foot* with up to three toes.

Under the option a train is still a tuple of tiles from the engine outward, but a double
ends its list as a :class:`Foot` — the double and its toes, each toe itself such a train
(a list of tiles that may end in a foot of its own, R10.4).  This module reads and writes
them (API.md: ``{"double": [6, 6], "toes": [[…], …]}``, a bare double as the last element
being a foot with no toes), walks them (every tile; every open end, :class:`End`, R10.5)
and puts a tile at an open end.  The rules read them through ``Table.facts``
(:func:`fill_facts`).  Pure: no Flask, storage or PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping, NamedTuple

from ..errors import BadInput
from ..parsing import Fields
from ..text import N_, _
from ..tiles import Tile, parse_tile
from .values import InvalidTable

#: A double holds at most three toes (R10.1).
TOES = 3

#: The fields of a foot in API.md.
FOOT_FIELDS = Fields(("double", "toes"), N_("“%(name)s” is not a field of a foot."))


class MalformedFoot(InvalidTable):
    """A train under chicken foot that cannot be written so (API.md's malformed feet)."""


@dataclass(frozen=True, slots=True)
class Foot:
    """A double at the end of a train or toe, and its toes (R10.1), each a train of its own."""

    double: Tile
    toes: tuple[tuple, ...] = ()

    @property
    def is_open(self) -> bool:
        """Fewer than three toes: open, and binding from the second turn on (R10.1, R10.2)."""
        return len(self.toes) < TOES

    def to_json(self) -> dict:
        return {"double": self.double.to_json(), "toes": [train_json(t) for t in self.toes]}

    def __repr__(self) -> str:
        toes = " | ".join(" ".join(map(repr, toe)) for toe in self.toes)
        return f"Foot({self.double}: {toes})"


class End(NamedTuple):
    """An open end of a train (R10.5): ``at`` is the tile a new tile joins (None: the empty
    train's engine), ``number`` what that tile must show, ``foot`` the foot when the end is
    its double (a new toe goes there); ``full`` when that double already holds three toes
    (only named by a play, never offered: R10.1)."""

    at: Tile | None
    number: int
    foot: Foot | None = None
    full: bool = False


def as_feet(items: tuple) -> tuple:
    """A train with a bare double at its end written as a foot with no toes (API.md)."""
    if items and not isinstance(items[-1], Foot) and items[-1].is_double:
        return items[:-1] + (Foot(items[-1]),)
    return items


def oriented(items, start: int) -> Iterator[tuple[int, int]]:
    """A train's tiles as (near end, far end) pairs from *start* outward: a foot's double,
    then each of its toes in turn."""
    end = start
    for item in items:
        if type(item) is Foot:
            yield end, end
            for toe in item.toes:
                yield from oriented(toe, end)
            return
        nxt = item.high if item.low == end else item.low
        yield end, nxt
        end = nxt


def train_json(items) -> list:
    """A train (or toe) as API.md writes it."""
    return [item.to_json() for item in items]


def tile_of(item) -> Tile:
    """The tile an element stands for: a foot's double, or the tile itself."""
    return item.double if isinstance(item, Foot) else item


def tiles(items) -> Iterator[Tile]:
    """Every tile of a train, toes and feet on feet included."""
    for item in items:
        if isinstance(item, Foot):
            yield item.double
            for toe in item.toes:
                yield from tiles(toe)
        else:
            yield item


def feet(items) -> Iterator[Foot]:
    """Every foot of a train, outer ones first."""
    for item in items:
        if isinstance(item, Foot):
            yield item
            for toe in item.toes:
                yield from feet(toe)


def ends(items, start: int) -> list[End]:
    """The open ends of a train whose first tile must show *start* (R10.5): its last tile's
    far end, or where it reaches a double, that double while it has fewer than three toes
    and the end of each of its toes."""
    if not items:
        return [End(None, start)]
    end = start
    for item in items[:-1]:
        end = item.high if item.low == end else item.low
    last = items[-1]
    if type(last) is not Foot:
        return [End(last, last.high if last.low == end else last.low)]
    out = [End(last.double, last.double.high, last)] if last.is_open else []
    for toe in last.toes:
        out.extend(ends(toe, last.double.high))
    return out


def find_end(items, start: int, at: Tile, open_ends=None) -> End | None:
    """The end of a train at tile *at*: an open end (of *open_ends* when known), or a full
    foot's double (R10.1)."""
    for end in (ends(items, start) if open_ends is None else open_ends):
        if end.at == at:
            return end
    for foot in feet(items):
        if foot.double == at:
            return End(at, at.high, foot, full=True)
    return None


def place(items, start: int, at: Tile | None, tile: Tile) -> tuple:
    """The train after *tile* goes at the open end *at* (no legality check)."""
    new = Foot(tile) if tile.is_double else tile
    if not items or (at is not None and tile_of(items[-1]) == at
                     and not isinstance(items[-1], Foot)):
        return tuple(items) + (new,)
    last = items[-1]
    if not isinstance(last, Foot):
        return tuple(items) + (new,)
    if last.double == at:
        return tuple(items[:-1]) + (Foot(last.double, last.toes + ((new,),)),)
    toes = tuple(place(toe, last.double.high, at, tile) if at in set(tiles(toe)) else toe
                 for toe in last.toes)
    return tuple(items[:-1]) + (Foot(last.double, toes),)


# --------------------------------------------------------------------------- parsing


def parse_train(value, field: str) -> tuple:
    """A train (or toe) from API.md's JSON under chicken foot; MalformedFoot naming the
    nested field for what cannot be written so.  Chaining (R3.2) and each tile once (R3.3)
    are Table.validate's."""
    if not isinstance(value, list):
        raise BadInput(_("Tiles must be given as a list, like [[5, 12], [0, 0]]."), field)
    out: list = []
    last = len(value) - 1
    for i, item in enumerate(value):
        if out and type(out[-1]) is Foot:
            raise MalformedFoot(_("Nothing follows a foot in its train: a tile played on the "
                                  "double goes in one of its toes (R10.5)."), f"{field}[{i}]")
        if type(item) is list and len(item) == 2 and type(item[0]) is int \
                and type(item[1]) is int and item[0] != item[1]:
            a, b = item                                  # the common case, at once
            out.append(Tile(a, b) if a <= b else Tile(b, a))
            continue
        where = f"{field}[{i}]"
        if isinstance(item, Mapping):
            out.append(parse_foot(item, where))
            continue
        tile = parse_tile(item, where)
        if tile.is_double and i != last:
            raise MalformedFoot(_("Under chicken foot the %(tile)s is written as a foot, "
                                  "{\"double\": …, \"toes\": […]}, the last element of its "
                                  "train (R10.1).", tile=tile), where)
        out.append(Foot(tile) if tile.is_double else tile)
    return tuple(out)


def parse_foot(value: Mapping, field: str) -> Foot:
    """A foot from API.md's JSON: its double and at most three toes, each non-empty and
    starting with a tile that shows the double's number (R10.1)."""
    FOOT_FIELDS.check(value, field)
    double = parse_tile(value.get("double"), f"{field}.double")
    if not double.is_double:
        raise MalformedFoot(_("A foot's double is a double, like [6, 6]."), f"{field}.double")
    raw = value.get("toes", [])
    if not isinstance(raw, list):
        raise BadInput(_("A foot's toes are a list of trains, each a list of tiles."),
                       f"{field}.toes")
    if len(raw) > TOES:
        raise MalformedFoot(_("The %(tile)s has more than three toes; a double holds three "
                              "(R10.1).", tile=double), f"{field}.toes[{TOES}]")
    toes = []
    for k, toe in enumerate(raw):
        where = f"{field}.toes[{k}]"
        if isinstance(toe, list) and not toe:
            raise MalformedFoot(_("A toe holds at least one tile."), where)
        parsed = parse_train(toe, where)
        if not tile_of(parsed[0]).has(double.high):
            raise MalformedFoot(_("%(tile)s cannot start a toe of the %(double)s: a toe's "
                                  "first tile shows the double's number (R10.1).",
                                  tile=tile_of(parsed[0]), double=double), f"{where}[0]")
        toes.append(parsed)
    return Foot(double, tuple(toes))


def refuse_feet_off(value, field: str) -> None:
    """A foot in a train when the option is off: MalformedFoot naming it."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, Mapping):
                raise MalformedFoot(_("A foot is written only under chicken foot: this "
                                      "table's rules do not have it (R10)."), f"{field}.{i}")


def first_wrong(items, start: int, top: int, engine: Tile, seen: set):
    """The first tile of a train (toes included, in order) that is outside the set, the
    engine, already seen or not chaining (R3.2, R3.3), as (tile, the number it had to show,
    its path below the train: "[1].toes[0][2]"); None when every tile is right.  Adds the
    tiles to *seen*."""
    end = start
    for i, item in enumerate(items):
        foot = type(item) is Foot
        tile = item.double if foot else item
        low, high = tile.low, tile.high
        if low < 0 or high > top or (low == high == engine.low) or tile in seen \
                or (low != end and high != end):
            return tile, end, f"[{i}]"
        seen.add(tile)
        if foot:
            for k, toe in enumerate(item.toes):
                wrong = first_wrong(toe, high, top, engine, seen)
                if wrong is not None:
                    return wrong[0], wrong[1], f"[{i}].toes[{k}]{wrong[2]}"
        else:
            end = high if low == end else low
    return None


# --------------------------------------------------------------------------- the facts


def fill_facts(table, f) -> None:
    """Fill a TableFacts for a chicken-foot table (R10.1–R10.6): each train's open ends,
    the open feet, which bind the current player (R10.2, R10.4), what is owed (R10.3)."""
    engine = table.engine
    on_table = {Tile(engine, engine)}
    open_ends: dict[str | None, list[End]] = {}
    open_feet: dict[Tile, str | None] = {}
    for name in table.train_names:
        items = table.train(name)
        if items and type(items[-1]) is Foot:
            found: list[End] = []
            _scan(items, engine, name, on_table, open_feet, found)
            open_ends[name] = found
        else:
            on_table.update(items)          # a train without a foot: its tiles, one end
            open_ends[name] = ends(items, engine)
    turn_tiles = frozenset(p.tile for p in table.turn)
    f.on_table = frozenset(on_table)
    f.turn_tiles = turn_tiles
    f.open_ends = open_ends
    f.ends = {name: e[0].number for name, e in open_ends.items()}
    f.open_doubles = {}
    for double, name in open_feet.items():
        f.open_doubles.setdefault(name, double)
    f.open_feet = open_feet
    f.drawn_pending = table.drawn is not None and table.drawn not in turn_tiles
    f.by_train = {}
    if table.first_turn:
        f.binding, f.binding_feet, f.owes = {}, {}, None       # R10.6, R4.3
        f.done = bool(table.turn) and (table.options.first_turn == "single"
                                       or (table.drawn is not None and table.drawn in turn_tiles))
        return
    # R10.2: every open foot binds, but not the double this player just played (R10.3 says
    # where its toe goes); R10.4: a toe played this turn on an open foot meets the duty.
    binding = {d: name for d, name in open_feet.items() if d not in turn_tiles}
    if binding and table.turn and _toe_this_turn(table, turn_tiles):
        binding = {}
    f.binding_feet = binding
    f.binding = {}
    for double, name in binding.items():
        f.binding.setdefault(name, double)
    f.done = any(not p.tile.is_double for p in table.turn)
    f.owes = table.turn[-1] if table.turn and not f.done else None


def _scan(items, start: int, name, on_table: set, open_feet: dict, found: list) -> None:
    """One pass over a train (or toe) from *start*: its tiles into *on_table*, its open feet
    into *open_feet* (double → train), its open ends onto *found* (as ends() gives them)."""
    if not items:
        found.append(End(None, start))
        return
    end = start
    for item in items[:-1]:
        on_table.add(item)
        end = item.high if item.low == end else item.low
    last = items[-1]
    if type(last) is not Foot:
        on_table.add(last)
        found.append(End(last, last.high if last.low == end else last.low))
        return
    double = last.double
    on_table.add(double)
    if len(last.toes) < TOES:
        open_feet[double] = name
        found.append(End(double, double.high, last))
    for toe in last.toes:
        _scan(toe, double.high, name, on_table, open_feet, found)


def _toe_this_turn(table, turn_tiles) -> bool:
    """True when a tile of this turn started a toe of a double that was there before."""
    for name in table.train_names:
        for foot in feet(table.train(name)):
            if foot.double not in turn_tiles and any(
                    tile_of(toe[0]) in turn_tiles for toe in foot.toes):
                return True
    return False
