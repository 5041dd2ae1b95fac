"""The rows of a backup being restored, each one the app can read (issue 26, item 8).

SQLite keeps whatever a column is given (``update scores set score = 'abc'`` is stored),
so a backup whose tables are this app's own can still hold rows no page can show.
:func:`check_rows` refuses such a backup with a sentence naming the table, the column
and the value, before anything is swapped in:

- every column holds its declared kind (a whole number, text, a number) or nothing;
- every game passes the checks of an import (``archive.parse_document`` on the game as
  it would be exported: names and their uniqueness, set, rule options, engines, scores
  and their ranges, colours, times, history, live-table moves);
- the times and days the pages read are dates (a game's deletion, a seat's day, a
  season's first and last days, a season ending no earlier than it starts);
- the names of players the club knows point at a player it holds (the seats of games
  outside "Recently deleted", aliases).
"""

from __future__ import annotations

import json
from datetime import date, datetime

from ..archive import parse_document
from ..errors import BadInput
from ..text import _
from .archive import export_game

#: The columns holding a date or a time the pages read with ``fromisoformat``.
DATED = (("games", "created_at", datetime), ("games", "deleted_at", datetime),
         ("seats", "day", date), ("seasons", "start", date), ("seasons", "end", date))
#: The columns naming a player of the club (``persons.person``), in the rows that must
#: (a seat of a game in "Recently deleted" keeps the name its player had).
PERSONS = (("seats", "person", "live = 1"), ("aliases", "person", "1"))
#: What each declared type of column may hold (SQLite's typeof()), nothing aside.
KINDS = {"INTEGER": ("integer",), "TEXT": ("text",), "REAL": ("real", "integer")}


def _refused(message: str) -> BadInput:
    return BadInput(message, "file")


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def check_rows(db) -> None:
    """BadInput (field "file") naming the first row of *db* the app could not read."""
    _check_kinds(db)
    _check_dates(db)
    _check_persons(db)
    _check_seasons(db)
    _check_games(db)


def _check_kinds(db) -> None:
    tables = [r[0] for r in db.execute(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")]
    for table in tables:
        for _cid, column, declared, *_rest in db.execute(f"PRAGMA table_info([{table}])"):
            kinds = KINDS.get(declared.upper())
            if not kinds:
                continue
            marks = ", ".join("?" * len(kinds))
            row = db.execute(f"select [{column}] from [{table}] where [{column}] is not null "
                             f"and typeof([{column}]) not in ({marks}) limit 1",
                             kinds).fetchone()
            if row is not None:
                raise _refused(_("This backup cannot be restored: in its table %(table)s, "
                                 "the column %(column)s holds %(value)s, which is not what "
                                 "that column keeps (%(kind)s). Nothing was changed.",
                                 table=table, column=column, value=_shown(row[0]),
                                 kind=declared.upper()))


def _check_dates(db) -> None:
    for table, column, kind in DATED:
        for (value,) in db.execute(f"select [{column}] from [{table}] "
                                   f"where [{column}] is not null"):
            try:
                kind.fromisoformat(value)
            except (TypeError, ValueError):
                raise _refused(_("This backup cannot be restored: in its table %(table)s, "
                                 "the column %(column)s holds %(value)s, which is not a date "
                                 "as the app writes them (like 2026-05-31). Nothing "
                                 "was changed.", table=table, column=column,
                                 value=_shown(value))) from None


def _check_persons(db) -> None:
    for table, column, where in PERSONS:
        row = db.execute(f"select [{column}] from [{table}] t where {where} and not exists "
                         f"(select 1 from persons p where p.person = t.[{column}]) "
                         f"limit 1").fetchone()
        if row is not None:
            raise _refused(_("This backup cannot be restored: in its table %(table)s, "
                             "%(value)s names a player the backup does not hold. Nothing "
                             "was changed.", table=table, value=_shown(row[0])))


def _check_seasons(db) -> None:
    for name, start, end in db.execute("select name, start, [end] from seasons"):
        if not name or not str(name).strip():
            raise _refused(_("This backup cannot be restored: one of its seasons has no "
                             "name. Nothing was changed."))
        if date.fromisoformat(end) < date.fromisoformat(start):
            raise _refused(_("This backup cannot be restored: its season %(name)s ends "
                             "before it starts. Nothing was changed.", name=_shown(name)))


def _check_games(db) -> None:
    """Each game as an import would check it (its export, read back).

    Decision: its live-table log is left out of the check: a log written by an earlier
    version (a move's train written otherwise) is still replayed by the live page, which
    skips a move it cannot apply, while an import of it would be refused."""
    for (game_id,) in db.execute("select id from games").fetchall():
        try:
            document = json.loads(json.dumps(export_game(db, game_id, deleted=True)))
            parse_document({**document, "live": []})
        except BadInput as bad:
            error = f"{bad.field}: {bad.message}" if bad.field else bad.message
        except (ValueError, TypeError, KeyError, AttributeError) as bad:
            error = str(bad) or type(bad).__name__
        else:
            continue
        raise _refused(_("A game in this backup cannot be read (%(game)s: %(error)s); "
                         "nothing was changed.", game=game_id, error=error))
