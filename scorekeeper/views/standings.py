"""Pages: a game's standings (places, totals, the chart of running totals) and the TV
scoreboard (the same places, dark and large, with the code to join at)."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_babel import gettext as _

from ..charts import totals_chart
from ..db import get_db
from ..netinfo import qr_svg
from ..updates import cached_page
from ..storage import load_game
from . import game_url

bp = Blueprint("standings", __name__)


@bp.get("/games/<game_id>/standings")
@cached_page
def standings(game_id: str):
    """The standings: places, totals and a chart of the running totals after each round."""
    game = load_game(get_db(), game_id)
    labels = [str(r.number) for r in game.rounds if r.scores is not None]
    chart = totals_chart(game.players, [r.scores for r in game.rounds], labels,
                         _("Running totals after each round"), game.colours_by_player)
    return render_template("standings.html", game=game, standings=game.standings(), chart=chart)


@bp.get("/games/<game_id>/board")
@cached_page
def board(game_id: str):
    """The TV scoreboard: places, totals, the engine, the join code; dark and large."""
    game = load_game(get_db(), game_id)
    return render_template("board.html", game=game, standings=game.standings(),
                           qr=qr_svg(game_url(game), scale=6))
