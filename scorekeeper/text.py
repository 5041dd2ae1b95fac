"""Translatable sentences for the pure modules.

The referee, scoring and standings must not import Flask, yet their
sentences reach players and must be translatable.  They call ``_`` (and
``ngettext`` for counts, ``format_list`` for lists) from here; the web app
plugs Flask-Babel and Babel in with :func:`set_translator`, and a Python shell
or a bot gets English unchanged.

A sentence is built whole, with named values (%(player)s), by the code that knows all
of it: never glue translated fragments into another message.  Ids defined far
from where they are translated are marked with :func:`N_` so that
``pybabel extract -F babel.cfg -k _l -k N_`` finds them.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Callable, Sequence

_translator: Callable[[str], str] | None = None
_plural: Callable[[str, str, int], str] | None = None
_lists: Callable[[Sequence[str], str], str] | None = None
_dates: Callable[[date, bool], str] | None = None
_decimals: Callable[[Decimal], str] | None = None


def set_translator(fn: Callable[[str], str] | None,
                   plural: Callable[[str, str, int], str] | None = None,
                   lists: Callable[[Sequence[str], str], str] | None = None) -> None:
    """Install the functions that translate a message id, pick a plural form and join a
    list in the current language (None: English)."""
    global _translator, _plural, _lists
    _translator, _plural, _lists = fn, plural, lists


def _(message: str, **values) -> str:
    """Translate *message* and fill in its ``%(name)s`` values."""
    text = _translator(message) if _translator is not None else message
    return text % values if values else text


def ngettext(singular: str, plural: str, num: int, **values) -> str:
    """The form of a message for a count: *num* fills ``%(num)s``, as in Flask-Babel."""
    if _plural is not None:
        text = _plural(singular, plural, num)
    else:
        text = singular if num == 1 else plural
    return text % {"num": num, **values}


def format_list(items: Sequence[str], style: str = "standard") -> str:
    """Join *items* the language's way: "A, B and C" (style "or": "A, B or C")."""
    items = [str(i) for i in items]
    if _lists is not None:
        return _lists(items, style)
    return english_list(items, style)


def english_list(items: Sequence[str], style: str = "standard") -> str:
    """English lists without a serial comma: "A", "A and B", "A, B and C"."""
    word = "or" if style.startswith("or") else "and"
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def set_date_format(fn: Callable[[date, bool], str] | None) -> None:
    """Install the function that writes a date (or a date and time) the language's way."""
    global _dates
    _dates = fn


def format_date(value: date | str, with_time: bool = False) -> str:
    """A date (an ISO string or a date/datetime) for a reader: "30 Nov 2026" in English.

    Without the app, ISO ("2026-11-30", "2026-11-30 15:04").
    """
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value) if with_time else date.fromisoformat(value[:10])
        except ValueError:
            return value
    if _dates is not None:
        return _dates(value, with_time)
    return value.strftime("%Y-%m-%d %H:%M") if with_time else value.strftime("%Y-%m-%d")


def set_decimal_format(fn: Callable[[Decimal], str] | None) -> None:
    """Install the function that writes a decimal number the language's way."""
    global _decimals
    _decimals = fn


def format_decimal(value: Decimal) -> str:
    """A number with its decimals as given ("10.56"; "10,56" in Greek through the app)."""
    if _decimals is not None:
        return _decimals(value)
    return str(value)


def N_(message: str) -> str:
    """Mark *message* for extraction without translating it now."""
    return message
