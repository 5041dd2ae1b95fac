"""Translations: Flask-Babel, plugged into the pure modules' `_`."""

from __future__ import annotations

from babel.lists import format_list
from flask import Flask, request
from flask_babel import Babel, get_locale, get_translations, gettext

from . import text

#: Languages with translations; a later issue adds the players' languages.
LANGUAGES = ["en"]


def select_locale() -> str:
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    text.set_translator(_translate, _translate_plural, _format_list)


def _translate(message: str) -> str:
    try:
        return gettext(message)
    except RuntimeError:  # outside a request: English
        return message


def _translate_plural(singular: str, plural: str, num: int) -> str:
    try:
        return get_translations().ngettext(singular, plural, num)
    except RuntimeError:  # outside a request: English
        return singular if num == 1 else plural


def _format_list(items, style: str) -> str:
    try:
        locale = get_locale()
    except RuntimeError:
        locale = None
    if locale is None:  # outside a request: English
        return text.english_list(items, style)
    return format_list(items, style=style, locale=locale)
