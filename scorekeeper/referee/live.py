"""Live play: a round as the scorekeeper mirrors it at a real table.

:class:`RoundState` holds the :class:`~.table.Table` and only the *number* of
tiles in each hand.  :func:`apply` takes an action (:class:`PlayAction`,
:class:`DrawAction`, :class:`PassAction`) and returns a new state, or raises
:class:`IllegalMove` with the violations; :func:`replay` rebuilds a round from
its start and the stored move log; :func:`legal_actions` lists what apply()
accepts now.  Pure: no Flask, storage or PDF.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Mapping, Sequence

from ..errors import BadInput
from ..options import RuleOptions, deal_for
from ..text import N_, _
from ..tiles import Tile, full_set, parse_tile, set_size
from .rules import STRUCTURAL, check, draw_rule, tile_violation
from .table import InvalidTable, Play, Table, Violation, whole


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
    at: Tile | None = None        # the open end it joins, under chicken foot (R10.5)

    @property
    def play(self) -> Play:
        return Play(self.tile, self.train, self.at)

    def to_json(self) -> dict:
        data = {"type": "play", "tile": self.tile.to_json(), "train": self.train}
        if self.at is not None:
            data["at"] = self.at.to_json()
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
        return PlayAction(play.tile, play.train, override, play.at)
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
        if self.drew and not table.drawn_pending and tile is not None:
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
    set_n = whole(data.get("set"), f"{field}.set", N_("The set must be 6, 9, 12, 15 or 18."))
    engine = whole(data.get("engine"), f"{field}.engine", N_("The engine must be a number."))
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise BadInput(_("The players must be a list of names in seating order."),
                       f"{field}.players")
    starter = data.get("starter")
    if not isinstance(starter, str):
        raise BadInput(_("Say who starts the round."), f"{field}.starter")
    tiles_each = data.get("tiles_each")
    if tiles_each is not None:
        tiles_each = whole(tiles_each, f"{field}.tiles_each",
                            N_("Tiles each must be a whole number."))
    boneyard = data.get("boneyard")
    if boneyard is not None:
        boneyard = whole(boneyard, f"{field}.boneyard",
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
        if table.first_turn and draw_rule(table) is None:
            if table.options.first_turn_stuck == "marker":
                out.append(_v("no_draw_first_turn", "R4.2", _(
                    "Nobody draws in the first turn under this game's rules: a player who "
                    "cannot start their train places a marker.")))
            else:
                out.append(_v("no_draw_first_turn", "R4.2", _(
                    "%(player)s has started their train: only a player who cannot start "
                    "it draws in the first turn.", player=player)))
        if state.drew:
            out.append(_v("already_drew", "R5.4", _(
                "%(player)s has already drawn: play the drawn tile or pass.", player=player)))
        if state.boneyard == 0:
            out.append(_v("boneyard_empty", "R5.4", _(
                "The boneyard is empty: %(player)s places a marker and passes.", player=player)))
        exists = None if action.tile is None else tile_violation(table, action.tile, drawn=True)
        if exists is not None:
            out.append(exists)
        return out
    if isinstance(action, PassAction):
        rule = draw_rule(table)
        if rule is None:
            return []
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
    feet_on = table.options.chicken_foot
    for tile in dict.fromkeys(hand):
        for name in table.train_names:
            # R10.5: under chicken foot, one action per open end of the train.
            ats = [end.at for end in table.facts.open_ends[name]] if feet_on else [None]
            for at in ats:
                action = PlayAction(tile, name, at=at)
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
