"""Storage of people across games and of seasons (issue 12): records, aliases, seasons.

Everything here reads the ``seats`` table that storage.refresh_seats keeps in step
with every save, so a record or a season's standings is one indexed SQL sum, however
many games the club has played.  Only complete games that are not in "Recently
deleted" count; a season holds the complete games created within its dates (the
server's local date, inclusive).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date

from .errors import BadInput
from .game import game_title, person_key
from .records import Record, Season, SeasonTable, check_season, rank
from .storage import now, person_of, refresh_persons, snapshot, write
from .text import _

_SUMS = """
    select person, count(*) as games, coalesce(sum(place = 1), 0) as wins,
           sum(rounds) as rounds, sum(total) as points,
           sum(zero_rounds) as zero_rounds, min(total) as lowest_game
    from seats where complete = 1 and live = 1 {where}
    group by person"""


class UnknownPlayer(LookupError):
    """No game (outside "Recently deleted") has a player of that name."""


class SeasonNotFound(LookupError):
    """No season has that id."""


def _names(db, where: str = "", params=()) -> dict[str, str]:
    """Each person's spelling in their most recent live game (storage.refresh_persons)."""
    return dict(db.execute(f"select person, name from persons where 1 {where}",
                           list(params)).fetchall())


def _records(db, where: str = "", params=(), names: dict[str, str] | None = None
             ) -> list[Record]:
    if names is None:
        names = _names(db)
    rows = db.execute(_SUMS.format(where=where), list(params)).fetchall()
    return [Record(names.get(person, person), person, games, wins, rounds, points, zeros,
                   lowest) for person, games, wins, rounds, points, zeros, lowest in rows]


def directory(db) -> list[Record]:
    """Every person of the live games, by name, with their record (zeros when none of
    their games is complete yet)."""
    with snapshot(db):
        names = _names(db)
        found = {r.key: r for r in _records(db, names=names)}
    people = [found.get(person) or Record(name, person, 0, 0, 0, 0, 0, None)
              for person, name in names.items()]
    return sorted(people, key=lambda r: (r.name.casefold(), r.key))


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One complete game of a person: the game, their total and place, and its size."""

    id: str
    name: str
    day: str       # the day it was started, on the server's clock (as seasons count it)
    total: int
    place: int
    players: int
    as_name: str   # the name they played under

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

    def to_json(self) -> dict:
        return {**self.record.to_json(), "games": [g.to_json() for g in self.games]}


def find_person(db, name: str) -> str:
    """The person key of *name*, or UnknownPlayer when no live game has that name."""
    person = person_of(db, name)
    if db.execute("select 1 from seats where person = ? and live = 1 limit 1",
                  [person]).fetchone() is None:
        raise UnknownPlayer(_short(name))
    return person


def player(db, name: str) -> Player:
    """Everything the player's page shows; UnknownPlayer for a name never seen."""
    with snapshot(db):
        person = find_person(db, name)
        where, params = "and person = ?", [person]
        names = _names(db, where, params)
        found = _records(db, where, params, names)
        record = found[0] if found else Record(names[person], person, 0, 0, 0, 0, 0, None)
        games = tuple(PlayedGame(*row) for row in db.execute(
            "select g.id, g.name, s.day, s.total, s.place, s.players, s.name "
            "from seats s join games g on g.id = s.game_id "
            "where s.person = ? and s.complete = 1 and s.live = 1 "
            "order by s.stamp desc", params).fetchall())
        spellings = tuple(r[0] for r in db.execute(
            "select distinct name from seats where person = ? and live = 1 and name != ? "
            "order by name", [person, record.name]).fetchall())
        aliases = tuple(r[0] for r in db.execute(
            "select name from aliases where person = ? order by name", params).fetchall())
        in_progress = db.execute(
            "select count(*) from seats where person = ? and complete = 0 and live = 1",
            params).fetchone()[0]
    return Player(record, games, spellings, aliases, in_progress)


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
    with write(db):
        for name, field in ((alias, "alias"), (of, "of")):
            if db.execute("select 1 from seats where key = ? and live = 1 limit 1",
                          [person_key(name)]).fetchone() is None:
                raise BadInput(_("No game has a player called %(name)s.", name=_short(name)),
                               field)
        moved, kept = person_of(db, alias), person_of(db, of)
        if moved == kept:
            raise BadInput(_("%(alias)s and %(of)s are already the same player.",
                             alias=alias, of=of), "alias")
        if moved != person_key(alias):   # an alias already: say whose, as it was joined
            joined_to = db.execute("select of_name from aliases where key = ?",
                                   [person_key(alias)]).fetchone()[0]
            raise BadInput(_("%(alias)s is already joined to %(name)s; separate it first.",
                             alias=alias, name=joined_to), "alias")
        # Any game, a deleted one too (it may come back): they are two people.
        together = db.execute(
            "select 1 from seats x join seats y on y.game_id = x.game_id "
            "where x.person = ? and y.person = ? limit 1", [moved, kept]).fetchone()
        if together is not None:
            raise BadInput(_("%(alias)s and %(of)s sat at the same game, so they are two "
                             "different players.", alias=alias, of=of), "alias")
        db.execute("update aliases set person = ? where person = ?", [kept, moved])
        db.execute("insert into aliases (key, person, name, of_name, created_at) "
                   "values (?, ?, ?, ?, ?)", [moved, kept, alias, of, now()])
        db.execute("update seats set person = ? where person = ?", [kept, moved])
        refresh_persons(db, (kept, moved))
    return record_of(db, of)


def remove_alias(db, alias: str) -> None:
    """*alias* is its own person again (BadInput when it is not an alias), and so is every
    name that was joined to it (they follow it out, as they followed it in)."""
    key = person_key(alias or "")
    with write(db):
        was = person_of(db, alias or "")
        if db.execute("delete from aliases where key = ?", [key]).rowcount == 0:
            raise BadInput(_("%(name)s is not joined to another player.",
                             name=_short(alias or "")), "alias")
        followers = [key]
        joined = db.execute("select key, of_name from aliases where person = ?",
                            [was]).fetchall()
        while followers:
            leader = followers.pop()
            db.execute("update seats set person = ? where key = ?", [key, leader])
            for other, of_name in joined:
                if person_key(of_name) == leader:
                    db.execute("update aliases set person = ? where key = ?", [key, other])
                    followers.append(other)
        refresh_persons(db, (key, was))


def record_of(db, name: str) -> Record:
    """*name*'s record; all zeros when no live game has them (say, only deleted ones)."""
    try:
        return player(db, name).record
    except UnknownPlayer:
        return Record(name, person_key(name), 0, 0, 0, 0, 0, None)


def _short(name: str, limit: int = 40) -> str:
    """A name as a sentence quotes it: cut to *limit* characters."""
    return name if len(name) <= limit else name[:limit] + "…"


def known_names(db, limit: int = 300) -> list[str]:
    """People's names for suggestions, most recently played first."""
    return [r[0] for r in db.execute("select name from persons order by stamp desc limit ?",
                                     [limit]).fetchall()]


def last_game_id(db) -> str | None:
    """The most recently started game outside "Recently deleted" (None when there is none):
    the new-game page offers to seat the same table again."""
    row = db.execute("select id from games where deleted_at is null "
                     "order by created_at desc, rowid desc limit 1").fetchone()
    return row[0] if row else None


# --- seasons ---------------------------------------------------------------

def _season(row) -> Season:
    return Season(row[0], row[1], date.fromisoformat(row[2]), date.fromisoformat(row[3]))


def create_season(db, name, start, end) -> Season:
    """Store a season (a name and an inclusive date range), checked first."""
    name, first, last = check_season(name, start, end)
    season_id = secrets.token_hex(5)
    with write(db):
        db["seasons"].insert({"id": season_id, "name": name, "start": first.isoformat(),
                              "end": last.isoformat(), "created_at": now()})
    return Season(season_id, name, first, last)


def seasons(db) -> list[Season]:
    """Every season, the latest-ending first."""
    return [_season(r) for r in db.execute(
        "select id, name, start, end from seasons order by end desc, start desc, name")]


def get_season(db, season_id: str) -> Season:
    row = db.execute("select id, name, start, end from seasons where id = ?",
                     [season_id]).fetchone()
    if row is None:
        raise SeasonNotFound(season_id)
    return _season(row)


def delete_season(db, season_id: str) -> None:
    """Remove a season (the games and records stay as they are)."""
    with write(db):
        if db.execute("delete from seasons where id = ?", [season_id]).rowcount == 0:
            raise SeasonNotFound(season_id)


def season_records(db, season: Season) -> list[Record]:
    """Each person's record over the season's complete games."""
    return _records(db, "and day between ? and ?",
                    [season.start.isoformat(), season.end.isoformat()])


def season_table(db, season_id: str, rank_by: str = "wins", min_games: int = 0) -> SeasonTable:
    """A season's standings (SeasonNotFound, or BadInput for an unknown order)."""
    with snapshot(db):
        season = get_season(db, season_id)
        return rank(season, season_records(db, season), rank_by, min_games)
