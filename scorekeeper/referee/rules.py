"""The rules: every rule a play breaks on a table (RULES.md R3–R6, options R9).

:func:`check` returns *every* rule a play breaks, each a :class:`Violation` with
a stable code, its rule number and a sentence; :func:`is_legal` and
:func:`legal_plays` are derived from it and never restate a rule.  :func:`grounds`
says why a play check() finds legal is allowed: the rules that let it be made;
:func:`draw_rule` says under which rule a player who does not play draws.  The rulebook
tests are tests/test_engine_rules.py, one case per clause.  Pure: no Flask,
storage or PDF.
"""

from __future__ import annotations

from typing import Iterable

from ..errors import BadInput
from ..text import N_, _, format_list
from ..tiles import Tile, not_in_set
from . import footrules
from .feet import End
from .table import Ground, Play, Table, Violation, TableFacts, train_sentence

#: Rules whose breach makes a table impossible: even an override cannot apply them.
STRUCTURAL = frozenset({"not_in_set", "already_played", "no_match"})


def check(table: Table, play: Play) -> list[Violation]:
    """Every rule *play* breaks on *table* (empty when the play is legal).

    The play is the current player's.  An unknown train name is BadInput
    ("play.train"), not a violation: there is no such train to rule on.
    """
    f = table.facts
    tile, train = play.tile, play.train
    try:
        end = f.ends[train]
    except KeyError:
        raise BadInput(_("%(name)s is not a player at this table, so there is no such train.",
                         name=train), "play.train") from None
    low, high = tile.low, tile.high
    out: list[Violation] = []

    exists = tile_violation(table, tile)
    if exists is not None:
        out.append(exists)
    at = None
    if table.options.chicken_foot:
        at = table.end_of(play)         # R10.5: the open end it joins
        end = at.number
        if at.full:
            out.append(footrules.full(at))
    # R3.2: the tile must show the train's open end (the engine's number when empty).
    if low != end and high != end:
        out.append(Violation("no_match", "R3.2", train_sentence(
            train, N_("%(tile)s does not match the Mexican train, whose open end is %(end)s."),
            N_("%(tile)s does not match the train of %(owner)s, whose open end is %(end)s."),
            tile=tile, end=end)))
    # The other rules depend on the train (and on whether this is the drawn tile), not
    # on the tile.
    rules = train_violations(table, train, tile == table.drawn, at)
    if rules:
        out.extend(rules)
    return out


def train_violations(table: Table, train: str | None, drawn: bool = False,
                     at: End | None = None) -> tuple[Violation, ...]:
    """The rules a play on *train* breaks whatever its tile (R4.1, R4.2, R5.1–R5.4, R6,
    R10.2, R10.3); *drawn*: the tile is the one drawn this turn; *at*: the open end it
    joins under chicken foot (the train's first when not said).

    check() is these and the tile's own rules (R3.2, R3.3); what else needs the referee's
    word on a train (the advice to a player who does not play) asks here.  Ruled once per
    table, train, drawn and end.
    """
    f = table.facts
    if at is None and table.options.chicken_foot:
        at = f.open_ends[train][0]
    key = (train, drawn and f.drawn_pending, None if at is None else (at.at, at.full))
    rules = f.by_train.get(key)
    if rules is None:
        rules = f.by_train[key] = _train_rules(table, f, train, key[1], at)
    return rules


def tile_violation(table: Table, tile: Tile, drawn: bool = False) -> Violation | None:
    """R3.3 for one tile: each tile exists once, and only numbers up to N exist.

    not_in_set when the set has no such tile, already_played when it is on the
    table already; None when neither.  *drawn*: the tile is said to come from
    the boneyard (a draw), not to be played.
    """
    if not tile.in_set(table.set):
        return Violation("not_in_set", "R3.3", not_in_set(tile, table.set))
    if tile not in table.facts.on_table:
        return None
    if drawn:
        message = _("%(tile)s is already on the table, so it cannot come from the boneyard.",
                    tile=tile)
    elif tile.low == tile.high == table.engine:
        message = _("%(tile)s is the engine: it is already on the table.", tile=tile)
    else:
        message = _("%(tile)s is already on the table.", tile=tile)
    return Violation("already_played", "R3.3", message)


#: R4.2 (option draw): a player who started their train and then drew anyway.
STARTED_THEN_DREW = N_("%(player)s had already started their train, and only a player who "
                       "cannot start it draws in the first turn: no tile may be played after "
                       "that draw, and their first turn ends (R4.2).")


def _train_rules(table: Table, f: TableFacts, train: str | None,
                 is_drawn: bool, at: End | None) -> tuple[Violation, ...]:
    """The rules a play on *train* (at the open end *at* under chicken foot) breaks whatever
    the tile (R4.1, R4.2, R5.1–R5.4, R6; R10.2, R10.3 in R6's place).

    Kept as one function of 100-odd lines on purpose: it walks the rules in the
    rulebook's order, each branch deciding on what the earlier ones found (whose train,
    its marker, the first turn, the doubles open); split, it would pass that state
    between the pieces."""
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
            # R4.2 (option draw): only a player who cannot start their train draws, and
            # then the drawn tile only; one who started it may play nothing after a draw.
            if table.turn:
                out.append(Violation("drawn_tile_only", "R5.4", _(STARTED_THEN_DREW,
                                                                  player=player)))
            elif not is_drawn:
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

    # R5.2: another player's train is open only with a marker, or to satisfy its open double
    # (R6.3; under chicken foot a toe on a double with fewer than three, R10.2).
    toe_on = at.foot.double if at is not None and at.foot is not None else None
    satisfies = (train in f.open_doubles if at is None else toe_on in f.open_feet)
    if (train is not None and train != player and train not in table.markers
            and not satisfies):
        out.append(Violation("train_closed", "R5.2", _(
            "The train of %(owner)s has no marker: %(player)s may not play on it.",
            owner=train, player=player)))
    binding = f.binding
    if at is not None:
        # R10.2: while a double has fewer than three toes, a toe on one, nowhere else.
        if f.binding_feet and toe_on not in f.binding_feet:
            out.append(footrules.unanswered(f.binding_feet, player))
        binding = {}
    # R6.3–R6.6: an open double binding this player must be satisfied first.
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
    owes = f.owes
    if at is not None:
        # R10.3: the first toe is owed on the double just played.
        if owes is not None and toe_on != owes.tile:
            out.append(footrules.owed_elsewhere(player, owes.tile))
    # R6.7 (option): the tile owed after a double goes on that double.
    elif owes is not None and table.options.double_owner_satisfies and train != owes.train:
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


def grounds(table: Table, play: Play,
            violations: list[Violation] | None = None) -> list[Ground]:
    """The rules that allow *play* on *table*, each a :class:`Ground`: at least one when
    the play is legal, none when check() (or the *violations* it already gave) finds any.

    In order: where the tile may go (R4.1 in the first turn; later the player's own
    train R5.2, a marked train R5.2 and R5.5, the Mexican train R5.3), what the turn
    asks of it (satisfying an open double R6.3, R6.5; the tile owed after a double
    R6.1, R6.6, R6.7; the drawn tile R4.2, R5.4, R6.2, R6.4; a first-turn double that
    binds nobody R4.3), then the tile's match with the train's open end (R3.2).
    """
    if violations is None:
        violations = check(table, play)
    if violations:
        return []
    f = table.facts
    player, tile, train = table.current, play.tile, play.train
    out: list[Ground] = []
    drawn = f.drawn_pending and tile == table.drawn
    at = table.end_of(play) if table.options.chicken_foot else None
    if table.first_turn:
        out.append(_first_turn_ground(table, player))
        if at is not None:
            out.append(footrules.first_turn_ground(table))       # R10.6: a tree
        if drawn:
            # R4.2 (option draw): the drawn tile may be played if it matches.
            out.append(Ground("R4.2", _(
                "%(player)s drew %(tile)s in their first turn: under this game's rules that "
                "tile may be played, on their own train.", player=player, tile=tile)))
        if any(d not in f.turn_tiles for d in f.open_doubles.values()):
            # R4.3: a double left open binds nobody while the first turn lasts.
            out.append(Ground("R4.3", _(
                "A double played in the first turn binds nobody while the first turn lasts.")))
    else:
        out.extend(_train_grounds(table, f, player, train))
        if at is not None:
            out.extend(footrules.toe_grounds(table, f, play, at))     # R10.1–R10.4
        else:
            out.extend(_turn_grounds(table, f, player, play))
        if drawn:
            rule = draw_rule(table)
            out.append(Ground(rule, _(_DRAWN_GROUND[rule], player=player, tile=tile)))
    if at is not None and len(f.open_ends[train]) > 1:
        out.append(footrules.end_ground(table, play, at))            # R10.5
    # R3.2: the tile shows the train's open end (the engine's number on an empty train).
    end = f.ends[train] if at is None else at.number
    if table.train(train):
        out.append(Ground("R3.2", _("%(tile)s shows %(end)s, the open end of that train.",
                                    tile=tile, end=end)))
    else:
        out.append(Ground("R3.2", _("%(tile)s shows %(end)s, the engine's number, as the first "
                                    "tile of a train must.", tile=tile, end=end)))
    return out


def _first_turn_ground(table: Table, player: str) -> Ground:
    """R4.1: in the first turn a player builds their own train (one tile, by option)."""
    if table.options.first_turn == "single":
        return Ground("R4.1", _("In the first turn %(player)s plays one tile, on their own "
                                "train.", player=player))
    if table.turn:
        return Ground("R4.1", _("In the first turn %(player)s may go on building their own "
                                "train, each tile matching the one before.", player=player))
    return Ground("R4.1", _("In the first turn %(player)s builds their own train.",
                            player=player))


def _train_grounds(table: Table, f: TableFacts, player: str,
                   train: str | None) -> list[Ground]:
    """Why this train is open to the player after the first turn (R5.2, R5.3, R5.5, R6.3)."""
    if train is None:
        # R5.3 (and R5.2: at any time): the Mexican train, from the second turn on.
        return [Ground("R5.3", _("From the second turn on, the Mexican train is open to every "
                                 "player."))]
    if train == player:
        # R5.2: one's own train, marked or not.
        return [Ground("R5.2", _("%(player)s may always play on their own train, marked or "
                                 "not.", player=player))]
    if train in table.markers:
        # R5.2: a marked train is open to everyone; R5.5: until its owner plays on it.
        return [Ground("R5.2", _("%(owner)s's train carries a marker, so it is open to "
                                 "everyone.", owner=train)),
                Ground("R5.5", _("The marker stays until %(owner)s plays a tile on their own "
                                 "train.", owner=train))]
    # R6.3: an unmarked train of another player, open here only for its open double
    # (said by _turn_grounds).
    return []


def _turn_grounds(table: Table, f: TableFacts, player: str, play: Play) -> list[Ground]:
    """What the turn asks of this tile and why it answers (R6.1–R6.7, R5.4)."""
    out: list[Ground] = []
    train, tile = play.train, play.tile
    binding = f.binding
    if train in binding:
        double = binding[train]
        if train is not None and train != player and train not in table.markers:
            # R6.3: even on another player's unmarked train.
            message = _("With %(tile)s, %(player)s satisfies the open %(double)s on the train "
                        "of %(owner)s: an open double may be satisfied even on an unmarked "
                        "train.", tile=tile, player=player, double=double, owner=train)
        else:
            message = train_sentence(
                train, N_("With %(tile)s, %(player)s satisfies the open %(double)s on the "
                          "Mexican train."),
                N_("With %(tile)s, %(player)s satisfies the open %(double)s on the train of "
                   "%(owner)s."),
                N_("With %(tile)s, %(player)s satisfies the open %(double)s on their own "
                   "train."),
                tile=tile, double=double, player=player)
        out.append(Ground("R6.3", message))
        if len(binding) > 1:
            # R6.5: several open doubles: any one of them first.
            out.append(Ground("R6.5", _("Several doubles are open: any one of them may be "
                                        "satisfied first.")))
    owes = f.owes
    if owes is not None:
        if table.options.double_owner_satisfies:
            # R6.7 (option): the tile owed goes on that double, as this one does.
            out.append(Ground("R6.7", _("%(player)s owes a tile after the %(double)s and, "
                                        "under this game's rules, plays it on that double.",
                                        player=player, double=owes.tile)))
        else:
            # R6.1: a double owes another tile, anywhere it is legal.
            out.append(Ground("R6.1", _("%(player)s played the %(double)s this turn, so they "
                                        "owe another tile, which may go anywhere it is legal.",
                                        player=player, double=owes.tile)))
            if train != owes.train:
                # R6.6: the double just played does not bind its player.
                out.append(Ground("R6.6", _("The %(double)s that %(player)s just played does "
                                            "not bind them.", player=player,
                                            double=owes.tile)))
    return out


#: The drawn tile, by the rule under which it was drawn (draw_rule).
_DRAWN_GROUND = {
    "R5.4": N_("%(player)s drew %(tile)s this turn: that tile, and only that one, may be "
               "played."),
    "R6.2": N_("%(player)s drew %(tile)s as the tile owed after the double: that tile may be "
               "played."),
    "R6.4": N_("%(player)s drew %(tile)s and it satisfies an open double, so it may be "
               "played."),
}


def draw_rule(table: Table) -> str | None:
    """The rule under which the current player, not playing now, draws one tile (and then
    plays it or places a marker): R4.2, R6.2, R6.4 or R5.4; None when they do not draw.

    The one place that says which: a pass (which must follow that draw), a draw and the
    advice to a player who does not play (situation.instead) all ask here.
    """
    if table.first_turn:
        # R4.2: nobody draws under the marker option; under the draw option only a player
        # who cannot start their train (Decision: one who started it stops there, R4.1).
        if table.turn or table.options.first_turn_stuck == "marker":
            return None
        return "R4.2"
    if table.owed_after is not None:
        return "R6.2"      # a tile owed after a double (R6.7 says where it goes, check())
    if table.binding_doubles:
        return "R6.4"      # an open double to satisfy
    return "R5.4"


def is_legal(table: Table, play: Play) -> bool:
    """True when *play* breaks no rule (check() is empty)."""
    return not check(table, play)


def legal_plays(table: Table, hand: Iterable[Tile]) -> list[Play]:
    """Every play from *hand* that check() finds legal: hand order, then trains in seat order."""
    out = []
    seen = set()
    names = table.train_names
    feet_on = table.options.chicken_foot
    for tile in hand:
        if tile in seen:
            continue
        seen.add(tile)
        for name in names:
            if feet_on:
                # R10.5: one entry per open end, each with its at.
                for end in table.facts.open_ends[name]:
                    play = Play(tile, name, end.at)
                    if not check(table, play):
                        out.append(play)
                continue
            play = Play(tile, name)
            if not check(table, play):
                out.append(play)
    return out
