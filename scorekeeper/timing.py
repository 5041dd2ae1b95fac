"""Round times: how long a round took, a game's total, and a duration said in words.

A round's time runs from its start to its first save.  Its start is the first save of
the round before it (the game's creation for round 1), or later the first action on its
live table, or later a "Start round" tap on its round page; the latest of those that
came before its first save (storage keeps the two moments, ``started_at`` and
``saved_at``, by the server's clock in UTC).  Games stored before round times were kept
have no start for round 1, and show no times rather than wrong ones.

Pure: the pages, the API, the export and the PDF read the figures from here.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterable

from .text import ngettext


def parse_time(value: str | None) -> datetime | None:
    """A stored ISO 8601 time (UTC when it names no zone); None for none or unreadable."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def seconds_between(start: str | None, end: str | None) -> int | None:
    """Whole seconds from *start* to *end*; None unless both are known and in that order."""
    first, last = parse_time(start), parse_time(end)
    if first is None or last is None or last < first:
        return None
    return int((last - first).total_seconds())


def utc(value: str) -> str | None:
    """An ISO 8601 time as storage writes them (UTC, whole seconds, "+00:00"), so stored
    times compare as text; None when *value* is not such a time."""
    moment = parse_time(value)
    if moment is None:
        return None
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def total_seconds(durations: Iterable[int | None]) -> int | None:
    """The sum of the recorded rounds' times; None when there is none, or when any of them
    is unknown (a total with a round missing would be wrong)."""
    durations = list(durations)
    if not durations or any(d is None for d in durations):
        return None
    return sum(durations)


def average_seconds(totals: Iterable[int]) -> int | None:
    """The average of whole games' times, to the second; None for no game."""
    totals = list(totals)
    return round(sum(totals) / len(totals)) if totals else None


def format_duration(seconds: int) -> str:
    """A duration for a reader: "45 s", "23 min", "1 h 05 min"."""
    if seconds < 60:
        return ngettext("%(num)s s", "%(num)s s", seconds)
    minutes = seconds // 60
    if minutes < 60:
        return ngettext("%(num)s min", "%(num)s min", minutes)
    hours, minutes = divmod(minutes, 60)
    padded = str(minutes).zfill(2)   # "1 h 05 min"
    return ngettext("%(num)s h %(minutes)s min", "%(num)s h %(minutes)s min", hours,
                    minutes=padded)
