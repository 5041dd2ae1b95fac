"""Wiring of the web side: blueprints, CSRF, error pages, template helpers."""

from __future__ import annotations

from flask import Flask, render_template
from flask_babel import gettext
from flask_wtf.csrf import CSRFProtect

from . import domino
from .options import OPTION_LABELS, OPTION_RULES, VALUE_LABELS
from .storage import GameNotFound

csrf = CSRFProtect()


def init_app(app: Flask) -> None:
    from .api import bp as api_bp
    from .views import games, rounds

    csrf.init_app(app)
    csrf.exempt(api_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(rounds.bp)
    try:
        from .views import referee
        app.register_blueprint(referee.bp)
    except ImportError:  # pragma: no cover
        pass

    app.jinja_env.globals.update(
        domino_svg=domino.domino_svg,
        option_label=lambda name: gettext(OPTION_LABELS[name]),
        value_label=lambda name, value: gettext(VALUE_LABELS[(name, value)]),
        option_rule=OPTION_RULES.get,
        has_blueprint=lambda name: name in app.blueprints,
    )

    @app.errorhandler(GameNotFound)
    def game_not_found(_error):
        return render_template("error.html", title=gettext("No such game"),
                               message=gettext("There is no game with that address. "
                                               "It may have been deleted.")), 404

    @app.errorhandler(404)
    def not_found(_error):
        return render_template("error.html", title=gettext("Page not found"),
                               message=gettext("There is no page at this address.")), 404
