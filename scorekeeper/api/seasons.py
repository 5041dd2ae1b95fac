"""API: seasons and their standings (docs/api.md "Players and seasons")."""

from __future__ import annotations

from flask import jsonify, request

from ..clubpin import require_club
from ..db import get_db
from ..parsing import Fields
from ..records import parse_min_games
from ..seasons import create_season, delete_season, get_season, season_table, seasons
from ..text import N_
from . import bp, json_body

#: The fields of a new season's body (API.md), anything else refused by name.
SEASON = Fields(("name", "from", "to"), N_("“%(name)s” is not a field of a season."))


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
