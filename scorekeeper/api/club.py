"""API: the club PIN (API.md "Club PIN"): whether one is set, and setting, changing or
removing it."""

from __future__ import annotations

from flask import jsonify

from ..clubpin import change, is_set, require_club
from ..errors import BadInput
from ..parsing import Fields
from ..text import N_, _
from . import bp, json_body

#: The field of the club PIN's body (API.md), anything else refused by name.
CLUB_PIN = Fields(("pin",), N_("“%(name)s” is not a field of the club PIN."))


@bp.get("/club")
def club():
    """Whether the club's data is protected by a club PIN."""
    return jsonify(protected=is_set())


@bp.put("/club/pin")
def club_pin():
    """Set the club PIN when none is set: {"pin": "123456"}; change it, or remove it with
    {"pin": null}, with the current one in X-Club-PIN."""
    require_club(api=True)
    body = json_body(CLUB_PIN)
    if "pin" not in body:
        raise BadInput(_("Give the new club PIN (4 to 8 digits), or null to remove it."), "pin")
    return jsonify(protected=change(None, body["pin"], api=True) is not None)
