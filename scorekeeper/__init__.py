"""Mexican Train Scorekeeper: the scorekeeper and table referee for Mexican Train."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # Flask is imported by the factory: the pure modules import without it
    from flask import Flask

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent
#: A wheel carries templates/ and static/ inside the package (pyproject.toml); a checkout
#: keeps them at the repository's root, beside instance/.
INSTALLED = (PACKAGE / "templates").is_dir()
ASSETS = PACKAGE if INSTALLED else CHECKOUT


def create_app(config: dict | None = None) -> Flask:
    """The Flask app factory, as flaskr's: the settings (*config* may set TESTING,
    DATABASE, SECRET_KEY, …), then every part plugged in, here and in this order (a
    request's hooks run in the order they are added)."""
    app = configured_app(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))

    from . import (bodylimits, db, error_answers, hosts, i18n, pins, template_helpers,
                   updates, web, wellformed)
    from .api import bp as api
    from .views import (assets, club, games, history, live, players, printing, referee,
                        rounds, rules, seasons, standings, verify)
    from .views import pins as pin_pages

    # Each request's Host is checked first, then its size, then its text (each inserts
    # its check before the others).
    wellformed.init_app(app)
    bodylimits.init_app(app)  # each route's body limit, known before the body is read
    hosts.init_app(app)       # every request's Host checked (its check goes first)
    db.init_app(app)          # the database migrated; "Recently deleted" purged; init-db
    i18n.init_app(app)        # the six languages, the device's choice
    updates.init_app(app)     # the pages kept for open pages asking "anything new?"
    pins.init_app(app)        # the PIN checks and the guessing limits
    web.init_app(app)         # sessions, CSRF, compression, security headers, /healthz
    web.csrf.exempt(api)      # JSON bodies: a browser cannot send one cross-site unasked
    app.url_map.converters["int"] = web.StoredInt   # <int:…> only what SQLite can store
    for blueprint in (api, games.bp, rounds.bp, standings.bp, history.bp, printing.bp,
                      assets.bp, referee.bp, live.bp, rules.bp, pin_pages.bp, players.bp,
                      seasons.bp, club.bp, verify.bp):
        app.register_blueprint(blueprint)
    error_answers.init_app(app)
    template_helpers.init_app(app)
    return app


def configured_app(config: dict | None = None) -> Flask:
    """The app with its settings only (defaults, instance/config.py, SCOREKEEPER_*
    variables, then *config*): no database opened yet. Commands start from here."""
    from .web import App

    app = App(__name__, instance_path=instance_path(), instance_relative_config=True,
                template_folder=str(ASSETS / "templates"), static_folder=str(ASSETS / "static"))
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.db"),
        PAPER_SIZE="A4",
        BUSY_TIMEOUT=5.0,
        BABEL_DEFAULT_LOCALE="en",
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=1024 * 1024,
        JSON_SORT_KEYS=False,
        SESSION_COOKIE_SAMESITE="Lax",
        # A tablet sits on a page for hours: the session (and its CSRF token) lasts a
        # year, so a token only fails for a real cross-site post or cleared cookies; and
        # the cookie is not re-signed and re-sent on every request (fifty phones polling
        # a game would each get a new cookie every 2 s).
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
        SESSION_REFRESH_EACH_REQUEST=False,
        TRUSTED_HOSTS=None,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREKEEPER")
    if config:
        app.config.update(config)
    hosts = app.config["TRUSTED_HOSTS"]
    if isinstance(hosts, str):   # SCOREKEEPER_TRUSTED_HOSTS=a.lan,192.168.1.20 (or a JSON list)
        hosts = [h.strip() for h in hosts.split(",")]
    # The names added to the trusted ones (hosts.py); Flask's own check stays off, since
    # the app checks every Host itself, this machine's addresses first.
    app.config["TRUSTED_HOST_NAMES"] = [h for h in hosts or [] if h.strip()]
    app.config["TRUSTED_HOSTS"] = None
    os.makedirs(app.instance_path, exist_ok=True)
    os.chmod(app.instance_path, 0o700)   # the database and the secret key live here
    return app


def instance_path() -> str | None:
    """Where the database, the secret key and config.py live: $SCOREKEEPER_INSTANCE if set;
    else instance/ in a checkout; installed from a wheel, None, for Flask's default for an
    installed package, <sys.prefix>/var/scorekeeper-instance."""
    chosen = os.environ.get("SCOREKEEPER_INSTANCE")
    if chosen:
        return os.path.abspath(os.path.expanduser(chosen))
    return None if INSTALLED else str(CHECKOUT / "instance")


def _instance_secret(folder: Path) -> str:
    """The secret key kept in instance/secret_key, generated on first start."""
    path = folder / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
