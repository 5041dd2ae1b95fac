"""Wiring of the web side: blueprints, CSRF, error pages, template helpers."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, render_template, request, session
from flask_babel import gettext
from flask_compress import Compress
from flask_wtf.csrf import CSRFError, CSRFProtect

from .options import OPTION_LABELS, OPTION_RULES, VALUE_LABELS
from .storage import GameNotFound

csrf = CSRFProtect()
compress = Compress()


def init_app(app: Flask) -> None:
    from .api import bp as api_bp
    from .views import assets, games, printing, rounds

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
    app.register_blueprint(printing.bp)
    app.register_blueprint(assets.bp)
    from .views import live, referee, rules
    app.register_blueprint(referee.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(rules.bp)
    app.jinja_env.filters["rules"] = rules.link_rules
    app.jinja_env.globals["rule_url"] = rules.rule_url

    app.jinja_env.globals.update(
        domino_svg=assets.domino_svg,
        sprite_url=assets.sprite_url,
        option_label=lambda name: gettext(OPTION_LABELS[name]),
        value_label=lambda name, value: gettext(VALUE_LABELS[(name, value)]),
        option_rule=OPTION_RULES.get,
    )

    # A tablet stays on a page for hours: keep the session (and so the CSRF
    # token) for a year, so a token only fails for a real cross-site post or
    # cleared cookies.
    app.config.setdefault("PERMANENT_SESSION_LIFETIME", timedelta(days=365))

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

    @app.errorhandler(404)
    def not_found(_error):
        return render_template("error.html", title=gettext("Page not found"),
                               message=gettext("There is no page at this address.")), 404
