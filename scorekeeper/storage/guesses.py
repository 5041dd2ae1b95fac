"""Wrong PINs, kept in the database so that a restart forgets none (issue 19).

One row per guess of a PIN: its scope (a game's id, or ``"club"`` for the club PIN), the
client's address and its time in seconds since the epoch (a wall clock, as it must mean
the same after a restart).  ``pins.Guesses`` asks :func:`wrong_times` how many there were
lately; a guess about to be checked is counted first (:func:`reserve`, which re-reads the
counts in the same transaction, so guesses checked side by side never get past a limit),
and taken back if the PIN was right (:func:`release`).  Rows older than any limit looks
back are removed as new ones arrive, so the table stays a few hundred rows at most.
"""

from __future__ import annotations

from .connection import write


def wrong_times(db, scope: str, since: float, client: str | None = None) -> list[float]:
    """The times of the wrong guesses for *scope* after *since*, oldest first: from one
    *client* address, or from every client (None)."""
    if client is None:
        rows = db.execute("select at from pin_guesses where scope = ? and at > ? order by at",
                          [scope, since])
    else:
        rows = db.execute("select at from pin_guesses where scope = ? and client = ? "
                          "and at > ? order by at", [scope, client, since])
    return [r[0] for r in rows.fetchall()]


def reserve(db, scope: str, client: str, at: float, *, client_since: float, max_client: int,
            all_since: float, max_all: int | None, forget_before: float
            ) -> tuple[int | None, list[float], list[float]]:
    """Count a guess for *scope* from *client* at *at*, if fewer than *max_client* of this
    client's are after *client_since* and (unless *max_all* is None) fewer than *max_all*
    of everyone's after *all_since*; forget every guess from before *forget_before*.

    One transaction: answers the new row's id (None: a limit is reached, nothing counted)
    and the times it judged by, this client's and everyone's, oldest first."""
    with write(db):
        db.execute("delete from pin_guesses where at < ?", [forget_before])
        mine = wrong_times(db, scope, client_since, client)
        everyone = wrong_times(db, scope, all_since)
        if len(mine) >= max_client or (max_all is not None and len(everyone) >= max_all):
            return None, mine, everyone
        row = db.execute("insert into pin_guesses (scope, client, at) values (?, ?, ?)",
                         [scope, client, at]).lastrowid
    return row, mine, everyone


def release(db, guess: int) -> None:
    """Take back a guess counted by :func:`reserve`: the PIN was right."""
    with write(db):
        db.execute("delete from pin_guesses where rowid = ?", [guess])


def forget_all(db) -> int:
    """Forget every wrong PIN counted (``scorekeeper unlock``: every wait lifted); answers
    how many."""
    with write(db):
        return db.execute("delete from pin_guesses").rowcount
