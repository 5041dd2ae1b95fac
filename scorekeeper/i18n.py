"""Languages: which one a request speaks, and Flask-Babel plugged into the pure modules.

Pages follow the device's choice: ``?lang=<code>`` on any page sets it (kept in
a cookie for that device), otherwise the browser's Accept-Language, otherwise
English.  The JSON API follows Accept-Language only (API.md "Languages").
"""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlencode

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from flask import Flask, g, request
from flask_babel import (Babel, format_date, format_datetime, format_time, get_locale,
                         get_translations, gettext)
from markupsafe import Markup

from . import text

#: The app's languages, each named in itself (the picker shows these names).
LANGUAGES = {
    "en": "English",
    "vi": "Tiếng Việt",
    "th": "ไทย",
    "zh": "中文",
    "ms": "Bahasa Melayu",
    "el": "Ελληνικά",
}
DEFAULT = "en"
_CODES = list(LANGUAGES)
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600


def chosen_language() -> str | None:
    """The language this device chose (?lang= now, or earlier through the cookie)."""
    asked = request.args.get("lang", "")
    if asked in LANGUAGES:
        return asked
    kept = request.cookies.get(COOKIE, "")
    return kept if kept in LANGUAGES else None


#: Each language's Locale, parsed once (Flask-Babel would parse the code on every request).
_LOCALES = {code: Locale.parse(code) for code in LANGUAGES}


def select_locale() -> Locale:
    if not request.path.startswith("/api/"):
        chosen = chosen_language()
        if chosen:
            return _LOCALES[chosen]
    header = request.environ.get("HTTP_ACCEPT_LANGUAGE", "")
    found = _BY_HEADER.get(header)
    if found is None:
        found = _LOCALES[request.accept_languages.best_match(_CODES) or DEFAULT]
        if len(_BY_HEADER) < 512:       # the headers browsers send are few; keep them
            _BY_HEADER[header] = found
    return found


#: The Locale each Accept-Language header seen so far picks (a header is parsed once).
_BY_HEADER: dict[str, Locale] = {}


def current_language() -> str:
    """The code of the language this request speaks (en, vi, th, zh, ms, el)."""
    return str(get_locale() or DEFAULT).split("_")[0]


#: Each language's catalogue as Flask-Babel loaded it (every app reads the package's
#: translations folder), found by the request's Locale without asking Flask-Babel again.
_CATALOGUES: dict[Locale, object] = {}


def _translations():
    # Templates call gettext dozens of times a page; look the catalogue up once.
    found = g.get("_translations")
    if found is None:
        locale = get_locale()
        found = _CATALOGUES.get(locale)
        if found is None:
            found = _CATALOGUES[locale] = get_translations()
        g._translations = found
    return found


def _template_gettext(message: str) -> str:
    # Jinja's newstyle gettext fills in (and escapes) the %(name)s values itself.
    return _translations().ugettext(message)


def _template_ngettext(singular: str, plural: str, num: int) -> str:
    return _translations().ungettext(singular, plural, num)


def language_url(code: str) -> str:
    """This page's address in another language (its other query values kept)."""
    args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    return request.path + "?" + urlencode(args, doseq=True)


def when(iso: str, time_only: bool = False) -> Markup:
    """A stored UTC time, written the language's way; the page's script shows it in the
    device's own time zone (without script it stays UTC, and says so)."""
    try:
        moment = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return Markup.escape(iso or "")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    shown = format_time(moment, "medium") if time_only else format_datetime(moment, "short")
    return Markup('<time datetime="%s" data-local="%s">%s</time>') % (
        moment.isoformat(), "time" if time_only else "", gettext("%(time)s UTC", time=shown))


def name_list(names) -> Markup:
    """Names listed the language's way ("Ann, Bob and Chi", "Ann、Bob和Chi"), each one
    isolated (<bdi>) so a right-to-left name cannot reorder the sentence."""
    return Markup(text.format_list([str(Markup("<bdi>{}</bdi>").format(n)) for n in names]))


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.install_gettext_callables(_template_gettext, _template_ngettext, newstyle=True)
    app.jinja_env.globals.update(languages=LANGUAGES, current_language=current_language,
                                 language_url=language_url, when=when)
    app.jinja_env.filters["names"] = name_list
    text.set_translator(_translate, _translate_plural, _format_list)
    text.set_date_format(_format_date)
    text.set_decimal_format(_format_decimal)
    app.jinja_env.filters["decimal"] = _format_decimal
    app.jinja_env.filters["date"] = text.format_date

    @app.after_request
    def remember_language(response):
        """Keep a ?lang= choice for this device."""
        asked = request.args.get("lang", "")
        if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
            response.set_cookie(COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax",
                                httponly=True)
        return response


def _translate(message: str) -> str:
    try:
        return _translations().ugettext(message)   # the catalogue looked up once a request
    except RuntimeError:  # outside a request: English
        return message


def _translate_plural(singular: str, plural: str, num: int) -> str:
    try:
        return _translations().ngettext(singular, plural, num)
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


def _format_date(value, with_time: bool) -> str:
    try:
        if with_time:
            return format_datetime(value, "medium")
        return format_date(value, "medium")
    except RuntimeError:  # outside a request: ISO
        return value.isoformat(sep=" ", timespec="minutes") if with_time else value.isoformat()


def _format_decimal(value) -> str:
    """A Decimal with the places it has ("10.56", "10,56"), in the request's language."""
    if value is None:
        return "—"   # as the tables write any figure that does not exist yet
    places = max(0, -value.as_tuple().exponent)
    pattern = "#,##0." + "0" * places if places else "#,##0"
    try:
        locale = get_locale()
    except RuntimeError:
        locale = None
    return format_decimal(value, format=pattern, locale=locale or "en")
