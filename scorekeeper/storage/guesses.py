"""Wrong PINs, kept in the database so that a restart forgets none (issue 19).

One row per wrong guess: its scope (a game's id, or ``"club"`` for the club PIN), the
client's address and its time in seconds since the epoch (a wall clock, as it must mean
the same after a restart).  ``pins.Guesses`` asks :func:`wrong_times` how many there were
lately and counts one more with :func:`add_wrong`; rows older than any limit looks back
are removed as new ones arrive, so the table stays a few hundred rows at most.
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


def add_wrong(db, scope: str, client: str, at: float, forget_before: float) -> None:
    """Count one wrong guess for *scope* from *client* at *at*, and forget every guess
    (any scope) from before *forget_before*."""
    with write(db):
        db.execute("delete from pin_guesses where at < ?", [forget_before])
        db.execute("insert into pin_guesses (scope, client, at) values (?, ?, ?)",
                   [scope, client, at])
