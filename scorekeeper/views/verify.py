"""Pages: checking a printed scoresheet — does the check code printed on it still match
the game, and if not, which scores changed since it was printed, and when.

The printed sheet's QR code opens this page with its code (``?code=``); anyone may check
(it changes nothing).  The code and the replay of the game's past states are
:mod:`scorekeeper.checkcode`.
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from ..checkcode import shown, verify
from ..db import get_db
from ..updates import cached_page
from ..storage import history, load_game

bp = Blueprint("verify", __name__)


@bp.get("/games/<game_id>/verify")
@cached_page
def verify_page(game_id: str):
    """Check a printed scoresheet: type (or scan) its code, see whether it still matches."""
    db = get_db()
    game = load_game(db, game_id)
    given = request.args.get("code", "").strip() or None
    result = verify(game, history(db, game_id), current_app.secret_key, given)
    return render_template("verify.html", game=game, result=result, shown=shown)
