"""Translations: Flask-Babel, plugged into the pure modules' `_`."""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel, gettext

from . import text

#: Languages with translations; a later issue adds the players' languages.
LANGUAGES = ["en"]


def select_locale() -> str:
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    text.set_translator(_translate)


def _translate(message: str) -> str:
    try:
        return gettext(message)
    except RuntimeError:  # outside a request: English
        return message
