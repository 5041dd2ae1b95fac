"""The one error type for input a person or program got wrong."""

from __future__ import annotations


class BadInput(ValueError):
    """Input that cannot be accepted: a sentence for a person, and the field.

    ``field`` is the dotted path of the offending part ("scores.Ann",
    "table.trains.Bob.2"), which the JSON API returns as is and forms use to
    put the message beside the right input.
    """

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field

    def __repr__(self) -> str:
        return f"BadInput({self.message!r}, field={self.field!r})"
