"""The pages' updates: every open page of a game (and of the players and seasons) asks
for itself again every 2 s with If-None-Match (static/js/updates.js), and gets a 304
while nothing it shows has changed, so fifty phones never hold fifty server threads.
:func:`update_attrs` gives a page the ETag and figures it asks with.

Rendered pages of a game are kept until the game changes.
At a club night fifty devices look at the same few pages of one game, and each
save makes every one of them fetch its page again.  A page of a game depends on
the game (its version, one more with every change), the address with its
query, the language, the device's role (scorekeeper or viewer) and the host it
was asked on (the join code shows it) — and on nothing else but the form's
CSRF token, which is put in afresh for every request.  So the page is rendered
once per change and served from memory until the next one.

The pages are kept per app (``app.extensions["scorekeeper.pages"]``, made by
:func:`init_app`, read through :func:`pages`), in the one cache helper
(:class:`~.lru.LRU`); a page is compressed as Flask-Compress compresses the others,
with its settings (``COMPRESS_BR_LEVEL``, ``COMPRESS_LEVEL`` …).  An open page asking
"anything new?" with its ETag gets its 304 before anything is looked up or rendered.
"""

from __future__ import annotations

import gzip
from functools import wraps

import brotli
from flask import Flask, current_app, make_response, request, session
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from .db import get_db
from .i18n import current_language
from .game import Game
from .lru import LRU
from .pins import is_keeper, keeps
from .storage import club_version, game_stamp, last_saved_round

#: Stands in for the CSRF token in a kept page (no real token looks like it).
_TOKEN = "\x00csrf\x00"
#: How many pages an app keeps (a few games' pages in six languages and two roles).
SIZE = 256
EXTENSION = "scorekeeper.pages"


def init_app(app: Flask) -> None:
    """Give *app* its own kept pages, empty (create_app calls this)."""
    app.extensions[EXTENSION] = LRU(SIZE)


def pages() -> LRU[tuple, "Page"]:
    """The current app's kept pages: key → :class:`Page`."""
    return current_app.extensions[EXTENSION]


class Page:
    """A kept page: its HTML, and (when it holds no form token, as a viewer's pages) its
    compressed bytes, made once per encoding."""

    __slots__ = ("html", "encoded")

    def __init__(self, html: str):
        self.html = html
        self.encoded: dict[str, bytes] = {}

    def body(self, encoding: str) -> bytes:
        """The page's bytes in *encoding* (br, gzip or identity), compressed the first time."""
        data = self.encoded.get(encoding)
        if data is None:
            data = self.encoded[encoding] = compressed(self.html.encode(), encoding)
        return data


def compressed(raw: bytes, encoding: str) -> bytes:
    """*raw* in *encoding*, with the levels Flask-Compress is configured with (one setting
    for every page, whether the cache or Flask-Compress sends it)."""
    config = current_app.config
    if encoding == "br":
        return brotli.compress(raw, mode=config["COMPRESS_BR_MODE"],
                               quality=config["COMPRESS_BR_LEVEL"],
                               lgwin=config["COMPRESS_BR_WINDOW"],
                               lgblock=config["COMPRESS_BR_BLOCK"])
    if encoding == "gzip":
        return gzip.compress(raw, config["COMPRESS_LEVEL"])
    return raw


def cached_page(view):
    """Serve a GET page of a game from the cache while the game has not changed."""

    @wraps(view)
    def serve(**kwargs):
        if not _cacheable():
            return view(**kwargs)
        stamp = game_stamp(get_db(), kwargs["game_id"])
        if stamp is None:
            return view(**kwargs)   # no such game: the view says so
        version, pin_hash = stamp
        keeper = keeps(kwargs["game_id"], pin_hash)
        return _serve(view, kwargs, page_etag(version, keeper), (keeper, version))

    return serve


def cached_club_page(view):
    """Serve a GET page of the players or seasons from the cache while nothing it shows
    has changed (storage.club_version: any game's results, aliases, seasons)."""

    @wraps(view)
    def serve(**kwargs):
        if not _cacheable():
            return view(**kwargs)
        version = club_version(get_db())
        return _serve(view, kwargs, club_etag(version), ("club", version))

    return serve


def club_etag(version: int | None = None) -> str:
    """What a players' or seasons' page is: the club's version and the language."""
    if version is None:
        version = club_version(get_db())
    return f"c{version}-{current_language()}"


def _cacheable() -> bool:
    # A flashed message is shown once: render it.
    return (request.method == "GET" and current_app.config.get("PAGE_CACHE", True)
            and not session.get("_flashes"))


def _serve(view, kwargs: dict, etag: str, stamp: tuple):
    """The page from the cache (or 304 to an open page asking "anything new?"), else
    rendered by *view* and kept; *stamp* is what the page depends on besides the request."""
    if _asked_about(etag):
        # An open page asking "anything new?" (static/js/updates.js): nothing, for almost nothing.
        response = make_response("", 304)
        response.set_etag(etag)
        return response
    key = (request.endpoint, request.full_path, request.host, current_language(), *stamp)
    page = pages().get(key)
    if page is not None:
        if _TOKEN in page.html:
            response = make_response(page.html.replace(_TOKEN, generate_csrf()))
        else:
            # No form in it (a viewer's page): the same bytes for every device,
            # compressed once.
            encoding = _encoding()
            response = make_response(page.body(encoding))
            response.mimetype = "text/html"
            if encoding != "identity":
                response.headers["Content-Encoding"] = encoding
            response.vary.add("Accept-Encoding")
        response.headers["X-Page-Cache"] = "hit"
        return _revalidated(response, etag)
    token = generate_csrf()
    response = make_response(view(**kwargs))
    if response.status_code == 200 and response.mimetype == "text/html" \
            and not session.get("_flashes"):
        pages().put(key, Page(response.get_data(as_text=True).replace(token, _TOKEN)))
        _revalidated(response, etag)
    return response


def _asked_about(etag: str) -> bool:
    """The browser has this page: its If-None-Match names *etag*, bare (static/js/updates.js
    sends the page's own) or as Flask-Compress sent it with a first render, suffixed
    with its encoding ("12-k-en:br")."""
    return any(tag == etag or tag.startswith(etag + ":")
               for tag in request.if_none_match.as_set())


def page_etag(version: int, keeper: bool) -> str:
    """What a page of a game at *version* is, for this device: the game's version, the
    device's role and the language (the same page in another language is another page)."""
    return f"{version}-{'k' if keeper else 'v'}-{current_language()}"


def update_attrs(game: Game) -> Markup:
    """The <body> attributes that make a page of *game* update itself (static/js/updates.js
    asks the page again with If-None-Match: this ETag; 304 while the game has not changed)."""
    latest = last_saved_round(get_db(), game.id)
    return Markup(' data-updates-etag="%s" data-saved-round="%s" data-version="%s"') % (
        page_etag(game.version, is_keeper(game)), "" if latest is None else latest,
        game.version)


def _revalidated(response, etag: str):
    """The page may be kept by the browser, but asked about again every time."""
    response.set_etag(etag)
    response.cache_control.no_cache = True
    return response


def _encoding() -> str:
    """The best encoding the browser takes: brotli, gzip, or none."""
    accepted = request.accept_encodings
    for encoding in ("br", "gzip"):
        if accepted[encoding]:
            return encoding
    return "identity"
