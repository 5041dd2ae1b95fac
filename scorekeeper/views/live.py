"""Pages: the live table — the scorekeeper mirrors a round as it is played.

Each play, draw and pass is checked by the referee and appended to the
round's move log; the state is the start replayed through the log, so the log
is the single source of truth and an undo is a mark on its last entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..db import get_db
from ..pagecache import cached_page
from ..referee import (DrawAction, Finish, IllegalMove, PassAction, PlayAction, RoundState,
                       Violation, action_from_json, apply, start_from_json, train_sentence)
from ..errors import BadInput
from ..forms import ConfirmForm
from ..game import Game
from ..parsing import whole_number
from ..pins import require_keeper
from ..storage import Busy, StaleLive, add_move, live_moves, load_game, undo_move
from ..text import N_
from ..tiles import full_set, parse_tile_text, set_rows
from .referee import MEXICAN, train_from_key

bp = Blueprint("live", __name__)


@dataclass
class LogEntry:
    """One line of the move log, said in words."""

    seq: int
    player: str
    text: str
    at: str
    override: bool = False
    undone: bool = False
    skipped: bool = False    # recorded, but the rules no longer allow it here


@dataclass
class Live:
    """A round's live table: the start record, the active actions, and the state."""

    start: dict | None
    state: RoundState | None
    log: list[LogEntry]
    active: int


def describe(action, player: str | None, before: RoundState | None = None) -> str:
    """A log line, said whole; *player* is None for an old entry that did not record who.

    *before* is the table the action was taken on: a pass after building one's train
    in the first turn only ends the turn (R4.1); any other pass places a marker.
    """
    tile = getattr(action, "tile", None)
    if isinstance(action, PlayAction) and player is None:
        return train_sentence(action.train, N_("Someone played %(tile)s on the Mexican train"),
                              N_("Someone played %(tile)s on the train of %(owner)s"), tile=tile)
    if isinstance(action, PlayAction):
        return train_sentence(action.train, N_("%(player)s played %(tile)s on the Mexican train"),
                              N_("%(player)s played %(tile)s on the train of %(owner)s"),
                              N_("%(player)s played %(tile)s on their own train"),
                              player=player, tile=tile)
    if isinstance(action, DrawAction):
        if player is None:
            return _("Someone drew a tile") if tile is None else _("Someone drew %(tile)s",
                                                                    tile=tile)
        if tile is None:
            return _("%(player)s drew a tile", player=player)
        return _("%(player)s drew %(tile)s", player=player, tile=tile)
    if player is None:
        return _("Someone passed")
    if before is not None and before.table.first_turn and before.table.turn:
        return _("%(player)s ended their first turn", player=player)
    return _("%(player)s passed and placed a marker", player=player)


def load_live(game: Game, number: int) -> Live:
    """Replay the round's log; actions overridden by the table are applied as recorded."""
    rows = live_moves(get_db(), game.id, number)
    active = [r for r in rows if r["undone_at"] is None]
    start_row = next((r for r in active if r["data"].get("type") == "start"), None)
    if start_row is None:
        return Live(None, None, [], len(active))
    state = start_from_json(start_row["data"]["start"])
    log: list[LogEntry] = []
    for r in rows:
        data = r["data"]
        if data.get("type") == "start":
            if r["undone_at"] is None:
                started = (_("Round started: %(name)s drew highest and plays first",
                             name=state.current)
                           if state.table.options.starter == "highest_draw" else
                           _("Round started: %(name)s set the engine and plays first",
                             name=state.current))
                log.append(LogEntry(r["seq"], state.current, started, r["at"]))
            continue
        action = action_from_json(data)
        if r["undone_at"] is not None:
            by = data.get("by") or None
            log.append(LogEntry(r["seq"], by or "", describe(action, by), r["at"],
                                bool(data.get("override")), True))
            continue
        player, before = state.current, state
        try:
            state = apply(state, action)
        except IllegalMove:
            # Recorded under older rules and no longer possible: kept in the log, skipped.
            log.append(LogEntry(r["seq"], player, describe(action, player, before), r["at"],
                                bool(data.get("override")), skipped=True))
            continue
        log.append(LogEntry(r["seq"], player, describe(action, player, before), r["at"],
                            bool(data.get("override"))))
    return Live(start_row["data"]["start"], state, log, len(active))


def live_state(game: Game, number: int) -> RoundState | None:
    """The live table's state for a round, if one is being kept (for the referee page)."""
    return load_live(game, number).state


def _game_round(game_id: str, number: int):
    game = load_game(get_db(), game_id)
    try:
        return game, game.round(number)
    except KeyError:
        abort(404)


def render_live(game: Game, rnd, live: Live, refused: list[Violation] | None = None,
                pending: dict | None = None, error: BadInput | None = None, status: int = 200):
    picker = set_rows(game.set)
    state = live.state
    on_table = state.table.on_table if state else frozenset()
    return render_template(
        "live/table.html", game=game, rnd=rnd, live=live, state=state, form=ConfirmForm(),
        picker=picker, on_table=on_table, refused=refused, pending=pending or {}, error=error,
        mexican=MEXICAN, deal=game.deal, Finish=Finish,
        drawable=[t for t in full_set(game.set) if t not in on_table]), status


@bp.get("/games/<game_id>/rounds/<int:number>/live")
@cached_page
def table(game_id: str, number: int):
    game, rnd = _game_round(game_id, number)
    return render_live(game, rnd, load_live(game, number))


@bp.post("/games/<game_id>/rounds/<int:number>/live/start")
def start(game_id: str, number: int):
    game, rnd = _game_round(game_id, number)
    require_keeper(game)
    form = ConfirmForm()
    live = load_live(game, number)
    if not form.validate_on_submit():
        return render_live(game, rnd, live, error=BadInput(_("The page expired; try again."), ""),
                           status=400)
    if live.state is not None:
        flash(_("The live table of this round has already started."), "error")
        return redirect(url_for("live.table", game_id=game_id, number=number))
    try:
        starter = train_from_key(request.form.get("starter", ""), game.players)
        if starter is None:
            raise BadInput(_("Say who set the engine and plays first."), "starter")
        tiles_each = whole_number(request.form.get("tiles_each"))
        if tiles_each is None or tiles_each < 1:
            raise BadInput(_("Tiles each must be a whole number, 1 or more."), "tiles_each")
        draws = {}
        for i, p in enumerate(game.players):
            drawn = whole_number(request.form.get(f"draws-{i}", "").strip() or "0")
            if drawn is None:
                raise BadInput(_("Tiles drawn before the engine turned up are whole numbers "
                                 "(R2.2)."), f"draws-{i}")
            if drawn:
                draws[p] = drawn
        start_json = {"set": game.set, "engine": rnd.engine, "players": list(game.players),
                      "starter": starter, "tiles_each": tiles_each,
                      "rules": game.options.to_dict(), "draws": draws}
        start_from_json(start_json)  # refuses a deal that cannot fit, before storing
        add_move(get_db(), game_id, number, {"type": "start", "start": start_json},
                 expected=live.active)
    except BadInput as bad:
        return render_live(game, rnd, live, error=bad, status=400)
    except Busy as busy:
        return render_live(game, rnd, live, error=BadInput(busy.message), status=503)
    except StaleLive:
        flash(_("Another tablet changed the live table; here it is now."), "error")
    return redirect(url_for("live.table", game_id=game_id, number=number))


@bp.post("/games/<game_id>/rounds/<int:number>/live/action")
def action(game_id: str, number: int):
    """A play, draw or pass, checked against the live state before it is stored."""
    game, rnd = _game_round(game_id, number)
    require_keeper(game)
    form = ConfirmForm()
    live = load_live(game, number)
    if live.state is None:
        return redirect(url_for("live.table", game_id=game_id, number=number))
    if not form.validate_on_submit():
        return render_live(game, rnd, live, error=BadInput(_("The page expired; try again."), ""),
                           status=400)
    expected = whole_number(request.form.get("active"))
    kind = request.form.get("kind", "")
    pending = {}
    try:
        if expected is None and request.form.get("active") is not None:
            raise BadInput(_("This page is out of date: open the live table again."), "active")
        if expected is not None and expected != live.active:
            # Ruled against the table this tablet showed, not the one now: refuse first.
            raise StaleLive(live.active)
        if kind == "play":
            tile = parse_tile_text(request.form.get("tile", ""), "tile")
            if tile is None:
                raise BadInput(_("Pick the tile that was played."), "tile")
            train = train_from_key(request.form.get("train", ""), game.players)
            act = PlayAction(tile, train, request.form.get("override") == "1")
            pending = {"tile": f"{tile.low}-{tile.high}", "train": request.form.get("train")}
        elif kind == "draw":
            act = DrawAction(parse_tile_text(request.form.get("drawn", ""), "drawn"))
        elif kind == "pass":
            act = PassAction()
        else:
            raise BadInput(_("Choose play, draw or pass."), "kind")
        apply(live.state, act)
        # "by" names the player for the log even if the move is later undone.
        add_move(get_db(), game_id, number, {**act.to_json(), "by": live.state.current},
                 expected=expected)
    except IllegalMove as illegal:
        return render_live(game, rnd, live, refused=illegal.violations, pending=pending,
                           status=409)
    except BadInput as bad:
        return render_live(game, rnd, live, error=bad, pending=pending, status=400)
    except Busy as busy:
        return render_live(game, rnd, live, error=BadInput(busy.message), pending=pending,
                           status=503)
    except StaleLive:
        flash(_("Another tablet changed the live table; nothing was recorded. Here it is now."),
              "error")
    return redirect(url_for("live.table", game_id=game_id, number=number) + "#table")


@bp.post("/games/<game_id>/rounds/<int:number>/live/undo")
def undo(game_id: str, number: int):
    game, rnd = _game_round(game_id, number)
    require_keeper(game)
    form = ConfirmForm()
    if form.validate_on_submit():
        try:
            done = undo_move(get_db(), game_id, number,
                             expected=whole_number(request.form.get("active")))
        except StaleLive:
            flash(_("Another tablet changed the live table; nothing was undone."), "error")
        else:
            flash(_("Undid the last action.") if done else _("There is nothing to undo."),
                  None if done else "error")
    return redirect(url_for("live.table", game_id=game_id, number=number))


@bp.get("/games/<game_id>/rounds/<int:number>/live/log")
@cached_page
def log(game_id: str, number: int):
    game, rnd = _game_round(game_id, number)
    return render_template("live/log.html", game=game, rnd=rnd, live=load_live(game, number))
