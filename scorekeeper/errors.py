"""The one error type for input a person or program got wrong."""

from __future__ import annotations


class BadInput(ValueError):
    """Input that cannot be accepted: a sentence for a person, and the field.

    ``field`` is the dotted path of the offending part ("scores.Ann",
    "table.trains.Bob.2"), which the JSON API returns as is.  ``seat`` is the
    index of the player whose input it is, when there is one: a page marks
    that player's box by it (never by taking the field apart, as a name may
    hold a dot).
    """

    def __init__(self, message: str, field: str = "", seat: int | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.seat = seat

    def __repr__(self) -> str:
        seat = "" if self.seat is None else f", seat={self.seat}"
        return f"BadInput({self.message!r}, field={self.field!r}{seat})"
