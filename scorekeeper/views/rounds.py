"""Pages: the round screen (score entry, pip counter), standings, history, undo."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..charts import player_colour, totals_chart
from ..db import get_db
from ..errors import BadInput
from ..forms import ConfirmForm, RoundForm
from ..game import Game
from ..scoring import check_hands, check_scores, hand_score, round_warnings
from . import keeps_input_on_csrf_error
from .live import live_state
from ..storage import (Busy, StaleRound, history, last_undoable, load_game, record_round,
                       undo_last)
from ..tiles import Tile, full_set, parse_tile_text, set_rows

bp = Blueprint("rounds", __name__)


def _round_or_404(game: Game, number: int):
    try:
        return game.round(number)
    except KeyError:
        abort(404)


def parse_hand_text(text: str, field: str) -> list[list[int]]:
    """The pip counter's hidden value, "5-12 0-0", as tile lists."""
    try:
        return [parse_tile_text(part, field).to_json() for part in text.replace(",", " ").split()]
    except BadInput:
        raise BadInput(_("The tiles picked for this hand could not be read; pick them again."),
                       field) from None


def read_entries(game: Game, rnd) -> tuple[dict[str, str], dict[str, str]]:
    """The raw score and hand text of every seat, as typed (to re-show on refusal)."""
    raw = {p: request.form.get(f"score-{i}", "").strip() for i, p in enumerate(game.players)}
    hands = {p: request.form.get(f"hand-{i}", "").strip() for i, p in enumerate(game.players)}
    return raw, hands


def validate_entries(game: Game, rnd, raw: dict[str, str], hand_text: dict[str, str]):
    """Scores (and picked hands) from the form, checked by R7.4 and R3.3; BadInput else."""
    top = game.max_hand(rnd.engine)
    values = {}
    for i, p in enumerate(game.players):
        text = raw[p]
        if text == "":
            raise BadInput(_("%(name)s's score is missing: enter a number, tap \"Went out\" for 0, "
                             "or count the tiles.", name=p), f"score-{i}")
        if not text.isdigit():
            raise BadInput(_("%(name)s's score must be a whole number from 0 to %(top)s.",
                             name=p, top=top), f"score-{i}")
        values[p] = int(text)
    try:
        scores = check_scores(values, game.players, game.set, rnd.engine, game.options)
    except BadInput as error:
        seat = game.players.index(error.field.split(".", 1)[1])
        raise BadInput(error.message, f"score-{seat}") from None
    given = {p: parse_hand_text(t, f"hand-{i}")
             for i, (p, t) in enumerate(hand_text.items()) if t}
    hands = None
    if given:
        try:
            tiles = check_hands(given, game.players, game.set, rnd.engine, every_player=False)
        except BadInput as error:
            seat = game.players.index(error.field.split(".")[1])
            raise BadInput(error.message, f"score-{seat}") from None
        for p, ts in tiles.items():
            counted = hand_score(ts, game.options)
            if counted != scores[p]:
                raise BadInput(_("%(name)s's score (%(typed)s) does not match the tiles picked "
                                 "(%(counted)s): count again or clear the tiles.", name=p,
                                 typed=scores[p], counted=counted),
                               f"score-{game.players.index(p)}")
        hands = {p: [t.to_json() for t in ts] for p, ts in tiles.items()}
    return scores, hands


@bp.route("/games/<game_id>/rounds/<int:number>", methods=["GET", "POST"])
@keeps_input_on_csrf_error
def round_screen(game_id: str, number: int):
    db = get_db()
    game = load_game(db, game_id)
    rnd = _round_or_404(game, number)
    form = RoundForm()
    raw = {p: ("" if rnd.scores is None else str(rnd.scores[p])) for p in game.players}
    hand_text = {p: " ".join(f"{a}-{b}" for a, b in (rnd.hands or {}).get(p, []))
                 for p in game.players}
    error = None
    status = None
    warnings = []
    conflict = None
    live_over = None
    if request.method == "GET":
        form.revision.data = str(rnd.revision)
        if rnd.scores is None:
            # A finished live table already knows who went out: their 0 is pre-filled.
            state = live_state(game, number)
            if state is not None and state.is_over:
                live_over = state
                raw.update({p: "0" for p in state.went_out})
    elif form.validate_on_submit():
        raw, hand_text = read_entries(game, rnd)
        try:
            scores, hands = validate_entries(game, rnd, raw, hand_text)
        except BadInput as bad:
            error = bad
        else:
            warnings = round_warnings(scores)
            if warnings and form.confirm.data != "1":
                form.confirm.data = "1"  # shown again: the next save confirms
            else:
                expected = None if form.overwrite.data == "1" else int(form.revision.data or 0)
                try:
                    record_round(db, game, number, scores, hands, expected_revision=expected)
                except Busy as busy:
                    error = BadInput(busy.message, "")
                    status = 503
                except StaleRound as stale:
                    conflict = stale.conflict
                    form.revision.data = str(conflict.round.revision)
                    form.overwrite.data = ""
                    warnings = []
                else:
                    flash(_("Round %(n)s saved.", n=number))
                    game = load_game(db, game_id)
                    if game.complete:
                        return redirect(url_for("rounds.standings", game_id=game_id))
                    following = [r for r in game.rounds if r.number > number and r.scores is None]
                    target = following[0] if following else game.current_round
                    return redirect(url_for("rounds.round_screen", game_id=game_id,
                                            number=target.number))
    else:
        error = BadInput(_("The form expired; your scores are still here. Save again."), "")
        raw, hand_text = read_entries(game, rnd)
    next_round = next((r for r in game.rounds if r.number == number + 1), None)
    return render_template(
        "round.html", game=game, rnd=rnd, form=form, raw=raw, hand_text=hand_text,
        error=error, warnings=warnings, conflict=conflict, next_round=next_round,
        deal=game.deal, standings=game.standings(), max_hand=game.max_hand(rnd.engine),
        live_over=live_over,
        picker=set_rows(game.set), engine_tile=Tile.double(rnd.engine),
        tile_scores={f"{t.low}-{t.high}": (game.options.double_blank if t == Tile(0, 0) else t.pips)
                     for t in full_set(game.set)}), (
        status or (400 if error else 409 if conflict else 200))


@bp.get("/games/<game_id>/standings")
def standings(game_id: str):
    game = load_game(get_db(), game_id)
    labels = [str(r.number) for r in game.rounds if r.scores is not None]
    chart = totals_chart(game.players, [r.scores for r in game.rounds], labels,
                         _("Running totals after each round"))
    return render_template("standings.html", game=game, standings=game.standings(), chart=chart,
                           colours={p: player_colour(i) for i, p in enumerate(game.players)})


@bp.get("/games/<game_id>/history")
def history_page(game_id: str):
    db = get_db()
    game = load_game(db, game_id)
    return render_template("history.html", game=game, changes=list(reversed(history(db, game_id))),
                           undoable=last_undoable(db, game_id), form=ConfirmForm())


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    db = get_db()
    game = load_game(db, game_id)
    form = ConfirmForm()
    if not form.validate_on_submit():
        flash(_("The page expired; nothing was undone. Try again."), "error")
    else:
        done = undo_last(db, game)
        if done is None:
            flash(_("There is nothing to undo."), "error")
        else:
            flash(_("Undid the last change to round %(n)s.", n=done["round"]))
    return redirect(request.form.get("next") or url_for("rounds.history_page", game_id=game_id))
