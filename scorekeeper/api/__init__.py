"""The JSON API (docs/api.md): one blueprint, its routes in this package.

Bodies are JSON only (415 otherwise); bad input is 400 with a sentence and the
offending field; an unknown game is 404.  Exempt from CSRF: a browser cannot
send a cross-site JSON body without a preflight.  Errors that happen before a
route is found (404, 405, 413, 500, 503) are answered as JSON by the app
(``error_answers.py``), since a blueprint never sees them.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from ..errors import BadInput
from ..parsing import load_json
from ..pins import PinRefused
from ..storage import GameNotFound
from ..text import _

bp = Blueprint("api", __name__, url_prefix="/api")


class UnsupportedMedia(Exception):
    """The request body is not JSON."""


def json_body() -> dict:
    """The request's JSON object; 415 for another content type, 400 for broken JSON."""
    if not request.is_json:
        raise UnsupportedMedia()
    data = load_json(request.get_data(cache=True))
    if not isinstance(data, dict):
        raise BadInput(_("The body must be a JSON object."), "")
    return data


@bp.errorhandler(BadInput)
def bad_input(error: BadInput):
    """400: the sentence and the field of input that cannot be accepted."""
    return jsonify(error=error.message, field=error.field), 400


@bp.errorhandler(UnsupportedMedia)
def unsupported(_error):
    """415: the body was not sent as JSON."""
    return jsonify(error=_("Send the body as JSON (Content-Type: application/json)."),
                   field=""), 415


@bp.errorhandler(PinRefused)
def pin_refused(error: PinRefused):
    """403 without the right PIN; 429 (Retry-After) while guessing is slowed."""
    return jsonify(error=error.message, field="pin"), error.status, error.headers


@bp.errorhandler(GameNotFound)
def game_not_found(_error):
    """404: no game has that id."""
    return jsonify(error=_("There is no game with that id."), field="id"), 404


from . import games, photo, players, referee  # noqa: E402,F401  (routes register themselves on bp)
