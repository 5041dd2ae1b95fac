"""API: players across games, aliases and seasons (docs/api.md "Players and seasons")."""

from __future__ import annotations

from flask import jsonify, request

from ..clubpin import require_club
from ..db import get_db
from ..people import UnknownPlayer, add_alias, directory, player, record_of, remove_alias
from ..parsing import Fields
from ..records import parse_min_games
from ..seasons import (SeasonNotFound, create_season, delete_season, get_season, season_table,
                       seasons)
from ..text import N_, _
from . import bp, json_body

#: The fields of each body these routes take (API.md), anything else refused by name.
ALIAS = Fields(("alias", "of"), N_("“%(name)s” is not a field of another spelling."))
SEASON = Fields(("name", "from", "to"), N_("“%(name)s” is not a field of a season."))


@bp.errorhandler(UnknownPlayer)
def unknown_player(error: UnknownPlayer):
    """404 for a name no game has."""
    return jsonify(error=_("No game has a player called %(name)s.", name=error.args[0]),
                   field="name"), 404


@bp.errorhandler(SeasonNotFound)
def season_not_found(_error):
    """404 for an unknown season."""
    return jsonify(error=_("There is no season with that id."), field="id"), 404


@bp.get("/players")
def players_index():
    """Every player of the games, by name, with their record over the complete games."""
    return jsonify(players=[r.to_json() for r in directory(get_db())])


@bp.get("/players/<path:name>", merge_slashes=False)
def player_record(name: str):
    """One player's record and their complete games, newest first."""
    return jsonify(player(get_db(), name).to_json())


@bp.post("/players/aliases")
def join_names():
    """Two spellings become one person (the games keep the names as played)."""
    require_club(api=True)
    body = json_body(ALIAS)
    record = add_alias(get_db(), body.get("alias"), body.get("of"))
    return jsonify(record.to_json())


@bp.delete("/players/aliases/<path:name>", merge_slashes=False)
def separate_names(name: str):
    """An alias is its own person again."""
    require_club(api=True)
    remove_alias(get_db(), name)
    return jsonify(record_of(get_db(), name).to_json())


@bp.get("/seasons")
def seasons_index():
    """Every season, the latest-ending first."""
    return jsonify(seasons=[s.to_json() for s in seasons(get_db())])


@bp.post("/seasons")
def new_season():
    """Create a season: a name and an inclusive date range."""
    require_club(api=True)
    body = json_body(SEASON)
    season = create_season(get_db(), body.get("name"), body.get("from"), body.get("to"))
    return jsonify(season.to_json()), 201


@bp.get("/seasons/<season_id>")
def season_info(season_id: str):
    """A season's name and dates."""
    return jsonify(get_season(get_db(), season_id).to_json())


@bp.delete("/seasons/<season_id>")
def remove_season(season_id: str):
    """Remove a season; its games and the players' records stay."""
    require_club(api=True)
    delete_season(get_db(), season_id)
    return jsonify(id=season_id, deleted=True)


@bp.get("/seasons/<season_id>/standings")
def season_standings(season_id: str):
    """The season's standings ranked by wins (default) or by average per round."""
    table = season_table(get_db(), season_id, request.args.get("rank_by") or "wins",
                         parse_min_games(request.args.get("min_games")))
    return jsonify(table.to_json())
