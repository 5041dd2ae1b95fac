"""The app's wiring: everything create_app() plugs into Flask besides the database and
the languages (``init_app``).

- the blueprints: the JSON API (exempt from CSRF: :mod:`scorekeeper.api`) and the
  pages, one per area (:mod:`scorekeeper.views`);
- CSRF protection, the session cookie (signed, kept a year, pages only) and
  compression of pages, scripts and JSON;
- the security headers on every response (:data:`SECURITY_HEADERS`);
- the error answers, as a page for a browser or as JSON under /api: an unknown
  route or game (404), 405, 413, 415, an expired form (CSRF), a refused PIN
  (403/429), a busy database (503) and a fault (500);
- the templates' helpers (dominoes, rule links, option labels, ``<bdi>`` names)
  and /healthz.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, jsonify, render_template, request, session
from flask_babel import gettext
from flask_compress import Compress
from flask_wtf.csrf import CSRFError, CSRFProtect
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, InternalServerError, SecurityError

from .sessions import CheckedCookieSessions
from .options import OPTION_LABELS, OPTION_RULES, VALUE_LABELS
from .storage import Busy, GameNotFound, is_busy

csrf = CSRFProtect()
compress = Compress()

#: On every response.  No inline script or style anywhere (pages work without
#: JavaScript; SVG colours are presentation attributes, which CSP allows), no
#: framing (clickjacking), no MIME sniffing, no full URLs in Referer headers.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def init_app(app: Flask) -> None:
    from .api import bp as api_bp
    from .views import assets, games, history, printing, rounds, standings

    app.session_interface = CheckedCookieSessions()
    csrf.init_app(app)
    # Pages, scripts, styles, JSON and the domino sprite go out compressed (brotli where
    # the browser takes it, else gzip): a round page shrinks about tenfold on the Wi-Fi.
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/javascript", "application/javascript",
        "application/json", "image/svg+xml"])
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 4)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    compress.init_app(app)
    csrf.exempt(api_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(standings.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(assets.bp)
    from .views import devices, live, people, referee, rules
    from .pins import PinRefused, is_keeper
    app.register_blueprint(referee.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(devices.bp)
    app.register_blueprint(people.bp)
    app.jinja_env.globals.update(keeper=is_keeper, live_attrs=devices.live_attrs)

    @app.errorhandler(PinRefused)
    def pin_refused(error):
        if is_api_request():   # the API blueprint answers its own; a stray one here too
            from .api import pin_refused as api_pin_refused
            return api_pin_refused(error)
        return devices.pin_refused_page(error)
    app.jinja_env.filters["rules"] = rules.link_rules
    app.jinja_env.globals["rule_url"] = rules.rule_url

    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.globals.update(
        domino_svg=assets.domino_svg,
        sprite_url=assets.sprite_url,
        option_label=lambda name: gettext(OPTION_LABELS[name]),
        value_label=lambda name, value: gettext(VALUE_LABELS[(name, value)]),
        option_rule=OPTION_RULES.get,
    )


    @app.after_request
    def security_headers(response):
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.before_request
    def keep_session():
        # Pages only: the API and static files never touch the session (no cookie to sign).
        if request.blueprint not in ("api", None) and not session.permanent:
            session.permanent = True

    @app.errorhandler(CSRFError)
    def csrf_failed(error):
        # The form views re-show what was typed with a sentence (their
        # validate_on_submit fails on the token); other posts get a page.
        view = app.view_functions.get(request.endpoint or "")
        if view is not None and getattr(view, "keeps_input_on_csrf_error", False):
            return view(**(request.view_args or {}))
        return render_template("error.html", title=gettext("The page expired"),
                               message=gettext("This page was open too long or in another "
                                               "browser. Go back, reload it and try again.")), 400

    @app.get("/healthz")
    def healthz():
        """A fixed answer for monitoring (and the benchmarks' trivial baseline)."""
        return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8"}

    @app.errorhandler(GameNotFound)
    def game_not_found(_error):
        return render_template("error.html", title=gettext("No such game"),
                               message=gettext("There is no game with that address. "
                                               "It may have been deleted.")), 404

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        # Decided here by the path, not by the API blueprint: a request that
        # matched no route (404, 405) never reaches the blueprint's handlers.
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

    @app.errorhandler(Busy)
    def busy(error: Busy):
        return busy_response(error)

    @app.errorhandler(sqlite3.OperationalError)
    def database_error(error):
        if is_busy(error):
            return busy_response(Busy())
        raise error   # a real fault: logged, then answered by server_error

    @app.errorhandler(InternalServerError)
    def server_error(error):
        message = gettext("The server could not answer this request; nothing was changed by it. "
                          "Try again, and restart the server if it keeps happening.")
        if is_api_request():
            return jsonify(error=message, field=""), 500
        return render_template("error.html", title=gettext("Something went wrong"),
                               message=message), 500


def bdi(name) -> Markup:
    """A name isolated from the text around it (Unicode bidi), so a right-to-left name
    cannot reorder the row it stands in."""
    return Markup("<bdi>{}</bdi>").format(name)


def is_api_request() -> bool:
    """True when the request is for the JSON API (whose every answer is JSON)."""
    return request.path == "/api" or request.path.startswith("/api/")


def busy_response(error: Busy):
    """503: another write held the database longer than the busy timeout."""
    headers = {"Retry-After": "2"}
    if is_api_request():
        return jsonify(error=error.message, field=""), 503, headers
    return render_template("error.html", title=gettext("Busy"), message=error.message), \
        503, headers


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
    if isinstance(error, SecurityError):   # a Host outside TRUSTED_HOSTS
        return (gettext("Unknown address"),
                gettext("This scorekeeper does not answer at this address. Open it at one of "
                        "the addresses in its TRUSTED_HOSTS setting."))
    if code == 400:
        return (gettext("Bad request"),
                gettext("The request could not be understood. Go back, reload and try again."))
    return (gettext("Error %(code)s", code=code),
            gettext("The request could not be answered (error %(code)s).", code=code))
