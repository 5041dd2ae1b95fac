"""The club PIN's hash, kept in the one row of the ``club`` table (issue 19); what it
guards and how it is checked is :mod:`scorekeeper.clubpin`."""

from __future__ import annotations

from .connection import write


def club_pin_hash(db) -> str | None:
    """The club PIN's hash, None while the club has none (issue 19)."""
    return db.execute("select pin_hash from club").fetchone()[0]


def set_club_pin(db, pin_hash: str | None, was: str | None) -> bool:
    """Set, change or (None) remove the club PIN, by its hash, if it is still *was* (the
    hash checked, None: none set); False, and nothing changed, if another device changed
    it meanwhile."""
    with write(db):
        changed = db.execute("update club set pin_hash = ? where pin_hash is ?",
                             [pin_hash, was]).rowcount
    return changed == 1
