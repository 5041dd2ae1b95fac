"""The seasons' table: a season is a name and an inclusive date range (issue 12).  Its
standings are the players' sums over its days (:func:`.people.record_sums`); the records
and the table are built in ``scorekeeper/seasons.py``."""

from __future__ import annotations

import secrets
from datetime import date

from ..records import Season
from .connection import now, write


def _season(row) -> Season:
    return Season(row[0], row[1], date.fromisoformat(row[2]), date.fromisoformat(row[3]))


def add_season(db, name: str, first: date, last: date) -> Season:
    """Store a season (already checked: records.check_season) under a new id."""
    season_id = secrets.token_hex(5)
    with write(db):
        db["seasons"].insert({"id": season_id, "name": name, "start": first.isoformat(),
                              "end": last.isoformat(), "created_at": now()})
    return Season(season_id, name, first, last)


def seasons(db) -> list[Season]:
    """Every season, the latest-ending first."""
    return [_season(r) for r in db.execute(
        "select id, name, start, end from seasons order by end desc, start desc, name")]


def find_season(db, season_id: str) -> Season | None:
    """The season with that id, or None."""
    row = db.execute("select id, name, start, end from seasons where id = ?",
                     [season_id]).fetchone()
    return None if row is None else _season(row)


def delete_season(db, season_id: str) -> bool:
    """Remove a season (the games and records stay as they are); False when there is none."""
    with write(db):
        return db.execute("delete from seasons where id = ?", [season_id]).rowcount > 0
