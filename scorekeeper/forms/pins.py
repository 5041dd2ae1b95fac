"""The game PIN's forms: entering it (carrying the form it refused) and changing it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField

from .base import PageForm


#: What a form refused for want of the PIN sends that the PIN page does not carry: the
#: token (the PIN page has its own) and the PIN form's own fields.
_NOT_CARRIED = frozenset({"csrf_token", "pin", "resend"})


class PinForm(PageForm):
    """A device becomes the game's scorekeeper by entering its PIN.

    A form of the game refused for want of the PIN (its cookie gone, the PIN changed on
    another device) comes along: its address (:attr:`resend`) and its fields
    (:attr:`carried`) ride in the PIN form, and once the PIN is right the browser sends
    them again to that address (a 307), so nothing typed is lost and the save goes
    through its own checks (token, revision, merge) as if sent the first time.
    """

    expired = _l("The page expired; enter the PIN again.")

    pin = StringField(_l("PIN"))
    resend = HiddenField()

    def __init__(self, game_id: str, sent_to: str | None = None, **kwargs):
        """*sent_to*: the address of this request, when it is a form refused for want of
        the PIN (pin_refused_page passes it)."""
        super().__init__(**kwargs)
        #: The refused form's fields (name, value), in the order sent.
        self.carried: list[tuple[str, str]] = []
        if request.method != "POST":
            return
        # The PIN form's own post carries what it was given; any other post to the game
        # is the form refused, carried from its own address.
        own = "pin" in request.form
        target = self.resend.data if own else sent_to
        self.resend.data = target if _resendable(target, game_id) and _same_site() else ""
        if self.resend.data:
            self.carried = [(k, v) for k, v in request.form.items(multi=True)
                            if k not in _NOT_CARRIED]

    def typed(self, players) -> list[tuple[str, str]]:
        """What the carried form had typed, to show it again: each player's score (the
        round form's score-N), or the game's new name (the rename form's)."""
        scores = {f"score-{i}": name for i, name in enumerate(players)}
        lines = [(scores[k], v) for k, v in self.carried if k in scores and v.strip()]
        lines += [(gettext("Game name"), v) for k, v in self.carried if k == "name"]
        return lines


def _same_site() -> bool:
    """False for a form another site's page sent (its Origin, or else its Referer, names
    another host): its fields are never carried, so a PIN typed here cannot save them."""
    sent_from = request.headers.get("Origin") or request.headers.get("Referer")
    if not sent_from or sent_from == "null":
        return not sent_from   # no header (an old browser, a script); "null": opaque
    return urlsplit(sent_from).netloc == request.host


def _resendable(target: str | None, game_id: str) -> bool:
    """True for an address of one of the game's own forms (never the PIN page itself,
    never another site): where a refused form may be sent again."""
    if not target:
        return False
    own = re.fullmatch(r"/games/%s/[A-Za-z0-9/_-]+(\?[^\s\\]*)?" % re.escape(game_id), target)
    return own is not None and not target.startswith(f"/games/{game_id}/pin")


class ChangePinForm(PageForm):
    """Set, change or remove a game's PIN (the current one is needed when it has one)."""

    current = StringField(_l("Current PIN"))
    new = StringField(_l("New PIN (4 to 8 digits)"))
    action = StringField()   # the button pressed: "set", or "remove"

    @property
    def removing(self) -> bool:
        """True when "Remove the PIN" was pressed."""
        return self.action.data == "remove"
