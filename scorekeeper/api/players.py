"""API: players across games and their aliases (docs/api.md "Players and seasons")."""

from __future__ import annotations

from flask import jsonify

from ..clubpin import require_club
from ..db import get_db
from ..people import add_alias, directory, player, record_of, remove_alias
from ..parsing import Fields
from ..text import N_
from . import bp, json_body

#: The fields of the body the alias route takes (API.md), anything else refused by name.
ALIAS = Fields(("alias", "of"), N_("“%(name)s” is not a field of another spelling."))


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
