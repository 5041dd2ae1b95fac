"""Pages: the live table — the scorekeeper mirrors a round as it is played.

Each play, draw and pass is read by its form (:mod:`scorekeeper.forms.live`) and
checked by the referee before it is stored; the state and the log in words come
from :mod:`scorekeeper.livetable`, which replays the round's move log.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _

from ..db import get_db
from ..errors import BadInput
from ..footview import end_choices, train_segment
from ..forms import ConfirmForm, LiveActionForm, LiveForm, LiveStartForm
from ..game import Game
from ..livetable import Live, load_live
from ..pins import require_keeper
from ..referee import Finish, IllegalMove, Violation, apply, start_from_json
from ..situation import MEXICAN
from ..storage import StaleLive, add_move, undo_move
from ..tiles import full_set, set_rows
from ..updates import cached_page
from . import get_game_round, keeps_input

bp = Blueprint("live", __name__)


def render_live(game: Game, rnd, live: Live, refused: list[Violation] | None = None,
                pending: dict | None = None, error: BadInput | None = None, status: int = 200):
    """The live-table page for a round's state, with what was refused or mistyped if anything."""
    picker = set_rows(game.set)
    state = live.state
    on_table = state.table.on_table if state else frozenset()
    return render_template(
        "live/table.html", game=game, rnd=rnd, live=live, state=state, form=ConfirmForm(),
        picker=picker, on_table=on_table, refused=refused, pending=pending or {}, error=error,
        mexican=MEXICAN, deal=game.deal, Finish=Finish, end_choices=end_choices,
        train_segment=train_segment,
        drawable=[t for t in full_set(game.set) if t not in on_table]), status


@bp.get("/games/<game_id>/rounds/<int:number>/live")
@cached_page
def table(game_id: str, number: int):
    """The live table: the trains as played so far, and the play, draw and pass buttons."""
    game, rnd = get_game_round(game_id, number)
    return render_live(game, rnd, load_live(get_db(), game_id, number))


@bp.post("/games/<game_id>/rounds/<int:number>/live/start")
@keeps_input
def start(game_id: str, number: int):
    """Start the live table: who set the engine, tiles each, any drawn before it (R2.2)."""
    game, rnd = get_game_round(game_id, number)
    require_keeper(game)
    form = LiveStartForm()
    live = load_live(get_db(), game_id, number)
    if not form.validate_on_submit():   # refused as a whole: an expired token
        return render_live(game, rnd, live, error=BadInput(form.refusal), status=400)
    if live.state is not None:
        flash(_("The live table of this round has already started."), "error")
        return redirect(url_for("live.table", game_id=game_id, number=number))
    try:
        start_json = form.start_json(game, rnd.engine)
        start_from_json(start_json)  # refuses a deal that cannot fit, before storing
        add_move(get_db(), game_id, number, {"type": "start", "start": start_json},
                 expected=live.active)
    except BadInput as bad:
        return render_live(game, rnd, live, error=bad, status=400)
    except StaleLive:
        flash(_("Another tablet changed the live table; here it is now."), "error")
    return redirect(url_for("live.table", game_id=game_id, number=number))


@bp.post("/games/<game_id>/rounds/<int:number>/live/action")
@keeps_input
def action(game_id: str, number: int):
    """A play, draw or pass, checked against the live state before it is stored."""
    game, rnd = get_game_round(game_id, number)
    require_keeper(game)
    form = LiveActionForm()
    live = load_live(get_db(), game_id, number)
    if live.state is None:
        return redirect(url_for("live.table", game_id=game_id, number=number))
    pending = form.picked(game)
    if not form.validate_on_submit():   # refused as a whole: an expired token
        return render_live(game, rnd, live, error=BadInput(form.refusal), pending=pending,
                           status=400)
    try:
        expected = form.checked_expected()
        if expected is not None and expected != live.active:
            # Ruled against the table this tablet showed, not the one now: refuse first.
            raise StaleLive(live.active)
        act = form.action(game, live.state.table)
        apply(live.state, act)
        # "by" names the player for the log even if the move is later undone.
        add_move(get_db(), game_id, number, {**act.to_json(), "by": live.state.current},
                 expected=expected)
    except IllegalMove as illegal:
        return render_live(game, rnd, live, refused=illegal.violations, pending=pending,
                           status=409)
    except BadInput as bad:
        return render_live(game, rnd, live, error=bad, pending=pending, status=400)
    except StaleLive:
        flash(_("Another tablet changed the live table; nothing was recorded. Here it is now."),
              "error")
    return redirect(url_for("live.table", game_id=game_id, number=number) + "#table")


@bp.post("/games/<game_id>/rounds/<int:number>/live/undo")
def undo(game_id: str, number: int):
    """Undo the live table's last action (it stays in the log, marked undone)."""
    game, rnd = get_game_round(game_id, number)
    require_keeper(game)
    form = LiveForm()
    if form.validate_on_submit():
        try:
            done = undo_move(get_db(), game_id, number, expected=form.expected())
        except StaleLive:
            flash(_("Another tablet changed the live table; nothing was undone."), "error")
        else:
            flash(_("Undid the last action.") if done else _("There is nothing to undo."),
                  None if done else "error")
    return redirect(url_for("live.table", game_id=game_id, number=number))


@bp.get("/games/<game_id>/rounds/<int:number>/live/log")
@cached_page
def log(game_id: str, number: int):
    """The live table's log: every play, draw and pass in words, undone ones marked."""
    game, rnd = get_game_round(game_id, number)
    return render_template("live/log.html", game=game, rnd=rnd, live=load_live(get_db(), game_id, number))
