"""Pages: the round screen (score entry, pip counter, the round's time and its "Start
round" tap).

The form owns its fields and their checks (:class:`scorekeeper.forms.RoundForm`);
storage merges a save that crossed another tablet's (:func:`storage.record_round`).
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..db import get_db
from ..errors import BadInput
from ..forms import ConfirmForm, RoundForm
from ..game import Game
from ..house_form import HouseToggles
from ..house_scoring import entry_warnings
from ..livetable import live_state
from ..updates import cached_page
from ..pins import require_keeper
from ..storage import StaleRound, load_game, record_round, start_round
from ..text import format_list
from ..tiles import Tile, full_set
from . import get_game_round, keeps_input

bp = Blueprint("rounds", __name__)


@bp.route("/games/<game_id>/rounds/<int:number>", methods=["GET", "POST"])
@keeps_input
@cached_page
def round_screen(game_id: str, number: int):
    """The round screen: enter or correct each player's score (or count their tiles), then save."""
    game, rnd = get_game_round(game_id, number)
    if request.method == "POST":
        require_keeper(game)
    form = RoundForm(game, rnd)
    house = HouseToggles(game, rnd, request.form if request.method == "POST" else None)
    if not form.validate_on_submit():
        if request.method == "GET":
            house.show_hands(form)
        live_over = finished_live_table(form, house) if request.method == "GET" else None
        return render_round(form, house, live_over=live_over), 400 if form.refusal else 200
    try:
        entry = house.entry(form.scores)
    except BadInput as error:
        house.refuse(form, error)
        return render_round(form, house), 400
    warnings = entry_warnings(entry, game.options, rnd.engine)
    if warnings and not form.confirmed:
        form.confirm.data = "1"   # shown again: the next save confirms
        return render_round(form, house, warnings=warnings)
    try:
        # Under house scoring a save that crossed another tablet's is put to the
        # scorekeeper whole: scores that count merged player by player could disagree
        # with the lists saved with them.
        saved = record_round(get_db(), game, number, entry.scores, form.hands,
                             expected_revision=form.expected_revision(), merge=not house.on,
                             base=form.base_scores(), lists=(entry.went_out, entry.markers))
    except StaleRound as stale:
        if house.on:
            house.crossed(form, stale.conflict.round)
            return render_round(form, house), 409
        form.rebase(stale.conflict)
        return render_round(form, house, conflict=stale.conflict), 409
    kept = [p for p in game.players if saved.scores[p] != entry.scores[p]]
    # Flashed as "saved": the page it leads to tells static/js/offline.js that the round typed
    # on this device reached the server (and may be forgotten there).
    if kept:
        flash(_("Round %(n)s saved. Another tablet saved it at the same time; its changes for "
                "%(names)s were kept too.", n=number, names=format_list(kept)), "saved")
    else:
        flash(_("Round %(n)s saved.", n=number), "saved")
    return redirect(next_page(load_game(get_db(), game_id), number))


def finished_live_table(form: RoundForm, house: HouseToggles):
    """A round not yet recorded whose live table is over: who went out has 0 filled in,
    and under house scoring who went out and whose marker stands are marked (R11.3)."""
    if form.rnd.scores is not None:
        return None
    state = live_state(get_db(), form.game.id, form.rnd.number)
    if state is None or not state.is_over:
        return None
    form.went_out(state.went_out)
    house.from_live_table(state)
    return state


def next_page(game: Game, number: int) -> str:
    """Where a saved round leads: the standings of a finished game, else the next round
    still to record (or the game's current round)."""
    if game.complete:
        return url_for("standings.standings", game_id=game.id)
    following = [r for r in game.rounds if r.number > number and r.scores is None]
    target = following[0] if following else game.current_round
    return url_for("rounds.round_screen", game_id=game.id, number=target.number)


def render_round(form: RoundForm, house: HouseToggles, warnings=(), conflict=None,
                 live_over=None) -> str:
    """The round screen with *form* as it stands (its refusals on its fields)."""
    game, rnd = form.game, form.rnd
    next_round = next((r for r in game.rounds if r.number == rnd.number + 1), None)
    return render_template(
        "round.html", game=game, rnd=rnd, form=form, warnings=list(warnings),
        conflict=conflict, next_round=next_round, deal=game.deal, standings=game.standings(),
        max_hand=game.max_hand(rnd.engine), live_over=live_over,
        tile_scores=tile_scores(game), start_form=ConfirmForm(), house=house)


@bp.post("/games/<game_id>/rounds/<int:number>/start")
def start(game_id: str, number: int):
    """"Start round": the round's time counts from now (a tap by the scorekeeper; a page
    view never starts anything)."""
    game, _rnd = get_game_round(game_id, number)
    require_keeper(game)
    if not ConfirmForm().validate_on_submit():
        flash(_("The page expired; the round’s time did not start. Try again."), "error")
    else:
        try:
            start_round(get_db(), game, number)
        except BadInput as error:
            flash(error.message, "error")
        else:
            flash(_("Round %(n)s started: its time counts from now.", n=number))
    return redirect(url_for("rounds.round_screen", game_id=game_id, number=number))


def tile_scores(game: Game) -> dict[str, int]:
    """What each tile scores in a hand (R7.3: 0-0 by the option), for the pip counter."""
    return {f"{t.low}-{t.high}": (game.options.double_blank if t == Tile(0, 0) else t.pips)
            for t in full_set(game.set)}
