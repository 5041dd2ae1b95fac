"""How large a request's body each route takes (issue 26, item 8), known before the body is
read.

Every route takes at most ``MAX_CONTENT_LENGTH`` (1 MB), except two of
:data:`OWN_LIMITS`: a backup being restored (``BACKUP_MAX_SIZE``) and a photo of a hand
(20 MB).  The one answer, :func:`limit_for`, serves two places:

- the app (:func:`init_app`): a request whose ``Content-Length`` is over its route's
  limit is refused (413, in the device's language) before anything reads the body, and
  every request's ``max_content_length`` is its route's limit (a chunked body is cut there);
- the server (``serve.LimitedParser``): waitress, which reads a whole body before the app
  sees the request, stops reading one that is over its route's limit as soon as the
  headers (or, chunked, the bytes) say so, so a 300 MB POST to ``/healthz`` is never
  spooled to a temporary file; the app then answers its 413.

Decision: the limit is found by the route the path matches (``url_map``), not by a list
of path prefixes, so it follows the routes as they are; a path no route matches takes the
default limit (its 404 needs no body).
"""

from __future__ import annotations

from flask import Flask, current_app, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

#: The routes (endpoints) that refuse a body over their limit themselves, with a sentence
#: of their own (and their form shown again): their limit, from the app.  Two of them take
#: more than MAX_CONTENT_LENGTH.
OWN_LIMITS = {
    "club.restore_upload": lambda app: app.config["BACKUP_MAX_SIZE"],
    "api.hand_photo": lambda app: _photo_bytes(),
    "games.import_page": lambda app: default_limit(app),
}


def _photo_bytes() -> int:
    from .api.photo import MAX_PHOTO_BYTES
    return MAX_PHOTO_BYTES


def default_limit(app: Flask) -> int:
    """The limit of every route not in OWN_LIMITS (1 MB unless configured)."""
    return app.config.get("MAX_CONTENT_LENGTH") or 1024 * 1024


def limit_for(app: Flask, method: str, path: str) -> int:
    """The largest body (bytes) the route at *path* takes with *method*."""
    try:
        endpoint, _args = app.url_map.bind("localhost").match(path, method)
    except HTTPException:   # no such route or method (404, 405), or a redirect
        return default_limit(app)
    except Exception:       # noqa: BLE001 - a path the router cannot read: the default
        return default_limit(app)
    large = OWN_LIMITS.get(endpoint)
    return large(app) if large else default_limit(app)


def init_app(app: Flask) -> None:
    """Check every request's declared size before anything reads its body (a form's
    token): the first of the app's checks, so ``hosts.init_app``, which puts the Host's
    check before it, is called after this."""
    app.config.setdefault("BACKUP_MAX_SIZE", 512 * 1024 * 1024)
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_large_body)


def refuse_large_body() -> None:
    """413 for a request whose Content-Length is over its route's limit, before the body
    is read; otherwise the request reads at most that limit.  A route of OWN_LIMITS
    refuses a body over its own limit itself, with its own sentence (the photo's 20 MB,
    the backup's size, the import's form)."""
    large = OWN_LIMITS.get(request.endpoint or "")
    if large:
        request.max_content_length = large(current_app)
        return
    size = request.content_length
    if size is not None and size > default_limit(current_app):
        raise RequestEntityTooLarge()
