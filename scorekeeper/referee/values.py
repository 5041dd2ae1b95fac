"""The referee's small values and their JSON, each beside its type: :class:`Play` (one tile
put on one train), :class:`Violation` (one rule a play breaks), :class:`Ground` (one rule
that allows a legal one), and :func:`train_sentence`, a whole sentence about a train.
Pure: no Flask, storage or PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..errors import BadInput
from ..parsing import Fields
from ..rulenote import RuleNote
from ..text import N_, _
from ..tiles import Tile, parse_tile


@dataclass(frozen=True, slots=True)
class Play:
    """One tile put on one train; ``train`` is a player's name, None for the Mexican train."""

    tile: Tile
    train: str | None
    at: Tile | None = None   # the open end it joins, under chicken foot (R10.5)

    def to_json(self) -> dict:
        data = {"tile": self.tile.to_json(), "train": self.train}
        if self.at is not None:
            data["at"] = self.at.to_json()
        return data

    @classmethod
    def from_json(cls, data, table: "Table | None" = None, field: str = "play",
                  fields: Fields | None = None) -> "Play":
        """A play from JSON; with *table*, the train must be one of its trains.  Its fields
        are :data:`PLAY_FIELDS` (a live-table action, which carries more, passes None)."""
        if not isinstance(data, Mapping):
            raise BadInput(_('A play is an object like {"tile": [5, 9], "train": "Ann"}.'), field)
        if fields is not None:
            fields.check(data, field)
        if "tile" not in data:
            raise BadInput(_("Say which tile is played."), f"{field}.tile")
        tile = parse_tile(data["tile"], f"{field}.tile")
        if "train" not in data:
            raise BadInput(_("Say which train the tile goes on: a player's name, or null for "
                             "the Mexican train."), f"{field}.train")
        train = data["train"]
        if train is not None and not isinstance(train, str):
            raise BadInput(_("The train is a player's name, or null for the Mexican train."),
                           f"{field}.train")
        if table is not None and train is not None and train not in table.trains:
            raise BadInput(_("%(name)s is not a player at this table, so there is no such "
                             "train.", name=train), f"{field}.train")
        at = data.get("at")
        at = None if at is None else parse_tile(at, f"{field}.at")
        play = cls(tile, train, at)
        if table is not None:
            table.end_of(play, f"{field}.at")     # an end the train has, or BadInput
        return play

    def __repr__(self) -> str:
        at = "" if self.at is None else f" at {self.at}"
        return f"Play({self.tile} on {'Mexican' if self.train is None else self.train}{at})"


#: The fields of a play in API.md (``play``: which tile, which train, at which open end).
PLAY_FIELDS = Fields(("tile", "train", "at"), N_("“%(name)s” is not a field of a play."))
#: The fields of each play of a table's ``turn``.
TURN_FIELDS = Fields(("tile", "train"), N_("“%(name)s” is not a field of a play."))


class InvalidTable(BadInput):
    """A table that cannot exist (a train that does not chain, a tile twice …).

    ``field`` names the offending part as a dotted path ("table.trains.Ann.1").
    """


#: One rule a play breaks: a stable code, the rule number in RULES.md, a sentence.
Violation = RuleNote


@dataclass(frozen=True, slots=True)
class Ground:
    """One rule that allows a legal play: the rule number in RULES.md and a sentence."""

    rule: str
    message: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "message": self.message}

    def __repr__(self) -> str:
        return f"Ground({self.rule}: {self.message!r})"


def train_sentence(train: str | None, mexican: str, other: str, own: str | None = None,
                   **values) -> str:
    """One whole sentence about a train, translated: *mexican* for the Mexican train,
    *own* (if given) for the train of ``values["player"]``, else *other* with %(owner)s.

    Each id is a whole sentence marked with N_ where it is written, so translators
    get every variant whole; nothing is spliced into anything.
    """
    if train is None:
        return _(mexican, **values)
    if own is not None and train == values.get("player"):
        return _(own, **values)
    return _(other, owner=train, **values)
