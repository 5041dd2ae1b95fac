"""Round scores: counting a hand (R7.3) and checking a round's entry (R7.4)."""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from .errors import BadInput
from .options import RuleOptions
from .rulenote import RuleNote
from .text import _, format_list, ngettext
from .tiles import Tile, check_hand, full_set, parse_tiles


def tile_score(tile: Tile, options: RuleOptions = RuleOptions()) -> int:
    """What one tile left in a hand scores: its pips, 0-0 by the option (R7.3)."""
    if tile.low == 0 and tile.high == 0:
        return options.double_blank
    return tile.pips


def hand_score(tiles: Iterable[Tile], options: RuleOptions = RuleOptions()) -> int:
    """The R7.3 score of a hand: its pips, with the double-blank counting 50 by default."""
    return sum(tile_score(t, options) for t in tiles)


def max_hand(set_n: int, engine: int, options: RuleOptions = RuleOptions()) -> int:
    """The largest possible round score: every tile of the set but the engine (R7.4)."""
    engine_tile = Tile.double(engine)
    return hand_score((t for t in full_set(set_n) if t != engine_tile), options)


#: An unusual but possible round (R7.4): the app asks, it does not refuse.
ScoreWarning = RuleNote


def check_scores(scores: Mapping, players: Sequence[str], set_n: int, engine: int,
                 options: RuleOptions = RuleOptions(), field: str = "scores") -> dict[str, int]:
    """Every player's round score as a whole number from 0 to the largest hand (R7.4)."""
    if not isinstance(scores, Mapping):
        raise BadInput(_("Scores must be given for every player by name."), field)
    _check_names(scores, players, field)
    top = max_hand(set_n, engine, options)
    checked = {}
    for name in players:
        value = scores[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadInput(_("The score of %(name)s must be a whole number from 0 to %(top)s.",
                             name=name, top=top), f"{field}.{name}")
        if not 0 <= value <= top:
            raise BadInput(_("A score of %(value)s for %(name)s is impossible: a round score "
                             "is from 0 to %(top)s, the largest possible hand in this round "
                             "(R7.4).", name=name, value=value, top=top), f"{field}.{name}")
        checked[name] = value
    return checked


def check_hands(hands: Mapping, players: Sequence[str], set_n: int, engine: int,
                field: str = "hands", every_player: bool = True) -> dict[str, list[Tile]]:
    """The tiles left in each hand: in the set, not the engine, none in two hands (R3.3).

    With ``every_player=False`` only some players' hands are given (the pip
    counter was used for some hands only); they are checked against each other.
    A refused hand's BadInput carries the player's ``seat`` (index in *players*).
    """
    if not isinstance(hands, Mapping):
        raise BadInput(_("Hands must be given for every player by name."), field)
    seats = {name: i for i, name in enumerate(players)}
    if every_player:
        _check_names(hands, players, field)
    else:
        players = [p for p in players if p in hands]
        _check_names(hands, players, field)
    held: dict[Tile, str] = {}
    checked = {}
    for name in players:
        where = f"{field}.{name}"
        try:
            checked[name] = check_hand(parse_tiles(hands[name], where), set_n, engine, where,
                                       held=held, player=name)
        except BadInput as error:
            raise BadInput(error.message, error.field, seats[name]) from None
    return checked


def round_warnings(scores: Mapping[str, int], options: RuleOptions = RuleOptions(),
                   engine: int | None = None) -> list[ScoreWarning]:
    """R7.4's unusual rounds: no zero (blocked), or several zeros, each with its reason
    under the game's *options* and the round's *engine* (None: not known)."""
    zeros = [name for name, value in scores.items() if value == 0]
    if not zeros:
        return [ScoreWarning("no_zero", "R7.4", _(
            "Nobody scored 0: that happens only when the round was blocked (R7.2).") )]
    if len(zeros) > 1:
        # R7.4: several 0s are several players out in the first turn (R4.4), or, with
        # double_blank 0, a hand left with the 0-0 alone (R7.3) — unless the 0-0 is this
        # round's engine, which is on the table and in nobody's hand (R3.3).
        if options.double_blank == 0 and engine != 0:
            return [ScoreWarning("several_zeros", "R7.4", ngettext(
                "%(num)s player scored 0 (%(names)s): only possible when several went out "
                "during the first turn (R4.4), or when a player's only tile left is the 0-0, "
                "which counts 0 in this game (R7.3).",
                "%(num)s players scored 0 (%(names)s): only possible when several went out "
                "during the first turn (R4.4), or when a player's only tile left is the 0-0, "
                "which counts 0 in this game (R7.3).", len(zeros), names=format_list(zeros)))]
        return [ScoreWarning("several_zeros", "R7.4", ngettext(
            "%(num)s player scored 0 (%(names)s): only possible when several went out "
            "during the first turn (R4.4).",
            "%(num)s players scored 0 (%(names)s): only possible when several went out "
            "during the first turn (R4.4).", len(zeros), names=format_list(zeros)))]
    return []


def _check_names(given: Mapping, players: Sequence[str], field: str) -> None:
    for name in given:
        if name not in players:
            raise BadInput(_("%(name)s is not a player in this game.", name=name),
                           f"{field}.{name}")
    for name in players:
        if name not in given:
            raise BadInput(_("The score of %(name)s is missing: every player needs one.",
                             name=name), f"{field}.{name}")
