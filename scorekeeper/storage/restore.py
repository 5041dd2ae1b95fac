"""Restoring a backup over the running database (issue 19): check it, then swap it in whole.

A backup file (the home page's download, or ``scorekeeper backup``) is checked before
anything here changes, and staged (:func:`stage`): SQLite's integrity and foreign-key
checks; this app's database, at a schema this version knows (no migration it does not
know: a backup from a newer version is refused); copied beside the database and brought
up to date (the migrations it lacks, the seats of its games); then its tables, indexes
and triggers must be exactly the ones this app makes (so no trigger or view of another
origin comes along) and every row in it must be one the app can read (its kind, range,
uniqueness and references: ``backuprows``).  :class:`BackupSummary` says what it
holds.

:func:`swap` puts the staged copy in place in one SQLite transaction — the online backup
API writing into the live database, under the process's write lock — so every
connection sees the old database or the new one, never a mix, and a failure or a crash
half-way leaves the old one (its journal rolls the half-copy back).  Just before, the
database as it is is kept as a backup of its own (:func:`backup`).  The games' versions
and the club's are moved past any the old database had, so an open page never takes a
restored page for the one it shows (ETags).  Decision: the club PIN and the count of
wrong PINs stay as they are now — restoring an old backup neither opens a protected
club nor forgets a lockout.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from functools import lru_cache

import sqlite_utils

from ..errors import BadInput
from ..text import _
from .connection import Busy, backup, connect
from .backuprows import check_rows
from .schema import migrate, migrations

#: Pages copied per step of the swap (its transaction spans every step).
STEP_PAGES = 1024


@dataclass(frozen=True)
class BackupSummary:
    """What a checked backup holds."""

    games: int           # outside "Recently deleted"
    deleted: int         # in "Recently deleted"
    rounds: int          # rounds with scores
    players: int         # people, after the club's joined spellings
    seasons: int
    first_day: str | None   # the first and the last day a game was started on
    last_day: str | None
    protected: int       # games with a PIN (a download without a club PIN has none)
    updated: int         # migrations applied to bring it up to date


def _refused(message: str) -> BadInput:
    return BadInput(message, "file")


def stage(upload: str, staged: str) -> BackupSummary:
    """Check the backup file *upload* and write it, brought up to date, to *staged*;
    BadInput (field "file") with the reason when it cannot be restored."""
    with open(upload, "rb") as f:
        if f.read(16) != b"SQLite format 3\x00":
            raise _refused(_("This file is not a backup of the scorekeeper: it is not an "
                             "SQLite database."))
    try:
        source = sqlite3.connect(f"file:{upload}?mode=ro", uri=True)
    except sqlite3.Error:
        raise _refused(_("This file is not a backup of the scorekeeper: it is not an "
                         "SQLite database.")) from None
    try:
        _check_source(source)
        copy = sqlite3.connect(staged)
        try:
            source.backup(copy)
        finally:
            copy.close()
    except sqlite3.DatabaseError as error:   # a damaged or encrypted file, say
        raise _refused(_("This backup is damaged or cannot be read (%(error)s); nothing "
                         "was changed.", error=error)) from None
    finally:
        source.close()
    os.chmod(staged, 0o600)
    try:
        db = connect(staged)
        try:
            before = len(migrations.pending(db))
        finally:
            db.close()
        migrate(staged)
        _check_schema(staged)
        return _summary(staged, before)
    except sqlite3.DatabaseError as error:
        raise _refused(_("This backup cannot be brought up to date (%(error)s); nothing "
                         "was changed.", error=error)) from None


def _check_source(con: sqlite3.Connection) -> None:
    """The uploaded file itself: whole (integrity, foreign keys) and this app's, at a
    schema this version knows."""
    problems = [r[0] for r in con.execute("PRAGMA integrity_check").fetchall()]
    if problems != ["ok"]:
        raise _refused(_("This backup is damaged (SQLite's integrity check: %(problem)s); "
                         "nothing was changed.", problem=problems[0]))
    if con.execute("PRAGMA foreign_key_check").fetchone() is not None:
        raise _refused(_("This backup is damaged: some rows belong to games it does not "
                         "hold. Nothing was changed."))
    tables = {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
    if not {"games", "rounds", "scores", migrations.migrations_table} <= tables:
        raise _refused(_("This file is not a backup of the scorekeeper: it has no games "
                         "of this app."))
    applied = {r[0] for r in con.execute(
        f"select name from {migrations.migrations_table} where migration_set = ?",
        [migrations.name])}
    unknown = applied - {m.name for m in migrations._migrations}
    if unknown:
        raise _refused(_("This backup was made by a newer version of the scorekeeper "
                         "(%(change)s); update this one first. Nothing was changed.",
                         change=sorted(unknown)[-1]))


def _schema(db: sqlite_utils.Database) -> dict:
    """The tables (their columns), indexes (their table and columns), triggers (their SQL)
    and views of *db*, SQLite's own left out."""
    out = {}
    rows = db.execute("select type, name, tbl_name, sql from sqlite_master "
                      "where name not like 'sqlite_%' order by type, name").fetchall()
    for kind, name, table, sql in rows:
        if kind == "table":
            out[(kind, name)] = tuple(r[1] for r in db.execute(f"PRAGMA table_info([{name}])"))
        elif kind == "index":
            out[(kind, name)] = (table, tuple(r[2] for r in db.execute(
                f"PRAGMA index_info([{name}])")))
        else:
            out[(kind, name)] = (table, " ".join((sql or "").split()))
    return out


@lru_cache(maxsize=1)
def _expected_schema() -> dict:
    """The schema this version makes: every migration applied to an empty database."""
    db = sqlite_utils.Database(memory=True)
    migrations.apply(db)
    schema = _schema(db)
    db.close()
    return schema


def _check_schema(path: str) -> None:
    db = connect(path)
    try:
        found = _schema(db)
    finally:
        db.close()
    expected = _expected_schema()
    if found != expected:
        strange = sorted(set(found.items()) ^ set(expected.items()))[0][0]
        raise _refused(_("This backup's tables are not the scorekeeper's own (%(part)s "
                         "differs); nothing was changed.", part=" ".join(strange)))


def _summary(path: str, updated: int) -> BackupSummary:
    """What the staged backup holds; every row in it must be one the app can read
    (``backuprows.check_rows``; BadInput otherwise)."""
    db = connect(path)
    try:
        check_rows(db)
        games, deleted, protected, first, last = db.execute(
            "select sum(deleted_at is null), sum(deleted_at is not null), "
            "sum(pin_hash is not null), min(created_at), max(created_at) from games").fetchone()
        rounds = db.execute("select count(*) from (select distinct game_id, number "
                            "from scores)").fetchone()[0]
        players = db.execute("select count(distinct person) from seats").fetchone()[0]
        seasons = db.execute("select count(*) from seasons").fetchone()[0]
        db.execute("PRAGMA journal_mode = DELETE")   # one file, for swap() to read
    finally:
        db.close()
    return BackupSummary(games or 0, deleted or 0, rounds, players, seasons,
                         first and first[:10], last and last[:10], protected or 0, updated)


def swap(database: str, staged: str, keep: str, progress=None) -> None:
    """Put the staged backup in place of *database*, whole, after keeping *database* as it
    is in *keep*.  *progress(status, remaining, total)* is called after each step (a test's
    failure injected there leaves the old database as it was)."""
    db = connect(database)
    try:
        lock = db.write_lock   # every save of this process waits until the swap is over
        if not lock.acquire(timeout=db.busy_timeout):
            raise Busy()
        try:
            backup(database, keep)
            _carry_over(db, staged)
            source = sqlite3.connect(staged)
            try:
                # One transaction on the live database from the first step to the last:
                # its readers see the old database until it is all in.
                source.backup(db.conn, pages=STEP_PAGES, progress=progress)
            finally:
                source.close()
        finally:
            lock.release()
    finally:
        db.close()


def _carry_over(db, staged: str) -> None:
    """Into the staged copy: versions past the live ones, the club PIN and wrong PINs as
    they are now (see the module's docstring)."""
    top_game = db.execute("select coalesce(max(version), 0) from games").fetchone()[0]
    club_now, pin_hash = db.execute("select version, pin_hash from club").fetchone()
    guesses = db.execute("select scope, client, at from pin_guesses").fetchall()
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    copy = sqlite3.connect(staged)
    try:
        if copy.execute("PRAGMA page_size").fetchone()[0] != page_size:
            # A WAL database takes a copy of its own page size only.
            copy.execute(f"PRAGMA page_size = {int(page_size)}")
            copy.execute("VACUUM")
        with copy:
            copy.execute("update games set version = version + ?", [top_game + 1])
            copy.execute("update club set version = version + ?, pin_hash = ?",
                         [club_now + 1, pin_hash])
            copy.execute("delete from pin_guesses")
            copy.executemany("insert into pin_guesses (scope, client, at) values (?, ?, ?)",
                             guesses)
    finally:
        copy.close()
