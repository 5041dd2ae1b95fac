"""A disputed situation described in a few taps, turned into a table the referee can rule on.

At the table nobody wants to enter every tile of every train: what matters to a
dispute is each train's open end, whether it ends in an open double, the
markers, and what the player already did this turn.  :func:`sketch_table`
fills each train with stand-in tiles that reach that open end (never the tile
in dispute, never a tile of the turn), so :func:`scorekeeper.engine.check`
rules on a real, valid table.  Pure: no Flask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from .engine import Play, Table
from .errors import BadInput
from .options import RuleOptions
from .text import _
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class TrainSketch:
    """One train as the scorekeeper sees it.

    ``end`` is its open end (None: the train is empty).  With ``near``, the
    train's last tile is known: it is near|end, ``near`` touching the rest of
    the train (a double when near == end).  ``open_double`` says whether a
    double at the end is still open (R6.3): a double picked as the last tile
    is open unless the scorekeeper marked it answered.
    """

    end: int | None = None
    open_double: bool = False
    near: int | None = None

    @property
    def last(self) -> Tile | None:
        """The last tile, when the scorekeeper picked it."""
        return None if self.near is None or self.end is None else Tile.of(self.near, self.end)


@dataclass(frozen=True)
class Situation:
    """Everything a ruling needs, as the ruling page asks it."""

    set: int
    engine: int
    players: tuple[str, ...]
    current: str
    first_turn: bool = False
    trains: Mapping[str | None, TrainSketch] = field(default_factory=dict)
    markers: frozenset[str] = frozenset()
    played: Play | None = None       # already played this turn (added after the sketch)
    drawn: Tile | None = None
    options: RuleOptions = RuleOptions()


def _chain(engine: int, end: int, top: int, used: set[Tile], limit: int = 4) -> list[Tile] | None:
    """The shortest run of free tiles from the engine's number to *end* (at least one tile)."""
    best: list[Tile] | None = None

    def walk(at: int, path: list[Tile], depth: int) -> None:
        nonlocal best
        if path and at == end:
            if best is None or len(path) < len(best):
                best = list(path)
            return
        if depth == 0 or (best is not None and len(path) + 1 >= len(best)):
            return
        # Try the target first, then the other numbers, so short chains come first.
        for nxt in sorted(range(top + 1), key=lambda n: n != end):
            tile = Tile.of(at, nxt)
            if tile in used or tile in path or tile.is_double:
                continue
            path.append(tile)
            walk(nxt, path, depth - 1)
            path.pop()

    for depth in range(1, limit + 1):
        walk(engine, [], depth)
        if best is not None:
            return best
    return None


def sketch_table(s: Situation, avoid: Sequence[Tile] = ()) -> Table:
    """A valid table with each train ending as sketched (stand-in tiles before that).

    A train whose last tile was picked ends in that very tile (so the ruling
    knows it is on the table, R3.3); stand-in tiles reach it from the engine.
    *avoid* holds tiles that must stay off the table as stand-ins (the tile in
    dispute, a hand being checked).  Refuses with BadInput naming the train
    when a sketch cannot exist (the engine as a last tile, a tile on two trains,
    an end above the set).
    """
    given: dict[Tile, str] = {}
    for name in list(s.players) + [None]:
        last = s.trains.get(name, TrainSketch()).last
        if last is None:
            continue
        where = "mexican" if name is None else f"trains.{name}"
        if last in given:
            raise BadInput(_("%(tile)s is the last tile of two trains; each tile exists once "
                             "(R3.3).", tile=last), where)
        given[last] = where
    for extra, field in ((s.played.tile if s.played else None, "played"), (s.drawn, "drawn")):
        if extra is not None and extra in given:
            raise BadInput(_("%(tile)s is already the last tile of a train, so it cannot also "
                             "have been played or drawn this turn (R3.3).", tile=extra), field)
    used: set[Tile] = {Tile.double(s.engine), *avoid, *given}
    if s.played is not None:
        used.add(s.played.tile)
    if s.drawn is not None:
        used.add(s.drawn)
    built: dict[str | None, list[Tile]] = {}
    names = list(s.players) + [None]
    # Trains ending away from the engine take their one-tile chains first.
    for name in sorted(names, key=lambda n: s.trains.get(n, TrainSketch()).end == s.engine):
        built[name] = _sketch_train(s, s.trains.get(name, TrainSketch()), used,
                                    "mexican" if name is None else f"trains.{name}")
    if s.played is not None:
        target = built[s.played.train]
        end = s.engine
        for tile in target:
            end = tile.other(end)
        if not s.played.tile.has(end):
            raise BadInput(_("The tile already played this turn, %(tile)s, does not match that "
                             "train's open end (%(end)s) as it was when the turn began.",
                             tile=s.played.tile, end=end), "played")
        target.append(s.played.tile)
    table = Table(s.set, s.engine, s.players, s.current, s.first_turn,
                  {p: tuple(built[p]) for p in s.players}, tuple(built[None]), s.markers,
                  (s.played,) if s.played is not None else (), s.drawn, s.options)
    return table.validate()


def _sketch_train(s: Situation, sketch: TrainSketch, used: set[Tile], where: str) -> list[Tile]:
    """The tiles of one sketched train, from the engine out; adds them to *used*."""
    if sketch.end is None:
        if sketch.open_double:
            raise BadInput(_("An empty train cannot end in an open double: choose its open "
                             "end first."), where)
        return []
    if not 0 <= sketch.end <= s.set or (sketch.near is not None and not 0 <= sketch.near <= s.set):
        raise BadInput(_("An open end is a number from 0 to %(n)s.", n=s.set), where)
    last = sketch.last
    if last == Tile.double(s.engine) or (sketch.open_double and sketch.end == s.engine):
        raise BadInput(_("The %(e)s-%(e)s is the engine: it sits in the centre, not at the end "
                         "of a train.", e=s.engine), where)
    if last is not None:
        if last.is_double:
            # A picked double: open (R6.3) at the end of the train, or answered — then the
            # train goes on past it and comes back to the same number with stand-ins.
            tiles = _reach(s, s.engine, last.high, used, where) + [last]
            if not sketch.open_double:
                tiles += _reach(s, last.high, last.high, used | set(tiles), where)
        else:
            tiles = _reach(s, s.engine, sketch.near, used, where,
                           allow_empty=True) + [last]
    else:
        double = Tile.double(sketch.end) if sketch.open_double else None
        if double is not None and double in used:
            raise BadInput(_("The %(tile)s cannot be both the open double here and elsewhere.",
                             tile=double), where)
        tiles = _reach(s, s.engine, sketch.end, used | ({double} if double else set()), where)
        if double is not None:
            tiles.append(double)
    used.update(tiles)
    return tiles


def _reach(s: Situation, start: int, end: int, used: set[Tile], where: str,
           allow_empty: bool = False) -> list[Tile]:
    """Stand-in tiles from *start* to *end* (at least one unless *allow_empty* and they
    are the same number); BadInput when the free tiles cannot make the run."""
    if allow_empty and start == end:
        return []
    tiles = _chain(start, end, s.set, used)
    if tiles is None:
        raise BadInput(_("No tiles are left to build a train ending in %(end)s.", end=end), where)
    return tiles


@dataclass(frozen=True, slots=True)
class Option:
    """A train the current player may play on now, and the number a tile must show."""

    train: str | None
    end: int


def open_trains(table: Table) -> list[Option]:
    """Where the current player may play now: trains some unplayed tile legally fits.

    Derived from check() over every tile not on the table, so it never
    disagrees with a ruling.
    """
    from .engine import legal_plays
    from .tiles import full_set
    free = [t for t in full_set(table.set) if t not in table.on_table]
    seen: dict[str | None, Option] = {}
    for play in legal_plays(table, free):
        if play.train not in seen:
            seen[play.train] = Option(play.train, table.open_end(play.train))
    return [seen[n] for n in table.train_names if n in seen]


def instead(table: Table) -> list[str]:
    """What the current player may do instead, in sentences (R4.2, R5.4, R6.2, R6.4)."""
    options = open_trains(table)
    player = table.current
    lines = []
    for o in options:
        where = (_("on the Mexican train") if o.train is None
                 else _("on their own train") if o.train == player
                 else _("on %(name)s's train", name=o.train))
        lines.append(_("Play a tile showing %(end)s %(where)s.", end=o.end, where=where))
    drawn_pending = table.drawn is not None and table.drawn not in {p.tile for p in table.turn}
    if table.turn_over:
        lines.append(_("The turn is over: play passes to the next player."))
    elif drawn_pending:
        lines.append(_("Only the drawn tile may be played; if it does not fit, %(player)s places "
                       "a marker on their train and the turn passes (R5.4).", player=player))
    elif table.first_turn and table.options.first_turn_stuck == "marker":
        lines.append(_("If %(player)s cannot start their train, they place a marker where it "
                       "would go and do not draw (R4.2).", player=player))
    else:
        lines.append(_("Or draw one tile; if it does not fit, place a marker on your own train "
                       "and the turn passes (R5.4, R6.2, R6.4)."))
    return lines
