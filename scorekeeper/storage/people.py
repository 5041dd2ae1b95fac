"""The players' tables: seats and persons, aliases (issue 12); seasons are in
:mod:`.seasons`, the club PIN's hash in :mod:`.clubpin`.

``seats`` holds one row per player of every game, with the figures of their game
(total, zero rounds, place once complete), rewritten by :func:`refresh_seats` in the
transaction of every change to the game's scores, so a player's record and a season's
standings are SQL sums over a small indexed table that never lags a save.  ``persons``
names each person as in their most recent live game (:func:`refresh_persons`).
``aliases`` maps a spelling's key to the person it belongs to (:func:`person_of`).
Every write of these tables and every read the players' and seasons' pages make
(``people.py`` and ``seasons.py``, which build the records and the sentences from them)
is here; :func:`club_version` counts the changes those pages show.
"""

from __future__ import annotations

import json
from datetime import date, datetime

from ..errors import BadInput
from ..game import person_key
from ..standings import Standing, rank as rank_standings
from ..text import _
from .connection import now
from .house import house_figures


def club_version(db) -> int:
    """One more with every change the players' and seasons' pages show."""
    return db.execute("select version from club").fetchone()[0]


# --- seats and persons -----------------------------------------------------

def person_of(db, name: str) -> str:
    """The key of the person *name* belongs to (its own key unless it is an alias)."""
    key = person_key(name)
    row = db.execute("select person from aliases where key = ?", [key]).fetchone()
    return row[0] if row else key


def refresh_seats(db, game_id: str) -> None:
    """Inside a write: bring the game's rows of ``seats`` up to date with its scores
    (issue 12).

    Every write that creates a game or changes its scores calls this in the same
    transaction, so players' records and seasons never lag behind a save.  Summed in
    SQL: a save pays about a millisecond for it.  A game's first call writes its rows
    whole (name, person, day, …); later calls update only the figures that changed.
    """
    row = db.execute("select rowid, players, created_at, deleted_at from games where id = ?",
                     [game_id]).fetchone()
    order, players, created_at = row[0], json.loads(row[1]), row[2]
    figures = {r[0]: r[1:] for r in db.execute(
        "select player, sum(score), sum(score = 0), min(nullif(score, 0)), count(*) "
        "from scores where game_id = ? group by player", [game_id])}
    figures = house_figures(db, game_id) or figures   # R11.4 under house scoring
    rounds, played = db.execute(
        "select count(*), (select count(distinct number) from scores where game_id = ?) "
        "from rounds where game_id = ?", [game_id, game_id]).fetchone()
    lines = [Standing(name, 0, *figures.get(name, (0, 0, None, 0))) for name in players]
    complete = int(rounds > 0 and played == rounds)
    places = {line.player: line.place for line in rank_standings(lines)}
    live = int(row[3] is None)
    values = [(line.total, line.zero_rounds, line.lowest_nonzero, line.rounds_played,
               places[line.player] if complete else None, complete, live)
              for line in lines]
    if db.execute("select 1 from seats where game_id = ? limit 1", [game_id]).fetchone():
        db.conn.executemany(
            "update seats set total = ?, zero_rounds = ?, lowest_nonzero = ?, rounds = ?, "
            "place = ?, complete = ?, live = ? where game_id = ? and seat = ? "
            "and (total, zero_rounds, lowest_nonzero, rounds, place, complete, live) "
            "is not (?, ?, ?, ?, ?, ?, ?)",
            [(*v, game_id, seat, *v) for seat, v in enumerate(values)])
        return
    # The day it was started, on the server's clock: the day a season counts it on.
    created = datetime.fromisoformat(created_at)
    day = (created if created.tzinfo is None else created.astimezone()).date().isoformat()
    db.conn.executemany(
        "insert into seats (game_id, seat, name, key, person, total, zero_rounds, "
        "lowest_nonzero, rounds, place, complete, live, players, day, stamp) "
        "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(game_id, seat, name, person_key(name), person_of(db, name), *v, len(players), day,
          f"{created_at}#{order:012d}") for seat, (name, v) in enumerate(zip(players, values))])
    refresh_persons(db, persons_of_game(db, game_id))


def one_person_each(db, players: list[str]) -> None:
    """Inside a write: refuse a game that seats one person twice under two names joined as
    one (an alias), which would count the game twice in their record."""
    seen: dict[str, str] = {}
    for i, name in enumerate(players):
        person = person_of(db, name)
        if person in seen:
            raise BadInput(_("%(name)s and %(other)s are joined as one player; separate them "
                             "on the Players page first, or type another name.",
                             name=name, other=seen[person]), f"players.{i}")
        seen[person] = name


def persons_of_game(db, game_id: str) -> set[str]:
    """The persons seated at a game (to rename or forget in ``persons`` when it changes)."""
    return {r[0] for r in db.execute("select person from seats where game_id = ?", [game_id])}


def refresh_persons(db, persons) -> None:
    """Inside a write: each of *persons* is named as in their most recent live game
    (or forgotten from ``persons`` when no live game has them)."""
    for person in set(persons):
        row = db.execute("select name, max(stamp) from seats where live = 1 and person = ?",
                         [person]).fetchone()
        if row[1] is None:
            db.execute("delete from persons where person = ?", [person])
        else:
            db.execute("insert into persons (person, name, stamp) values (?, ?, ?) "
                       "on conflict (person) do update set name = excluded.name, "
                       "stamp = excluded.stamp where persons.name != excluded.name "
                       "or persons.stamp != excluded.stamp", [person, row[0], row[1]])


# --- what the players' pages read --------------------------------------------

_SUMS = """
    select person, count(*) as games, coalesce(sum(place = 1), 0) as wins,
           sum(rounds) as rounds, sum(total) as points,
           sum(zero_rounds) as zero_rounds, min(total) as lowest_game
    from seats where complete = 1 and live = 1 {where}
    group by person"""


def names(db, person: str | None = None) -> dict[str, str]:
    """Each person's spelling in their most recent live game (only *person*'s when given)."""
    if person is None:
        return dict(db.execute("select person, name from persons").fetchall())
    return dict(db.execute("select person, name from persons where person = ?",
                           [person]).fetchall())


def record_sums(db, *, person: str | None = None, days: tuple[date, date] | None = None
                ) -> list[tuple]:
    """Each person's sums over their complete live games, as ``(person, games, wins,
    rounds, points, zero_rounds, lowest_game)``: only *person*'s when given, only the
    games started within *days* (first and last, inclusive) when given."""
    where, params = "", []
    if person is not None:
        where, params = "and person = ?", [person]
    if days is not None:
        where += " and day between ? and ?"
        params += [day.isoformat() for day in days]
    return db.execute(_SUMS.format(where=where), params).fetchall()


def plays_live(db, person: str) -> bool:
    """Whether *person* has a seat at a game outside "Recently deleted"."""
    return db.execute("select 1 from seats where person = ? and live = 1 limit 1",
                      [person]).fetchone() is not None


def spelling_plays_live(db, name: str) -> bool:
    """Whether this spelling (by its key, whoever it belongs to) has a seat at a game
    outside "Recently deleted"."""
    return db.execute("select 1 from seats where key = ? and live = 1 limit 1",
                      [person_key(name)]).fetchone() is not None


def played_games(db, person: str) -> list[tuple]:
    """*person*'s complete live games, newest first, as ``(game id, game name, day,
    total, place, players, the name they played under, their seat, the game's colours
    as stored)``."""
    return db.execute(
        "select g.id, g.name, s.day, s.total, s.place, s.players, s.name, s.seat, g.colours "
        "from seats s join games g on g.id = s.game_id "
        "where s.person = ? and s.complete = 1 and s.live = 1 "
        "order by s.stamp desc", [person]).fetchall()


def round_times(db, person: str) -> dict[str, list[tuple[str | None, str | None]]]:
    """Each of *person*'s complete live games' rounds' times, by game id: ``(started_at,
    saved_at)`` per round (timing.py)."""
    times: dict[str, list] = {}
    for game_id, started, saved in db.execute(
            "select r.game_id, r.started_at, r.saved_at from rounds r join seats s "
            "on s.game_id = r.game_id where s.person = ? and s.complete = 1 and s.live = 1 "
            "order by r.game_id, r.number", [person]):
        times.setdefault(game_id, []).append((started, saved))
    return times


def spellings(db, person: str, besides: str) -> tuple[str, ...]:
    """The names other than *besides* that *person* played under in live games."""
    return tuple(r[0] for r in db.execute(
        "select distinct name from seats where person = ? and live = 1 and name != ? "
        "order by name", [person, besides]).fetchall())


def games_in_progress(db, person: str) -> int:
    """How many of *person*'s live games are not complete yet."""
    return db.execute(
        "select count(*) from seats where person = ? and complete = 0 and live = 1",
        [person]).fetchone()[0]


def known_names(db, limit: int = 300) -> list[str]:
    """People's names for suggestions, most recently played first."""
    return [r[0] for r in db.execute("select name from persons order by stamp desc limit ?",
                                     [limit]).fetchall()]


# --- aliases -----------------------------------------------------------------

def aliases(db, person: str) -> tuple[str, ...]:
    """The names joined to *person* as aliases, by name."""
    return tuple(r[0] for r in db.execute(
        "select name from aliases where person = ? order by name", [person]).fetchall())


def joined_to(db, name: str) -> str | None:
    """The name *name* was joined to, as it was typed then (None when it is no alias)."""
    row = db.execute("select of_name from aliases where key = ?", [person_key(name)]).fetchone()
    return row[0] if row else None


def sat_together(db, person: str, other: str) -> bool:
    """Whether the two persons ever sat at the same game, a deleted one too (it may come
    back): then they are two people."""
    return db.execute(
        "select 1 from seats x join seats y on y.game_id = x.game_id "
        "where x.person = ? and y.person = ? limit 1", [person, other]).fetchone() is not None


def join(db, moved: str, kept: str, *, alias: str, of: str) -> None:
    """Inside a write: person *moved* (the spelling *alias*, and everyone already joined to
    it) becomes person *kept* (the spelling *of*) in every game."""
    db.execute("update aliases set person = ? where person = ?", [kept, moved])
    db.execute("insert into aliases (key, person, name, of_name, created_at) "
               "values (?, ?, ?, ?, ?)", [moved, kept, alias, of, now()])
    db.execute("update seats set person = ? where person = ?", [kept, moved])
    refresh_persons(db, (kept, moved))


def separate(db, alias: str) -> bool:
    """Inside a write: *alias* is its own person again, and so is every name that was
    joined to it (they follow it out, as they followed it in); False when it is no alias."""
    key = person_key(alias)
    was = person_of(db, alias)
    if db.execute("delete from aliases where key = ?", [key]).rowcount == 0:
        return False
    followers = [key]
    joined = db.execute("select key, of_name from aliases where person = ?", [was]).fetchall()
    while followers:
        leader = followers.pop()
        db.execute("update seats set person = ? where key = ?", [key, leader])
        for other, of_name in joined:
            if person_key(of_name) == leader:
                db.execute("update aliases set person = ? where key = ?", [key, other])
                followers.append(other)
    refresh_persons(db, (key, was))
    return True
