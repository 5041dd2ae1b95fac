"""Storage: games, rounds, scores, the history of changes, live-table moves.

sqlite-utils over one SQLite file (WAL).  Every user action is one
transaction (:func:`write`): a round's scores and their history entries are
written together or not at all, and a save waits for another save to finish
instead of failing.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import sqlite_utils
from sqlite_utils import Migrations
from sqlite_utils.db import NotFoundError

from ..archive import Archive, to_document
from ..errors import BadInput
from ..game import Game, Round
from ..merge import Merge, merge_scores
from ..options import RuleOptions, round_engines
from ..game import person_key
from ..standings import Standing, rank as rank_standings
from ..text import _

migrations = Migrations("scorekeeper")


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
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
    # person: the key of the person the name belongs to (records.person_key, or the
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
    # pages are kept and polled like a game's (pagecache.cached_club_page).
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


#: How long a deleted game can still be restored.
KEEP_DELETED_DAYS = 30


def now() -> str:
    """The current UTC time in ISO 8601."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


#: How long a write waits for another one to finish before giving up (seconds).
BUSY_TIMEOUT = 5.0


#: One lock per database file, shared by the threads of this process (see write()).
_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()


def connect(path: str, busy_timeout: float = BUSY_TIMEOUT) -> sqlite_utils.Database:
    """Open the database file, in WAL mode, with foreign keys on."""
    db = sqlite_utils.Database(path)
    db.conn.execute("PRAGMA foreign_keys = ON")
    db.conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    with _write_locks_guard:
        db.write_lock = _write_locks.setdefault(os.path.realpath(path), threading.Lock())
    db.busy_timeout = busy_timeout
    return db


class Busy(Exception):
    """The database stayed busy with other writes longer than the busy timeout."""

    def __init__(self):
        self.message = _("The database stayed busy with other saves for several seconds; "
                         "nothing was saved. Try again in a moment.")
        super().__init__(self.message)


_BUSY_CODES = {5, 6}   # SQLITE_BUSY, SQLITE_LOCKED (and their extended codes, low byte)


def is_busy(error: BaseException) -> bool:
    """True for SQLite's "database is locked" / "busy" errors (worth a 503, not a 500)."""
    if not isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _BUSY_CODES
    return "locked" in str(error) or "busy" in str(error)


@contextmanager
def write(db):
    """One write transaction: BEGIN IMMEDIATE, then COMMIT, or ROLLBACK on any error.

    IMMEDIATE takes the write lock at the start, so a second writer waits its
    turn (the busy timeout) instead of reading first and then being refused at
    once with "database is locked" when it tries to write (a deferred
    transaction, such as sqlite-utils' ``db.atomic()``, cannot wait there).
    Still locked after the timeout: :class:`Busy`.
    """
    conn = db.conn
    if conn.in_transaction:
        raise RuntimeError("write() transactions do not nest")
    # The server's threads first queue on a lock of this process: a waiting thread is
    # woken the moment the write before it ends, where SQLite's busy handler polls with
    # growing sleeps (up to 100 ms), which made the slowest saves several times slower.
    # BEGIN IMMEDIATE still guards against other processes (a backup, a second server).
    lock = getattr(db, "write_lock", None)
    if lock is not None and not lock.acquire(timeout=db.busy_timeout):
        raise Busy()
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if is_busy(error):
                raise Busy() from error
            raise
        try:
            yield db
            conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if is_busy(error):
                raise Busy() from error
            raise
    finally:
        if lock is not None:
            lock.release()


@contextmanager
def snapshot(db):
    """A read transaction: several queries see one consistent state of the database."""
    conn = db.conn
    if conn.in_transaction:
        yield db
        return
    conn.execute("BEGIN")
    try:
        yield db
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def backup(path: str, dest: str) -> int:
    """Copy the whole database to *dest* with SQLite's online backup API; answers the
    number of games (deleted ones included).

    Safe while the server runs: the copy is one consistent state, with every
    committed save (those still in the WAL file too), which a plain file copy
    is not.  Written beside *dest* first, then renamed, so *dest* is never half
    a database; readable by its owner only.
    """
    partial = f"{dest}.partial"
    # mode=rw: a missing database is an error here, not a new empty file.
    source = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=BUSY_TIMEOUT)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            # A single self-contained file: no -wal beside the copy.
            copy.execute("PRAGMA journal_mode = DELETE")
            games = copy.execute("select count(*) from games").fetchone()[0]
        finally:
            copy.close()
        os.chmod(partial, 0o600)
        os.replace(partial, dest)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise
    finally:
        source.close()
    return games


def forget_pins(path: str) -> None:
    """Open every game of the database file at *path* (a backup copy about to leave the
    server): a PIN hash of 4 digits is guessed offline in minutes."""
    db = connect(path)
    try:
        with write(db):
            db.execute("update games set pin_hash = null where pin_hash is not null")
    finally:
        db.close()


def protect(path: str) -> None:
    """Make the database and its -wal/-shm files readable by the server's user only (0600).

    A new database is created empty with that mode first: SQLite gives the
    -wal and -shm files it creates later the mode of the database file.
    """
    if path == ":memory:":
        return
    if not os.path.exists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.chmod(path + suffix, 0o600)


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


class GameNotFound(LookupError):
    """No game has that id."""


# --- games -----------------------------------------------------------------

def create_game(db, *, name: str, players: list[str], set_n: int, options: RuleOptions,
                start_engine: int, end_engine: int, pin_hash: str | None = None) -> Game:
    """Store a new game and its rounds (protected by a PIN when *pin_hash* is given)."""
    game_id = secrets.token_hex(6)
    at = now()
    with write(db):
        one_person_each(db, players)
        db["games"].insert({"id": game_id, "name": name, "set_n": set_n,
                            "players": json.dumps(players, ensure_ascii=False),
                            "rules": json.dumps(options.to_dict()),
                            "created_at": at, "updated_at": at, "pin_hash": pin_hash})
        db["rounds"].insert_all(
            {"game_id": game_id, "number": k, "engine": engine, "revision": 0,
             "updated_at": at}
            for k, engine in enumerate(round_engines(set_n, start_engine, end_engine), 1))
        refresh_seats(db, game_id)
    return load_game(db, game_id)


def load_game(db, game_id: str, *, deleted: bool = False) -> Game:
    """The whole game with every round's scores; GameNotFound if there is none.

    A game in "Recently deleted" is not found unless *deleted* is true.
    """
    with snapshot(db):
        try:
            row = db["games"].get(game_id)
        except NotFoundError:
            raise GameNotFound(game_id) from None
        if row["deleted_at"] is not None and not deleted:
            raise GameNotFound(game_id)
        scores: dict[int, dict[str, int]] = {}
        hands: dict[int, dict[str, list]] = {}
        for s in db.query("select number, player, score, hand from scores where game_id = ?",
                          [game_id]):
            scores.setdefault(s["number"], {})[s["player"]] = s["score"]
            if s["hand"] is not None:
                hands.setdefault(s["number"], {})[s["player"]] = json.loads(s["hand"])
        round_rows = list(db.query("select number, engine, revision from rounds "
                                   "where game_id = ? order by number", [game_id]))
    players = tuple(json.loads(row["players"]))
    rounds = []
    for r in round_rows:
        got = scores.get(r["number"])
        ordered = {p: got[p] for p in players} if got else None
        rounds.append(Round(r["number"], r["engine"], ordered, r["revision"],
                            hands.get(r["number"])))
    return Game(row["id"], row["name"], players, row["set_n"],
                RuleOptions(**json.loads(row["rules"])), tuple(rounds),
                row["created_at"], row["updated_at"], row["deleted_at"], row["version"],
                row["pin_hash"])


def game_stamp(db, game_id: str) -> tuple[int, str | None] | None:
    """The game's version (one more with every change to it) and PIN hash; None when
    there is no such game, or it is in "Recently deleted"."""
    row = db.execute("select version, pin_hash, deleted_at from games where id = ?",
                     [game_id]).fetchone()
    return None if row is None or row[2] is not None else (row[0], row[1])


def club_version(db) -> int:
    """One more with every change the players' and seasons' pages show."""
    return db.execute("select version from club").fetchone()[0]


def set_pin(db, game_id: str, pin_hash: str | None) -> None:
    """Protect a game with a PIN (its hash), or open it again with None."""
    with write(db):
        _require_live(db, game_id)
        db.execute("update games set pin_hash = ? where id = ?", [pin_hash, game_id])


def list_games(db) -> list[Game]:
    """Every game: in progress first, then finished; newest first within each."""
    ids = [r["id"] for r in db.query("select id from games where deleted_at is null "
                                     "order by updated_at desc, id")]
    games = [load_game(db, i) for i in ids]
    return sorted(games, key=lambda g: g.complete)


def _require_live(db, game_id: str) -> None:
    """Inside a write: the game exists and is not deleted (else GameNotFound)."""
    row = db.execute("select deleted_at from games where id = ?", [game_id]).fetchone()
    if row is None or row[0] is not None:
        raise GameNotFound(game_id)


def rename_game(db, game_id: str, name: str) -> None:
    """Give a game a new name."""
    with write(db):
        _require_live(db, game_id)
        db["games"].update(game_id, {"name": name, "updated_at": now()})


def delete_game(db, game_id: str) -> str:
    """Move a game to "Recently deleted" (kept whole for KEEP_DELETED_DAYS); answers when."""
    at = now()
    with write(db):
        _require_live(db, game_id)
        db.execute("update games set deleted_at = ? where id = ?", [at, game_id])
        db.execute("update seats set live = 0 where game_id = ?", [game_id])
        refresh_persons(db, _persons_of_game(db, game_id))
    return at


def restore_game(db, game_id: str) -> Game:
    """Bring a deleted game back whole (a game that is not deleted stays as it is)."""
    with write(db):
        if db.execute("select 1 from games where id = ?", [game_id]).fetchone() is None:
            raise GameNotFound(game_id)
        db.execute("update games set deleted_at = null where id = ?", [game_id])
        db.execute("update seats set live = 1 where game_id = ?", [game_id])
        refresh_persons(db, _persons_of_game(db, game_id))
    return load_game(db, game_id)


def kept_until(deleted_at: str) -> str:
    """When a game deleted at *deleted_at* is purged (ISO 8601)."""
    when = datetime.fromisoformat(deleted_at) + timedelta(days=KEEP_DELETED_DAYS)
    return when.isoformat(timespec="seconds")


def deleted_games(db) -> list[Game]:
    """The games in "Recently deleted", most recently deleted first (older ones purged)."""
    purge_deleted(db)
    ids = [r["id"] for r in db.query("select id from games where deleted_at is not null "
                                     "order by deleted_at desc, id")]
    return [load_game(db, i, deleted=True) for i in ids]


def purge_deleted(db, *, at: datetime | None = None) -> int:
    """Remove for good the games deleted more than KEEP_DELETED_DAYS ago; answers how many."""
    cutoff = ((at or datetime.now(timezone.utc)) - timedelta(days=KEEP_DELETED_DAYS)) \
        .isoformat(timespec="seconds")
    query = "select id from games where deleted_at is not null and deleted_at < ?"
    if db.execute(query, [cutoff]).fetchone() is None:
        return 0   # the usual case: no write at all
    with write(db):
        ids = [r[0] for r in db.execute(query, [cutoff]).fetchall()]
        for game_id in ids:
            gone = _persons_of_game(db, game_id)
            for table in ("seats", "changes", "edits", "scores", "moves", "rounds"):
                db.execute(f"delete from {table} where game_id = ?", [game_id])
            db.execute("delete from games where id = ?", [game_id])
            refresh_persons(db, gone)
    return len(ids)


# --- people across games ---------------------------------------------------

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
    refresh_persons(db, _persons_of_game(db, game_id))


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


def _persons_of_game(db, game_id: str) -> set[str]:
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


# --- scores and history ----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Conflict:
    """Another tablet saved this round after the scorekeeper opened it."""

    round: Round
    changes: list[dict]
    merge: Merge | None = None   # with a base: who needs a choice, the rest merged


class StaleRound(Exception):
    """The round changed since the given revision was read (another tablet saved it)."""

    def __init__(self, conflict: Conflict):
        super().__init__("stale round")
        self.conflict = conflict


def record_round(db, game: Game, number: int, scores: dict[str, int],
                 hands: dict[str, list] | None = None,
                 expected_revision: int | None = None, *, merge: bool = False,
                 base: dict[str, int | None] | None = None) -> Round:
    """Store a round's scores and their history entries in one transaction.

    With *expected_revision*, a save based on an older revision is never
    written blindly: it is refused (StaleRound), or, with *merge*, merged
    player by player with what was saved meanwhile against *base* (the scores
    the page showed; None if unknown) and the merge stored — unless a player
    was changed on both tablets, differently (StaleRound carrying the merge).
    """
    with write(db):
        _require_live(db, game.id)
        current = _round_row(db, game.id, number)
        if expected_revision is not None and current["revision"] != expected_revision:
            fresh = load_game(db, game.id).round(number)
            merged = merge_scores(game.players, base, scores, fresh.scores) if merge else None
            if merged is None or not merged.clean:
                raise StaleRound(_conflict(db, game, number, expected_revision, merged))
            scores = merged.scores
            hands = _merged_hands(game.players, merged, hands, fresh)
        stored = {s["player"]: (s["score"], s["hand"]) for s in db.query(
            "select player, score, hand from scores where game_id = ? and number = ?",
            [game.id, number])}
        old = {p: score for p, (score, _hand) in stored.items()}
        new_hands = {p: json.dumps(hands[p]) if hands and p in hands else None
                     for p in game.players}
        at = now()
        diff = [(p, old.get(p), scores[p]) for p in game.players if old.get(p) != scores[p]]
        hands_changed = any(stored.get(p, (None, None))[1] != new_hands[p] for p in game.players)
        if not diff and not hands_changed:
            # Nothing changes: no history entry and no new revision.
            return load_game(db, game.id).round(number)
        edit_id = None
        if diff:
            edit_id = db["edits"].insert({"game_id": game.id, "number": number, "at": at,
                                          "undo_of": None}).last_pk
            db["changes"].insert_all({"edit_id": edit_id, "game_id": game.id, "number": number,
                                      "player": p, "old": o, "new": n, "at": at}
                                     for p, o, n in diff)
        db["scores"].upsert_all(
            ({"game_id": game.id, "number": number, "player": p, "score": scores[p],
              "hand": new_hands[p]} for p in game.players), pk=("game_id", "number", "player"))
        _bump(db, game.id, number, at)
        refresh_seats(db, game.id)
    return load_game(db, game.id).round(number)


def _merged_hands(players, merged: Merge, mine: dict | None, fresh: Round) -> dict | None:
    """The counted tiles that go with the merged scores, each player's from the side kept.

    Where both sides agree on a score and only the other tablet counted the
    tiles, its tiles are kept too.  Tiles counted on one tablet may clash with
    the other's (a tile in two hands, R3.3); the scores still stand, so the
    tiles are then dropped.
    """
    mine, theirs = mine or {}, fresh.hands or {}
    hands = {}
    for p in players:
        same_score = fresh.scores is not None and fresh.scores[p] == merged.scores[p]
        if p in merged.theirs or (same_score and mine.get(p) is None):
            side = theirs
        else:
            side = mine
        if side.get(p) is not None:
            hands[p] = side[p]
    tiles = [tuple(sorted(t)) for hand in hands.values() for t in hand]
    if len(tiles) != len(set(tiles)):
        return None
    return hands or None


def _round_row(db, game_id: str, number: int) -> dict:
    try:
        return db["rounds"].get((game_id, number))
    except NotFoundError:
        raise BadInput(_("This game has no round %(n)s.", n=number), "number") from None


def _bump(db, game_id: str, number: int, at: str) -> None:
    db.execute("update rounds set revision = revision + 1, updated_at = ? "
               "where game_id = ? and number = ?", [at, game_id, number])
    db.execute("update games set updated_at = ? where id = ?", [at, game_id])


def _conflict(db, game: Game, number: int, since_revision: int,
              merged: Merge | None = None) -> Conflict:
    fresh = load_game(db, game.id).round(number)
    # The changes saved for this round after the scorekeeper's copy: the last
    # (current revision - their revision) edits of the round.
    edits = [r["id"] for r in db.query(
        "select id from edits where game_id = ? and number = ? order by id desc limit ?",
        [game.id, number, max(0, fresh.revision - since_revision)])]
    changes = [dict(r) for r in db.query(
        f"select player, old, new, at from changes where edit_id in "
        f"({','.join('?' * len(edits))}) order by id", edits)] if edits else []
    return Conflict(fresh, changes, merged)


def history(db, game_id: str) -> list[dict]:
    """Every score change of a game, oldest first, with its edit and undo links."""
    return [dict(r) for r in db.query(
        "select c.id, c.edit_id, c.number as round, c.player, c.old, c.new, c.at, "
        "e.undo_of, e.redo_of, (select u.id from edits u where u.undo_of = e.id) as undone_by, "
        "(select r.id from edits r where r.redo_of = e.id) as redone_by "
        "from changes c join edits e on e.id = c.edit_id where c.game_id = ? order by c.id",
        [game_id])]


def last_undoable(db, game_id: str) -> dict | None:
    """The latest edit that is not an undo and has not been undone."""
    rows = list(db.query(
        "select e.id, e.number from edits e where e.game_id = ? and e.undo_of is null "
        "and not exists (select 1 from edits u where u.undo_of = e.id) "
        "order by e.id desc limit 1", [game_id]))
    return dict(rows[0]) if rows else None


def edit_changes(db, edit_id: int) -> list[dict]:
    """The score changes one history entry made: player, old, new."""
    return [dict(r) for r in db.query("select player, old, new from changes where edit_id = ? "
                                      "order by id", [edit_id])]


def undo_last(db, game: Game) -> dict | None:
    """Undo the latest change: put its old values back, as a new history entry."""
    return _take_back(db, game, last_undoable, "undo_of")


def last_redoable(db, game_id: str) -> dict | None:
    """The undo to redo: the game's latest history entry, when it is an undo not yet redone."""
    rows = list(db.query(
        "select e.id, e.number from edits e where e.game_id = ? and e.undo_of is not null "
        "and e.id = (select max(id) from edits where game_id = ?) "
        "and not exists (select 1 from edits r where r.redo_of = e.id)", [game_id, game_id]))
    return dict(rows[0]) if rows else None


def redo_last(db, game: Game) -> dict | None:
    """Redo the undo that was the last change: the values it took away come back, as a new
    history entry (which can be undone like any change)."""
    return _take_back(db, game, last_redoable, "redo_of")


def _take_back(db, game: Game, find, link: str) -> dict | None:
    """One write: the entry *find* names is taken back (its old values restored) by a new
    entry linked to it as *link* (undo_of or redo_of); None when there is none."""
    with write(db):
        _require_live(db, game.id)
        target = find(db, game.id)
        if target is None:
            return None
        changes = edit_changes(db, target["id"])
        _put_back(db, game, target["number"], {c["player"]: c["old"] for c in changes},
                  **{link: target["id"]})
        return {"round": target["number"], "changes": changes}


def _put_back(db, game: Game, number: int, values: dict[str, int | None], *,
              undo_of: int | None = None, redo_of: int | None = None) -> None:
    """Inside a write: set these players' scores of a round (None: the round unplayed again),
    as one history entry linked to the entry it undoes or redoes."""
    at = now()
    edit_id = db["edits"].insert({"game_id": game.id, "number": number, "at": at,
                                  "undo_of": undo_of, "redo_of": redo_of}).last_pk
    current = {s["player"]: s["score"] for s in db.query(
        "select player, score from scores where game_id = ? and number = ?", [game.id, number])}
    db["changes"].insert_all({"edit_id": edit_id, "game_id": game.id, "number": number,
                              "player": p, "old": current.get(p), "new": v, "at": at}
                             for p, v in values.items())
    if all(v is None for v in values.values()):
        # Back to before the round's first recording: the round is unplayed again.
        db.execute("delete from scores where game_id = ? and number = ?", [game.id, number])
    else:
        db["scores"].upsert_all(({"game_id": game.id, "number": number, "player": p,
                                  "score": v, "hand": None} for p, v in values.items()),
                                pk=("game_id", "number", "player"))
    _bump(db, game.id, number, at)
    refresh_seats(db, game.id)


# --- export and import -----------------------------------------------------

def export_game(db, game_id: str) -> dict:
    """The whole game as an export document (archive.py), read in one snapshot."""
    with snapshot(db):
        game = load_game(db, game_id)
        edits = [dict(r) for r in db.query(
            "select id, number, at, undo_of from edits where game_id = ? order by id", [game_id])]
        changes: dict[int, list[dict]] = {}
        for c in db.query("select edit_id, player, old, new from changes where game_id = ? "
                          "order by id", [game_id]):
            changes.setdefault(c["edit_id"], []).append(dict(c))
        moves = [{**dict(r), "data": json.loads(r["data"])} for r in db.query(
            "select number, seq, data, at, undone_at from moves where game_id = ? "
            "order by number, seq", [game_id])]
    for edit in edits:
        edit["changes"] = changes.get(edit["id"], [])
    return to_document(game, edits, moves, now())


def import_game(db, archive: Archive) -> Game:
    """Store a checked export as a new game (a new id), history and live-table logs included."""
    game_id = secrets.token_hex(6)
    at = now()
    with write(db):
        one_person_each(db, list(archive.players))
        db["games"].insert({"id": game_id, "name": archive.name, "set_n": archive.set,
                            "players": json.dumps(archive.players, ensure_ascii=False),
                            "rules": json.dumps(archive.options.to_dict()),
                            "created_at": archive.created_at, "updated_at": at,
                            "deleted_at": None})
        db["rounds"].insert_all({"game_id": game_id, "number": r.number, "engine": r.engine,
                                 "revision": r.revision, "updated_at": at}
                                for r in archive.rounds)
        db["scores"].insert_all(
            {"game_id": game_id, "number": r.number, "player": p, "score": r.scores[p],
             "hand": json.dumps(r.hands[p]) if r.hands and p in r.hands else None}
            for r in archive.rounds if r.scores is not None for p in archive.players)
        ids: dict[int, int] = {}
        for edit in archive.history:
            ids[edit.number] = db["edits"].insert(
                {"game_id": game_id, "number": edit.round, "at": edit.at,
                 "undo_of": ids[edit.undo_of] if edit.undo_of is not None else None}).last_pk
            db["changes"].insert_all({"edit_id": ids[edit.number], "game_id": game_id,
                                      "number": edit.round, "player": c["player"],
                                      "old": c["old"], "new": c["new"], "at": edit.at}
                                     for c in edit.changes)
        db["moves"].insert_all({"game_id": game_id, "number": m.round, "seq": m.seq,
                                "data": json.dumps(m.data, ensure_ascii=False), "at": m.at,
                                "undone_at": m.undone_at} for m in archive.moves)
        refresh_seats(db, game_id)
    return load_game(db, game_id)


# --- live table moves ------------------------------------------------------

def live_moves(db, game_id: str, number: int) -> list[dict]:
    """The round's live-table log, oldest first: seq, data (JSON), at, undone_at."""
    return [{**dict(r), "data": json.loads(r["data"])} for r in db.query(
        "select seq, data, at, undone_at from moves where game_id = ? and number = ? "
        "order by seq", [game_id, number])]


def add_move(db, game_id: str, number: int, data: dict, expected: int | None = None) -> int:
    """Append one action (already checked by the caller) to the round's log.

    *expected* is how many active moves the tablet saw; another tablet's move
    in between refuses the write (StaleLive) so nobody plays on a stale table.
    """
    with write(db):
        _require_live(db, game_id)
        active = _active_count(db, game_id, number)
        if expected is not None and active != expected:
            raise StaleLive(active)
        last = db.execute("select coalesce(max(seq), -1) from moves where game_id = ? and "
                          "number = ?", [game_id, number]).fetchone()[0]
        db["moves"].insert({"game_id": game_id, "number": number, "seq": last + 1,
                            "data": json.dumps(data, ensure_ascii=False), "at": now(),
                            "undone_at": None})
        return last + 1


def undo_move(db, game_id: str, number: int, expected: int | None = None) -> dict | None:
    """Mark the latest active move undone (it stays in the log); None if there is none."""
    with write(db):
        _require_live(db, game_id)
        active = _active_count(db, game_id, number)
        if expected is not None and active != expected:
            raise StaleLive(active)
        rows = list(db.query("select seq, data from moves where game_id = ? and number = ? and "
                             "undone_at is null order by seq desc limit 1", [game_id, number]))
        if not rows:
            return None
        db.execute("update moves set undone_at = ? where game_id = ? and number = ? and seq = ?",
                   [now(), game_id, number, rows[0]["seq"]])
        return {"seq": rows[0]["seq"], "data": json.loads(rows[0]["data"])}


def _active_count(db, game_id: str, number: int) -> int:
    return db.execute("select count(*) from moves where game_id = ? and number = ? and "
                      "undone_at is null", [game_id, number]).fetchone()[0]


class StaleLive(Exception):
    """Another tablet changed the live table since this one read it."""

    def __init__(self, active: int):
        super().__init__("stale live table")
        self.active = active
