"""The game PIN's pages: "Scorekeeper? Enter the PIN", setting or changing a game's PIN,
and the page a device without the PIN gets when it tries to change the game.

One scorekeeper, many viewers: a protected game changes only from a device that
entered its PIN; every other device sees the same pages without the buttons that
change anything (the PIN itself is checked in :mod:`scorekeeper.pins`; the club PIN's
pages are views/club.py).
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from flask_babel import gettext as _

from ..db import get_db
from ..errors import BadInput
from ..forms import ChangePinForm, PinForm
from ..pins import PinRefused, check, client_address, hash_pin, is_keeper, parse_pin, remember
from ..storage import GameNotFound, load_game, set_pin
from . import keeps_input, local_path, safe_next, this_page

bp = Blueprint("pins", __name__)


@bp.route("/games/<game_id>/pin", methods=["GET", "POST"])
@keeps_input
def enter_pin(game_id: str):
    """"Scorekeeper? Enter the PIN": this device becomes the game's scorekeeper (and a form
    refused for want of the PIN is sent again)."""
    db = get_db()
    game = load_game(db, game_id, deleted=True)
    back = safe_next(request.args.get("next"), url_for("games.game", game_id=game_id))
    form = PinForm(game_id)
    if not game.protected or is_keeper(game):
        return _onwards(form, back)
    if form.validate_on_submit():
        try:
            check(game, (form.pin.data or "").strip(), client_address())
        except PinRefused as refused:
            return pin_refused_page(refused, back)
        remember(game)
        flash(_("This device is now the scorekeeper of %(name)s.", name=game.display_name()))
        return _onwards(form, back)
    return render_template("pin.html", game=game, form=form, error=form.refusal, back=back), \
        400 if form.refusal else 200


def _onwards(form: PinForm, back: str):
    """Where a device that may now change the game goes: the form it sent before, sent
    again as it was (307 keeps the method and the body), else *back*."""
    if form.resend.data:
        return redirect(form.resend.data, code=307)
    return redirect(back)


@bp.route("/games/<game_id>/pin/change", methods=["GET", "POST"])
@keeps_input
def change_pin(game_id: str):
    """Set, change or remove the game's PIN; the current PIN is asked when it has one."""
    db = get_db()
    game = load_game(db, game_id)
    form = ChangePinForm()
    error, status, headers = None, 200, {}
    if form.validate_on_submit():
        try:
            check(game, (form.current.data or "").strip(), client_address())
            new = None if form.removing else parse_pin((form.new.data or "").strip())
            set_pin(db, game_id, None if new is None else hash_pin(new))
        except PinRefused as refused:
            error, status, headers = refused.message, refused.status, refused.headers
        except BadInput as bad:
            error, status = bad.message, 400
        else:
            game = load_game(db, game_id)
            if game.protected:
                remember(game)   # the device that set the PIN keeps score
                flash(_("The PIN is set. Other devices need it to change this game."))
            else:
                flash(_("The PIN is removed: every device can change this game."))
            return redirect(url_for("games.game", game_id=game_id))
    elif form.refusal:   # refused as a whole: an expired token
        error, status = form.refusal, 400
    return render_template("pin_change.html", game=game, form=form, error=error), status, headers


def pin_refused_page(refused: PinRefused, back: str | None = None):
    """A page write without the PIN: say so, and offer to enter it (403, or 429 waiting);
    what the refused form sent rides in the PIN form and is sent again once the PIN is
    right (:class:`~scorekeeper.forms.PinForm`).

    "Just watch" leads *back*: by default the page asked for, or for a form sent, the
    page it was sent from."""
    game = refused.game
    if back is None:
        back = safe_next(this_page() if request.method == "GET" else request.referrer
                         and local_path(request.referrer),
                         url_for("games.game", game_id=game.id))
    return (render_template("pin.html", game=game, form=PinForm(game.id, sent_to=this_page()),
                            error=refused.message, back=back),
            refused.status, refused.headers)


def refusal_for_viewer() -> PinRefused | None:
    """The PIN refusal a form sent to a protected game by a device that is not its
    scorekeeper gets, for an answer that comes before its view runs (an expired token):
    None for any other request."""
    game_id = (request.view_args or {}).get("game_id")
    if request.method != "POST" or not game_id:
        return None
    try:
        game = load_game(get_db(), game_id, deleted=True)
    except GameNotFound:
        return None
    return None if is_keeper(game) else PinRefused(game)
