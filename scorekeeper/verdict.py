"""The ruling in sentences: what the ruling pages and the live table say about a play.

:func:`verdict` says whether a play is legal, what follows from it or what breaks, and
what the player may do instead (:func:`instead`: where a tile may go, and the last
resort — stop, draw or mark — chosen by what the referee says, never restating a
rule).  Pure: no Flask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .referee import (Ground, Play, Table, Violation, check, draw_rule, grounds,
                      legal_plays, train_sentence, train_violations)
from .referee.rules import STARTED_THEN_DREW
from .text import N_, _, format_list, ngettext
from .tiles import full_set


@dataclass(frozen=True, slots=True)
class OpenTrain:
    """A train the current player may play on now, and the number a tile must show."""

    train: str | None
    end: int


def open_trains(table: Table) -> list[OpenTrain]:
    """Where the current player may play now: trains some unplayed tile legally fits.

    Derived from check() over every tile not on the table, so it never
    disagrees with a ruling.
    """
    free = [t for t in full_set(table.set) if t not in table.on_table]
    seen: dict[str | None, OpenTrain] = {}
    for play in legal_plays(table, free):
        if play.train not in seen:
            seen[play.train] = OpenTrain(play.train, table.open_end(play.train))
    return [seen[n] for n in table.train_names if n in seen]


def instead(table: Table, boneyard: int | None = None) -> list[str]:
    """What the current player may do instead, in sentences (R4.1, R4.2, R5.4, R6.2, R6.4).

    Third person throughout, naming the player.  *boneyard* is the number of tiles
    left to draw when known (the live table); 0 means nobody draws (R5.4).
    """
    player = table.current
    lines = []
    for o in open_trains(table):
        lines.append(train_sentence(
            o.train, N_("%(player)s may play a tile showing %(end)s on the Mexican train."),
            N_("%(player)s may play a tile showing %(end)s on the train of %(owner)s."),
            N_("%(player)s may play a tile showing %(end)s on their own train."),
            player=player, end=o.end))
    lines.append(_last_resort(table, boneyard))
    return lines


#: What a player who has not drawn does instead of playing, by the rule the referee names.
_BEFORE_DRAW = {
    "R4.1": N_("%(player)s may also stop here: their first turn ends, with no marker and no "
               "draw (R4.1)."),
    "R4.2 marker": N_("If %(player)s cannot start their train, they place a marker where it "
                      "would go and do not draw (R4.2)."),
    "R4.2": N_("If %(player)s cannot start their train, they draw one tile: if it matches the "
               "engine they may play that tile only, which ends their first turn; otherwise "
               "they place a marker where their train would go (R4.2)."),
    "R6.7": N_("If %(player)s cannot play a tile on the %(double)s, they draw one; if the "
               "drawn tile does not go on that double, they place a marker on their own train "
               "and the turn ends (R6.7)."),
    "R6.2": N_("If %(player)s cannot play the tile owed after the double, they draw one; if it "
               "cannot be played either, they place a marker on their own train and the turn "
               "ends (R6.2)."),
    "R6.4": N_("If %(player)s cannot satisfy an open double, they draw one tile; if it does not "
               "satisfy one, they place a marker on their own train and the duty passes to the "
               "next player (R6.4)."),
    "R5.4": N_("If %(player)s cannot play, they draw one tile; if it cannot be played, they "
               "place a marker on their own train and the turn passes (R5.4)."),
}
#: ... and one who has drawn a tile and not played it yet.
_AFTER_DRAW = {
    "R4.2 marker": N_("Nobody draws in the first turn under this game's rules: having drawn, "
                      "%(player)s places a marker where their train would go and the turn "
                      "passes (R4.2)."),
    "R4.2": N_("%(player)s drew %(tile)s: only that tile may be played, on their own train; if "
               "it does not match, they place a marker where their train would go and their "
               "first turn ends (R4.2)."),
    "R6.7": N_("%(player)s drew %(tile)s: only that tile may be played, and only on the "
               "%(double)s; if it does not go there, they place a marker on their own train "
               "and the turn ends (R6.7)."),
    "R6.2": N_("%(player)s drew %(tile)s: only that tile may be played; if it cannot be played, "
               "they place a marker on their own train and the turn ends (R6.2)."),
    "R6.4": N_("%(player)s drew %(tile)s: only that tile may be played, on an open double; if "
               "it does not satisfy one, they place a marker on their own train and the duty "
               "passes to the next player (R6.4)."),
    "R5.4": N_("%(player)s drew %(tile)s: only that tile may be played; if it cannot be played, "
               "they place a marker on their own train and the turn passes (R5.4)."),
}


def _last_resort(table: Table, boneyard: int | None) -> str:
    """The sentence for a player who does not (or cannot) play: stop, draw or mark.

    Chosen by what the referee says, so that no rule is restated here: whether the turn
    is over (Table.turn_over), whether a drawn tile waits (Table.drawn_pending), the rule
    under which this player draws (draw_rule: R4.2, R5.4, R6.2, R6.4, or none), and the
    codes of train_violations for the tile they would play next on every train:
    owner_must_satisfy when the tile owed goes on its double (R6.7), drawn_tile_only on
    the drawn tile itself when the draw was forbidden (R4.2, marker option).
    """
    player = table.current
    if table.turn_over:
        return _("The turn is over: play passes to the next player.")
    drew = table.drawn_pending
    said = {v.code for train in table.train_names
            for v in train_violations(table, train, drawn=drew)}
    rule = draw_rule(table)
    if "owner_must_satisfy" in said:
        rule = "R6.7"                    # R6.7: the tile owed (R6.2) goes on its double
    if not drew and boneyard == 0 and rule is not None:
        # R5.4: with nothing left to draw, whoever would draw places the marker (R4.2 too).
        return _("The boneyard is empty: if %(player)s cannot play, they place a marker on "
                 "their own train and the turn passes (R5.4).", player=player)
    if table.first_turn:
        if drew and table.turn and table.options.first_turn_stuck == "draw":
            return _(STARTED_THEN_DREW, player=player)   # R4.2: the draw was not theirs
        if drew:
            # R4.2: under the marker option even the drawn tile is refused; else it may go.
            rule = "R4.2 marker" if "drawn_tile_only" in said else "R4.2"
        elif table.turn:
            rule = "R4.1"                # a started train may stop there
        elif rule is None:
            rule = "R4.2 marker"         # nobody draws: a marker
    owes = table.owed_after
    return _((_AFTER_DRAW if drew else _BEFORE_DRAW)[rule], player=player, tile=table.drawn,
             double=owes.tile if owes is not None else None)


@dataclass(frozen=True)
class Verdict:
    """What the ruling page says about a play: whole sentences, ready to print.

    ``said`` is what a legal play means for the player (under LEGAL) and
    ``grounds`` the rules that allow it; ``violations`` every rule an illegal one
    breaks (under NOT LEGAL), and ``instead`` what the player may do instead.
    """

    legal: bool
    play: str
    said: tuple[str, ...] = ()
    violations: tuple[Violation, ...] = ()
    instead: tuple[str, ...] = ()
    grounds: tuple[Ground, ...] = ()


def verdict(table: Table, play: Play, violations: Sequence[Violation] | None = None,
            hand_count: int | None = None, boneyard: int | None = None) -> Verdict:
    """The ruling on *play* in sentences; *hand_count* (tiles in the player's hand before
    the play) and *boneyard* when the table knows them, None on a sketched table."""
    if violations is None:
        violations = check(table, play)
    caption = train_sentence(play.train, N_("%(tile)s on the Mexican train"),
                             N_("%(tile)s on the train of %(owner)s"), tile=play.tile)
    if not violations:
        said = [_("%(player)s may make this play.", player=table.current)]
        said.extend(_what_follows(table, play, hand_count))
        return Verdict(True, caption, tuple(said), grounds=tuple(grounds(table, play, [])))
    lines = []
    places = [p.train for p in legal_plays(table, [play.tile])]
    if places:
        trains = [train_sentence(name, N_("the Mexican train"), N_("the train of %(owner)s"))
                  for name in places]
        lines.append(ngettext("%(tile)s may be played on this train instead: %(trains)s.",
                              "%(tile)s may be played on one of these trains instead: "
                              "%(trains)s.", len(places), tile=play.tile,
                              trains=format_list(trains)))
    lines.extend(instead(table, boneyard))
    return Verdict(False, caption, (), tuple(violations), tuple(lines))


def _what_follows(table: Table, play: Play, hand_count: int | None) -> list[str]:
    """What a legal play means next: the first turn goes on or ends (R4), a double owes a
    tile (R6.1, R6.7), the last tile goes out (R7.1, R4.4)."""
    player = table.current
    tile = play.tile
    last = hand_count == 1
    if table.first_turn:
        if last:
            return [_("It is the last tile of %(player)s: they have gone out, and the round "
                      "ends once every player has had their first turn (R4.4).", player=player)]
        if table.drawn is not None and tile == table.drawn:
            return [_("It is the tile %(player)s drew: playing it ends their first turn (R4.2).",
                      player=player)]
        if table.options.first_turn == "single":
            return [_("In the first turn %(player)s plays exactly one tile: this one ends their "
                      "first turn (R4.1).", player=player)]
        out = [_("It is the first turn: %(player)s may go on building their own train, or "
                 "stop there (R4.1).", player=player)]
        if tile.is_double:
            out.append(_("A double played in the first turn needs no follow-up tile (R4.3)."))
        return out
    if last and tile.is_double:
        return [_("It is the last tile of %(player)s: they go out and the round ends; the "
                  "double owes nothing (R7.1).", player=player)]
    if last:
        return [_("It is the last tile of %(player)s: they go out and the round ends (R7.1).",
                  player=player)]
    if not tile.is_double:
        return []
    if table.options.chicken_foot:
        # R10.3: the double's first toe is owed, on that double.
        if hand_count is None:
            return [_("It is a double: %(player)s owes its first toe this turn, on this "
                      "double (R10.3), unless the double was their last tile, which ends the "
                      "round (R7.1).", player=player)]
        return [_("It is a double: %(player)s must play its first toe this turn, on this "
                  "double (R10.3).", player=player)]
    on_it = table.options.double_owner_satisfies
    if hand_count is None:
        if on_it:
            return [_("It is a double: %(player)s owes another tile this turn, on this double "
                      "(R6.7), unless the double was their last tile, which ends the round "
                      "(R7.1).", player=player)]
        return [_("It is a double: %(player)s owes another tile this turn, anywhere it is "
                  "legal (R6.1), unless the double was their last tile, which ends the round "
                  "(R7.1).", player=player)]
    if on_it:
        return [_("It is a double: %(player)s must play another tile this turn, on this "
                  "double (R6.7).", player=player)]
    return [_("It is a double: %(player)s must play another tile this turn, anywhere it is "
              "legal (R6.1).", player=player)]
