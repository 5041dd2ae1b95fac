"""Rendered pages of a game, kept until the game changes.

At a club night fifty devices look at the same few pages of one game, and each
save makes every one of them fetch its page again.  A page of a game depends on
the game (its version, one more with every change), the address with its
query, the language, the device's role (scorekeeper or viewer) and the host it
was asked on (the join code shows it) — and on nothing else but the form's
CSRF token, which is put in afresh for every request.  So the page is rendered
once per change and served from memory until the next one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import wraps

from flask import current_app, make_response, request, session
from flask_wtf.csrf import generate_csrf

from .db import get_db
from .i18n import current_language
from .pins import keeps
from .storage import game_stamp

#: Stands in for the CSRF token in a kept page (no real token looks like it).
_TOKEN = "\x00csrf\x00"


class PageCache:
    """A bounded, thread-safe map from a page's key to its HTML (least recent out)."""

    def __init__(self, size: int = 256):
        self.size = size
        self._pages: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> str | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: tuple, page: str) -> None:
        with self._lock:
            self._pages[key] = page
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()


pages = PageCache()


def cached_page(view):
    """Serve a GET page of a game from the cache while the game has not changed."""

    @wraps(view)
    def serve(**kwargs):
        if (request.method != "GET" or not current_app.config.get("PAGE_CACHE", True)
                or session.get("_flashes")):
            return view(**kwargs)   # a flashed message is shown once: render it
        stamp = game_stamp(get_db(), kwargs["game_id"])
        if stamp is None:
            return view(**kwargs)   # no such game: the view says so
        version, pin_hash = stamp
        keeper = keeps(kwargs["game_id"], pin_hash)
        key = (current_app.config["DATABASE"], request.endpoint, request.full_path, request.host,
               current_language(), keeper, version)
        token = generate_csrf()
        page = pages.get(key)
        if page is not None:
            response = make_response(page.replace(_TOKEN, token))
            response.headers["X-Page-Cache"] = "hit"
            return response
        response = make_response(view(**kwargs))
        if response.status_code == 200 and response.mimetype == "text/html" \
                and not session.get("_flashes"):
            pages.put(key, response.get_data(as_text=True).replace(token, _TOKEN))
        return response

    return serve
