"""The schema: migrations m001–m016, applied at every start, and the rows a migration
cannot write itself.

Each migration is a sqlite-utils migration of the set ``scorekeeper``; a database records
the ones it has applied by that set's name and the function's name (its
``_sqlite_migrations`` table), so a name once released never changes, and a change to
the schema is a new migration, never an edit of one a database may have applied.
:func:`migrate` creates or migrates the file, then :func:`fill_seats` writes the
``seats`` rows of games stored before m011.
"""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

from .people import refresh_seats
from .connection import connect, protect, write

migrations = Migrations("scorekeeper")


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    # The games, their rounds and scores, and the history of every change (edits, changes).
    db["games"].create({
        "id": str, "name": str, "set_n": int, "players": str, "rules": str,
        "created_at": str, "updated_at": str,
    }, pk="id")
    db["rounds"].create({
        "game_id": str, "number": int, "engine": int, "revision": int, "updated_at": str,
    }, pk=("game_id", "number"), foreign_keys=[("game_id", "games", "id")])
    db["scores"].create({
        "game_id": str, "number": int, "player": str, "score": int, "hand": str,
    }, pk=("game_id", "number", "player"), foreign_keys=[("game_id", "games", "id")])
    db["edits"].create({
        "id": int, "game_id": str, "number": int, "at": str, "undo_of": int,
    }, pk="id", foreign_keys=[("game_id", "games", "id")])
    db["changes"].create({
        "id": int, "edit_id": int, "game_id": str, "number": int, "player": str,
        "old": int, "new": int, "at": str,
    }, pk="id", foreign_keys=[("edit_id", "edits", "id"), ("game_id", "games", "id")])
    db["changes"].create_index(["game_id", "id"])
    db["edits"].create_index(["game_id", "id"])


@migrations()
def m002_live_moves(db: sqlite_utils.Database) -> None:
    # The live table of a round (issue 3): its move log, one row per action.
    db["moves"].create({
        "id": int, "game_id": str, "number": int, "seq": int, "data": str, "at": str,
    }, pk="id", foreign_keys=[("game_id", "games", "id")])
    db["moves"].create_index(["game_id", "number", "seq"], unique=True)


@migrations()
def m003_move_undo(db: sqlite_utils.Database) -> None:
    # An undone live-table action stays in the log, marked, rather than vanishing.
    db["moves"].add_column("undone_at", str)


@migrations()
def m004_trash(db: sqlite_utils.Database) -> None:
    # Delete moves a game to "Recently deleted" (issue 7); purged after KEEP_DELETED_DAYS.
    db["games"].add_column("deleted_at", str)
    db["games"].create_index(["deleted_at"])


@migrations()
def m010_version_and_pin(db: sqlite_utils.Database) -> None:
    # Issue 8.  version: one more with every change to a game (its scores, rounds, live
    # table, name, trash state or PIN), so every open page can ask "anything new?" and
    # get a cheap 304.  Kept by triggers, so no write path can forget it.
    # pin_hash: the scorekeeper's PIN, hashed (Werkzeug); NULL for an open game.
    db["games"].add_column("version", int, not_null_default=0)
    db["games"].add_column("pin_hash", str)
    # A redo is a history entry of its own, linked to the undo it takes back.
    db["edits"].add_column("redo_of", int)
    for table in ("rounds", "scores", "moves"):
        for event in ("INSERT", "UPDATE", "DELETE"):
            row = "OLD" if event == "DELETE" else "NEW"
            db.execute(f"CREATE TRIGGER {table}_{event.lower()}_bumps_version AFTER {event} "
                       f"ON {table} BEGIN UPDATE games SET version = version + 1 "
                       f"WHERE id = {row}.game_id; END")
    db.execute("CREATE TRIGGER games_update_bumps_version AFTER UPDATE OF name, deleted_at, "
               "pin_hash ON games BEGIN UPDATE games SET version = version + 1 "
               "WHERE id = NEW.id; END")


@migrations()
def m011_people_and_seasons(db: sqlite_utils.Database) -> None:
    # Issue 12.  seats: one row per player of every game, with the figures of their
    # game (total, zero rounds, place once complete), rewritten in the same transaction
    # as every change to the game's scores (refresh_seats), so a player's record and a
    # season's standings are sums over a small indexed table, not a replay of rounds.
    # person: the key of the person the name belongs to (game.person_key, or the
    # key an alias points to).
    # live: 0 while the game is in "Recently deleted".  day: the game's creation day on
    # the server's clock (seasons); stamp: its creation time and order, so "the most
    # recent game" is one max() even for games created within the same second.
    db["seats"].create({
        "game_id": str, "seat": int, "name": str, "key": str, "person": str, "total": int,
        "zero_rounds": int, "lowest_nonzero": int, "rounds": int, "place": int,
        "players": int, "complete": int, "live": int, "day": str, "stamp": str,
    }, pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")])
    db["seats"].create_index(["person", "complete", "live"])
    db["seats"].create_index(["key"])
    db["seats"].create_index(["live", "person", "stamp", "name"])
    # Covering the records' sums: one pass in person order, no table lookups.
    db["seats"].create_index(["complete", "live", "person", "day", "place", "rounds", "total",
                              "zero_rounds"])
    # persons: each person's spelling in their most recent live game (refresh_persons),
    # so a table of records names its players without scanning every seat.
    db["persons"].create({"person": str, "name": str, "stamp": str}, pk="person")
    # aliases: a spelling's key and the key of the person it belongs to.
    db["aliases"].create({"key": str, "person": str, "name": str, "of_name": str,
                          "created_at": str}, pk="key")
    db["aliases"].create_index(["person"])
    db["seasons"].create({"id": str, "name": str, "start": str, "end": str,
                          "created_at": str}, pk="id")
    db["games"].create_index(["created_at"])
    # club.version: one more with every change to what the players' and seasons' pages
    # show (any game's seats, a game deleted or restored, an alias, a season), so those
    # pages are kept and polled like a game's (updates.cached_club_page).
    db.execute("CREATE TABLE club (id INTEGER PRIMARY KEY CHECK (id = 1), "
               "version INTEGER NOT NULL)")
    db.execute("INSERT INTO club (id, version) VALUES (1, 0)")
    for table in ("seats", "aliases", "seasons", "persons"):
        for event in ("INSERT", "UPDATE", "DELETE"):
            # A save in a game still being played changes nothing those pages show
            # (they count finished games only): its seats' updates leave the version be.
            when = (" WHEN OLD.complete = 1 OR NEW.complete = 1 OR OLD.live != NEW.live "
                    "OR OLD.person != NEW.person" if (table, event) == ("seats", "UPDATE")
                    else "")
            db.execute(f"CREATE TRIGGER {table}_{event.lower()}_bumps_club AFTER {event} "
                       f"ON {table}{when} BEGIN UPDATE club SET version = version + 1; END")
    db.execute("CREATE TRIGGER games_trash_bumps_club AFTER UPDATE OF deleted_at, name "
               "ON games BEGIN UPDATE club SET version = version + 1; END")
    # The rows of games stored before are written by migrate() (fill_seats).


@migrations()
def m013_pin_guesses(db: sqlite_utils.Database) -> None:
    # Issue 19.  Every wrong PIN (a game's, or the club's: scope "club"), by client address
    # and time (seconds since the epoch): the guessing limits, per address and from
    # everyone together, survive a restart.  Old rows are removed as new ones come in.
    db["pin_guesses"].create({"scope": str, "client": str, "at": float})
    db["pin_guesses"].create_index(["scope", "at"])
    db["pin_guesses"].create_index(["scope", "client", "at"])


@migrations()
def m014_club_pin(db: sqlite_utils.Database) -> None:
    # Issue 19.  The club PIN, hashed as a game's PIN (NULL: none set): while set, it
    # guards the club-level changes (clubpin.py).
    db["club"].add_column("pin_hash", str)


@migrations()
def m015_colours_and_round_times(db: sqlite_utils.Database) -> None:
    # Issue 20.  colours: each seat's train colour, a JSON list of "#rrggbb" in seating
    # order; NULL for a game stored before, which is shown in the default palette.
    db["games"].add_column("colours", str)
    # started_at: when the round's play started (the first save of the round before it,
    # the game's creation for round 1, or later its live table's first action or a
    # "Start round" tap); saved_at: its first save.  UTC ISO 8601, as now() writes them.
    # NULL for the rounds of games stored before: they show no times rather than wrong ones.
    db["rounds"].add_column("started_at", str)
    db["rounds"].add_column("saved_at", str)


@migrations()
def m016_house_scoring(db: sqlite_utils.Database) -> None:
    # Issue 25, house scoring (R11).  went_out, markers: who went out and whose marker
    # stood, as a round's save gave them (a JSON list of names in seating order; NULL
    # when not given, as in every round stored before).  scores.score stays the score
    # that counts; the hands' scores are derived from it and the lists.
    # edits.lists: the lists a save or undo changed, {"old": [went_out, markers],
    # "new": [...]} as JSON, so an undo puts them back with the scores; NULL when the
    # entry left them as they were.
    db["rounds"].add_column("went_out", str)
    db["rounds"].add_column("markers", str)
    db["edits"].add_column("lists", str)


def migrate(path: str) -> None:
    """Create the database on first start (0600) and apply pending migrations."""
    protect(path)
    db = connect(path)
    if path != ":memory:":
        db.enable_wal()
    migrations.apply(db)
    fill_seats(db)
    db.close()


def fill_seats(db) -> int:
    """Write the ``seats`` rows of every game that has none (games stored before
    issue 12's migration); answers how many games."""
    missing = [r[0] for r in db.execute(
        "select id from games where not exists "
        "(select 1 from seats s where s.game_id = games.id)").fetchall()]
    for game_id in missing:
        with write(db):
            refresh_seats(db, game_id)
    return len(missing)
