"""The request's database connection, on `g`, created and migrated at start."""

from __future__ import annotations

import click
from flask import Flask, current_app, g

from . import storage


def get_db():
    """The sqlite-utils Database for this request (opened once, closed at teardown)."""
    if "db" not in g:
        g.db = storage.connect(current_app.config["DATABASE"],
                               current_app.config["BUSY_TIMEOUT"])
    return g.db


def close_db(_exc=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    """Create and migrate the database at start, purge games deleted long ago;
    close connections after requests."""
    storage.migrate(app.config["DATABASE"])
    db = storage.connect(app.config["DATABASE"], app.config["BUSY_TIMEOUT"])
    try:
        storage.purge_deleted(db)
    finally:
        db.close()
    app.teardown_appcontext(close_db)

    @app.cli.command("init-db")
    def init_db_command():
        """Create the database and apply migrations."""
        storage.migrate(current_app.config["DATABASE"])
        click.echo(f"Database ready at {current_app.config['DATABASE']}.")
