"""The JSON API (docs/api.md): one blueprint, its routes in this package.

Bodies are JSON only (415 otherwise), and every ``POST`` says so even with no body to
speak of (:func:`json_posts_only`: a page on another site cannot send that without the
browser asking first); each body is checked whole against the fields its route declares
(:class:`~scorekeeper.parsing.Fields`: an unknown one is 400, named); bad input is 400
with a sentence and the offending field; an unknown game is 404.  Exempt from CSRF: a
browser cannot send a cross-site JSON body without a preflight.  Every error is answered
as JSON by the app's one handler for it (``error_answers.py``), as are those that
happen before a route is found (404, 405, 413, 500, 503).
"""

from __future__ import annotations

from flask import Blueprint, request

from ..errors import BadInput
from ..parsing import Fields, load_json
from ..text import _

bp = Blueprint("api", __name__, url_prefix="/api")


class UnsupportedMedia(Exception):
    """The request body is not JSON."""


#: The one POST under /api that is not JSON: a photo, sent as multipart/form-data (it
#: stores nothing).
MULTIPART_POSTS = frozenset({"/api/hand-photo"})


@bp.before_request
def json_posts_only() -> None:
    """415 for a POST that is not JSON, even with no body: a form or a text/plain request
    from a page on another site is sent without the browser asking first (API.md, Club
    PIN), so no other site can restore, import or create anything here."""
    req = request._get_current_object()   # one look-up of the request, not three
    if req.method == "POST" and req.path not in MULTIPART_POSTS and not req.is_json:
        raise UnsupportedMedia()


def json_body(fields: Fields, *, optional: bool = False) -> dict:
    """The request's JSON object, carrying only *fields*; 415 for another content type,
    400 for broken JSON or a field the route does not know.  *optional*: a route whose
    body may be left empty (it is then ``{}``)."""
    if not request.is_json:
        raise UnsupportedMedia()
    raw = request.get_data(cache=True)
    if optional and not raw.strip():
        return {}
    data = load_json(raw)
    if not isinstance(data, dict):
        raise BadInput(_("The body must be a JSON object."), "")
    fields.check(data)
    return data


from . import club, games, photo, players, referee, seasons  # noqa: E402,F401  (routes register on bp)
