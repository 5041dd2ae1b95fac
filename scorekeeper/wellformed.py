"""Text that is not UTF-8 is refused, not stored (issue 26, item 8).

Werkzeug reads a form's bytes that are not UTF-8 as they were sent, %-escaped again
(``players-0=%FF%FEy`` became the name "%FF%FEy"), and a multipart form's as U+FFFD.  A
request whose address, form or multipart fields are not UTF-8 text is refused (400) with
a sentence, before any view reads it, on every route (:func:`init_app`).  An API body is
JSON, whose reader refuses such bytes already.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from flask import Flask, request
from flask_babel import gettext
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge


class NotUtf8(BadRequest):
    """What was sent holds bytes that are not UTF-8 text (400, with its sentence)."""

    def sentence(self) -> str:
        return gettext("What was sent is not UTF-8 text (some of its bytes are no letter "
                       "in any language), so nothing was saved. Type it again on the page "
                       "and send it.")


def is_utf8(encoded: bytes) -> bool:
    """True when the %-encoded (``application/x-www-form-urlencoded``) *encoded* decodes
    to UTF-8 text."""
    try:
        unquote_to_bytes(encoded.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def init_app(app: Flask) -> None:
    """Check every request's text before its views (``bodylimits`` checks its size first:
    call this before ``bodylimits.init_app``)."""
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_bad_text)


def refuse_bad_text() -> None:
    """NotUtf8 for a request whose query string, urlencoded form or (a page's) multipart
    fields are not UTF-8."""
    req = request._get_current_object()   # one look-up of the request, not five
    if req.query_string and not is_utf8(req.query_string):
        raise NotUtf8()
    mimetype = req.mimetype
    if mimetype == "application/x-www-form-urlencoded":
        if not is_utf8(req.get_data(cache=True)):
            raise NotUtf8()
    elif mimetype == "multipart/form-data" and not req.path.startswith("/api/"):
        # A page's form (its CSRF token is read from it anyway): U+FFFD is where werkzeug
        # put bytes that are no UTF-8.
        try:
            fields = req.form
        except RequestEntityTooLarge:
            return   # the route refuses it with its own sentence (bodylimits.OWN_LIMITS)
        if any("\ufffd" in value for value in fields.values()):
            raise NotUtf8()
