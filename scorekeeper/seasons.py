"""Seasons (issue 12): a name and an inclusive date range; their standings.

A season holds the complete games (not in "Recently deleted") created within its dates
(the server's local date, inclusive).  Its table is each person's record over those
games (the sums ``storage.people`` makes), ranked by :mod:`scorekeeper.records`.
"""

from __future__ import annotations

from .people import records_of
from .records import Record, Season, SeasonTable, check_season, rank
from .storage import people, snapshot
from .storage import seasons as stored
# Read as stored: the pages ask this module for them.
from .storage.seasons import seasons  # noqa: F401


class SeasonNotFound(LookupError):
    """No season has that id."""


def create_season(db, name, start, end) -> Season:
    """Store a season (a name and an inclusive date range), checked first."""
    name, first, last = check_season(name, start, end)
    return stored.add_season(db, name, first, last)


def get_season(db, season_id: str) -> Season:
    """The season with that id; SeasonNotFound when there is none."""
    season = stored.find_season(db, season_id)
    if season is None:
        raise SeasonNotFound(season_id)
    return season


def delete_season(db, season_id: str) -> None:
    """Remove a season (the games and records stay as they are)."""
    if not stored.delete_season(db, season_id):
        raise SeasonNotFound(season_id)


def season_records(db, season: Season) -> list[Record]:
    """Each person's record over the season's complete games."""
    return records_of(people.record_sums(db, days=(season.start, season.end)), people.names(db))


def season_table(db, season_id: str, rank_by: str = "wins", min_games: int = 0) -> SeasonTable:
    """A season's standings (SeasonNotFound, or BadInput for an unknown order)."""
    with snapshot(db):
        season = get_season(db, season_id)
        return rank(season, season_records(db, season), rank_by, min_games)
