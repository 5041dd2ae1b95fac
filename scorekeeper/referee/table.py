"""The table and its parsing: what lies on the table and whose turn it is, as values.

:class:`Table` is the one state type (python-chess's ``Board``): the trains, the
markers, the current player and what they did so far this turn, with the facts
the rules read from it (open ends, open doubles, what is owed) computed once.
:meth:`Table.from_json` parses API.md's "table" object; a table that cannot exist is
:class:`InvalidTable` (a BadInput naming the field).  The small values a table holds
(Play, Violation, Ground) live in :mod:`.values`.  Pure: no Flask, storage or PDF.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field as dc_field
from functools import cached_property
from typing import Mapping, Sequence

from ..errors import BadInput
from ..options import MAX_PLAYERS, MIN_PLAYERS, RuleOptions
from ..parsing import Fields
from ..text import N_, _, ngettext
from ..tiles import SETS, Tile, not_in_set, parse_tile, parse_tiles
from . import feet
from .values import (PLAY_FIELDS, TURN_FIELDS, Ground, InvalidTable, Play,  # noqa: F401
                     Violation, train_sentence)


#: The fields of API.md's table object (what Table.to_json writes, and no more).
TABLE_FIELDS = Fields(("set", "engine", "players", "current", "first_turn", "trains",
                       "mexican", "markers", "turn", "drawn", "rules"),
                      N_("“%(name)s” is not a field of a table."))


class TableFacts:
    """What a Table implies for the current player, computed once per table (``Table.facts``).

    ``ends`` (train → open end, R3.2), ``on_table`` (R3.3), ``turn_tiles`` (the tiles
    played this turn), ``open_doubles`` (R6.3), ``binding`` (the open doubles that bind the
    current player, R6.3–R6.6, R4.3), ``done`` (their play is made, R5.1, R4.1), ``owes``
    (the double after which a tile is owed, R6.1), ``drawn_pending`` (a tile drawn this turn
    and not played yet, R4.2, R5.4) and ``by_train``, check()'s rulings that depend on the
    train only (kept by :func:`~.rules.train_violations`).  The Table's properties read
    them; the rules read them directly.
    """

    __slots__ = ("ends", "on_table", "turn_tiles", "open_doubles", "binding", "done", "owes",
                 "drawn_pending", "by_train", "open_ends", "open_feet", "binding_feet")


@dataclass(frozen=True, eq=True, repr=False)
class Table:
    """What lies on the table, whose turn it is and what they did so far this turn.

    ``trains`` maps every player (seating order) to their train, tiles from the
    engine outward; ``mexican`` is the Mexican train.  ``turn`` holds the plays the
    current player already made this turn (those tiles are in the trains);
    ``drawn`` the tile they drew this turn.  ``Table(...)`` trusts its arguments
    (missing trains become empty); :meth:`from_json` and :meth:`validate` refuse
    a table that cannot exist.
    """

    set: int
    engine: int
    players: tuple[str, ...]
    current: str
    first_turn: bool = False
    trains: Mapping[str, tuple[Tile, ...]] = dc_field(default_factory=dict)
    mexican: tuple[Tile, ...] = ()
    markers: frozenset[str] = frozenset()
    turn: tuple[Play, ...] = ()
    drawn: Tile | None = None
    options: RuleOptions = RuleOptions()

    def __post_init__(self):
        # Normalize: tuples, a frozenset, and every player's train present in seat order.
        players = tuple(self.players)
        given = self.trains or {}
        trains = {name: tuple(given.get(name, ())) for name in players}
        for name in given:
            if name not in trains:  # kept so that validate() can name it
                trains[name] = tuple(given[name])
        mexican = tuple(self.mexican)
        if self.options.chicken_foot:
            # R10: a double at the end of a train is a foot (with no toes yet).
            trains = {name: feet.as_feet(train) for name, train in trains.items()}
            mexican = feet.as_feet(mexican)
        set_ = object.__setattr__
        set_(self, "players", players)
        set_(self, "trains", trains)
        set_(self, "mexican", mexican)
        set_(self, "markers", frozenset(self.markers))
        set_(self, "turn", tuple(self.turn))

    def __hash__(self) -> int:
        return hash((self.set, self.engine, self.players, self.current, self.first_turn,
                     tuple(self.trains.items()), self.mexican, self.markers, self.turn,
                     self.drawn, self.options))

    # ---- reading the table

    @property
    def engine_tile(self) -> Tile:
        return Tile(self.engine, self.engine)

    @property
    def train_names(self) -> tuple[str | None, ...]:
        """Every train: the players' in seating order, then None for the Mexican train."""
        return self.players + (None,)

    def train(self, name: str | None) -> tuple[Tile, ...]:
        """The tiles of a player's train, or of the Mexican train for None."""
        return self.mexican if name is None else self.trains[name]

    def open_end(self, name: str | None) -> int:
        """The number a tile must show to go on this train (R3.2)."""
        return self.facts.ends[name]

    def oriented(self, name: str | None) -> tuple[tuple[int, int], ...]:
        """A train's tiles as (near end, far end) pairs from the engine outward (under
        chicken foot: a foot's double, then each of its toes in turn)."""
        if self.options.chicken_foot:
            return tuple(feet.oriented(self.train(name), self.engine))
        out, end = [], self.engine
        for tile in self.train(name):
            nxt = tile.other(end)
            out.append((end, nxt))
            end = nxt
        return tuple(out)

    @property
    def on_table(self) -> frozenset[Tile]:
        """Every tile on the table: the engine and all trains (R3.3)."""
        return self.facts.on_table

    @property
    def open_doubles(self) -> dict[str | None, Tile]:
        """Trains ending in a double with nothing on it (R6.3), train → double."""
        return dict(self.facts.open_doubles)

    @property
    def binding_doubles(self) -> dict[str | None, Tile]:
        """The open doubles the current player must satisfy first (R6.3–R6.6, R4.3)."""
        return dict(self.facts.binding)

    @property
    def owed_after(self) -> Play | None:
        """The double after which the current player owes a tile (R6.1), if any."""
        return self.facts.owes

    @property
    def turn_over(self) -> bool:
        """True when the current player has made their play and owes nothing (R5.1, R4.1)."""
        return self.facts.done

    @property
    def drawn_pending(self) -> bool:
        """True when the current player drew a tile this turn and has not played it yet: only
        that tile may follow (R5.4, R6.2, R6.4; R4.2)."""
        return self.facts.drawn_pending

    @cached_property
    def facts(self) -> TableFacts:
        """What this table implies for the current player, computed once (TableFacts)."""
        f = TableFacts()
        if self.options.chicken_foot:
            feet.fill_facts(self, f)        # R10: feet, toes and several open ends
            return f
        engine = self.engine
        ends: dict[str | None, int] = {}
        on_table = {Tile(engine, engine)}
        open_doubles: dict[str | None, Tile] = {}
        for name in self.train_names:
            tiles = self.mexican if name is None else self.trains[name]
            end = engine
            for tile in tiles:
                end = tile.high if tile.low == end else tile.low
            ends[name] = end
            on_table.update(tiles)
            if tiles and tiles[-1].low == tiles[-1].high:
                open_doubles[name] = tiles[-1]
        f.ends = ends
        f.on_table = frozenset(on_table)
        turn_tiles = frozenset(p.tile for p in self.turn)
        f.turn_tiles = turn_tiles
        f.open_doubles = open_doubles
        if self.first_turn:
            # R4.3: first-turn doubles bind nobody while the first turn lasts.
            f.binding = {}
            f.owes = None
            f.done = bool(self.turn) and (self.options.first_turn == "single"
                                          or (self.drawn is not None and self.drawn in turn_tiles))
        else:
            # R6.6: doubles the current player played this turn do not bind them; R6.5:
            # once they have satisfied one, the others bind the following players.
            f.binding = {k: d for k, d in open_doubles.items() if d not in turn_tiles}
            if f.binding and self._satisfied_this_turn(turn_tiles):
                f.binding = {}
            # R5.1: any tile but a double ends the turn's play; a double owes another (R6.1).
            f.done = any(p.tile.low != p.tile.high for p in self.turn)
            f.owes = self.turn[-1] if self.turn and not f.done else None
        f.drawn_pending = self.drawn is not None and self.drawn not in turn_tiles
        f.by_train = {}  # check()'s rulings that depend on the train only
        return f

    def _satisfied_this_turn(self, turn_tiles: frozenset[Tile]) -> bool:
        """True when a play of this turn went on a double that was there when the turn
        began (the current player's duty to an open double is met, R6.3–R6.5)."""
        for play in self.turn:
            tiles = self.train(play.train)
            at = tiles.index(play.tile)
            if at and tiles[at - 1].is_double and tiles[at - 1] not in turn_tiles:
                return True
        return False

    # ---- building new tables

    def end_of(self, play: Play, field: str = "play.at") -> "feet.End":
        """The open end *play* joins (R3.2, R10.5): the one its ``at`` names, or the train's
        only one; BadInput naming *field* when ``at`` names none of the train's ends, or
        leaves out which of several (API.md).  Without chicken foot, ``at`` if given is the
        train's last tile (null for an empty train)."""
        train = self.train(play.train)
        if not self.options.chicken_foot:
            if play.at is not None and (not train or play.at != train[-1]):
                raise BadInput(_("at names the open end a tile joins: without chicken foot, "
                                 "the last tile of that train (null for an empty train)."),
                               field)
            return feet.End(train[-1] if train else None, self.open_end(play.train))
        if play.at is None:
            ends = self.facts.open_ends[play.train]
            if len(ends) == 1:
                return ends[0]
            raise BadInput(_("That train has several open ends: say at which tile the new "
                             "one goes, with at (R10.5)."), field)
        found = feet.find_end(train, self.engine, play.at, self.facts.open_ends[play.train])
        if found is None:
            raise BadInput(_("%(tile)s is not an open end of that train: at names its last "
                             "tile, a double of it, or the last tile of a toe (R10.5).",
                             tile=play.at), field)
        return found

    def with_play(self, play: Play) -> "Table":
        """The table after *play* (no legality check; the tile must match the train)."""
        if self.options.chicken_foot:
            at = self.end_of(play).at
            changed = feet.place(self.train(play.train), self.engine, at, play.tile)
            turn = self.turn + (Play(play.tile, play.train),)   # the turn names tile and train
            if play.train is None:
                return dataclasses.replace(self, mexican=changed, turn=turn)
            return dataclasses.replace(self, trains={**self.trains, play.train: changed},
                                       turn=turn)
        if play.train is None:
            return dataclasses.replace(self, mexican=self.mexican + (play.tile,),
                                       turn=self.turn + (play,))
        trains = dict(self.trains)
        trains[play.train] = trains[play.train] + (play.tile,)
        return dataclasses.replace(self, trains=trains, turn=self.turn + (play,))

    def replace(self, **changes) -> "Table":
        """A copy with some fields changed (dataclasses.replace)."""
        return dataclasses.replace(self, **changes)

    # ---- JSON

    def to_json(self) -> dict:
        """The table as API.md's "table" object."""
        return {
            "set": self.set,
            "engine": self.engine,
            "players": list(self.players),
            "current": self.current,
            "first_turn": self.first_turn,
            "trains": {name: feet.train_json(self.trains[name]) for name in self.players},
            "markers": [name for name in self.players if name in self.markers],
            "mexican": feet.train_json(self.mexican),
            "turn": [{"tile": p.tile.to_json(), "train": p.train} for p in self.turn],
            "drawn": self.drawn.to_json() if self.drawn is not None else None,
            "rules": self.options.to_dict(),
        }

    @classmethod
    def from_json(cls, data, field: str = "table") -> "Table":
        """Parse API.md's table object; BadInput if unparseable, InvalidTable if impossible."""
        if not isinstance(data, Mapping):
            raise BadInput(_("The table must be an object (see the API's rulings section)."),
                           field)
        TABLE_FIELDS.check(data, field)
        set_n = whole(data.get("set"), f"{field}.set",
                       N_("The set must be a whole number: 6, 9, 12, 15 or 18."))
        engine = whole(data.get("engine"), f"{field}.engine",
                        N_("The engine must be a whole number: the engine double's number."))
        players = data.get("players")
        if not isinstance(players, list):
            raise BadInput(_("The players must be a list of names in seating order."),
                           f"{field}.players")
        for i, name in enumerate(players):
            if not isinstance(name, str) or not name:
                raise BadInput(_("Each player is a name (text)."), f"{field}.players.{i}")
        _check_players(players, f"{field}.players")
        current = data.get("current")
        if not isinstance(current, str):
            raise BadInput(_("Say whose turn it is: current is a player's name."),
                           f"{field}.current")
        first_turn = data.get("first_turn", False)
        if not isinstance(first_turn, bool):
            raise BadInput(_("first_turn must be true or false."), f"{field}.first_turn")
        options = RuleOptions.from_dict(data.get("rules"), f"{field}.rules")
        parse = _feet if options.chicken_foot else _tiles
        raw_trains = data.get("trains") or {}
        if not isinstance(raw_trains, Mapping):
            raise BadInput(_("The trains must be an object from player name to tiles."),
                           f"{field}.trains")
        trains = {}
        for name, tiles in raw_trains.items():
            if name not in players:
                raise InvalidTable(_("%(name)s is not one of the players, so has no train.",
                                     name=name), f"{field}.trains.{name}")
            trains[name] = parse(tiles, f"{field}.trains.{name}")
        mexican = parse(data.get("mexican") or [], f"{field}.mexican")
        raw_markers = data.get("markers") or []
        if not isinstance(raw_markers, list):
            raise BadInput(_("The markers must be a list of player names."), f"{field}.markers")
        for i, name in enumerate(raw_markers):
            if not isinstance(name, str):
                raise BadInput(_("A marker is given by its player's name."),
                               f"{field}.markers.{i}")
        raw_turn = data.get("turn") or []
        if not isinstance(raw_turn, list):
            raise BadInput(_("The turn must be a list of the plays made so far this turn."),
                           f"{field}.turn")
        turn = tuple(Play.from_json(p, None, f"{field}.turn.{i}", TURN_FIELDS)
                     for i, p in enumerate(raw_turn))
        drawn = data.get("drawn")
        drawn = None if drawn is None else parse_tile(drawn, f"{field}.drawn")
        table = cls(set_n, engine, tuple(players), current, first_turn, trains, mexican,
                    frozenset(raw_markers), turn, drawn, options)
        table.validate(field, markers=raw_markers)
        return table

    def validate(self, field: str = "table", markers: Sequence[str] | None = None) -> "Table":
        """Raise InvalidTable, naming the field, if this table cannot exist; else return it."""
        if self.set not in SETS:
            raise InvalidTable(_("A double-%(n)s set is not used: the sets are double-6, 9, "
                                 "12, 15 and 18 (R1.2).", n=self.set), f"{field}.set")
        if not 0 <= self.engine <= self.set:
            raise InvalidTable(_("The engine must be a double from 0-0 to %(n)s-%(n)s in a "
                                 "double-%(n)s set (R2.1).", n=self.set), f"{field}.engine")
        seen_names = _check_players(self.players, f"{field}.players")
        if self.current not in seen_names:
            raise InvalidTable(_("%(name)s is not one of the players.", name=self.current),
                               f"{field}.current")
        for name in self.trains:
            if name not in seen_names:
                raise InvalidTable(_("%(name)s is not one of the players, so has no train.",
                                     name=name), f"{field}.trains.{name}")
        for i, name in enumerate(markers if markers is not None else sorted(self.markers)):
            if name not in seen_names:
                raise InvalidTable(_("%(name)s is not one of the players, so cannot have a "
                                     "marker.", name=name), f"{field}.markers.{i}")
        engine = self.engine_tile
        top = self.set
        seen: set[Tile] = set()
        if self.options.chicken_foot:
            for name in self.train_names:
                wrong = feet.first_wrong(self.train(name), self.engine, top, engine, seen)
                if wrong is not None:
                    where = f"{field}.mexican" if name is None else f"{field}.trains.{name}"
                    self._refuse_tile(wrong[0], name, wrong[1], seen, where + wrong[2])
        else:
            for name in self.train_names:
                end = self.engine
                for i, tile in enumerate(self.train(name)):
                    low, high = tile.low, tile.high
                    if low < 0 or high > top or tile == engine or tile in seen \
                            or (low != end and high != end):
                        where = f"{field}.mexican" if name is None else f"{field}.trains.{name}"
                        self._refuse_tile(tile, name, end, seen, f"{where}.{i}")
                    seen.add(tile)
                    end = high if low == end else low
        # Decision: a turn play must be in the train it names (API.md); it need not be
        # the train's last tile — the ruling does not second-guess how the table got there.
        in_turn: set[Tile] = set()
        for i, play in enumerate(self.turn):
            if play.train is not None and play.train not in seen_names:
                raise InvalidTable(_("%(name)s is not one of the players, so has no train.",
                                     name=play.train), f"{field}.turn.{i}.train")
            if play.tile in in_turn or play.tile not in seen or play.tile not in set(
                    feet.tiles(self.train(play.train))):
                raise InvalidTable(train_sentence(
                    play.train,
                    N_("%(tile)s is listed as played this turn on the Mexican train, but that "
                       "train does not hold it (once)."),
                    N_("%(tile)s is listed as played this turn on the train of %(owner)s, but "
                       "that train does not hold it (once)."), tile=play.tile),
                    f"{field}.turn.{i}.tile")
            in_turn.add(play.tile)
        if self.drawn is not None:
            d = self.drawn
            if not d.in_set(self.set):
                raise InvalidTable(not_in_set(d, self.set, cite=True), f"{field}.drawn")
            if d == engine or (d in seen and d not in in_turn):
                raise InvalidTable(_("%(tile)s is already on the table, so %(name)s cannot have "
                                     "drawn it this turn (R3.3).", tile=d, name=self.current),
                                   f"{field}.drawn")
        return self

    def _refuse_tile(self, tile: Tile, name: str | None, end: int, seen: set[Tile],
                     where: str) -> None:
        """Raise InvalidTable, naming *where*, for a tile of a train validate found wrong."""
        if not tile.in_set(self.set):
            raise InvalidTable(not_in_set(tile, self.set, cite=True), where)
        if tile == self.engine_tile:
            raise InvalidTable(_("%(tile)s is the engine: it sits in the centre and "
                                 "cannot also be in a train (R3.3).", tile=tile), where)
        if tile in seen:
            raise InvalidTable(_("%(tile)s is on the table twice; each tile exists "
                                 "once (R3.3).", tile=tile), where)
        raise InvalidTable(train_sentence(
            name,
            N_("%(tile)s does not chain in the Mexican train: the tile before it leaves "
               "%(end)s open (R3.2)."),
            N_("%(tile)s does not chain in the train of %(owner)s: the tile before it leaves "
               "%(end)s open (R3.2)."), tile=tile, end=end), where)

    def __repr__(self) -> str:
        def show(name):
            return " ".join(f"{a}-{b}" for a, b in self.oriented(name)) or "—"
        trains = "; ".join(
            f"{'Mexican' if n is None else n}{'*' if n in self.markers else ''}: {show(n)}"
            for n in self.train_names)
        extra = ""
        if self.turn:
            extra += f", turn: {' '.join(map(repr, self.turn))}"
        if self.drawn is not None:
            extra += f", drew {self.drawn}"
        first = ", first turn" if self.first_turn else ""
        return (f"<Table double-{self.set}, engine {self.engine}-{self.engine}{first}, "
                f"{self.current} to play; {trains}{extra}>")


def _check_players(players: Sequence[str], field: str) -> set[str]:
    """2 to 14 players (R1.1), each once; the set of their names."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidTable(ngettext("A round has %(min)s to %(max)s players (R1.1); %(num)s "
                                    "was given.",
                                    "A round has %(min)s to %(max)s players (R1.1); %(num)s "
                                    "were given.", len(players), min=MIN_PLAYERS,
                                    max=MAX_PLAYERS), field)
    names = set()
    for i, name in enumerate(players):
        if name in names:
            raise InvalidTable(_("%(name)s is listed twice among the players.", name=name),
                               f"{field}.{i}")
        names.add(name)
    return names


def _tiles(values, field: str) -> tuple[Tile, ...]:
    """parse_tiles, with a fast path for the common well-formed case; a foot is refused
    by name (the option is off)."""
    if type(values) is list:
        out = []
        for v in values:
            if type(v) is list and len(v) == 2 and type(v[0]) is int and type(v[1]) is int:
                a, b = v
                out.append(Tile(a, b) if a <= b else Tile(b, a))
            else:
                break
        else:
            return tuple(out)
        feet.refuse_feet_off(values, field)
    return tuple(parse_tiles(values, field))


def _feet(values, field: str) -> tuple:
    """A train under chicken foot: tiles, maybe ending in a foot (R10, API.md)."""
    return feet.parse_train(values, field)


def whole(value, field: str, message: str) -> int:
    """A whole number, or BadInput with *message* (an N_-marked id, translated only then)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(_(message), field)
    return value
