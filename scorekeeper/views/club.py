"""Pages for the club as a whole (issue 19): its settings (the club PIN), the club PIN's
prompt before a club-level change, and restoring a backup.

The prompt comes back to what was being done: a form sent without the club PIN is shown
again as the prompt, carrying what was typed, and sent with the PIN it goes ahead
(``clubpin.require_club`` reads the PIN from it); a page asked for without it leads back
to that page once the PIN is entered.
"""

from __future__ import annotations

from flask import (Blueprint, flash, redirect, render_template, request,
                   url_for)
from flask_babel import gettext as _

from ..backups import kept_folder, stage_upload, swap_in
from ..clubpin import FIELD, ClubPinRefused, change, holds_club, is_set, require_club
from ..errors import BadInput
from ..forms import ClubPinEntryForm, ClubPinForm, RestoreConfirmForm, RestoreForm
from . import keeps_input, local_path, safe_next

bp = Blueprint("club", __name__)


@bp.route("/club", methods=["GET", "POST"])
@keeps_input
def settings():
    """The club's settings: whether a club PIN guards the club's data; set, change or
    remove it (with the current one)."""
    form = ClubPinForm()
    error, status, headers = None, 200, {}
    if form.validate_on_submit():
        removing = form.removing
        was_set = is_set()
        try:
            change((form.current.data or "").strip(),
                   None if removing else (form.new.data or "").strip())
        except ClubPinRefused as refused:
            error, status, headers = refused.message, refused.status, refused.headers
        except BadInput as bad:
            error, status = bad.message, 400
        else:
            if removing:
                flash(_("The club PIN is removed: every device can change the club's data "
                        "again."))
            elif was_set:
                flash(_("The club PIN is changed. This device holds the new one; others "
                        "need it for the club's data."))
            else:
                flash(_("The club PIN is set. This device holds it; others need it for the "
                        "club's data."))
            return redirect(safe_next(request.args.get("next"), url_for("club.settings")))
    elif form.refusal:   # refused as a whole: an expired token
        error, status = form.refusal, 400
    return render_template("club/settings.html", form=form, error=error, protected=is_set(),
                           holds=holds_club()), status, headers


@bp.route("/club/pin", methods=["GET", "POST"])
@keeps_input
def enter_pin():
    """"Club PIN?": this device enters the club PIN, then goes back to what it was doing."""
    back = safe_next(request.args.get("next"), url_for("games.index"))
    if holds_club():
        return redirect(back)
    form = ClubPinEntryForm()
    if form.validate_on_submit():
        require_club()   # the PIN sent in the form: held from now on, or the prompt again
        flash(_("This device now holds the club PIN: it can change the club's data until "
                "the PIN changes."))
        return redirect(back)
    return prompt(form.refusal, 400 if form.refusal else 200, back=back, form=form)


def pin_refused_page(refused: ClubPinRefused):
    """A club-level change without the club PIN: the prompt (403, or 429 while guessing is
    slowed), which comes back to what was being done."""
    return prompt(refused.message if refused.wrong or refused.retry_after else None,
                  refused.status, refused.headers)


def prompt(error: str | None, status: int, headers: dict | None = None, *,
           back: str | None = None, form: ClubPinEntryForm | None = None):
    """The club PIN's prompt.  For a form that was sent, the prompt is that form again
    (what was typed carried along, a file to choose again) with the PIN; for a page asked
    for, it enters the PIN and leads back to the page."""
    here = request.full_path.rstrip("?")
    entering = request.endpoint == "club.enter_pin"   # the prompt itself, sent
    resend = request.method == "POST" and not entering
    if back is None:
        back = safe_next(request.args.get("next") if entering else
                         here if request.method == "GET" else
                         request.referrer and local_path(request.referrer),
                         url_for("games.index"))
    if resend:
        action = here
        carried = [(k, v) for k, v in request.form.items(multi=True) if k != FIELD]
    else:
        action = url_for("club.enter_pin", next=back)
        carried = None
    return render_template("club/pin.html", form=form or ClubPinEntryForm(formdata=None),
                           action=action, carried=carried, files=list(request.files),
                           error=error, back=back), status, headers or {}


@bp.route("/backup/restore", methods=["GET", "POST"])
@keeps_input
def restore_upload():
    """Restore a backup: choose the file; it is checked and summed up, and nothing changes
    until that is confirmed."""
    require_club()
    form = RestoreForm()
    if not form.validate_on_submit():   # a GET, or refused as a whole (an expired token)
        return render_template("club/restore.html", form=form, error=None,
                               kept=kept_folder()), 400 if form.refusal else 200
    upload = request.files.get(form.file.name)
    try:
        if upload is None or not upload.filename:
            raise BadInput(_("Choose the backup file (.sqlite) to restore."), "file")
        token, summary = stage_upload(upload)
    except BadInput as error:
        return render_template("club/restore.html", form=form, error=error.message,
                               kept=kept_folder()), 400
    return render_template("club/restore_confirm.html", summary=summary, kept=kept_folder(),
                           form=RestoreConfirmForm(formdata=None, staged=token))


@bp.post("/backup/restore/confirm")
def restore_confirm():
    """Put the checked backup in place of the database, whole; the database as it was is
    kept as a backup of its own."""
    require_club()
    form = RestoreConfirmForm()
    if not form.validate_on_submit():
        flash(str(form.refusal or form.expired), "error")
        return redirect(url_for("club.restore_upload"))
    try:
        kept = swap_in(form.staged.data or "")
    except BadInput as error:
        flash(error.message, "error")
        return redirect(url_for("club.restore_upload"))
    flash(_("The backup is restored. The database as it was before is kept in %(path)s.",
            path=kept))
    return redirect(url_for("games.index"))
