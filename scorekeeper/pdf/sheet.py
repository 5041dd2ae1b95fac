"""A scoresheet as data (:class:`Sheet`): what is written where, from a game
(:func:`game_sheet`) or from a plan (:func:`blank_sheet`), before anything is drawn
(:mod:`.scoresheet` draws it; the grid is :mod:`.grid`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..game import Game
from ..house_scoring import house_on
from ..house_view import house_text, signed
from ..options import RuleOptions
from ..text import _, format_list
from ..timing import format_duration


@dataclass(frozen=True)
class Summary:
    """The rows under the rounds, as printed: one value per seat in each."""

    totals: list[str]
    zero_rounds: list[str]
    lowest: list[str]
    places: list[str]
    first: list[bool]           # players in first place (gold cell), only for a finished game


@dataclass(frozen=True)
class Sheet:
    """What a sheet says and where, whether from a game or from a plan: drawn as it is."""

    title: str | None           # None: a line to write the game's name on
    date: str | None            # None: a line to write the date on
    set_n: int
    engines: list[int]
    options: RuleOptions
    players: list[str | None]   # None: a blank box to write a name in
    cells: list[list[int | None]]   # [round][player]; None: empty
    summary: Summary | None    # None: summary rows left empty
    status: str | None          # the line under the grid (winner, or "in progress")
    notes: list[str]            # tiebreak sentences (R8)
    hint: str | None            # the small print for a blank sheet
    colours: list[str] | None = None   # each seat's train colour (a game's sheet)
    check: tuple[str, str] | None = None   # the check code as shown, the verify page's URL
    game_time: str | None = None    # the line saying how long the game took (so far)
    #: House scoring (R11.5): [round][player] the hand and its bonus or penalty printed
    #: small before the score that counts ("9 + 15 ="); None for a game without it.
    parts: list[list[str | None]] | None = None


def game_sheet(game: Game, check: tuple[str, str] | None = None) -> Sheet:
    standings = game.standings()
    by_player = {row.player: row for row in standings.rows}
    rows = [by_player[p] for p in game.players]
    cells = [[None if r.scores is None else r.scores.get(p) for p in game.players]
             for r in game.rounds]
    played = game.played
    house = house_on(game.options)
    summary = Summary(
        totals=[signed(r.total) if house else str(r.total) for r in rows],
        zero_rounds=[str(r.zero_rounds) for r in rows],
        lowest=["–" if r.lowest_nonzero is None else str(r.lowest_nonzero) for r in rows],
        places=[str(r.place) for r in rows],
        first=[standings.complete and r.place == 1 for r in rows],
    ) if played else None
    if standings.complete:
        winners = standings.winners
        points = by_player[winners[0]].total
        if len(winners) == 1:
            status = _("Winner: %(name)s with %(points)s points (R8.1).",
                       name=winners[0], points=points)
        else:
            status = _("Shared first place: %(names)s with %(points)s points each (R8.4).",
                       names=format_list(winners), points=points)
    elif played:
        status = _("In progress: %(played)s of %(rounds)s rounds played; totals and places so far.",
                   played=played, rounds=len(game.rounds))
    else:
        # Nothing recorded yet: printed to keep score by hand, like a blank sheet.
        status = None
    game_time = None
    if game.seconds is not None:
        game_time = (_("Game time: %(time)s", time=format_duration(game.seconds))
                     if standings.complete else
                     _("Time so far: %(time)s", time=format_duration(game.seconds)))
    return Sheet(
        title=game.display_name(), date=game.created_at[:10] or None, set_n=game.set,
        engines=[r.engine for r in game.rounds], options=game.options,
        players=list(game.players), cells=cells, summary=summary, status=status,
        # with no round played everyone "ties" at 0: no tiebreak to explain yet
        notes=list(standings.notes) if played else [],
        hint=None if played else _hand_scoring_hint(),
        colours=list(game.colours_by_player.values()), check=check, game_time=game_time,
        parts=_house_parts(game) if house else None)


def _house_parts(game: Game) -> list[list[str | None]]:
    """Each cell's hand and bonus or penalty, as printed before the score that counts."""
    return [[None if (text := house_text(r, p, game.options)).find("=") < 0
             else text[:text.index("=") + 1] for p in game.players] for r in game.rounds]


def _hand_scoring_hint() -> str:
    """The small print of a sheet kept by hand: how to mark zero rounds and break ties (R8)."""
    return _("A zero round (the player went out) scores 0; circle it. Lowest total wins "
             "(R8.1). Equal totals: more zero rounds ranks higher (R8.2), then the lower "
             "lowest non-zero round (R8.3); still equal, they share the place (R8.4).")


def blank_sheet(players: list[str | None], set_n: int, engines: list[int],
                 options: RuleOptions, name: str) -> Sheet:
    return Sheet(
        title=name or None, date=None, set_n=set_n, engines=engines, options=options,
        players=players, cells=[[None] * len(players) for _e in engines], summary=None,
        status=None, notes=[], hint=_hand_scoring_hint())
