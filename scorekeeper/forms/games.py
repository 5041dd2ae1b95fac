"""The forms of a game as a whole: a new game (players, colours, options, the deal),
its new name, and a game imported from its export file."""

from __future__ import annotations

import re

from flask import request
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField
from wtforms import BooleanField, FieldList, StringField
from wtforms.validators import NumberRange, Optional, ValidationError

from ..colours import PALETTE, parse_colour, parse_colours
from ..errors import BadInput
from ..game import clean_name, parse_game_name, parse_players, person_key
from ..options import MAX_PLAYERS, OPTIONS, RuleOptions, parse_engines
from ..parsing import whole_number
from ..pins import parse_pin
from ..tiles import DEFAULT_SET, SETS
from .base import ChoiceField, PageForm, WholeNumberField, Choice, option_field


class NewGameForm(PageForm):
    """A new game: players in seating order, each with a train colour, the set, the rule
    options (R9: a field per row of options.OPTIONS, added below the class).

    A seat's colour is sent as ``colour-N`` beside its name ``players-N`` (a native
    colour input, which works without script); a row not sent one takes the default
    palette's colour of that row.
    """

    expired = _l("The form expired; everything you typed is still here. Press “Start the game” "
                 "again.")

    # The length is checked by parse_game_name, whose sentence names the limit.
    name = StringField(_l("Game name (optional)"))
    players = FieldList(StringField(_l("Player")), min_entries=MAX_PLAYERS,
                        max_entries=MAX_PLAYERS)
    set = ChoiceField(_l("Set"), coerce=int, default=DEFAULT_SET,
                      choices=[Choice(n, _l("Double-%(n)s", n=n)) for n in SETS])
    shortened = BooleanField(_l("Shortened game"))
    start_engine = WholeNumberField(_l("Start engine"), validators=[Optional(), NumberRange(0, 18)])
    end_engine = WholeNumberField(_l("End engine"), validators=[Optional(), NumberRange(0, 18)])
    pin = StringField(_l("Scorekeeper PIN (optional, 4 to 8 digits)"))

    def validate_pin(self, field):
        field.data = (field.data or "").strip()
        if field.data:
            try:
                parse_pin(field.data)
            except BadInput as error:
                raise ValidationError(error.message) from None

    #: The rows of the players' boxes a refusal marks (0-based), as validate_players found.
    refused_rows: frozenset[int] = frozenset()

    def validate_players(self, field):
        # Every players-N sent, not only the 14 entries the FieldList keeps: a crafted
        # form with more names is refused with the count, not silently cut to 14.
        sent = []
        for key in request.form:
            seat = re.fullmatch(r"players-([0-9]+)", key)
            if seat:   # ordered as numbers, without int() on a possibly huge string
                digits = seat.group(1).lstrip("0") or "0"
                sent += [((len(digits), digits), name, self.colour_of_row(seat.group(1)))
                         for name in request.form.getlist(key)]
        named = [(row, name, colour) for row, name, colour in sorted(sent) if name.strip()]
        try:
            self.cleaned_players = parse_players([name for _row, name, _colour in named])
            self.cleaned_colours = parse_colours([colour for _row, _name, colour in named],
                                                 self.cleaned_players)
        except BadInput as error:
            self.refused_rows = _rows_refused(error, named)
            raise ValidationError(error.message) from None

    #: The colours of the last game's seats, when the form seats its table again.
    seated_colours: list[str] = []

    def colour_of_row(self, row: str | int) -> str:
        """The train colour of the form's row *row* (its ``players-N``): as sent, else the
        last table's (seated again), else the default palette's for that row."""
        sent = request.form.get(f"colour-{row}")
        if sent is not None:
            return sent   # checked by parse_colours with the names (a sentence if bad)
        index = int(row) if len(str(row)) <= 3 else len(PALETTE)
        if index < len(self.seated_colours):
            return self.seated_colours[index]
        return PALETTE[index] if index < len(PALETTE) else PALETTE[-1]

    def row_colour(self, row: int) -> str:
        """The colour the page shows in row *row*'s colour input: a well-written one as
        sent or seated, else the default palette's (a colour input shows only #rrggbb)."""
        try:
            return parse_colour(self.colour_of_row(row), "colour")
        except BadInput:
            return PALETTE[row]

    def validate_name(self, field):
        try:
            self.cleaned_name = parse_game_name(field.data or "")
        except BadInput as error:
            raise ValidationError(error.message) from None

    def options(self) -> RuleOptions:
        """The house rules chosen (R9), read as every form's options are (from_text)."""
        return RuleOptions.from_text({field.short_name: field.data
                                      for field in self.option_fields()})

    def option_fields(self) -> list[ChoiceField]:
        """The R9 options' radio groups, in the table's order (the page shows them so)."""
        return [self[option.name] for option in OPTIONS]

    def engines(self) -> tuple[int, int]:
        """The start and end engine (R2.1); raises BadInput with the field."""
        if not self.shortened.data:
            return self.set.data, 0
        return parse_engines(self.set.data, self.start_engine.data, self.end_engine.data)


def _rows_refused(error: BadInput, named) -> frozenset[int]:
    """The boxes a refused name marks: its own ("players.2" is the third name given) and
    every other holding the same person (a name given twice: both boxes); none for a
    refusal of the whole list (too few players)."""
    index = whole_number(error.field.rpartition(".")[2]) if "." in error.field else None
    if index is None or index >= len(named):
        return frozenset()
    key = person_key(clean_name(named[index][1]))
    return frozenset(int(digits) for (size, digits), name, _colour in named
                     if size <= 3 and person_key(clean_name(name)) == key)


for _option in OPTIONS:   # WTForms takes fields set on the class as its own (dynamic forms)
    setattr(NewGameForm, _option.name, option_field(_option))


class RenameForm(PageForm):
    """A game's new name (an empty one shows its date)."""

    expired = _l("The page expired; the name you typed is still here. Press “Save name” again.")
    name = StringField(_l("Game name"))   # checked by parse_game_name, in the view


class ImportForm(PageForm):
    """An export file (a game as JSON) to import as a new game."""

    expired = _l("The page expired; choose the file again and import it.")

    file = FileField(_l("Export file (.json)"))
