"""The referee: Mexican Train's rules (RULES.md R3–R7, options R9) as pure values.

Modelled on python-chess.  Value types (:class:`Play`, :class:`Violation`) and
one state type, :class:`Table` (what lies on the table and whose turn it is).
:func:`check` returns *every* rule a play breaks; :func:`is_legal` and
:func:`legal_plays` are derived from it and never restate a rule.

Live play: :class:`RoundState` mirrors a round as the scorekeeper sees it at a
real table — the tiles on the table and only the *number* of tiles in each
hand.  :func:`apply` takes an action (:class:`PlayAction`, :class:`DrawAction`,
:class:`PassAction`) and returns a new state, or raises :class:`IllegalMove`
with the violations.  :func:`replay` rebuilds a round from its start and the
stored move log.

:func:`plan_train` finds the best opening train of a hand (R4.1).

Unparseable input is :class:`~scorekeeper.errors.BadInput`; a table that
cannot exist is :class:`InvalidTable` (a BadInput naming the field); a move
the rules forbid here is :class:`IllegalMove`.  This module imports nothing
from Flask, storage or the PDF.
"""

from __future__ import annotations

import dataclasses
import heapq
from dataclasses import dataclass, field as dc_field
from enum import Enum
from functools import cached_property
from typing import Iterable, Mapping, Sequence

from .errors import BadInput
from .options import MAX_PLAYERS, MIN_PLAYERS, RuleOptions, deal_for
from .text import N_, _, format_list, ngettext
from .tiles import SETS, Tile, full_set, not_in_set, parse_tile, parse_tiles, set_size

__all__ = [
    "Play", "Violation", "Table", "InvalidTable", "check", "is_legal", "legal_plays",
    "TrainPlan", "plan_train",
    "RoundState", "PlayAction", "DrawAction", "PassAction", "Action", "Finish",
    "IllegalMove", "start_round", "start_from_json", "apply", "action_violations", "replay",
    "legal_actions", "action_from_json", "check_hand", "STRUCTURAL", "train_sentence",
]

#: Rules whose breach makes a table impossible: even an override cannot apply them.
STRUCTURAL = frozenset({"not_in_set", "already_played", "no_match"})


class InvalidTable(BadInput):
    """A table that cannot exist (a train that does not chain, a tile twice …).

    ``field`` names the offending part as a dotted path ("table.trains.Ann.1").
    """


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Play:
    """One tile put on one train; ``train`` is a player's name, None for the Mexican train."""

    tile: Tile
    train: str | None

    def to_json(self) -> dict:
        return {"tile": self.tile.to_json(), "train": self.train}

    @classmethod
    def from_json(cls, data, table: "Table | None" = None, field: str = "play") -> "Play":
        """A play from JSON; with *table*, the train must be one of its trains."""
        if not isinstance(data, Mapping):
            raise BadInput(_('A play is an object like {"tile": [5, 9], "train": "Ann"}.'), field)
        if "tile" not in data:
            raise BadInput(_("Say which tile is played."), f"{field}.tile")
        tile = parse_tile(data["tile"], f"{field}.tile")
        if "train" not in data:
            raise BadInput(_("Say which train the tile goes on: a player's name, or null for "
                             "the Mexican train."), f"{field}.train")
        train = data["train"]
        if train is not None and not isinstance(train, str):
            raise BadInput(_("The train is a player's name, or null for the Mexican train."),
                           f"{field}.train")
        if table is not None and train is not None and train not in table.trains:
            raise BadInput(_("%(name)s is not a player at this table, so there is no such "
                             "train.", name=train), f"{field}.train")
        return cls(tile, train)

    def __repr__(self) -> str:
        return f"Play({self.tile} on {'Mexican' if self.train is None else self.train})"


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule a play breaks: a stable code, the rule number in RULES.md, a sentence."""

    code: str
    rule: str
    message: str

    def to_json(self) -> dict:
        return {"code": self.code, "rule": self.rule, "message": self.message}

    def __repr__(self) -> str:
        return f"Violation({self.code} {self.rule}: {self.message!r})"


def train_sentence(train: str | None, mexican: str, other: str, own: str | None = None,
                   **values) -> str:
    """One whole sentence about a train, translated: *mexican* for the Mexican train,
    *own* (if given) for the train of ``values["player"]``, else *other* with %(owner)s.

    Each id is a whole sentence marked with N_ where it is written, so translators
    get every variant whole; nothing is spliced into anything.
    """
    if train is None:
        return _(mexican, **values)
    if own is not None and train == values.get("player"):
        return _(own, **values)
    return _(other, owner=train, **values)


# --------------------------------------------------------------------------- the table


class _Facts:
    """What a Table implies for the current player, computed once per table."""

    __slots__ = ("ends", "on_table", "turn_tiles", "open_doubles", "binding", "done", "owes",
                 "drawn_pending", "by_train")


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
        set_ = object.__setattr__
        set_(self, "players", players)
        set_(self, "trains", trains)
        set_(self, "mexican", tuple(self.mexican))
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
        return self._facts.ends[name]

    def oriented(self, name: str | None) -> tuple[tuple[int, int], ...]:
        """A train's tiles as (near end, far end) pairs from the engine outward."""
        out, end = [], self.engine
        for tile in self.train(name):
            nxt = tile.other(end)
            out.append((end, nxt))
            end = nxt
        return tuple(out)

    @property
    def on_table(self) -> frozenset[Tile]:
        """Every tile on the table: the engine and all trains (R3.3)."""
        return self._facts.on_table

    @property
    def open_doubles(self) -> dict[str | None, Tile]:
        """Trains ending in a double with nothing on it (R6.3), train → double."""
        return dict(self._facts.open_doubles)

    @property
    def binding_doubles(self) -> dict[str | None, Tile]:
        """The open doubles the current player must satisfy first (R6.3–R6.6, R4.3)."""
        return dict(self._facts.binding)

    @property
    def owed_after(self) -> Play | None:
        """The double after which the current player owes a tile (R6.1), if any."""
        return self._facts.owes

    @property
    def turn_over(self) -> bool:
        """True when the current player has made their play and owes nothing (R5.1, R4.1)."""
        return self._facts.done

    @cached_property
    def _facts(self) -> _Facts:
        f = _Facts()
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
            # R6.6: doubles the current player played this turn do not bind them.
            f.binding = {k: d for k, d in open_doubles.items() if d not in turn_tiles}
            # R5.1: any tile but a double ends the turn's play; a double owes another (R6.1).
            f.done = any(p.tile.low != p.tile.high for p in self.turn)
            f.owes = self.turn[-1] if self.turn and not f.done else None
        f.drawn_pending = self.drawn is not None and self.drawn not in turn_tiles
        f.by_train = {}  # check()'s rulings that depend on the train only
        return f

    # ---- building new tables

    def with_play(self, play: Play) -> "Table":
        """The table after *play* (no legality check; the tile must match the train)."""
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
            "trains": {name: [t.to_json() for t in self.trains[name]] for name in self.players},
            "markers": [name for name in self.players if name in self.markers],
            "mexican": [t.to_json() for t in self.mexican],
            "turn": [p.to_json() for p in self.turn],
            "drawn": self.drawn.to_json() if self.drawn is not None else None,
            "rules": self.options.to_dict(),
        }

    @classmethod
    def from_json(cls, data, field: str = "table") -> "Table":
        """Parse API.md's table object; BadInput if unparseable, InvalidTable if impossible."""
        if not isinstance(data, Mapping):
            raise BadInput(_("The table must be an object (see the API's rulings section)."),
                           field)
        set_n = _whole(data.get("set"), f"{field}.set",
                       N_("The set must be a whole number: 6, 9, 12, 15 or 18."))
        engine = _whole(data.get("engine"), f"{field}.engine",
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
        raw_trains = data.get("trains") or {}
        if not isinstance(raw_trains, Mapping):
            raise BadInput(_("The trains must be an object from player name to tiles."),
                           f"{field}.trains")
        trains = {}
        for name, tiles in raw_trains.items():
            if name not in players:
                raise InvalidTable(_("%(name)s is not one of the players, so has no train.",
                                     name=name), f"{field}.trains.{name}")
            trains[name] = _tiles(tiles, f"{field}.trains.{name}")
        mexican = _tiles(data.get("mexican") or [], f"{field}.mexican")
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
        turn = tuple(Play.from_json(p, None, f"{field}.turn.{i}") for i, p in enumerate(raw_turn))
        drawn = data.get("drawn")
        drawn = None if drawn is None else parse_tile(drawn, f"{field}.drawn")
        options = RuleOptions.from_dict(data.get("rules"), f"{field}.rules")
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
        for name in self.train_names:
            end = self.engine
            for i, tile in enumerate(self.train(name)):
                low, high = tile.low, tile.high
                if low < 0 or high > top or tile == engine or tile in seen \
                        or (low != end and high != end):
                    self._refuse_tile(field, name, i, end, seen)
                seen.add(tile)
                end = high if low == end else low
        # Decision: a turn play must be in the train it names (API.md); it need not be
        # the train's last tile — the ruling does not second-guess how the table got there.
        in_turn: set[Tile] = set()
        for i, play in enumerate(self.turn):
            if play.train is not None and play.train not in seen_names:
                raise InvalidTable(_("%(name)s is not one of the players, so has no train.",
                                     name=play.train), f"{field}.turn.{i}.train")
            if play.tile in in_turn or play.tile not in self.train(play.train):
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

    def _refuse_tile(self, field: str, name: str | None, i: int, end: int,
                     seen: set[Tile]) -> None:
        """Raise InvalidTable for the i-th tile of a train (validate found it wrong)."""
        tile = self.train(name)[i]
        where = f"{field}.mexican.{i}" if name is None else f"{field}.trains.{name}.{i}"
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
    """parse_tiles, with a fast path for the common well-formed case."""
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
    return tuple(parse_tiles(values, field))


def _whole(value, field: str, message: str) -> int:
    """A whole number, or BadInput with *message* (an N_-marked id, translated only then)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(_(message), field)
    return value


# --------------------------------------------------------------------------- rulings


def check(table: Table, play: Play) -> list[Violation]:
    """Every rule *play* breaks on *table* (empty when the play is legal).

    The play is the current player's.  An unknown train name is BadInput
    ("play.train"), not a violation: there is no such train to rule on.
    """
    f = table._facts
    tile, train = play.tile, play.train
    try:
        end = f.ends[train]
    except KeyError:
        raise BadInput(_("%(name)s is not a player at this table, so there is no such train.",
                         name=train), "play.train") from None
    low, high = tile.low, tile.high
    out: list[Violation] = []

    # R3.3: each tile exists once, and only numbers up to N exist.
    if low < 0 or high > table.set:
        out.append(Violation("not_in_set", "R3.3", not_in_set(tile, table.set)))
    elif tile in f.on_table:
        if low == high == table.engine:
            msg = _("%(tile)s is the engine: it is already on the table.", tile=tile)
        else:
            msg = _("%(tile)s is already on the table.", tile=tile)
        out.append(Violation("already_played", "R3.3", msg))
    # R3.2: the tile must show the train's open end (the engine's number when empty).
    if low != end and high != end:
        out.append(Violation("no_match", "R3.2", train_sentence(
            train, N_("%(tile)s does not match the Mexican train, whose open end is %(end)s."),
            N_("%(tile)s does not match the train of %(owner)s, whose open end is %(end)s."),
            tile=tile, end=end)))
    # The other rules depend on the train (and on whether this is the drawn tile), not
    # on the tile: ruled once per table and train.
    key = (train, f.drawn_pending and tile == table.drawn)
    rules = f.by_train.get(key)
    if rules is None:
        rules = f.by_train[key] = _train_rules(table, f, train, key[1])
    if rules:
        out.extend(rules)
    return out


def _train_rules(table: Table, f: _Facts, train: str | None,
                 is_drawn: bool) -> tuple[Violation, ...]:
    """The rules a play on *train* breaks whatever the tile (R4.1, R4.2, R5.1–R5.4, R6)."""
    player = table.current
    out: list[Violation] = []
    if table.first_turn:
        # R4.1: the first turn builds only one's own train (this replaces R5.2's train_closed).
        if train != player:
            out.append(Violation("first_turn_own_train", "R4.1", train_sentence(
                train, N_("In the first turn %(player)s may only build their own train, not "
                          "the Mexican train."),
                N_("In the first turn %(player)s may only build their own train, not the "
                   "train of %(owner)s."), player=player)))
        if table.drawn is not None and table.options.first_turn_stuck == "marker":
            # Decision: with first_turn_stuck=marker nobody draws in the first turn (R4.2).
            # A table that says the player drew anyway gets no play at all: the draw
            # cannot earn them a tile on the table; their turn ends with the marker.
            # API.md ties each code to one rule number: drawn_tile_only is R5.4, and
            # the sentence names R4.2, the first-turn clause at stake.
            out.append(Violation("drawn_tile_only", "R5.4", _(
                "Nobody draws in the first turn under this game's rules (R4.2): having drawn, "
                "%(player)s places a marker and the turn passes.", player=player)))
        elif f.drawn_pending:
            # R4.2 (option draw): the drawn tile only.
            if not is_drawn:
                out.append(Violation("drawn_tile_only", "R5.4", _(
                    "%(player)s drew %(drawn)s: only that tile may be played now (R4.2).",
                    player=player, drawn=table.drawn)))
        elif f.done:
            if table.drawn is not None:
                # R4.2: playing the drawn tile ends the first turn.
                out.append(Violation("one_tile_per_turn", "R4.1", _(
                    "%(player)s played the drawn tile, which ends their first turn (R4.2).",
                    player=player)))
            else:
                # R4.1 option first_turn=single: exactly one tile.
                out.append(Violation("one_tile_per_turn", "R4.1", _(
                    "In the first turn %(player)s plays exactly one tile, and has played it.",
                    player=player)))
        return tuple(out)

    # R5.2: another player's train is open only with a marker, or to satisfy its open double (R6.3).
    if (train is not None and train != player and train not in table.markers
            and train not in f.open_doubles):
        out.append(Violation("train_closed", "R5.2", _(
            "The train of %(owner)s has no marker: %(player)s may not play on it.",
            owner=train, player=player)))
    # R6.3–R6.6: an open double binding this player must be satisfied first.
    binding = f.binding
    if binding and train not in binding:
        if len(binding) == 1:
            (where, double), = binding.items()
            if where is None:
                msg = _("The Mexican train's %(tile)s is an open double: %(player)s must play "
                        "on it first.", tile=double, player=player)
            else:
                # The sentence of API.md's example answer, kept word for word.
                msg = _("%(owner)s's %(tile)s is an open double: %(player)s must play on it "
                        "first.", owner=where, tile=double, player=player)
        else:
            doubles = [train_sentence(k, N_("the %(tile)s on the Mexican train"),
                                      N_("the %(tile)s on the train of %(owner)s"), tile=d)
                       for k, d in binding.items()]
            msg = _("%(player)s must first play on one of the open doubles: %(doubles)s.",
                    player=player, doubles=format_list(doubles))
        out.append(Violation("open_double", "R6.3", msg))
    # R5.1: one tile per turn, unless it was a double (R6.1).
    if f.done:
        out.append(Violation("one_tile_per_turn", "R5.1", _(
            "%(player)s has already played this turn and owes no tile after a double.",
            player=player)))
    # R5.4 / R6.2 / R6.4: after drawing, only the drawn tile may be played.
    if f.drawn_pending and not is_drawn:
        out.append(Violation("drawn_tile_only", "R5.4", _(
            "%(player)s drew %(drawn)s: only that tile may be played now.",
            player=player, drawn=table.drawn)))
    # R6.7 (option): the tile owed after a double goes on that double.
    owes = f.owes
    if owes is not None and table.options.double_owner_satisfies and train != owes.train:
        out.append(Violation("owner_must_satisfy", "R6.7", train_sentence(
            owes.train,
            N_("%(player)s owes a tile on the %(tile)s just played on the Mexican train: under "
               "this game's rules it must go on that double."),
            N_("%(player)s owes a tile on the %(tile)s just played on the train of %(owner)s: "
               "under this game's rules it must go on that double."),
            N_("%(player)s owes a tile on the %(tile)s just played on their own train: under "
               "this game's rules it must go on that double."),
            player=player, tile=owes.tile)))
    return tuple(out)


def is_legal(table: Table, play: Play) -> bool:
    """True when *play* breaks no rule (check() is empty)."""
    return not check(table, play)


def legal_plays(table: Table, hand: Iterable[Tile]) -> list[Play]:
    """Every play from *hand* that check() finds legal: hand order, then trains in seat order."""
    out = []
    seen = set()
    names = table.train_names
    for tile in hand:
        if tile in seen:
            continue
        seen.add(tile)
        for name in names:
            play = Play(tile, name)
            if not check(table, play):
                out.append(play)
    return out


# --------------------------------------------------------------------------- the opening train


@dataclass(frozen=True, slots=True)
class TrainPlan:
    """The best opening train of a hand (R4.1): most tiles, then most pips."""

    train: tuple[tuple[int, int], ...]
    tiles: int
    pips: int
    left: tuple[Tile, ...]
    left_pips: int

    def to_json(self) -> dict:
        return {"train": [list(p) for p in self.train], "tiles": self.tiles, "pips": self.pips,
                "left": [t.to_json() for t in self.left], "left_pips": self.left_pips}


def check_hand(set_n: int, engine: int, hand: Iterable[Tile], field: str = "hand") -> list[Tile]:
    """A hand as a list of tiles: in the set, not the engine, none twice (R3.3)."""
    tiles, seen = [], set()
    engine_tile = Tile(engine, engine)
    for i, tile in enumerate(hand):
        where = f"{field}.{i}"
        if not tile.in_set(set_n):
            raise BadInput(not_in_set(tile, set_n, cite=True), where)
        if tile == engine_tile:
            raise BadInput(_("%(tile)s is the engine: it is on the table, not in a hand (R3.3).",
                             tile=tile), where)
        if tile in seen:
            raise BadInput(_("%(tile)s is in the hand twice; each tile exists once (R3.3).",
                             tile=tile), where)
        seen.add(tile)
        tiles.append(tile)
    return tiles


def plan_train(set_n: int, engine: int, hand: Iterable) -> TrainPlan:
    """The best opening train from *hand*: most tiles, then most face-value pips.

    Exact: a depth-first search over trails from the engine with a transposition
    table on (open end, tiles left) and an upper bound (tiles reachable from the
    open end, less what the degree parity makes unusable).  Doubles need no
    search: reaching a number whose double is in hand, the double is always
    worth playing at once (it keeps the same open end).
    """
    if isinstance(set_n, bool) or not isinstance(set_n, int) or set_n not in SETS:
        raise BadInput(_("The set must be double-6, 9, 12, 15 or 18."), "set")
    if isinstance(engine, bool) or not isinstance(engine, int) or not 0 <= engine <= set_n:
        raise BadInput(_("The engine must be a double from 0-0 to %(n)s-%(n)s in a "
                         "double-%(n)s set (R2.1).", n=set_n), "engine")
    hand = list(hand)
    if any(not isinstance(t, Tile) for t in hand):
        hand = parse_tiles(hand, "hand")
    tiles = check_hand(set_n, engine, hand)
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


# --------------------------------------------------------------------------- live play


class Finish(str, Enum):
    """How a round ended."""

    OUT = "out"
    """A player played their last tile (R7.1); after the first turn if it happened in it (R4.4)."""

    BLOCKED = "blocked"
    """The boneyard is empty and every player in turn passed, with no play and no new
    marker in that cycle (R7.2)."""


class IllegalMove(ValueError):
    """An action the rules forbid here; ``violations`` says which rules and why."""

    def __init__(self, violations: Sequence[Violation], action: "Action | None" = None,
                 index: int | None = None):
        self.violations = list(violations)
        self.action = action
        self.index = index
        super().__init__("\n".join(v.message for v in self.violations))  # a sentence a line

    def to_json(self) -> dict:
        return {"violations": [v.to_json() for v in self.violations]}


@dataclass(frozen=True, slots=True)
class PlayAction:
    """The current player puts *tile* on *train* (None: Mexican).

    ``override=True`` records a play the table accepted although the referee
    would not (house agreement); it is still refused if it would make the table
    impossible (not_in_set, already_played, no_match).
    """

    tile: Tile
    train: str | None
    override: bool = False

    @property
    def play(self) -> Play:
        return Play(self.tile, self.train)

    def to_json(self) -> dict:
        data = {"type": "play", "tile": self.tile.to_json(), "train": self.train}
        if self.override:
            data["override"] = True
        return data


@dataclass(frozen=True, slots=True)
class DrawAction:
    """The current player draws one tile from the boneyard; None when the tile stays secret.

    After a secret draw the next play of that turn is taken to be the drawn tile.
    """

    tile: Tile | None = None

    def to_json(self) -> dict:
        return {"type": "draw", "tile": self.tile.to_json() if self.tile is not None else None}


@dataclass(frozen=True, slots=True)
class PassAction:
    """The current player ends their turn.

    With their play still owed (nothing played, a tile owed after a double, an
    open double to satisfy) this places a marker on their own train (R4.2, R5.4,
    R6.2, R6.4).  In the first turn after starting their train it just ends the
    turn (R4.1).
    """

    def to_json(self) -> dict:
        return {"type": "pass"}


Action = PlayAction | DrawAction | PassAction


def action_from_json(data, field: str = "action") -> Action:
    """An action from its JSON form ({"type": "play" | "draw" | "pass", …})."""
    if not isinstance(data, Mapping):
        raise BadInput(_("An action is an object with a type: play, draw or pass."), field)
    kind = data.get("type")
    if kind == "play":
        play = Play.from_json(data, None, field)
        override = data.get("override", False)
        if not isinstance(override, bool):
            raise BadInput(_("override must be true or false."), f"{field}.override")
        return PlayAction(play.tile, play.train, override)
    if kind == "draw":
        tile = data.get("tile")
        return DrawAction(None if tile is None else parse_tile(tile, f"{field}.tile"))
    if kind == "pass":
        return PassAction()
    raise BadInput(_("An action's type is play, draw or pass."), f"{field}.type")


@dataclass(frozen=True, eq=True, repr=False)
class RoundState:
    """A round as the scorekeeper mirrors it: the table and how many tiles each hand holds.

    ``drew`` is true between a draw and the play of the drawn tile (the tile is
    ``table.drawn`` when known, else secret).  ``passes`` (R7.2) counts the turns
    in a row that ended in a pass leaving the table as it was: the boneyard empty,
    no tile played that turn, and no new marker (the player's train already carried
    one).  A play, or a pass that places a new marker, sets it back to 0; when it
    reaches the number of players, everyone has seen the same table and passed, and
    the round is blocked.  The players who had their first turn are those from
    ``starter`` up to ``table.current`` while ``table.first_turn`` is true.
    """

    table: Table
    starter: str
    hands: Mapping[str, int]
    boneyard: int
    drew: bool = False
    passes: int = 0
    went_out: tuple[str, ...] = ()
    finished: Finish | None = None

    def __post_init__(self):
        object.__setattr__(self, "hands", {p: self.hands[p] for p in self.table.players})
        object.__setattr__(self, "went_out", tuple(self.went_out))
        if self.finished is not None:
            object.__setattr__(self, "finished", Finish(self.finished))

    def __hash__(self) -> int:
        return hash((self.table, self.starter, tuple(self.hands.items()), self.boneyard,
                     self.drew, self.passes, self.went_out, self.finished))

    @property
    def current(self) -> str:
        return self.table.current

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.players

    @property
    def options(self) -> RuleOptions:
        return self.table.options

    @property
    def is_over(self) -> bool:
        return self.finished is not None

    def ruling_table(self, tile: Tile | None = None) -> Table:
        """The table check() rules on; after a secret draw, *tile* is taken as the drawn one."""
        table = self.table
        if self.drew and not table._facts.drawn_pending and tile is not None:
            return table.replace(drawn=tile)
        return table

    def to_json(self) -> dict:
        return {"table": self.table.to_json(), "starter": self.starter,
                "hands": dict(self.hands), "boneyard": self.boneyard, "drew": self.drew,
                "passes": self.passes, "went_out": list(self.went_out),
                "finished": self.finished.value if self.finished is not None else None}

    @classmethod
    def from_json(cls, data, field: str = "state") -> "RoundState":
        """A stored state; InvalidTable if it cannot exist (tiles must add up to the set)."""
        if not isinstance(data, Mapping):
            raise BadInput(_("A round state must be an object."), field)
        table = Table.from_json(data.get("table"), f"{field}.table")
        starter = data.get("starter")
        if starter not in table.players:
            raise InvalidTable(_("The starter must be one of the players."), f"{field}.starter")
        hands = data.get("hands")
        if not isinstance(hands, Mapping):
            raise BadInput(_("hands must give each player's tile count."), f"{field}.hands")
        for name in table.players:
            value = hands.get(name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BadInput(_("The tile count of %(name)s must be a whole number, 0 or "
                                 "more.", name=name), f"{field}.hands.{name}")
        for name in hands:
            if name not in table.players:
                raise InvalidTable(_("%(name)s is not one of the players.", name=name),
                                   f"{field}.hands.{name}")
        boneyard = data.get("boneyard")
        if isinstance(boneyard, bool) or not isinstance(boneyard, int) or boneyard < 0:
            raise BadInput(_("The boneyard count must be a whole number, 0 or more."),
                           f"{field}.boneyard")
        if sum(hands[p] for p in table.players) + boneyard + len(table.on_table) \
                != set_size(table.set):
            raise InvalidTable(_("The hands, the boneyard and the table must hold every tile "
                                 "of the set exactly once."), f"{field}.boneyard")
        drew, passes = data.get("drew", False), data.get("passes", 0)
        if not isinstance(drew, bool):
            raise BadInput(_("drew must be true or false."), f"{field}.drew")
        if isinstance(passes, bool) or not isinstance(passes, int) or passes < 0:
            raise BadInput(_("passes must be a whole number, 0 or more."), f"{field}.passes")
        went_out = data.get("went_out") or []
        if not isinstance(went_out, list) or any(n not in table.players for n in went_out):
            raise InvalidTable(_("went_out must list players."), f"{field}.went_out")
        finished = data.get("finished")
        if finished not in (None, "out", "blocked"):
            raise BadInput(_("finished is null, out or blocked."), f"{field}.finished")
        return cls(table, starter, {p: hands[p] for p in table.players}, boneyard, drew, passes,
                   tuple(went_out), finished)

    def __repr__(self) -> str:
        hands = ", ".join(f"{p}={n}" for p, n in self.hands.items())
        state = f", finished={self.finished.value}" if self.finished else ""
        drew = ", drew" if self.drew else ""
        return f"<RoundState hands({hands}) boneyard={self.boneyard}{drew}{state} {self.table!r}>"


def start_round(set_n: int, engine: int, players: Sequence[str], starter: str,
                tiles_each: int | None = None, options: RuleOptions = RuleOptions(),
                draws: Mapping[str, int] | None = None, hands: Mapping[str, int] | None = None,
                boneyard: int | None = None) -> RoundState:
    """A round just after the engine is set: nothing played, *starter* to play (R2.2–R2.4).

    ``tiles_each`` defaults to the deal table (R1.3).  Hand counts: under R2.2
    the starter set the engine down from their hand (one tile fewer), and
    ``draws`` adds the tiles each player drew before the engine turned up;
    under R2.3 (starter: highest_draw) the engine was set aside before the deal
    and the drawn tiles go back.  ``hands`` (and ``boneyard``) override all this
    when the scorekeeper counted differently.
    """
    probe = Table(set_n, engine, tuple(players), starter, True, {}, (), frozenset(), (), None,
                  options)
    try:
        probe.validate("start")
    except InvalidTable as error:
        field = error.field.replace("start.current", "start.starter")
        raise InvalidTable(error.message, field) from None
    players = probe.players
    if tiles_each is None:
        tiles_each = deal_for(set_n, len(players), options).tiles_each
    if hands is None:
        draws = dict(draws or {})
        for name, count in draws.items():
            if name not in players or isinstance(count, bool) or not isinstance(count, int) \
                    or count < 0:
                raise BadInput(_("Draws before the engine turned up are whole numbers by "
                                 "player (R2.2)."), f"start.draws.{name}")
        holder = options.starter == "engine_holder"
        hands = {p: tiles_each + draws.get(p, 0) - (1 if holder and p == starter else 0)
                 for p in players}
    else:
        for name in players:
            value = hands.get(name) if isinstance(hands, Mapping) else None
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BadInput(_("The tile count of %(name)s must be a whole number, 0 or "
                                 "more.", name=name), f"start.hands.{name}")
    total = set_size(set_n) - 1
    if boneyard is None:
        boneyard = total - sum(hands[p] for p in players)
    if boneyard < 0 or sum(hands[p] for p in players) + boneyard != total:
        raise BadInput(_("The deal does not fit: the hands and the boneyard must hold the "
                         "%(count)s tiles of the set besides the engine (R1.4).", count=total),
                       "start.hands")
    return RoundState(probe, starter, dict(hands), boneyard)


def start_from_json(data, field: str = "start") -> RoundState:
    """start_round() from JSON: {"set", "engine", "players", "starter", "tiles_each"?,
    "rules"?, "draws"?, "hands"?, "boneyard"?}."""
    if not isinstance(data, Mapping):
        raise BadInput(_("The round's start must be an object."), field)
    rules = RuleOptions.from_dict(data.get("rules"), f"{field}.rules")
    set_n = _whole(data.get("set"), f"{field}.set", N_("The set must be 6, 9, 12, 15 or 18."))
    engine = _whole(data.get("engine"), f"{field}.engine", N_("The engine must be a number."))
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise BadInput(_("The players must be a list of names in seating order."),
                       f"{field}.players")
    starter = data.get("starter")
    if not isinstance(starter, str):
        raise BadInput(_("Say who starts the round."), f"{field}.starter")
    tiles_each = data.get("tiles_each")
    if tiles_each is not None:
        tiles_each = _whole(tiles_each, f"{field}.tiles_each",
                            N_("Tiles each must be a whole number."))
    boneyard = data.get("boneyard")
    if boneyard is not None:
        boneyard = _whole(boneyard, f"{field}.boneyard",
                          N_("The boneyard count must be a whole number."))
    for key in ("draws", "hands"):
        if data.get(key) is not None and not isinstance(data[key], Mapping):
            raise BadInput(_("%(key)s must map player names to counts.", key=key),
                           f"{field}.{key}")
    return start_round(set_n, engine, players, starter, tiles_each, rules, data.get("draws"),
                       data.get("hands"), boneyard)


def _v(code: str, rule: str, message: str) -> Violation:
    return Violation(code, rule, message)


def action_violations(state: RoundState, action: Action) -> list[Violation]:
    """Every rule *action* breaks in *state* (empty: apply() accepts it)."""
    table = state.table
    player = table.current
    if state.finished is not None:
        return [_v("round_over", "R7.1" if state.finished is Finish.OUT else "R7.2",
                   _("The round is over."))]
    if isinstance(action, PlayAction):
        out = []
        if state.hands[player] == 0:
            out.append(_v("empty_hand", "R7.1", _("%(player)s has no tiles left to play.",
                                                  player=player)))
        out.extend(check(state.ruling_table(action.tile), action.play))
        if action.override:
            out = [v for v in out if v.code in STRUCTURAL or v.code == "empty_hand"]
        return out
    if isinstance(action, DrawAction):
        out = []
        if table.first_turn:
            if table.options.first_turn_stuck == "marker":
                out.append(_v("no_draw_first_turn", "R4.2", _(
                    "Nobody draws in the first turn under this game's rules: a player who "
                    "cannot start their train places a marker.")))
            elif table.turn:
                # Decision: R4.2's draw is for a player who cannot start their train.
                out.append(_v("no_draw_first_turn", "R4.2", _(
                    "%(player)s has started their train: only a player who cannot start "
                    "it draws in the first turn.", player=player)))
        if state.drew:
            out.append(_v("already_drew", "R5.4", _(
                "%(player)s has already drawn: play the drawn tile or pass.", player=player)))
        if state.boneyard == 0:
            out.append(_v("boneyard_empty", "R5.4", _(
                "The boneyard is empty: %(player)s places a marker and passes.", player=player)))
        tile = action.tile
        if tile is not None:
            if not tile.in_set(table.set):
                out.append(_v("not_in_set", "R3.3", not_in_set(tile, table.set)))
            elif tile in table.on_table:
                out.append(_v("already_played", "R3.3", _(
                    "%(tile)s is already on the table, so it cannot come from the boneyard.",
                    tile=tile)))
        return out
    if isinstance(action, PassAction):
        if table.first_turn:
            if table.turn or table.options.first_turn_stuck == "marker":
                return []
            rule = "R4.2"
        elif table.owed_after is not None:
            rule = "R6.2"
        elif table.binding_doubles:
            rule = "R6.4"
        else:
            rule = "R5.4"
        # Decision: R5.4/R6.2/R6.4 (and R4.2 under the draw option) say the player who does
        # not play *draws*; so a pass needs a draw first while the boneyard has tiles.
        # Drawing is allowed even with a playable tile ("cannot (or does not)").
        if not state.drew and state.boneyard > 0:
            return [_v("must_draw", rule, _(
                "%(player)s must draw a tile from the boneyard before passing.",
                player=player))]
        return []
    raise TypeError(f"not an action: {action!r}")


def apply(state: RoundState, action: Action) -> RoundState:
    """The state after *action*; IllegalMove (with the violations) if the rules forbid it."""
    violations = action_violations(state, action)
    if violations:
        raise IllegalMove(violations, action)
    table = state.table
    player = table.current
    if isinstance(action, DrawAction):
        hands = dict(state.hands)
        hands[player] += 1
        return dataclasses.replace(state, table=table.replace(drawn=action.tile), hands=hands,
                                   boneyard=state.boneyard - 1, drew=True)
    if isinstance(action, PassAction):
        if table.first_turn and table.turn:
            return _end_turn(state, table, marker=False)  # R4.1: the train is built
        # R4.2, R5.4, R6.2, R6.4: a marker on their own train, and the turn passes.
        # R7.2: a new marker opens a train to the players who passed before it, so only
        # a pass that leaves the table as it was counts towards a blocked round: nothing
        # left to draw, no tile played this turn, and the player's train already marked.
        # (First-turn passes never count: the Mexican and marked trains are not open yet.)
        # A play, or a pass that places a new marker, starts the count again.
        unchanged = (not table.first_turn and state.boneyard == 0 and not table.turn
                     and player in table.markers)
        passes = state.passes + 1 if unchanged else 0
        after = _end_turn(dataclasses.replace(state, passes=passes), table, marker=True)
        if passes >= len(table.players):
            after = dataclasses.replace(after, finished=Finish.BLOCKED)
        return after
    # a play
    play = action.play
    drew = state.drew
    new = state.ruling_table(action.tile).with_play(play)
    if play.train == player and player in new.markers:
        new = new.replace(markers=new.markers - {player})  # R5.5
    hands = dict(state.hands)
    hands[player] -= 1
    after = dataclasses.replace(state, table=new, hands=hands, drew=False, passes=0)
    if hands[player] == 0:
        after = dataclasses.replace(after, went_out=state.went_out + (player,))
        if not table.first_turn:
            # R7.1: going out ends the round at once, even on a double (nothing owed).
            return dataclasses.replace(after, finished=Finish.OUT)
        return _end_turn(after, new, marker=False)  # R4.4: the round goes on round the table
    if table.first_turn:
        # R4.1 single: one tile; R4.2: the drawn tile ends the first turn; R4.3: no tile owed.
        if table.options.first_turn == "single" or drew:
            return _end_turn(after, new, marker=False)
        return after
    if not play.tile.is_double:
        return _end_turn(after, new, marker=False)  # R5.1
    return after  # R6.1: a tile is owed


def _end_turn(state: RoundState, table: Table, marker: bool) -> RoundState:
    """Hand the turn to the next player; the first turn ends when it is back to the starter."""
    players = table.players
    nxt = players[(players.index(table.current) + 1) % len(players)]
    markers = table.markers | {table.current} if marker else table.markers
    first_turn = table.first_turn and nxt != state.starter
    new = table.replace(current=nxt, turn=(), drawn=None, markers=markers,
                        first_turn=first_turn)
    after = dataclasses.replace(state, table=new, drew=False)
    if table.first_turn and not first_turn and state.went_out:
        after = dataclasses.replace(after, finished=Finish.OUT)  # R4.4
    return after


def legal_actions(state: RoundState, hand: Iterable[Tile] | None = None) -> list[Action]:
    """Every action apply() accepts now: plays from *hand*, then draw, then pass.

    The scorekeeper does not know the hands: without *hand*, the plays offered
    are those of every tile not on the table (each could be in the hand).
    """
    if state.finished is not None:
        return []
    table = state.table
    if hand is None:
        on_table = table.on_table
        hand = [t for t in full_set(table.set) if t not in on_table]
    out: list[Action] = []
    for tile in dict.fromkeys(hand):
        for name in table.train_names:
            action = PlayAction(tile, name)
            if not action_violations(state, action):
                out.append(action)
    for action in (DrawAction(), PassAction()):
        if not action_violations(state, action):
            out.append(action)
    return out


def replay(start, actions: Iterable) -> RoundState:
    """The state after playing *actions* (objects or their JSON) from *start*.

    *start* is a RoundState or start_round()'s JSON.  IllegalMove carries the
    index of the first action refused.
    """
    state = start if isinstance(start, RoundState) else start_from_json(start)
    for i, action in enumerate(actions):
        if isinstance(action, Mapping):
            action = action_from_json(action, f"actions.{i}")
        try:
            state = apply(state, action)
        except IllegalMove as error:
            error.index = i
            raise
    return state
