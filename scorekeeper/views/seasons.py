"""Pages: every season and the form that starts one, a season's standings (by wins or by
average per round, with the sentences that break ties), its TV board, CSV and PDF.

Thin: the table comes from :mod:`scorekeeper.seasons` (the players' sums over the
season's days), ranked by :mod:`scorekeeper.records`.
"""

from __future__ import annotations

from flask import (Blueprint, Response, current_app, flash, redirect, render_template,
                   request, url_for)
from flask_babel import gettext as _

from ..clubpin import require_club
from ..db import get_db
from ..errors import BadInput
from ..forms import ConfirmForm, SeasonForm, attach
from ..house_view import summed
from ..netinfo import qr_svg
from ..pdf import season_pdf
from ..records import RANK_BY, parse_min_games
from ..records import season_csv as csv_text
from ..seasons import create_season, delete_season, season_table, seasons
from ..storage.house_parts import house_changes
from ..updates import cached_club_page, club_etag
from . import content_disposition, join_url, keeps_input, pdf_response

bp = Blueprint("seasons", __name__)


@bp.route("/seasons", methods=["GET", "POST"])
@keeps_input
def seasons_page():
    """Every season, and the form that starts one (with the club PIN, when one is set)."""
    if request.method == "POST":
        require_club()
    form = SeasonForm()
    if form.validate_on_submit():
        try:
            season = create_season(get_db(), form.name.data, form.start.data, form.end.data)
        except BadInput as error:
            attach(form, error)
        else:
            flash(_("Season %(name)s created.", name=season.name), "ok")
            return redirect(url_for("seasons.season_page", season_id=season.id))
    return render_template("seasons/seasons.html", form=form, seasons=seasons(get_db())), \
        400 if form.errors else 200


def season_house(db, table) -> dict[str, tuple[int, int]]:
    """Each person's bonuses and penalties in the season's house-scored games (R11.5);
    empty for a season without one."""
    changes = house_changes(db, days=(table.season.start, table.season.end))
    return {person: summed(games) for person, games in changes.items()}


def _table_args() -> tuple[str, int]:
    """?rank_by= and ?min_games= of a season's page (BadInput for a wrong value)."""
    rank_by = request.args.get("rank_by") or "wins"
    return rank_by, parse_min_games(request.args.get("min_games"))


@bp.get("/seasons/<season_id>")
@cached_club_page
def season_page(season_id: str):
    """A season's standings, by wins or by average per round, with the tie sentences."""
    rank_by, min_games = _table_args()
    table = season_table(get_db(), season_id, rank_by, min_games)
    return render_template("seasons/season.html", table=table, rank_bys=RANK_BY,
                           house=season_house(get_db(), table),
                           delete_form=ConfirmForm(), etag=club_etag())


@bp.get("/seasons/<season_id>/board")
@cached_club_page
def season_board(season_id: str):
    """The season table for a TV: large, dark, updating itself."""
    rank_by, min_games = _table_args()
    table = season_table(get_db(), season_id, rank_by, min_games)
    url = join_url().rstrip("/") + url_for("seasons.season_page", season_id=season_id)
    return render_template("seasons/board.html", table=table, qr=qr_svg(url, scale=6),
                           etag=club_etag())


@bp.post("/seasons/<season_id>/delete")
def season_delete(season_id: str):
    """Remove a season; its games and everyone's records stay."""
    require_club()
    delete_season(get_db(), season_id)
    flash(_("The season was removed; its games and the players' records stay."), "ok")
    return redirect(url_for("seasons.seasons_page"))


@bp.get("/seasons/<season_id>.csv")
def season_csv(season_id: str):
    """The season table as CSV, to download (:func:`~scorekeeper.records.season_csv`)."""
    rank_by, min_games = _table_args()
    table = season_table(get_db(), season_id, rank_by, min_games)
    response = Response(csv_text(table, season_house(get_db(), table)), mimetype="text/csv")
    response.headers["Content-Disposition"] = content_disposition(
        f"season-{table.season.name}", season_dates(table.season), prefix="season",
        ext="csv", disposition="attachment")
    return response


@bp.get("/seasons/<season_id>.pdf")
def season_print(season_id: str):
    """The season table on one printed page, in the device's language."""
    rank_by, min_games = _table_args()
    table = season_table(get_db(), season_id, rank_by, min_games)
    data = season_pdf(table, paper=request.args.get("paper") or
                      current_app.config.get("PAPER_SIZE", "A4"),
                      font_dir=current_app.config.get("PDF_FONT_DIR"))
    return pdf_response(data, f"season-{table.season.name}", fallback=season_dates(table.season),
                        prefix="season")


def season_dates(season) -> str:
    """A season's days as a file's name when its name is not in Latin letters:
    "2026-12-01-to-2027-02-28"."""
    return f"{season.start.isoformat()}-to-{season.end.isoformat()}"
