"""Pages: the players' directory, a player's record and the chart of their games, and
joining another spelling of a name to a player (or separating it again).

Thin: the figures come from :mod:`scorekeeper.people` (SQL over the seats table); the
seasons' pages are views/seasons.py.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..charts import game_totals_chart
from ..clubpin import require_club
from ..db import get_db
from ..errors import BadInput
from ..forms import AliasForm, SeparateForm
from ..house_view import summed
from ..people import add_alias, directory, known_names, player, remove_alias
from ..storage.house_parts import house_changes
from ..text import format_date
from ..updates import cached_club_page, club_etag

bp = Blueprint("players", __name__)


@bp.app_template_global()
def player_url(name: str) -> str:
    """A player's page.  A name no URL path can carry (one starting with "/", or with a
    "." or ".." part, which browsers remove) is given as ?name= instead."""
    if name.startswith("/") or any(part in (".", "..") for part in name.split("/")):
        return url_for("players.players", name=name)
    return url_for("players.player_page", name=name)


@bp.get("/players")
@cached_club_page
def players():
    """The directory of everyone who has played here, A to Z (it ranks nobody); with
    ?name=, that player's page."""
    if request.args.get("name"):
        return _player_page(request.args["name"])
    return render_template("players/players.html", people=directory(get_db()), etag=club_etag())


@bp.get("/players/<path:name>", merge_slashes=False)
@cached_club_page
def player_page(name: str):
    """A player's record over the complete games, each game, and their totals over time."""
    return _player_page(name)


def _player_page(name: str):
    found = player(get_db(), name)
    points = [(format_date(g.day), g.total, g.place == 1,
               _("%(date)s: %(total)s points, place %(place)s of %(players)s",
                 date=format_date(g.day), total=g.total, place=g.place, players=g.players))
              for g in reversed(found.games)]
    chart = game_totals_chart(points, _("Game totals of %(name)s over time",
                                        name=found.record.name)) if points else None
    house = house_changes(get_db(), person=found.record.key).get(found.record.key, {})
    return render_template("players/player.html", found=found, r=found.record, chart=chart,
                           house=house, house_all=summed(house) if house else None,
                           alias_form=AliasForm(), separate_form=SeparateForm(),
                           known=known_names(get_db()), etag=club_etag())


@bp.post("/players/aliases")
def join_spelling():
    """Join another spelling (alias) to a player (of): the player page's form (CSRF is
    checked for every form before a view runs; the club PIN, when one is set)."""
    require_club()
    form = AliasForm()
    alias, of = form.alias.data or "", form.of.data or ""
    try:
        record = add_alias(get_db(), alias, of)
    except BadInput as refused:
        flash(refused.message, "error")
        return redirect(player_url(of) if of else url_for("players.players"))
    flash(_("%(alias)s is now counted as %(name)s.", alias=alias.strip(), name=record.name),
          "ok")
    return redirect(player_url(record.name))


@bp.post("/players/aliases/remove")
def separate_spelling():
    """Make a joined spelling its own player again; back to the page it was asked from."""
    require_club()
    form = SeparateForm()
    alias, back = form.alias.data or "", form.player.data or ""
    target = player_url(back) if back else url_for("players.players")
    try:
        remove_alias(get_db(), alias)
    except BadInput as refused:
        flash(refused.message, "error")
        return redirect(target)
    flash(_("%(alias)s is a player of their own again.", alias=alias), "ok")
    return redirect(target)
