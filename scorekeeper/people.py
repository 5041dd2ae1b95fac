"""People across games (issue 12): the players' directory, a player's record, aliases.

The figures come from the ``seats`` table that storage keeps in step with every save
(``storage.people``, which holds every read and write of the players' tables), so a record
or a season's standings is one indexed SQL sum, however many games the club has
played.  Here they become records, and a name to join to another is checked, with the
sentence that refuses it.  Only complete games that are not in "Recently deleted"
count.  Seasons are :mod:`scorekeeper.seasons`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .colours import default_colours
from .errors import BadInput
from .game import game_title, person_key
from .records import Record
from .storage import people as stored
from .storage import snapshot, write
# Read as stored: the pages ask this module for them with the rest of a person's data.
from .storage.people import known_names  # noqa: F401
from .storage.games import last_game_id  # noqa: F401
from .text import _
from .timing import average_seconds, seconds_between, total_seconds


class UnknownPlayer(LookupError):
    """No game (outside "Recently deleted") has a player of that name."""


def records_of(sums: list[tuple], names: dict[str, str]) -> list[Record]:
    """Records from storage's sums (stored.record_sums), each named as *names* say."""
    return [Record(names.get(person, person), person, games, wins, rounds, points, zeros,
                   lowest) for person, games, wins, rounds, points, zeros, lowest in sums]


def directory(db) -> list[Record]:
    """Every person of the live games, by name, with their record (zeros when none of
    their games is complete yet)."""
    with snapshot(db):
        names = stored.names(db)
        found = {r.key: r for r in records_of(stored.record_sums(db), names)}
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
    person = stored.person_of(db, name)
    if not stored.plays_live(db, person):
        raise UnknownPlayer(_short(name))
    return person


def player(db, name: str) -> Player:
    """Everything the player's page shows; UnknownPlayer for a name never seen."""
    with snapshot(db):
        person = find_person(db, name)
        names = stored.names(db, person)
        found = records_of(stored.record_sums(db, person=person), names)
        record = found[0] if found else Record(names[person], person, 0, 0, 0, 0, 0, None)
        times = stored.round_times(db, person)
        games = tuple(_played(row, times.get(row[0], []))
                      for row in stored.played_games(db, person))
        spellings = stored.spellings(db, person, besides=record.name)
        aliases = stored.aliases(db, person)
        in_progress = stored.games_in_progress(db, person)
    return Player(record, games, spellings, aliases, in_progress)


def _played(row: tuple, times: list[tuple[str | None, str | None]]) -> PlayedGame:
    """A played game from storage's row (stored.played_games) and its rounds' times."""
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
            if not stored.spelling_plays_live(db, name):
                raise BadInput(_("No game has a player called %(name)s.", name=_short(name)),
                               field)
        moved, kept = stored.person_of(db, alias), stored.person_of(db, of)
        if moved == kept:
            raise BadInput(_("%(alias)s and %(of)s are already the same player.",
                             alias=alias, of=of), "alias")
        if moved != person_key(alias):   # an alias already: say whose, as it was joined
            raise BadInput(_("%(alias)s is already joined to %(name)s; separate it first.",
                             alias=alias, name=stored.joined_to(db, alias)), "alias")
        # Any game, a deleted one too (it may come back): they are two people.
        if stored.sat_together(db, moved, kept):
            raise BadInput(_("%(alias)s and %(of)s sat at the same game, so they are two "
                             "different players.", alias=alias, of=of), "alias")
        stored.join(db, moved, kept, alias=alias, of=of)
    return record_of(db, of)


def remove_alias(db, alias: str) -> None:
    """*alias* is its own person again (BadInput when it is not an alias), and so is every
    name that was joined to it (they follow it out, as they followed it in)."""
    with write(db):
        if not stored.separate(db, alias or ""):
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
