"""A disputed situation described in a few taps, turned into a table the referee can rule on.

At the table nobody wants to enter every tile of every train: what matters to a
dispute is each train's open end, whether it ends in an open double, the
markers, and what the player already did this turn.  :func:`sketch_table`
fills each train with stand-in tiles that reach that open end (never the tile
in dispute, never a tile of the turn), so :func:`scorekeeper.referee.check`
rules on a real, valid table.  The ruling pages ask it in their query string
(:meth:`Situation.from_query`), trains picked by key (:func:`train_key`: a seat
number, "m" for the Mexican train); :mod:`.verdict` says the ruling in sentences.
Pure: no Flask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from .referee import Play, Table
from .referee.feet import Foot, as_feet
from .errors import BadInput
from .footview import split_end_key
from .options import RuleOptions
from .parsing import whole_number
from .text import _
from .tiles import Tile, full_set, parse_tile_text

#: The Mexican train's key where a page picks a train; a player's train is their seat number.
MEXICAN = "m"


def train_key(name: str | None, players) -> str:
    """The key a page uses for a train: the owner's seat number, "m" for the Mexican train."""
    return MEXICAN if name is None else str(players.index(name))


def train_from_key(key: str, players, field: str = "train") -> str | None:
    """A train picked on a page: a seat number, or "m" for the Mexican train (None)."""
    if key == MEXICAN:
        return None
    seat = whole_number(key)
    if seat is not None and seat < len(players):
        return players[seat]
    raise BadInput(_("Pick a train."), field)


def question_from_query(args: Mapping[str, str], players, turn_known: bool = False
                        ) -> Play:
    """The play a ruling page asks about: the tile in question (``tile``) on the train
    picked (``train``), whose turn it is (``current``) said too unless *turn_known* (the
    live table knows it).

    Nothing is assumed for what the form left unpicked (a ruling on a guessed situation
    would be confident and wrong): BadInput names everything missing at once, a whole
    sentence for each, its field the first of them.
    """
    missing = []
    if not turn_known and not args.get("current", ""):
        missing.append(("current", _("Say whose turn it is.")))
    if not args.get("train", ""):
        missing.append(("train", _("Say on which train the tile would go.")))
    if not args.get("tile", "").strip():
        missing.append(("tile", _("Pick the tile in question.")))
    if missing:
        raise BadInput(" ".join(sentence for _field, sentence in missing), missing[0][0])
    key, at = split_end_key(args["train"])
    return Play(parse_tile_text(args["tile"], "tile"), train_from_key(key, players, "train"), at)


_PAIR = re.compile(r"([0-9]{1,2})-([0-9]{1,2})")


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
    toes: tuple[tuple[int, int], ...] = ()   # under chicken foot: each toe's last tile

    @property
    def last(self) -> Tile | None:
        """The last tile, when the scorekeeper picked it."""
        return None if self.near is None or self.end is None else Tile.of(self.near, self.end)

    @classmethod
    def from_query(cls, args: Mapping[str, str], k: str, set_n: int) -> TrainSketch:
        """Train *k* as a ruling page's query gives it: its last tile as seen on the table
        (``last-k=near-end``, a double open unless ``ans-k=1``), or, in links shared
        before there was a last tile to pick, its open end (``end-k``) and whether it
        ends in an open double (``dbl-k=1``)."""
        toes = tuple(pair for i in (1, 2, 3)
                     if (pair := _pair(args, f"toe-{k}-{i}", set_n)) is not None)
        last = _pair(args, f"last-{k}", set_n)
        if last is not None:
            near, end = last
            return cls(end, near == end and args.get(f"ans-{k}") != "1", near, toes)
        return cls(whole_number(args.get(f"end-{k}", "")), args.get(f"dbl-{k}") == "1",
                   toes=toes)


def _pair(args: Mapping[str, str], name: str, set_n: int) -> tuple[int, int] | None:
    """A last tile as the page gives it, "near-end" (None when none was picked)."""
    last = args.get(name, "").strip()
    if not last:
        return None
    pair = _PAIR.fullmatch(last)
    if pair is None:
        raise BadInput(_("Pick the last tile of each train from the tiles of the set."), name)
    near, end = int(pair[1]), int(pair[2])
    if near > set_n or end > set_n:
        raise BadInput(_("%(tile)s is not in a double-%(n)s set (R3.3).", tile=last,
                         n=set_n), name)
    return near, end


def last_tile_choices(set_n: int, engine: int) -> list[tuple[str, str]]:
    """Every way a train can end, as (value, label) for a page's select: an empty train,
    then each tile of the set but the engine, both ways round ("near-end")."""
    choices = [("", _("Empty (a tile must show %(e)s)", e=engine))]
    for tile in full_set(set_n):
        if tile == Tile.double(engine):
            continue
        if tile.is_double:
            choices.append((f"{tile.low}-{tile.high}", _("%(tile)s, a double", tile=tile)))
            continue
        for near, end in ((tile.low, tile.high), (tile.high, tile.low)):
            choices.append((f"{near}-{end}", _("%(near)s-%(end)s, open end %(end)s",
                                               near=near, end=end)))
    return choices


def last_tile_asked(args: Mapping[str, str], k: str) -> str:
    """The last tile of train *k* that a ruling page's query asks ("near-end"), for the
    train's select: ``last-k``, or an older link's open double (``end-k`` with
    ``dbl-k=1``) as the tile it stands for; "" for none."""
    asked = args.get(f"last-{k}", "")
    if asked:
        return asked
    end = whole_number(args.get(f"end-{k}", ""))
    return f"{end}-{end}" if args.get(f"dbl-{k}") == "1" and end is not None else ""


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

    @classmethod
    def from_query(cls, args: Mapping[str, str], set_n: int, engine: int,
                   players: Sequence[str], options: RuleOptions = RuleOptions()) -> Situation:
        """The situation a ruling page's query describes (its GET form, or a link shared
        from it, old ones included), at a table of *players* with this set and engine;
        BadInput names the field at fault.

        ``current`` is whose turn it is (a seat), ``first=1`` the round's first turn,
        each train as :meth:`TrainSketch.from_query` reads it (under chicken foot with
        ``toe-k-1`` … ``toe-k-3``, the last tile of each toe on its last double, R10.1),
        ``mark-k=1`` a marker on
        a player's train, ``played``/``played_train`` a tile already played this turn
        (on the current player's train unless said), ``drew=other`` with ``drawn`` a
        tile drawn this turn.
        """
        players = tuple(players)
        current_key = args.get("current", "")
        # Decision: nobody's turn is assumed; a form sent without it is refused, by name.
        current = (train_from_key(current_key, players, "current")
                   if current_key not in ("", MEXICAN) else None)
        if current is None:
            raise BadInput(_("Say whose turn it is."), "current")
        trains, markers = {}, set()
        for name in list(players) + [None]:
            k = train_key(name, players)
            trains[name] = TrainSketch.from_query(args, k, set_n)
            if name is not None and args.get(f"mark-{k}") == "1":
                markers.add(name)
        played = None
        played_tile = parse_tile_text(args.get("played", ""), "played")
        if played_tile is not None:
            played = Play(played_tile, train_from_key(
                args.get("played_train", str(players.index(current))), players, "played_train"))
        drawn = None
        if args.get("drew", "") == "other":
            drawn = parse_tile_text(args.get("drawn", ""), "drawn")
            if drawn is None:
                raise BadInput(_("Pick the tile that was drawn, or choose “the tile in question”."),
                               "drawn")
        return cls(set_n, engine, players, current, args.get("first") == "1", trains,
                   frozenset(markers), played, drawn, options)


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
        for near, end in s.trains[name].toes:
            toe = Tile.of(near, end)
            if toe in given:
                raise BadInput(_("%(tile)s is the last tile of two trains; each tile exists "
                                 "once (R3.3).", tile=toe), where)
            given[toe] = where
    for extra, where in ((s.played.tile if s.played else None, "played"), (s.drawn, "drawn")):
        if extra is not None and extra in given:
            raise BadInput(_("%(tile)s is already the last tile of a train, so it cannot also "
                             "have been played or drawn this turn (R3.3).", tile=extra), where)
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
        if target and isinstance(target[-1], Foot):
            raise BadInput(_("A tile played this turn on a train with a chicken foot cannot "
                             "be added here: describe that train as it is now (R10.5)."),
                           "played")
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
    # Under chicken foot a double at the end is a foot, open until its third toe (R10.1):
    # its toes say whether it is answered, not ``ans-k``.
    if sketch.toes or (s.options.chicken_foot and last is not None and last.is_double):
        if not (s.options.chicken_foot and last is not None and last.is_double):
            raise BadInput(_("Toes go on a double under chicken foot: pick a double as that "
                             "train's last tile (R10.1)."), where)
        tiles = _reach(s, s.engine, last.high, used, where)
        used.update(tiles)
        toes = []
        for near, end in sketch.toes:
            toe = _reach(s, last.high, near, used | {last}, where, allow_empty=True)
            toe.append(Tile.of(near, end))
            used.update(toe)
            toes.append(as_feet(tuple(toe)))
        return tiles + [Foot(last, tuple(toes))]
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
