"""The request's database connection, on `g`, created and migrated at start."""

from __future__ import annotations

import threading

import click
from flask import Flask, current_app, g

from . import storage


_thread = threading.local()


def get_db():
    """The sqlite-utils Database for this request.

    Each server thread keeps one connection to the database and reuses it for
    every request it answers: opening and closing one per request cost more
    than most requests (closing the last connection also checkpoints the WAL).
    """
    if "db" not in g:
        key = (current_app.config["DATABASE"], current_app.config["BUSY_TIMEOUT"])
        if getattr(_thread, "key", None) != key:
            if getattr(_thread, "db", None) is not None:
                _thread.db.close()
            _thread.db, _thread.key = storage.connect(*key), key
        g.db = _thread.db
    return g.db


def close_db(_exc=None) -> None:
    """End of request: the connection stays open for the thread's next request, but
    never with a transaction left open."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


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
