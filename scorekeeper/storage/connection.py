"""The database file and its transactions: opening it, one write at a time, consistent reads,
and the copies and file modes that keep it safe.

Every write is one ``BEGIN IMMEDIATE`` transaction (:func:`write`): the threads of this
process queue on a lock first, then SQLite's own lock guards against other processes; a
write still waiting after the busy timeout is :class:`Busy` (a 503, never a 500).
:func:`snapshot` makes several reads see one state.  :func:`backup` copies the whole
database while the server runs, :func:`forget_pins` opens every game of such a copy, and
:func:`protect` keeps the files readable by the server's user only.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone

import sqlite_utils

from ..text import _

#: How long a write waits for another one to finish before giving up (seconds).
BUSY_TIMEOUT = 5.0

#: One lock per database file, shared by the threads of this process (see write()).
_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()

_BUSY_CODES = {5, 6}   # SQLITE_BUSY, SQLITE_LOCKED (and their extended codes, low byte)


def now() -> str:
    """The current UTC time in ISO 8601."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


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
    server): a PIN hash of 4 digits is guessed offline in minutes.  The file is then
    rewritten whole (VACUUM, with SQLite's secure_delete on), so that no page of it still
    holds a hash as free space (issue 26)."""
    db = connect(path)
    try:
        db.execute("PRAGMA secure_delete = ON")
        with write(db):
            db.execute("update games set pin_hash = null where pin_hash is not null")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
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
