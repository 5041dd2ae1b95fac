"""Translatable sentences for the pure modules.

The rules engine, scoring and standings must not import Flask, yet their
sentences reach players and must be translatable.  They call ``_`` from here;
the web app plugs Flask-Babel's gettext in with :func:`set_translator`, and a
Python shell or a bot gets the English text unchanged.
"""

from __future__ import annotations

from typing import Callable

_translator: Callable[[str], str] | None = None


def set_translator(fn: Callable[[str], str] | None) -> None:
    """Install the function that translates a message id (None: English)."""
    global _translator
    _translator = fn


def _(message: str, **values) -> str:
    """Translate *message* and fill in its ``%(name)s`` values."""
    text = _translator(message) if _translator is not None else message
    return text % values if values else text


def N_(message: str) -> str:
    """Mark *message* for extraction without translating it now."""
    return message
