"""Pages: home (game list, join QR, first start's club PIN), new game, game overview,
rename, delete and Recently deleted, a game's JSON export and import, the backup
download (import, restore from Recently deleted and the backup are the club's: its PIN,
when one is set)."""

from __future__ import annotations

import json
from datetime import datetime

from flask import (Blueprint, Response, flash, redirect, render_template, request, send_file,
                   url_for)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import RequestEntityTooLarge

from ..backups import download_copy
from ..clubpin import is_set, require_club, require_restorer
from ..db import get_db
from ..people import known_names, last_game_id
from ..updates import cached_page
from ..errors import BadInput
from ..game import parse_game_name
from ..archive import parse_document, read_export
from ..forms import ClubPinForm, ConfirmForm, ImportForm, NewGameForm, RenameForm, attach
from ..netinfo import qr_svg
from ..options import MAX_PLAYERS, deal_table_json
from . import content_disposition, game_url, join_url, keeps_input, safe_next
from ..pins import hash_pin, remember, require_keeper
from ..storage import (KEEP_DELETED_DAYS, create_game, delete_game, deleted_games, export_game,
                       import_game, kept_until, list_games, load_game, rename_game, restore_game)

bp = Blueprint("games", __name__)


@bp.get("/")
def index():
    """Home: the games (in progress first) and the address, with a QR code, to join at; on
    the first start (no game, no club PIN), the offer of a club PIN."""
    games = list_games(get_db())
    url = join_url()
    first_start = not games and not is_set()
    return render_template("index.html", games=games, join_url=url, qr=qr_svg(url, scale=5),
                           club_form=ClubPinForm(formdata=None) if first_start else None)


@bp.route("/games/new", methods=["GET", "POST"])
@keeps_input
def new_game():
    """The new-game form: players in seating order, the set, the rule options, a PIN."""
    form = NewGameForm()
    if form.validate_on_submit():
        try:
            start, end = form.engines()
            game = create_game(get_db(), name=form.cleaned_name, players=form.cleaned_players,
                               set_n=form.set.data, options=form.options(),
                               start_engine=start, end_engine=end,
                               pin_hash=hash_pin(form.pin.data) if form.pin.data else None,
                               colours=form.cleaned_colours)
        except BadInput as error:
            attach(form, error)
        else:
            if game.protected:
                remember(game)   # the device that set the PIN keeps score
            flash(_("Game created. Round 1: set the double-%(n)s engine.",
                    n=game.rounds[0].engine))
            return redirect(url_for("rounds.round_screen", game_id=game.id, number=1))
    db = get_db()
    last_id = last_game_id(db)
    last = load_game(db, last_id) if last_id else None
    if last is not None and request.method == "GET" and request.args.get("same") == "last":
        _seat_again(form, last)
    # A refusal (a POST that stored nothing) is a 400, with what was typed and why.
    return render_template("new_game.html", form=form, deal_info=deal_table_json(),
                           known=known_names(db), last=last), \
        400 if request.method == "POST" else 200


def _seat_again(form: NewGameForm, last) -> None:
    """Fill the new-game form with the last game's players, their train colours, the set
    and the house rules."""
    for entry, name in zip(form.players, list(last.players) + [""] * MAX_PLAYERS):
        entry.data = name
    form.seated_colours = list(last.colours_by_player.values())
    form.set.data = last.set
    for name, value in last.options.to_dict().items():
        field = getattr(form, name, None)
        if field is not None:   # as the form's radios carry values: "true", "25", "B"
            field.data = "true" if value is True else "false" if value is False else str(value)


@bp.get("/games/<game_id>")
@cached_page
def game(game_id: str):
    """A game's overview: rounds, standings, house rules, the code to open it elsewhere."""
    game = load_game(get_db(), game_id)
    return render_template("game.html", game=game, standings=game.standings(),
                           deal=game.deal, qr=qr_svg(game_url(game), scale=4),
                           game_link=game_url(game))


@bp.route("/games/<game_id>/rename", methods=["GET", "POST"])
@keeps_input
def rename(game_id: str):
    """Rename a game (an empty name shows its date)."""
    db = get_db()
    game = load_game(db, game_id)
    require_keeper(game)
    form = RenameForm(name=game.name)
    if form.validate_on_submit():
        try:
            rename_game(db, game_id, parse_game_name(form.name.data or ""))
        except BadInput as error:
            attach(form, error)
        else:
            flash(_("Game renamed."))
            return redirect(safe_next(request.args.get("next"),
                                      url_for("games.game", game_id=game_id)))
    # Refused (a name it cannot take, or an expired token), the form comes back with what
    # was typed: 400.
    return render_template("rename.html", game=game, form=form), \
        400 if request.method == "POST" else 200


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
def delete(game_id: str):
    """Ask, then move the game to Recently deleted, where it can be restored for 30 days."""
    db = get_db()
    game = load_game(db, game_id)
    require_keeper(game)
    form = ConfirmForm()
    if form.validate_on_submit():
        delete_game(db, game_id)
        flash(ngettext("%(name)s was moved to Recently deleted. It can be restored there for "
                       "%(num)s day.", "%(name)s was moved to Recently deleted. It can be "
                       "restored there for %(num)s days.", KEEP_DELETED_DAYS,
                       name=game.display_name()))
        return redirect(url_for("games.index"))
    return render_template("delete.html", game=game, form=form, days=KEEP_DELETED_DAYS)


@bp.get("/deleted")
def trash():
    """Recently deleted games, each with Restore (purged after 30 days)."""
    return render_template("deleted.html", games=deleted_games(get_db()), form=ConfirmForm(),
                           kept_until=lambda g: kept_until(g.deleted_at)[:10],
                           days=KEEP_DELETED_DAYS)


@bp.post("/games/<game_id>/restore")
def restore(game_id: str):
    """Bring a game back from Recently deleted, whole."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        flash(_("The page expired; nothing was restored. Try again."), "error")
        return redirect(url_for("games.trash"))
    db = get_db()
    require_restorer(load_game(db, game_id, deleted=True))
    game = restore_game(db, game_id)
    flash(_("%(name)s was restored.", name=game.display_name()))
    return redirect(url_for("games.game", game_id=game_id))


@bp.get("/games/<game_id>/export.json")
def export(game_id: str):
    """The game as a JSON file to keep, or to import on another machine."""
    doc = export_game(get_db(), game_id)
    name = doc["game"]["name"] or doc["game"]["created_at"][:10]
    response = Response(json.dumps(doc, ensure_ascii=False, indent=1),
                        mimetype="application/json")
    response.headers["Content-Disposition"] = content_disposition(
        f"game-{name}-{doc['exported_at'][:10]}", game_id, prefix="game", ext="json",
        disposition="attachment")
    return response


@bp.route("/games/import", methods=["GET", "POST"])
@keeps_input
def import_page():
    """Import a game from an export file (as a new game); refusals re-show the form."""
    require_club()
    if request.method == "POST":
        try:
            request.files   # read the upload now: over MAX_CONTENT_LENGTH is refused here
        except RequestEntityTooLarge:
            error = BadInput(_("The file is too large: at most 1 MB is accepted."), "file")
            return render_template("import.html", form=ImportForm(formdata=None),
                                   error=error), 413
    form = ImportForm()
    if not form.validate_on_submit():   # a GET, or refused as a whole (an expired token)
        return render_template("import.html", form=form, error=None), \
            400 if form.refusal else 200
    try:
        upload = request.files.get(form.file.name)
        if upload is None or not upload.filename:
            raise BadInput(_("Choose the export file (.json) to import."), "file")
        game = import_game(get_db(), parse_document(read_export(upload.read())))
    except BadInput as error:   # shown with the part of the file at fault
        return render_template("import.html", form=form, error=error), 400
    flash(_("%(name)s was imported as a new game.", name=game.display_name()))
    return redirect(url_for("games.game", game_id=game.id))


@bp.get("/backup.sqlite")
def backup_download():
    """Every game in one consistent SQLite file (the online backup API), dated, to keep:
    with a club PIN (which it needs), the games' PINs kept; without one, left out."""
    require_club()
    copy = download_copy(keep_pins=is_set())
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M")
    response = send_file(copy, mimetype="application/vnd.sqlite3", as_attachment=True,
                         download_name=f"scorekeeper-backup-{stamp}.sqlite", etag=False)
    response.headers["Cache-Control"] = "no-store"
    return response
