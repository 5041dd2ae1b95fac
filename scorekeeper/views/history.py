"""Pages: a game's history (one entry per save, newest first) and its undo and redo."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..db import get_db
from ..forms import ConfirmForm
from ..house_view import history_shown
from ..updates import cached_page
from ..pins import require_keeper
from ..storage import (edit_changes, history_entries, last_redoable, last_undoable, load_game,
                       redo_last, undo_last)
from . import safe_next

bp = Blueprint("history", __name__)


@bp.get("/games/<game_id>/history")
@cached_page
def history_page(game_id: str):
    """The game's history: one entry per save, newest first, each with what it changed, the
    latest change with its undo and an undo just made with its redo."""
    db = get_db()
    game = load_game(db, game_id)
    entries = history_entries(db, game_id)
    history_shown(game, entries)
    return render_template("history.html", game=game, entries=list(reversed(entries)),
                           undoable=last_undoable(db, game_id),
                           redoable=last_redoable(db, game_id), form=ConfirmForm())


@bp.post("/games/<game_id>/redo")
def redo(game_id: str):
    """Take back the undo that was the last change (one tap: it is an undo's undo)."""
    db = get_db()
    game = load_game(db, game_id)
    require_keeper(game)
    if not ConfirmForm().validate_on_submit():
        flash(_("The page expired; nothing was redone. Try again."), "error")
    elif redo_last(db, game) is None:
        flash(_("There is nothing to redo."), "error")
    else:
        flash(_("The undone change is back."))
    return redirect(url_for("history.history_page", game_id=game_id))


@bp.route("/games/<game_id>/undo", methods=["GET", "POST"])
def undo(game_id: str):
    """Undo the latest change, after a look at what it will put back."""
    db = get_db()
    game = load_game(db, game_id)
    require_keeper(game)
    form = ConfirmForm()
    if request.method == "GET":
        target = last_undoable(db, game_id)
        if target is None:
            flash(_("There is nothing to undo."), "error")
            return redirect(url_for("history.history_page", game_id=game_id))
        return render_template("undo.html", game=game, target=target, form=form,
                               changes=edit_changes(db, target["id"]))
    if not form.validate_on_submit():
        flash(_("The page expired; nothing was undone. Try again."), "error")
    else:
        done = undo_last(db, game)
        if done is None:
            flash(_("There is nothing to undo."), "error")
        else:
            flash(_("Undid the last change to round %(n)s.", n=done["round"]))
    return redirect(safe_next(request.form.get("next"),
                              url_for("history.history_page", game_id=game_id)))
