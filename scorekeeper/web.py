"""What every request goes through, plugged in by ``create_app()`` (:func:`init_app`):
the session cookie (signed, checked once per cookie, kept a year, pages only), CSRF
protection (:data:`csrf`; the JSON API is exempt), compression of pages, scripts and
JSON, the security headers on every response (:data:`SECURITY_HEADERS`), and
/healthz.
"""

from __future__ import annotations

from flask import Flask, request, session
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from werkzeug.routing import IntegerConverter

from .sessions import CheckedCookieSessions

csrf = CSRFProtect()
compress = Compress()


class App(Flask):
    """Flask, asking once per function whether it is a coroutine: Flask asks
    (``ensure_sync``, ``inspect.iscoroutinefunction``) for each hook and view every
    request, eleven times for a ruling; a dictionary remembers the answer."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: dict = {}

    def ensure_sync(self, func):
        try:
            return self._sync[func]
        except KeyError:
            made = self._sync[func] = super().ensure_sync(func)
            return made
        except TypeError:   # an unhashable callable: asked each time, as Flask does
            return super().ensure_sync(func)

#: On every response.  No inline script or style anywhere (pages work without
#: JavaScript; SVG colours are presentation attributes, which CSP allows), no
#: framing (clickjacking), no MIME sniffing, no full URLs in Referer headers.  Images
#: may also be blob: URLs: the photo of a hand is shown from the device's own copy
#: (static/js/photo.js), never sent back by the server.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def init_app(app: Flask) -> None:
    """Plug the session cookie, CSRF, compression, the security headers and /healthz
    into *app*."""
    app.session_interface = CheckedCookieSessions()
    csrf.init_app(app)
    init_compression(app)
    app.before_request(keep_session)
    app.after_request(security_headers)
    app.add_url_rule("/healthz", view_func=healthz, methods=["GET"])


class StoredInt(IntegerConverter):
    """A route's ``<int:…>``: a whole number SQLite can store (at most 2**63 - 1); a
    larger one matches no route (404, as a round a game does not have), never an integer
    overflow in a query (500)."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=2 ** 63 - 1, signed=False):
        super().__init__(url_map, fixed_digits, min, max, signed)


def init_compression(app: Flask) -> None:
    """Pages, scripts, styles, JSON and the domino sprite go out compressed (brotli where
    the browser takes it, else gzip): a round page shrinks about tenfold on the Wi-Fi."""
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/javascript", "application/javascript",
        "application/json", "image/svg+xml"])
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 4)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    compress.init_app(app)


def keep_session() -> None:
    """Keep a page's session (and its CSRF token) for a year: a tablet sits on a page for
    hours.  Pages only: the API and static files never touch the session (no cookie to
    sign)."""
    if request.blueprint not in ("api", None) and not session.permanent:
        session.permanent = True


def security_headers(response):
    """Send :data:`SECURITY_HEADERS` with every response."""
    response.headers.update(SECURITY_HEADERS)
    return response


def healthz():
    """A fixed answer for monitoring (and the benchmarks' trivial baseline)."""
    return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8"}
