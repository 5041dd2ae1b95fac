"""Players across games and seasons: who is who, each person's record, a season's order.

Pure values and rules, no database: storage keeps one row per seat of every game
(``seats``) and sums them in SQL; this module says what a person is, what a record
holds and how a season is ranked, with the sentence that explains a tiebreak.

* A **person** is known by a key (:func:`scorekeeper.game.person_key`): the name
  NFC-normalised and case-folded, so "ann" in one game is "Ann" in another.  An alias
  maps one key to another person's key.
* Only **complete** games count (every round scored).
* A season ranks by **wins** (more wins, then lower average per round, then more zero
  rounds) or by **average** (lower average per round, then more wins, then more zero
  rounds); still equal: a shared place, the next skipped (1, 2, 2, 4).  Averages are
  compared as shown, rounded to 2 places (half up), so the figures on the table always
  explain the order.
* A season table downloads as CSV (:func:`season_csv`), a name that a spreadsheet would
  take for a formula written as text.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable, Mapping

from .errors import BadInput
from .game import clean_name, has_hidden_characters
from .parsing import whole_number
from .text import _, format_decimal

RANK_BY = ("wins", "average")
MAX_SEASON_NAME = 60


def average(points: int, rounds: int) -> Decimal | None:
    """Points per round rounded to 2 places, half up (None before any round)."""
    if not rounds:
        return None
    return (Decimal(points) / Decimal(rounds)).quantize(Decimal("0.01"), ROUND_HALF_UP)


@dataclass(frozen=True, slots=True)
class Record:
    """A person's figures over some complete games (all of them, or a season's)."""

    name: str            # the spelling of their most recent game
    key: str             # the person's key (an alias resolves to it)
    games: int
    wins: int
    rounds: int
    points: int
    zero_rounds: int
    lowest_game: int | None
    place: int = 0       # in a season's standings; 0 elsewhere

    @property
    def average_per_round(self) -> Decimal | None:
        return average(self.points, self.rounds)

    @property
    def zero_rate(self) -> Decimal | None:
        """The share of rounds that scored 0, as a percentage with one decimal."""
        if not self.rounds:
            return None
        return (Decimal(100 * self.zero_rounds) / Decimal(self.rounds)).quantize(
            Decimal("0.1"), ROUND_HALF_UP)

    def to_json(self) -> dict:
        avg = self.average_per_round
        data = {"name": self.name, "games": self.games, "wins": self.wins,
                "rounds": self.rounds, "points": self.points,
                "average_per_round": float(avg) if avg is not None else None,
                "zero_rounds": self.zero_rounds, "lowest_game": self.lowest_game}
        if self.place:
            data["place"] = self.place
        return data


@dataclass(frozen=True, slots=True)
class Season:
    """A named date range; its games are the complete ones created within it (inclusive)."""

    id: str
    name: str
    start: date
    end: date

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "from": self.start.isoformat(),
                "to": self.end.isoformat()}


@dataclass(frozen=True, slots=True)
class SeasonTable:
    """A season ranked: the ranked records, the sentences for tiebreaks that decided an
    order, and those with fewer games than the minimum (not ranked, by name)."""

    season: Season
    rank_by: str
    min_games: int
    rows: tuple[Record, ...]
    notes: tuple[str, ...]
    unranked: tuple[Record, ...]

    def to_json(self) -> dict:
        return {"season": self.season.to_json(), "rank_by": self.rank_by,
                "min_games": self.min_games,
                "standings": [r.to_json() for r in self.rows],
                "unranked": [r.to_json() for r in self.unranked]}


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(value, field: str) -> date:
    """An ISO date (YYYY-MM-DD) from a form or JSON, or BadInput naming the field."""
    if not isinstance(value, str) or not value.strip():
        raise BadInput(_("Give the date as year-month-day, for example 2026-09-01."), field)
    value = value.strip()
    try:
        if not _DATE.fullmatch(value):
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError:
        raise BadInput(_("“%(value)s” is not a date: give it as year-month-day, for example "
                         "2026-09-01.", value=value[:40]), field) from None


def check_season(name, start, end) -> tuple[str, date, date]:
    """A season's name and dates as given by a form or JSON, checked (BadInput otherwise)."""
    if not isinstance(name, str) or not clean_name(name):
        raise BadInput(_("Give the season a name, for example “Autumn 2026”."), "name")
    name = clean_name(name)
    if len(name) > MAX_SEASON_NAME:
        raise BadInput(_("A season's name can be at most %(max)s characters.",
                         max=MAX_SEASON_NAME), "name")
    if has_hidden_characters(name) or any(unicodedata.category(c) in ("Cc", "Cs")
                                          for c in name):
        raise BadInput(_("The season's name contains an invisible, direction-changing or "
                         "control character; type it again without it."), "name")
    first = parse_day(start, "from")
    last = parse_day(end, "to")
    if first > last:
        raise BadInput(_("The season ends before it starts: “to” (%(to)s) must be on or after "
                         "“from” (%(start)s).", to=last.isoformat(), start=first.isoformat()),
                       "to")
    return name, first, last


def parse_min_games(raw: str | None) -> int:
    """A ?min_games= value: a whole number from 0 to 1000 (absent: 0; BadInput otherwise)."""
    if raw is None or raw.strip() == "":
        return 0
    value = whole_number(raw)
    if value is None or value > 1000:
        raise BadInput(_("The minimum number of games must be a whole number from 0 to "
                         "1000."), "min_games")
    return value


def rank_key(rank_by: str):
    """The sort key of a season's order (smaller first) for *rank_by*."""
    def key(r: Record):
        avg = r.average_per_round if r.average_per_round is not None else Decimal("Infinity")
        if rank_by == "average":
            return (avg, -r.wins, -r.zero_rounds)
        return (-r.wins, avg, -r.zero_rounds)
    return key


def rank(season: Season, records: Iterable[Record], rank_by: str = "wins",
         min_games: int = 0) -> SeasonTable:
    """Rank a season's records; *min_games*: fewer complete games and a person is listed
    unranked.  Places are shared when every figure of the order is equal."""
    if rank_by not in RANK_BY:
        raise BadInput(_("Rank a season by “wins” or by “average”."), "rank_by")
    records = list(records)
    ranked_in = [r for r in records if r.games >= min_games]
    unranked = sorted((r for r in records if r.games < min_games),
                      key=lambda r: (r.name.casefold(), r.key))
    key = rank_key(rank_by)
    ordered = sorted(ranked_in, key=lambda r: (key(r), r.name.casefold(), r.key))
    rows: list[Record] = []
    for pos, r in enumerate(ordered):
        place = rows[-1].place if rows and key(rows[-1]) == key(r) else pos + 1
        rows.append(replace(r, place=place))
    notes = tuple(n for a, b in zip(rows, rows[1:]) if (n := explain(rank_by, a, b)))
    return SeasonTable(season, rank_by, min_games, tuple(rows), notes, tuple(unranked))


def explain(rank_by: str, above: Record, below: Record) -> str | None:
    """The sentence saying which tie rule put *above* ahead of *below* (or made them
    share a place); None when the first figure of the order already decided."""
    a, b = above.name, below.name
    avg_a, avg_b = _shown(above.average_per_round), _shown(below.average_per_round)
    if rank_by == "average":
        if above.average_per_round != below.average_per_round:
            return None
        if above.wins != below.wins:
            return _("%(a)s ahead of %(b)s: the same average per round (%(avg)s), more wins, "
                     "%(x)s to %(y)s.", a=a, b=b, avg=avg_a, x=above.wins, y=below.wins)
        if above.zero_rounds != below.zero_rounds:
            return _("%(a)s ahead of %(b)s: the same average per round and wins, more zero "
                     "rounds, %(x)s to %(y)s.", a=a, b=b, x=above.zero_rounds,
                     y=below.zero_rounds)
        return _("%(a)s and %(b)s share place %(place)s: the same average per round, wins "
                 "and zero rounds.", a=a, b=b, place=above.place)
    if above.wins != below.wins:
        return None
    if above.average_per_round != below.average_per_round:
        return _("%(a)s ahead of %(b)s: the same number of wins (%(wins)s), a lower average "
                 "per round, %(x)s to %(y)s.", a=a, b=b, wins=above.wins, x=avg_a, y=avg_b)
    if above.zero_rounds != below.zero_rounds:
        return _("%(a)s ahead of %(b)s: the same wins and average per round, more zero "
                 "rounds, %(x)s to %(y)s.", a=a, b=b, x=above.zero_rounds, y=below.zero_rounds)
    return _("%(a)s and %(b)s share place %(place)s: the same wins, average per round and "
             "zero rounds.", a=a, b=b, place=above.place)


def _shown(value: Decimal | None) -> str:
    return format_decimal(value) if value is not None else "–"


#: The CSV's columns: the API's field names, so a spreadsheet and a program read the same.
CSV_COLUMNS = ("place", "name", "games", "wins", "rounds", "points", "average_per_round",
               "zero_rounds", "lowest_game")


def season_csv(table: SeasonTable, house: Mapping[str, tuple[int, int]] | None = None) -> str:
    """The season table as CSV (UTF-8 with a byte-order mark, so spreadsheets read any
    script), ranked players first, then those with too few games (no place).

    *house*: each person's bonuses and penalties in the season's house-scored games
    (R11.5); a season with one gets the columns ``bonuses`` and ``penalties``, every
    other season's CSV is as it was."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    columns = CSV_COLUMNS + (("bonuses", "penalties") if house else ())
    writer.writerow(columns)
    for record in (*table.rows, *table.unranked):
        # The average as shown (two places, "3.00"), not as a float ("3.0").
        bonus, penalty = (house or {}).get(record.key, (0, 0))
        data = {**record.to_json(), "average_per_round": record.average_per_round,
                "name": spreadsheet_safe(record.name), "bonuses": bonus, "penalties": penalty}
        writer.writerow(["" if data.get(c) is None else data.get(c, "") for c in columns])
    return out.getvalue()


#: What makes a spreadsheet read a cell as a formula, at its start.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A name a spreadsheet shows as text: one starting with =, +, -, @ (or a tab or
    return) would be read as a formula, so it gets a leading apostrophe — and so does
    one starting with a character a spreadsheet may fold into one of them (NFKC: the
    fullwidth "＝＋－＠", the small "﹦﹢﹣", the superscript "⁼⁺" …)."""
    first = unicodedata.normalize("NFKC", text[:1])[:1]
    return "'" + text if first in FORMULA_STARTS else text
