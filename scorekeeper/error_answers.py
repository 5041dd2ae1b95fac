"""The error answers: one handler per error a request can meet, answered as JSON under
/api (the API's sentence and field) and as a page everywhere else, with the sentence of
what went wrong and what to do.

- an unknown route (404), 405, 413, 415, a refused Host, other HTTP errors;
- input that cannot be used (400: the sentence and the field; a page for a scoresheet
  or a season table asked wrongly), a body that is not JSON (415);
- an unknown game, player or season (404);
- an expired form (CSRF; the PIN page for a protected game's viewer);
- a refused PIN, a game's or the club's (403, or 429 with Retry-After while guessing is
  slowed);
- the PDF fonts missing (500, logged, with the package to install);
- a busy database (503 with Retry-After; a form view marked ``views.keeps_input``
  shows its form again with what was typed, as for an expired form);
- a fault (500: logged, and nothing was changed by it).

Only the photo route answers its own two (a photo too large, the readers busy:
``api/photo.py``).
"""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, SecurityError

from .api import UnsupportedMedia
from .clubpin import ClubPinRefused
from .errors import BadInput
from .forms import refuse_forms
from .hosts import UntrustedHost
from .pdf import FontsMissing
from .people import UnknownPlayer
from .pins import PinRefused
from .seasons import SeasonNotFound
from .storage import Busy, GameNotFound, is_busy
from .text import N_
from .views import club
from .views import pins as pin_pages
from .wellformed import NotUtf8

#: How soon to try again after a busy database (seconds).
RETRY_BUSY = {"Retry-After": "2"}


#: A page's title for input it cannot use, by blueprint.  Every other page view refuses
#: its own input on its form, so a BadInput reaching the app from one is a fault (500).
BAD_INPUT_TITLES = {"printing": N_("This scoresheet cannot be printed"),
                    "seasons": N_("This season table cannot be shown")}


def init_app(app: Flask) -> None:
    """Register every error answer with *app*."""
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(BadInput, bad_input)
    app.register_error_handler(UnsupportedMedia, unsupported)
    app.register_error_handler(CSRFError, expired_form)
    app.register_error_handler(GameNotFound, game_not_found)
    app.register_error_handler(UnknownPlayer, unknown_player)
    app.register_error_handler(SeasonNotFound, season_not_found)
    app.register_error_handler(PinRefused, pin_refused)
    app.register_error_handler(ClubPinRefused, club_pin_refused)
    app.register_error_handler(FontsMissing, fonts_missing)
    app.register_error_handler(Busy, busy)
    app.register_error_handler(sqlite3.OperationalError, database_error)
    app.register_error_handler(NotUtf8, not_utf8)
    app.register_error_handler(InternalServerError, server_error)


def is_api_request() -> bool:
    """True when the request is for the JSON API (whose every answer is JSON)."""
    return request.path == "/api" or request.path.startswith("/api/")


def http_error(error: HTTPException):
    """An HTTP error (404, 405 with Allow, 413, 415, a refused Host …) with its sentence.

    Decided here by the path, not by the API blueprint: a request that matched no
    route (404, 405) never reaches the blueprint's handlers.
    """
    if error.code is None or error.code < 400:
        return error
    title, message = _http_sentences(error)
    headers = {}
    if error.code == 405 and getattr(error, "valid_methods", None):
        headers["Allow"] = ", ".join(error.valid_methods)
    if is_api_request():
        return jsonify(error=message, field=""), error.code, headers
    if isinstance(error, SecurityError):
        # No URLs can be built for an untrusted host, so no page template: the sentence.
        headers["Content-Type"] = "text/plain; charset=utf-8"
        return message + "\n", error.code, headers
    return render_template("error.html", title=title, message=message), error.code, headers


def expired_form(_error: CSRFError):
    """400: a form sent with a token that expired (or none).  A form view marked
    ``keeps_input`` shows its form again with what was typed and its sentence (its
    validate_on_submit fails on the token); a form to a protected game from a device
    that is not its scorekeeper gets the PIN page, carrying what it sent (403: the
    token is the lesser fault); other posts get a page."""
    again = form_again()
    if again is not None:
        return again
    refused = pin_pages.refusal_for_viewer()
    if refused is not None:
        return pin_refused(refused)
    return render_template("error.html", title=gettext("The page expired"),
                           message=gettext("This page was open too long or in another "
                                           "browser. Go back, reload it and try again.")), 400


def bad_input(error: BadInput):
    """400: input that cannot be accepted, its sentence (and, in JSON, its field); a page
    for a scoresheet or a season table that cannot be made as asked."""
    if is_api_request():
        return jsonify(error=error.message, field=error.field), 400
    title = BAD_INPUT_TITLES.get(request.blueprint or "")
    if title is None:
        raise error   # a page view's own input is refused on its form: this is a fault
    return render_template("error.html", title=gettext(title), message=error.message), 400


def unsupported(_error: UnsupportedMedia):
    """415: an API body not sent as JSON."""
    return jsonify(error=gettext("Send the body as JSON (Content-Type: application/json)."),
                   field=""), 415


def not_utf8(error: NotUtf8):
    """The 400: JSON under /api, a page elsewhere."""
    if is_api_request():
        return jsonify(error=error.sentence(), field=""), 400
    return render_template("error.html", title=gettext("Bad request"),
                           message=error.sentence()), 400


def game_not_found(_error: GameNotFound):
    """404: no game has that id (or it was deleted)."""
    if is_api_request():
        return jsonify(error=gettext("There is no game with that id."), field="id"), 404
    return render_template("error.html", title=gettext("No such game"),
                           message=gettext("There is no game with that address. "
                                           "It may have been deleted.")), 404


def unknown_player(error: UnknownPlayer):
    """404: no game has a player of that name."""
    message = gettext("No game has a player called %(name)s.", name=error.args[0])
    if is_api_request():
        return jsonify(error=message, field="name"), 404
    return render_template("error.html", title=gettext("No such player"), message=message), 404


def season_not_found(_error: SeasonNotFound):
    """404: no season has that id."""
    message = gettext("There is no season with that id.")
    if is_api_request():
        return jsonify(error=message, field="id"), 404
    return render_template("error.html", title=gettext("No such season"), message=message), 404


def pin_refused(error: PinRefused):
    """A change to a protected game without its PIN: the PIN page, offering to enter it;
    under /api, 403 (field "pin"), or 429 with Retry-After while guessing is slowed."""
    if is_api_request():
        return pin_json(error)
    return pin_pages.pin_refused_page(error)


def club_pin_refused(error: ClubPinRefused):
    """A club-level change without the club PIN: the prompt, which comes back to what was
    being done; under /api, 403 (field "club_pin") or 429."""
    if is_api_request():
        return pin_json(error)
    return club.pin_refused_page(error)


def pin_json(error: PinRefused | ClubPinRefused):
    """The API's answer to a refused PIN: its sentence, field, status and headers."""
    return jsonify(error=error.message, field=error.field), error.status, error.headers


def fonts_missing(error: FontsMissing):
    """The PDF fonts are not installed: logged, and a page that says so (500)."""
    current_app.logger.error("%s", error)
    return render_template("error.html", title=gettext("The scoresheet cannot be made"),
                           message=str(error)), 500


def busy(error: Busy):
    """503 (Retry-After): another write held the database longer than the busy timeout,
    and nothing was saved.  A form view marked ``keeps_input`` shows its form again with
    what was typed and the sentence; anything else gets the sentence."""
    if not is_api_request():
        refuse_forms(error.message)
        again = form_again(503, RETRY_BUSY)
        if again is not None:
            return again
    return busy_response(error)


def database_error(error: sqlite3.OperationalError):
    """SQLite's own "database is locked" is a busy database (503); any other is a fault."""
    if is_busy(error):
        return busy(Busy())
    raise error   # a real fault: logged, then answered by server_error


def server_error(_error: InternalServerError):
    """500: a fault, logged; the request changed nothing."""
    message = gettext("The server could not answer this request; nothing was changed by it. "
                      "Try again, and restart the server if it keeps happening.")
    if is_api_request():
        return jsonify(error=message, field=""), 500
    return render_template("error.html", title=gettext("Something went wrong"),
                           message=message), 500


def busy_response(error: Busy):
    """503 with Retry-After: the busy sentence, as JSON under /api, else as a page."""
    if is_api_request():
        return jsonify(error=error.message, field=""), 503, RETRY_BUSY
    return render_template("error.html", title=gettext("Busy"), message=error.message), \
        503, RETRY_BUSY


def form_again(status: int | None = None, headers: dict | None = None):
    """The request's form view run again, to show its form with what was typed (its
    forms refuse, so it saves nothing), with *status* and *headers*; None when the view
    is not marked ``keeps_input`` (or already ran again).

    What the view raises the second time (a refused PIN, an unknown game, a busy
    database) gets its own answer, rather than a 500 from inside this one.
    """
    view = current_app.view_functions.get(request.endpoint or "")
    if view is None or not getattr(view, "keeps_input", False) or g.get("form_again"):
        return None
    g.form_again = True
    try:
        response = current_app.make_response(view(**(request.view_args or {})))
    except Exception as error:   # noqa: BLE001 (each answered by its own handler)
        return current_app.make_response(current_app.handle_user_exception(error))
    if status is not None:
        response.status_code = status
    response.headers.update(headers or {})
    return response


def _http_sentences(error: HTTPException) -> tuple[str, str]:
    """A page title and a sentence for an HTTP error (the API answers the sentence)."""
    code = error.code
    if code == 404:
        if is_api_request():
            return "", gettext("There is no such API route. The routes are listed in docs/api.md.")
        return gettext("Page not found"), gettext("There is no page at this address.")
    if code == 405:
        return (gettext("Not allowed"),
                gettext("This address does not accept a %(method)s request.",
                        method=request.method))
    if code == 413:
        return (gettext("Too large"),
                gettext("What was sent is too large: at most 1 MB is accepted."))
    if code == 415:
        return (gettext("Unsupported content"),
                gettext("Send the body as JSON (Content-Type: application/json)."))
    if isinstance(error, UntrustedHost):   # a Host outside the trusted ones (hosts.py)
        return gettext("Unknown address"), error.sentence()
    if code == 400:
        return (gettext("Bad request"),
                gettext("The request could not be understood. Go back, reload and try again."))
    return (gettext("Error %(code)s", code=code),
            gettext("The request could not be answered (error %(code)s).", code=code))
