"""The live table's move log: one row per action of a round, oldest first.

The log is the round's state (``livetable.py`` replays it through the referee); an
undone action stays in it, marked.  A tablet that saw another number of actions than
are stored is refused (:class:`StaleLive`), so nobody plays on a stale table.
"""

from __future__ import annotations

import json

from .connection import now, write
from .games import require_live
from .rounds import mark_started


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
        require_live(db, game_id)
        active = _active_count(db, game_id, number)
        if expected is not None and active != expected:
            raise StaleLive(active)
        last = db.execute("select coalesce(max(seq), -1) from moves where game_id = ? and "
                          "number = ?", [game_id, number]).fetchone()[0]
        at = now()
        db["moves"].insert({"game_id": game_id, "number": number, "seq": last + 1,
                            "data": json.dumps(data, ensure_ascii=False), "at": at,
                            "undone_at": None})
        if last == -1:
            # The live table's first action starts the round's time (timing.py).
            mark_started(db, game_id, number, at)
        return last + 1


def undo_move(db, game_id: str, number: int, expected: int | None = None) -> dict | None:
    """Mark the latest active move undone (it stays in the log); None if there is none."""
    with write(db):
        require_live(db, game_id)
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
