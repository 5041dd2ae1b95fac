"""Pages: the round screen (score entry, pip counter)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..db import get_db
from ..pagecache import cached_page
from ..errors import BadInput
from ..forms import RoundForm
from ..game import Game
from ..scoring import check_hands, check_scores, hand_score, round_warnings
from ..parsing import whole_number
from ..livetable import live_state
from . import get_game_round, keeps_input
from ..pins import require_keeper
from ..storage import Busy, StaleRound, load_game, record_round
from ..text import format_list
from ..tiles import Tile, full_set, parse_tile_text

bp = Blueprint("rounds", __name__)


def parse_hand_text(text: str, field: str) -> list[list[int]]:
    """The pip counter's hidden value, "5-12 0-0", as tile lists."""
    try:
        return [parse_tile_text(part, field).to_json() for part in text.replace(",", " ").split()]
    except BadInput:
        raise BadInput(_("The tiles picked for this hand could not be read; pick them again."),
                       field) from None


@dataclass
class Choice:
    """A player both tablets changed, differently: the scorekeeper picks one score.

    Carried by the conflict form itself (hidden fields), so the choice survives
    a refusal or an expired token: mine as typed, theirs as the base.
    """

    mine: str
    mine_hand: str
    theirs: str
    theirs_hand: str
    picked: str = ""   # "mine", "theirs" or not yet


def hand_json_text(hand: list | None) -> str:
    """Counted tiles as the form carries them: "3-4 0-0"."""
    return " ".join(f"{a}-{b}" for a, b in (hand or []))


def read_entries(game: Game) -> tuple[dict[str, str], dict[str, str], dict[str, Choice]]:
    """The raw score and hand text of every seat, as sent (to re-show on refusal).

    A seat of the conflict form sends a choice instead of a score: the picked
    side's score and tiles are used.
    """
    form = request.form
    raw, hands, choices = {}, {}, {}
    for i, p in enumerate(game.players):
        if f"mine-{i}" in form:
            choice = Choice(form.get(f"mine-{i}", "").strip(), form.get(f"mine-hand-{i}", "").strip(),
                            form.get(f"base-{i}", "").strip(), form.get(f"theirs-hand-{i}", "").strip(),
                            form.get(f"pick-{i}", ""))
            choices[p] = choice
            raw[p], hands[p] = {"mine": (choice.mine, choice.mine_hand),
                                "theirs": (choice.theirs, choice.theirs_hand)}.get(choice.picked,
                                                                                  ("", ""))
        else:
            raw[p] = form.get(f"score-{i}", "").strip()
            hands[p] = form.get(f"hand-{i}", "").strip()
    return raw, hands, choices


def read_base(game: Game) -> dict[str, int | None] | None:
    """The scores the page showed when it was opened (None if the page did not send them)."""
    if not any(f"base-{i}" in request.form for i in range(len(game.players))):
        return None
    return {p: whole_number(request.form.get(f"base-{i}")) for i, p in enumerate(game.players)}


class SeatProblems(BadInput):
    """Several score boxes are wrong: the first one's sentence and field, and every one."""

    def __init__(self, problems: list[BadInput]):
        super().__init__(problems[0].message, problems[0].field)
        self.all = problems

    def by_field(self) -> dict[str, str]:
        return {p.field: p.message for p in self.all}


def validate_entries(game: Game, rnd, raw: dict[str, str], hand_text: dict[str, str],
                     choices: dict[str, Choice] | None = None):
    """Scores (and picked hands) from the form, checked by R7.4 and R3.3; BadInput else."""
    top = game.max_hand(rnd.engine)
    values, problems = {}, []
    for i, p in enumerate(game.players):
        # Every seat is checked, so every wrong box is marked at once, not only the first.
        text = raw[p]
        try:
            if text == "" and choices and p in choices:
                raise BadInput(_("Choose the score to keep for %(name)s: yours or the one the "
                                 "other tablet saved.", name=p), f"score-{i}")
            if text == "":
                raise BadInput(_("%(name)s's score is missing: enter a number, tap \"Went "
                                 "out\" for 0, or count the tiles.", name=p), f"score-{i}")
            value = whole_number(text)
            if value is None:
                raise BadInput(_("%(name)s's score must be a whole number from 0 to %(top)s.",
                                 name=p, top=top), f"score-{i}")
            values.update(check_scores({p: value}, [p], game.set, rnd.engine, game.options))
        except BadInput as error:
            problems.append(BadInput(error.message, f"score-{i}"))
    if problems:
        raise SeatProblems(problems)
    scores = {p: values[p] for p in game.players}
    given = {p: parse_hand_text(t, f"hand-{i}")
             for i, (p, t) in enumerate(hand_text.items()) if t}
    hands = None
    if given:
        try:
            tiles = check_hands(given, game.players, game.set, rnd.engine, every_player=False)
        except BadInput as error:   # the seat comes with it: a name may hold a dot
            field = "" if error.seat is None else f"score-{error.seat}"
            raise BadInput(error.message, field, error.seat) from None
        for p, ts in tiles.items():
            counted = hand_score(ts, game.options)
            if counted != scores[p]:
                raise BadInput(_("%(name)s's score (%(typed)s) does not match the tiles picked "
                                 "(%(counted)s): count again or clear the tiles.", name=p,
                                 typed=scores[p], counted=counted),
                               f"score-{game.players.index(p)}")
        hands = {p: [t.to_json() for t in ts] for p, ts in tiles.items()}
    return scores, hands


def conflict_form(game: Game, conflict, scores: dict[str, int], hand_text: dict[str, str]):
    """The stale-save page's values: the merge where it is clean, a choice where it is not.

    Answers (raw, hand_text, choices, base): the form is now based on the round
    as stored, so the next save is checked against that.
    """
    fresh, merged = conflict.round, conflict.merge
    theirs_hand = {p: hand_json_text((fresh.hands or {}).get(p)) for p in game.players}
    raw = {p: str(merged.scores[p]) for p in game.players}
    hands = {p: theirs_hand[p] if p in merged.theirs else hand_text[p] for p in game.players}
    choices = {p: Choice(str(scores[p]), hand_text[p], str(fresh.scores[p]), theirs_hand[p])
               for p in merged.conflicts}
    return raw, hands, choices, dict(fresh.scores)


@bp.route("/games/<game_id>/rounds/<int:number>", methods=["GET", "POST"])
@keeps_input
@cached_page
def round_screen(game_id: str, number: int):
    """The round screen: enter or correct each player's score (or count their tiles), then save."""
    db = get_db()
    game, rnd = get_game_round(game_id, number)
    if request.method == "POST":
        require_keeper(game)
    form = RoundForm()
    raw = {p: ("" if rnd.scores is None else str(rnd.scores[p])) for p in game.players}
    hand_text = {p: hand_json_text((rnd.hands or {}).get(p)) for p in game.players}
    base = rnd.scores
    choices: dict[str, Choice] = {}
    error = None
    status = None
    warnings = []
    conflict = None
    live_over = None
    if request.method == "GET":
        form.revision.data = str(rnd.revision)
        if rnd.scores is None:
            # A finished live table already knows who went out: their 0 is pre-filled.
            state = live_state(db, game_id, number)
            if state is not None and state.is_over:
                live_over = state
                raw.update({p: "0" for p in state.went_out})
    else:
        raw, hand_text, choices = read_entries(game)
        base = read_base(game)
        if not form.validate_on_submit():
            error = BadInput(_("The form expired; your scores are still here. Save again."), "")
    if request.method == "POST" and error is None:
        try:
            revision = whole_number(form.revision.data)
            if revision is None:
                raise BadInput(_("This page is out of date: open the round again."), "")
            scores, hands = validate_entries(game, rnd, raw, hand_text, choices)
        except BadInput as bad:
            error = bad
        else:
            warnings = round_warnings(scores)
            if warnings and form.confirm.data != "1":
                form.confirm.data = "1"  # shown again: the next save confirms
            else:
                try:
                    saved = record_round(db, game, number, scores, hands,
                                         expected_revision=revision, merge=True, base=base)
                except Busy as busy:
                    error = BadInput(busy.message, "")
                    status = 503
                except StaleRound as stale:
                    conflict = stale.conflict
                    raw, hand_text, choices, base = conflict_form(game, conflict, scores,
                                                                  hand_text)
                    form.revision.data = str(conflict.round.revision)
                    warnings = []
                else:
                    kept = [p for p in game.players if saved.scores[p] != scores[p]]
                    if kept:
                        flash(_("Round %(n)s saved. Another tablet saved it at the same time; "
                                "its changes for %(names)s were kept too.", n=number,
                                names=format_list(kept)))
                    else:
                        flash(_("Round %(n)s saved.", n=number))
                    game = load_game(db, game_id)
                    if game.complete:
                        return redirect(url_for("standings.standings", game_id=game_id))
                    following = [r for r in game.rounds if r.number > number and r.scores is None]
                    target = following[0] if following else game.current_round
                    return redirect(url_for("rounds.round_screen", game_id=game_id,
                                            number=target.number))
    next_round = next((r for r in game.rounds if r.number == number + 1), None)
    return render_template(
        "round.html", game=game, rnd=rnd, form=form, raw=raw, hand_text=hand_text,
        base=base or {}, choices=choices,
        error=error, warnings=warnings, conflict=conflict, next_round=next_round,
        deal=game.deal, standings=game.standings(), max_hand=game.max_hand(rnd.engine),
        live_over=live_over,
        tile_scores={f"{t.low}-{t.high}": (game.options.double_blank if t == Tile(0, 0) else t.pips)
                     for t in full_set(game.set)}), (
        status or (400 if error else 409 if conflict else 200))
