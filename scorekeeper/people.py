"""People across games and seasons (issue 12): records, aliases, seasons.

The figures come from the ``seats`` table that storage keeps in step with every save
(``storage.club``, which holds every read and write of the club's tables), so a record
or a season's standings is one indexed SQL sum, however many games the club has
played.  Here they become records and season tables, and what a person asks for (a
name to join to another, a season) is checked, with the sentence that refuses it.
Only complete games that are not in "Recently deleted" count; a season holds the
complete games created within its dates (the server's local date, inclusive).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .colours import default_colours
from .errors import BadInput
from .game import game_title, person_key
from .records import Record, Season, SeasonTable, check_season, rank
from .storage import club, snapshot, write
# Read as stored: the pages ask this module for them with the rest of a person's data.
from .storage.club import known_names, seasons  # noqa: F401
from .storage.games import last_game_id  # noqa: F401
from .text import _
from .timing import average_seconds, seconds_between, total_seconds


class UnknownPlayer(LookupError):
    """No game (outside "Recently deleted") has a player of that name."""


class SeasonNotFound(LookupError):
    """No season has that id."""


def _records(sums: list[tuple], names: dict[str, str]) -> list[Record]:
    """Records from storage's sums (club.record_sums), each named as *names* say."""
    return [Record(names.get(person, person), person, games, wins, rounds, points, zeros,
                   lowest) for person, games, wins, rounds, points, zeros, lowest in sums]


def directory(db) -> list[Record]:
    """Every person of the live games, by name, with their record (zeros when none of
    their games is complete yet)."""
    with snapshot(db):
        names = club.names(db)
        found = {r.key: r for r in _records(club.record_sums(db), names)}
    people = [found.get(person) or Record(name, person, 0, 0, 0, 0, 0, None)
              for person, name in names.items()]
    return sorted(people, key=lambda r: (r.name.casefold(), r.key))


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One complete game of a person: the game, their total and place, its size, their
    train colour in it and how long it took (None when its rounds were not timed)."""

    id: str
    name: str
    day: str       # the day it was started, on the server's clock (as seasons count it)
    total: int
    place: int
    players: int
    as_name: str   # the name they played under
    colour: str    # their train colour in that game
    seconds: int | None = None

    def display_name(self) -> str:
        return game_title(self.name, self.day)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "total": self.total, "place": self.place,
                "players": self.players}


@dataclass(frozen=True, slots=True)
class Player:
    """A person's page: their record, their complete games (newest first), the other
    spellings they played under, and which of those are aliases that can be undone."""

    record: Record
    games: tuple[PlayedGame, ...]
    spellings: tuple[str, ...]
    aliases: tuple[str, ...]
    in_progress: int

    @property
    def timed_games(self) -> int:
        """How many of their games were timed (games stored before round times were kept
        were not)."""
        return sum(1 for g in self.games if g.seconds is not None)

    @property
    def average_seconds(self) -> int | None:
        """Their average game length over their timed games (None: none was timed)."""
        return average_seconds(g.seconds for g in self.games if g.seconds is not None)

    def to_json(self) -> dict:
        return {**self.record.to_json(), "games": [g.to_json() for g in self.games]}


def find_person(db, name: str) -> str:
    """The person key of *name*, or UnknownPlayer when no live game has that name."""
    person = club.person_of(db, name)
    if not club.plays_live(db, person):
        raise UnknownPlayer(_short(name))
    return person


def player(db, name: str) -> Player:
    """Everything the player's page shows; UnknownPlayer for a name never seen."""
    with snapshot(db):
        person = find_person(db, name)
        names = club.names(db, person)
        found = _records(club.record_sums(db, person=person), names)
        record = found[0] if found else Record(names[person], person, 0, 0, 0, 0, 0, None)
        times = club.round_times(db, person)
        games = tuple(_played(row, times.get(row[0], []))
                      for row in club.played_games(db, person))
        spellings = club.spellings(db, person, besides=record.name)
        aliases = club.aliases(db, person)
        in_progress = club.games_in_progress(db, person)
    return Player(record, games, spellings, aliases, in_progress)


def _played(row: tuple, times: list[tuple[str | None, str | None]]) -> PlayedGame:
    """A played game from storage's row (club.played_games) and its rounds' times."""
    *figures, seat, colours = row
    palette = json.loads(colours) if colours else default_colours(figures[5])
    seconds = total_seconds(seconds_between(start, saved) for start, saved in times)
    return PlayedGame(*figures, colour=palette[seat], seconds=seconds)


def add_alias(db, alias: str, of: str) -> Record:
    """From now on *alias* and *of* are one person (the games keep the names as played).

    Refused (BadInput) when either name is in no live game, when *alias* is already
    joined to someone, when they are one person already, or when they ever sat at the
    same game (then they are two people).  Everyone already joined to *alias* comes
    along.
    """
    if not isinstance(alias, str) or not alias.strip():
        raise BadInput(_("Give the name to join to another player."), "alias")
    if not isinstance(of, str) or not of.strip():
        raise BadInput(_("Give the name of the player that %(alias)s is another spelling of.",
                         alias=alias.strip()), "of")
    alias, of = alias.strip(), of.strip()
    with write(db):   # the checks and the change see one state
        for name, field in ((alias, "alias"), (of, "of")):
            if not club.spelling_plays_live(db, name):
                raise BadInput(_("No game has a player called %(name)s.", name=_short(name)),
                               field)
        moved, kept = club.person_of(db, alias), club.person_of(db, of)
        if moved == kept:
            raise BadInput(_("%(alias)s and %(of)s are already the same player.",
                             alias=alias, of=of), "alias")
        if moved != person_key(alias):   # an alias already: say whose, as it was joined
            raise BadInput(_("%(alias)s is already joined to %(name)s; separate it first.",
                             alias=alias, name=club.joined_to(db, alias)), "alias")
        # Any game, a deleted one too (it may come back): they are two people.
        if club.sat_together(db, moved, kept):
            raise BadInput(_("%(alias)s and %(of)s sat at the same game, so they are two "
                             "different players.", alias=alias, of=of), "alias")
        club.join(db, moved, kept, alias=alias, of=of)
    return record_of(db, of)


def remove_alias(db, alias: str) -> None:
    """*alias* is its own person again (BadInput when it is not an alias), and so is every
    name that was joined to it (they follow it out, as they followed it in)."""
    with write(db):
        if not club.separate(db, alias or ""):
            raise BadInput(_("%(name)s is not joined to another player.",
                             name=_short(alias or "")), "alias")


def record_of(db, name: str) -> Record:
    """*name*'s record; all zeros when no live game has them (say, only deleted ones)."""
    try:
        return player(db, name).record
    except UnknownPlayer:
        return Record(name, person_key(name), 0, 0, 0, 0, 0, None)


def _short(name: str, limit: int = 40) -> str:
    """A name as a sentence quotes it: cut to *limit* characters."""
    return name if len(name) <= limit else name[:limit] + "…"


# --- seasons ---------------------------------------------------------------

def create_season(db, name, start, end) -> Season:
    """Store a season (a name and an inclusive date range), checked first."""
    name, first, last = check_season(name, start, end)
    return club.add_season(db, name, first, last)


def get_season(db, season_id: str) -> Season:
    """The season with that id; SeasonNotFound when there is none."""
    season = club.find_season(db, season_id)
    if season is None:
        raise SeasonNotFound(season_id)
    return season


def delete_season(db, season_id: str) -> None:
    """Remove a season (the games and records stay as they are)."""
    if not club.delete_season(db, season_id):
        raise SeasonNotFound(season_id)


def season_records(db, season: Season) -> list[Record]:
    """Each person's record over the season's complete games."""
    return _records(club.record_sums(db, days=(season.start, season.end)), club.names(db))


def season_table(db, season_id: str, rank_by: str = "wins", min_games: int = 0) -> SeasonTable:
    """A season's standings (SeasonNotFound, or BadInput for an unknown order)."""
    with snapshot(db):
        season = get_season(db, season_id)
        return rank(season, season_records(db, season), rank_by, min_games)
