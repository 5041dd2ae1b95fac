"""The club PIN: who may change the club as a whole (API.md "Club PIN"; issue 19).

Optional.  While none is set, every device may do everything, as before.  Once set (on
the home page's first start, or on the settings page, ``/club``), stored hashed as a
game's PIN, it guards the club-level changes: seasons (new, removed), player spellings
(joined, separated), importing a game, restoring one from "Recently deleted" (the game's
own PIN also serves for its game), the full backup download and restoring a backup, and
the club PIN itself.  Reads stay open.  A device enters it once (remembered in its
session, tied to the PIN, as a game's scorekeeper is); the API takes the ``X-Club-PIN``
header with every request.  Wrong ones are slowed as a game's are
(:func:`pins.verify`, counted apart under the scope ``"club"``).  A club PIN never
opens a game: games keep their own PINs.
"""

from __future__ import annotations

from flask import request, session

from .db import get_db
from .errors import BadInput
from .game import Game
from .pins import (OWNERS, Refused, check, client_address, fingerprint, hash_pin, is_keeper,
                   parse_pin, require_keeper, verify)
from .storage import club_pin_hash, set_club_pin
from .text import _

HEADER = "X-Club-PIN"
#: The count of wrong club PINs (pins.Guesses' scope; a game's id is hexadecimal).
SCOPE = "club"
#: The field of a page's form that carries the club PIN, when the prompt asks for it.
FIELD = "club_pin"


class ClubPinRefused(Refused):
    """A club-level change without the club PIN (403), or while guessing is slowed (429)."""

    field = FIELD

    @property
    def message(self) -> str:
        """The refusal's sentence, in the request's language."""
        if self.retry_after and self.everyone:
            return " ".join((
                _("Too many wrong club PINs were tried in the last hour, from every device "
                  "together: entering it waits %(minutes)s min. A device that already "
                  "holds it keeps it.", minutes=self.minutes),
                _("On the server machine, the command “scorekeeper unlock” lifts every "
                  "wait at once, and “scorekeeper club-pin” sets a new club PIN.")))
        if self.retry_after:
            return _("Too many wrong club PINs from this network address (every device on it "
                     "counts together): try again in %(minutes)s min.", minutes=self.minutes)
        if self.wrong:
            return _("That is not the club PIN.")
        return _("A club PIN protects the club's data: seasons, player spellings, imports, "
                 "restores and the backup. Enter it once on this device to change them.")


def current_hash() -> str | None:
    """The club PIN's hash; None while the club has none."""
    return club_pin_hash(get_db())


def is_set() -> bool:
    """True while the club has a PIN."""
    return current_hash() is not None


def holds_club(pin_hash: str | None = None) -> bool:
    """True when this device may change the club's data: no club PIN is set, or this
    device entered it (and it has not changed since)."""
    pin_hash = current_hash() if pin_hash is None else pin_hash
    return pin_hash is None or session.get("club") == fingerprint(pin_hash)


def holds_club_pin() -> bool:
    """True when a club PIN is set and this request holds it: its device entered it, or
    it carries it in the X-Club-PIN header (checked, a wrong one counted as any).  Such a
    request is let through a game's wait of every device together (``pins.check``)."""
    pin_hash = current_hash()
    if pin_hash is None:
        return False
    header = request.headers.get(HEADER)
    if header is None:
        return session.get("club") == fingerprint(pin_hash)
    try:
        check_pin(header, pin_hash)
    except ClubPinRefused:
        return False
    return True


OWNERS.append(holds_club_pin)


def remember_club(pin_hash: str) -> None:
    """This device entered the club PIN (or set it): it holds it until the PIN changes."""
    session["club"] = fingerprint(pin_hash)


def check_pin(pin: str | None, pin_hash: str) -> None:
    """Let *pin* through as the club PIN, or raise ClubPinRefused (missing, wrong, or
    guessing slowed; a device that already holds it keeps it through a lockout of all)."""
    verify(SCOPE, pin_hash, pin, client_address(), holds_role=holds_club(pin_hash),
           refused=ClubPinRefused)


def require_club(*, api: bool = False) -> None:
    """For a club-level change: let it through, or raise ClubPinRefused.

    The API sends the PIN in the X-Club-PIN header with every request.  A page's device
    holds it once entered; the PIN prompt sends it as the form field ``club_pin`` with
    what was being done, which then goes ahead (and the device holds it from then on).
    A script may send the header to a page (the backup download).
    """
    pin_hash = current_hash()
    if pin_hash is None:
        return
    header = request.headers.get(HEADER)
    if api or header is not None:
        check_pin(header, pin_hash)
        return
    if holds_club(pin_hash):
        return
    check_pin(request.form.get(FIELD) if request.method == "POST" else None, pin_hash)
    remember_club(pin_hash)


def require_restorer(game: Game, game_pin: str | None = None, *, api: bool = False) -> None:
    """Bringing *game* back from "Recently deleted": while a club PIN is set, the club PIN,
    or the game's own PIN for its game (API.md, Club PIN); without one, as any change to
    the game (its PIN, when it has one)."""
    if not is_set():
        if api:
            check(game, game_pin, client_address())
        else:
            require_keeper(game)
        return
    if api and game.protected and game_pin is not None:
        check(game, game_pin, client_address())
    elif not api and game.protected and is_keeper(game):
        return
    else:
        require_club(api=api)


def change(current: str | None, new: str | None, *, api: bool = False) -> str | None:
    """Set the club PIN (none yet), change it or (*new* None) remove it; the current one
    must be given when one is set: on the settings page as *current*, under its guessing
    limit (the API's route has checked its X-Club-PIN header with require_club).  Answers the new hash; a page's device holds
    the new PIN from then on.  BadInput for a new PIN of the wrong form, or when another
    device changed the club PIN meanwhile."""
    was = current_hash()
    if was is not None and not api:
        check_pin(current, was)
    if new is None and was is None:
        return None   # nothing to remove: nothing changes
    new_hash = None if new is None else hash_pin(parse_pin(new, "pin" if api else "new"))
    if not set_club_pin(get_db(), new_hash, was):
        raise BadInput(_("The club PIN was changed on another device meanwhile; nothing was "
                         "changed here. Reload the page and try again."), "pin")
    if new_hash is not None and not api:
        remember_club(new_hash)
    return new_hash
