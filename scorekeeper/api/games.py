"""API: games, round scores, history and standings (docs/api.md "Games", "Round scores", …)."""

from __future__ import annotations

from flask import current_app, jsonify, request

from ..clubpin import require_club, require_restorer
from ..checkcode import verify
from ..colours import parse_colours
from ..db import get_db
from ..errors import BadInput
from ..game import Game, parse_game_name, parse_players
from ..options import RuleOptions, parse_engines
from ..parsing import Fields
from ..house_scoring import check_entry, entry_warnings
from ..scoring import check_hands, check_scores, hand_score
from ..archive import EXPORT, parse_document
from ..pins import HEADER, check, client_address, hash_pin, parse_pin
from ..storage import (StaleRound, create_game, delete_game, deleted_games, export_game, history,
                       import_game, kept_until, list_games, load_game, record_round,
                       rename_game, restore_game, set_pin, start_round)
from ..text import N_, _
from ..tiles import DEFAULT_SET, check_hand, parse_set, parse_tiles
from . import bp, json_body


#: The fields of each body these routes take (API.md), anything else refused by name.
NEW_GAME = Fields(("name", "players", "set", "rules", "start_engine", "end_engine", "pin",
                   "colours"), N_("“%(name)s” is not a field of a new game."))
RENAME = Fields(("name",), N_("“%(name)s” is not a field of a game's new name."))
GAME_PIN = Fields(("pin",), N_("“%(name)s” is not a field of a game's PIN."))
ROUND = Fields(("scores", "hands", "revision", "went_out", "markers"),
               N_("“%(name)s” is not a field of a round's scores."))
RESTORE = Fields((), N_("“%(name)s” is not a field of a restore: send {} (no fields)."))
START = Fields((), N_("“%(name)s” is not a field of a round's start: send {} (no fields)."))
HAND_SCORE = Fields(("tiles", "rules"), N_("“%(name)s” is not a field of a hand to score."))


def game_json(game: Game) -> dict:
    """The game as docs/api.md shows it, with its standings."""
    data = game.to_json()
    data["standings"] = game.standings().to_json()
    return data


@bp.post("/games")
def new_game():
    """Create a game: only `players` is required."""
    body = json_body(NEW_GAME)
    if "players" not in body:
        raise BadInput(_("Give the players' names in seating order."), "players")
    players = parse_players(body["players"])
    colours = parse_colours(body.get("colours"), players)
    set_n = parse_set(body.get("set", DEFAULT_SET))
    options = RuleOptions.from_dict(body.get("rules"))
    start, end = parse_engines(set_n, body.get("start_engine"), body.get("end_engine"))
    pin = body.get("pin")
    pin_hash = None if pin is None else hash_pin(parse_pin(pin))
    game = create_game(get_db(), name=parse_game_name(body.get("name")), players=players,
                       set_n=set_n, options=options, start_engine=start, end_engine=end,
                       pin_hash=pin_hash, colours=colours)
    return jsonify(game_json(game)), 201


def keeper_only(game: Game) -> None:
    """A write to a protected game needs its PIN in the X-Game-PIN header (403/429 else)."""
    check(game, request.headers.get(HEADER), client_address())


@bp.get("/games")
def games_index():
    """Every game, briefly (docs/api.md "List the games")."""
    return jsonify(games=[{"id": g.id, "name": g.name, "players": list(g.players),
                           "set": g.set, "complete": g.complete, "played": g.played,
                           "rounds": len(g.rounds)} for g in list_games(get_db())])


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    """One game with its rounds, rules and standings (docs/api.md "Read a game")."""
    return jsonify(game_json(load_game(get_db(), game_id)))


@bp.delete("/games/<game_id>")
def delete(game_id: str):
    """Move the game to "Recently deleted": gone from the list, restorable for 30 days."""
    db = get_db()
    keeper_only(load_game(db, game_id))
    at = delete_game(db, game_id)
    return jsonify(id=game_id, deleted_at=at, kept_until=kept_until(at))


@bp.post("/games/<game_id>/restore")
def restore(game_id: str):
    """Bring a deleted game back whole: rounds, history, live-table logs (the club PIN,
    while one is set, or the game's own)."""
    db = get_db()
    json_body(RESTORE, optional=True)
    require_restorer(load_game(db, game_id, deleted=True), request.headers.get(HEADER),
                     api=True)
    return jsonify(game_json(restore_game(db, game_id)))


@bp.patch("/games/<game_id>")
def rename(game_id: str):
    """Rename a game: {"name": "…"} (an addition to API.md; the PIN as for any write)."""
    db = get_db()
    keeper_only(load_game(db, game_id))
    body = json_body(RENAME)
    if "name" not in body:
        raise BadInput(_("Give the game's new name (an empty name shows the date)."), "name")
    rename_game(db, game_id, parse_game_name(body["name"]))
    return jsonify(game_json(load_game(db, game_id)))


@bp.put("/games/<game_id>/pin")
def change_pin(game_id: str):
    """Set, change or remove a game's PIN: {"pin": "1234"} or {"pin": null}, with the
    current PIN in X-Game-PIN when the game has one."""
    db = get_db()
    game = load_game(db, game_id)
    keeper_only(game)
    body = json_body(GAME_PIN)
    if "pin" not in body:
        raise BadInput(_("Give the new PIN (4 to 8 digits), or null to remove it."), "pin")
    new = body["pin"]
    set_pin(db, game_id, None if new is None else hash_pin(parse_pin(new)))
    return jsonify(game_json(load_game(db, game_id)))


@bp.get("/games/<game_id>/export")
def export(game_id: str):
    """The whole game as one JSON document, to keep or to import elsewhere."""
    return jsonify(export_game(get_db(), game_id))


@bp.post("/games/import")
def import_():
    """A new game (a new id) from an export document; 400 naming the field, nothing stored."""
    require_club(api=True)
    game = import_game(get_db(), parse_document(json_body(EXPORT)))
    return jsonify(game_json(game)), 201


@bp.get("/games/deleted")
def deleted():
    """The games in "Recently deleted" (to find what to restore)."""
    return jsonify(games=[{"id": g.id, "name": g.name, "players": list(g.players),
                           "deleted_at": g.deleted_at, "kept_until": kept_until(g.deleted_at)}
                          for g in deleted_games(get_db())])


@bp.get("/games/<game_id>/standings")
def get_standings(game_id: str):
    """The game's standings: places, totals and the winner once complete (R8)."""
    return jsonify(load_game(get_db(), game_id).standings().to_json())


@bp.get("/games/<game_id>/history")
def get_history(game_id: str):
    """Every change to the game's scores, oldest first: round, player, old and new, and the
    history entry (save, undo or redo) it belongs to."""
    db = get_db()
    load_game(db, game_id)
    return jsonify(changes=[{"round": c["round"], "player": c["player"], "old": c["old"],
                             "new": c["new"], "at": c["at"], "entry": c["entry"]}
                            for c in history(db, game_id)])


@bp.put("/games/<game_id>/rounds/<int:number>")
def put_round(game_id: str, number: int):
    """Record (or replace) a round's scores, given as scores or as the hands left."""
    db = get_db()
    game = load_game(db, game_id)
    keeper_only(game)
    body = json_body(ROUND)
    try:
        rnd = game.round(number)
    except KeyError:
        raise BadInput(_("This game has no round %(n)s; its rounds are 1 to %(last)s.",
                         n=number, last=len(game.rounds)), "number") from None
    hands = None
    if "scores" in body and "hands" in body:
        raise BadInput(_("Give either scores or hands, not both."), "hands")
    if "hands" in body:
        tiles = check_hands(body["hands"], game.players, game.set, rnd.engine)
        scores = {p: hand_score(t, game.options) for p, t in tiles.items()}
        hands = {p: [t.to_json() for t in ts] for p, ts in tiles.items()}
    elif "scores" in body:
        scores = check_scores(body["scores"], game.players, game.set, rnd.engine, game.options)
    else:
        raise BadInput(_("Give the round's scores (or the tiles left in each hand)."), "scores")
    entry = check_entry(scores, game.players, game.options, body.get("went_out"),
                        body.get("markers"), hands)
    revision = parse_revision(body.get("revision"))
    try:
        saved = record_round(db, game, number, entry.scores, hands, expected_revision=revision,
                             lists=(entry.went_out, entry.markers))
    except StaleRound as stale:
        now = stale.conflict.round
        return jsonify(error=_("Round %(n)s changed since revision %(given)s: it is at revision "
                               "%(now)s now. Nothing was stored; read the round again and "
                               "resend with its revision.", n=number, given=revision,
                               now=now.revision),
                       field="revision", round=now.to_json()), 409
    data = saved.to_json()
    data["warnings"] = [w.to_json() for w in entry_warnings(entry, game.options, rnd.engine)]
    return jsonify(data)


@bp.post("/games/<game_id>/rounds/<int:number>/start")
def start(game_id: str, number: int):
    """A "Start round" tap: the round's play (its time) starts now; the round with its times."""
    db = get_db()
    game = load_game(db, game_id)
    keeper_only(game)
    json_body(START, optional=True)
    return jsonify(start_round(db, game, number).timed_json())


@bp.get("/games/<game_id>/verify")
def check_code(game_id: str):
    """The game's check code, or (?code=) whether a sheet printed with that code still
    matches the game, and what changed since (docs/api.md "Check a printed scoresheet")."""
    db = get_db()
    game = load_game(db, game_id)
    given = request.args.get("code")
    if given is not None and not given.strip():
        raise BadInput(_("Give the check code printed on the scoresheet."), "code")
    return jsonify(verify(game, history(db, game_id), current_app.secret_key, given).to_json())


def parse_revision(value) -> int | None:
    """The optional revision a save was based on: a whole number from 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(_("The revision must be a whole number from 0: the revision of the "
                         "round as last read."), "revision")
    return value


@bp.post("/hand-score")
def post_hand_score():
    """The R7.3 score of the tiles left in a hand."""
    body = json_body(HAND_SCORE)
    options = RuleOptions.from_dict(body.get("rules"))
    if "tiles" not in body:
        raise BadInput(_("Give the tiles left in the hand, like [[0, 0], [3, 4]]."), "tiles")
    tiles = check_hand(parse_tiles(body["tiles"]), None, field="tiles")
    return jsonify(score=hand_score(tiles, options))
