"""The HTML pages, one blueprint per area, and what their views share.

Views stay thin: they read the request, call the domain and storage modules
(the referee, scoring, storage, livetable …) and render; a rule or a replay is
never worked out here.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import abort, request

from ..db import get_db
from ..game import Game, Round
from ..storage import load_game


def get_game_round(game_id: str, number: int) -> tuple[Game, Round]:
    """The game and its round *number*, or 404 (as flaskr's get_post).

    An unknown game is GameNotFound, which the app answers with its own 404 page.
    """
    game = load_game(get_db(), game_id)
    try:
        return game, game.round(number)
    except KeyError:
        abort(404)


def keeps_input(view):
    """Mark a form view that shows its form again, with what was typed and a sentence, when
    the request is refused before anything could be saved: its token expired (CSRF) or
    the database stayed busy (503).  The error answer runs the view again; its forms then
    fail with the sentence (``forms.PageForm.refusal``), so it only renders."""
    view.keeps_input = True
    return view


def this_page() -> str:
    """The address of this request, its query included, without a stray "?" when it has
    none (``request.full_path`` always ends one): for a link back to it."""
    query = request.query_string.decode("latin-1")
    return request.path + (f"?{query}" if query else "")


def safe_next(target: str | None, default: str) -> str:
    """*target* if it is a path of this app ("/games/…"), else *default*.

    A ``next`` parameter must never send a tablet to another site: only a
    relative path starting with one "/" (not "//host", no scheme, no
    backslash, which some browsers read as "/").
    """
    if not target or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target or any(ord(c) < 32 for c in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target
