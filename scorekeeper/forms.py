"""The forms (flask-wtf): new game, rename, delete, round scores, undo."""

from __future__ import annotations

import re

from flask import request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (BooleanField, FieldList, HiddenField, IntegerField, SelectField,
                     StringField)
from wtforms.validators import Length, NumberRange, Optional, ValidationError

from .errors import BadInput
from .game import parse_game_name, parse_players
from .options import CHOICES, MAX_PLAYERS, OPTION_LABELS, VALUE_LABELS, RuleOptions, parse_engines
from .parsing import whole_number
from .pins import parse_pin
from .tiles import DEFAULT_SET, SETS

try:  # WTForms 3.3 names select options with SelectChoice; tuples before that
    from wtforms.fields.choices import SelectChoice as _Choice
except ImportError:  # pragma: no cover
    def _Choice(value, label):
        return (value, label)


class ChoiceField(SelectField):
    """A select that refuses a value outside its choices (a crafted form) with a sentence."""

    def process_formdata(self, valuelist):
        try:
            super().process_formdata(valuelist)
        except ValueError:      # not even of the choices' type ("abc" for a set)
            self.data = None

    def pre_validate(self, form):
        if not any(match for _value, _label, match, *_rest in self.iter_choices()):
            raise ValidationError(gettext("Choose one of the listed values for “%(label)s”.",
                                          label=self.label.text))


class WholeNumberField(IntegerField):
    """A number typed with the digits 0-9 only (int() would take "١٢"; "²" would crash)."""

    def process_formdata(self, valuelist):
        text = valuelist[0].strip() if valuelist else ""
        self.data = whole_number(text) if text else None
        if text and self.data is None:
            raise ValueError(gettext("%(label)s must be a whole number, written with the digits "
                                     "0 to 9.", label=self.label.text))


def _option_field(name):
    return ChoiceField(
        _l(OPTION_LABELS[name]),
        choices=[_Choice("true" if v is True else "false" if v is False else v,
                         _l(VALUE_LABELS[(name, v)])) for v in CHOICES[name]],
        default="false" if CHOICES[name][0] is False else CHOICES[name][0],
    )


class NewGameForm(FlaskForm):
    """A new game: players in seating order, the set, the rule options (R9)."""

    name = StringField(_l("Game name (optional)"), validators=[Length(max=60)])
    players = FieldList(StringField(_l("Player")), min_entries=MAX_PLAYERS,
                        max_entries=MAX_PLAYERS)
    set = ChoiceField(_l("Set"), coerce=int, default=DEFAULT_SET,
                      choices=[_Choice(n, _l("Double-%(n)s", n=n)) for n in SETS])
    shortened = BooleanField(_l("Shortened game"))
    start_engine = WholeNumberField(_l("Start engine"), validators=[Optional(), NumberRange(0, 18)])
    end_engine = WholeNumberField(_l("End engine"), validators=[Optional(), NumberRange(0, 18)])
    deal = _option_field("deal")
    starter = _option_field("starter")
    first_turn = _option_field("first_turn")
    first_turn_stuck = _option_field("first_turn_stuck")
    double_owner_satisfies = _option_field("double_owner_satisfies")
    double_blank = _option_field("double_blank")
    pin = StringField(_l("Scorekeeper PIN (optional, 4 to 8 digits)"))

    def validate_pin(self, field):
        field.data = (field.data or "").strip()
        if field.data:
            try:
                parse_pin(field.data)
            except BadInput as error:
                raise ValidationError(error.message) from None

    def validate_players(self, field):
        # Every players-N sent, not only the 14 entries the FieldList keeps: a crafted
        # form with more names is refused with the count, not silently cut to 14.
        sent = []
        for key in request.form:
            seat = re.fullmatch(r"players-([0-9]+)", key)
            if seat:   # ordered as numbers, without int() on a possibly huge string
                digits = seat.group(1).lstrip("0") or "0"
                sent += [((len(digits), digits), name) for name in request.form.getlist(key)]
        names = [name for _seat, name in sorted(sent) if name.strip()]
        try:
            self.cleaned_players = parse_players(names)
        except BadInput as error:
            raise ValidationError(error.message) from None

    def validate_name(self, field):
        try:
            self.cleaned_name = parse_game_name(field.data or "")
        except BadInput as error:
            raise ValidationError(error.message) from None

    def options(self) -> RuleOptions:
        return RuleOptions.from_text({name: getattr(self, name).data for name in CHOICES})

    def engines(self) -> tuple[int, int]:
        """The start and end engine (R2.1); raises BadInput with the field."""
        if not self.shortened.data:
            return self.set.data, 0
        return parse_engines(self.set.data, self.start_engine.data, self.end_engine.data)


class RenameForm(FlaskForm):
    name = StringField(_l("Game name"), validators=[Length(max=60)])


class ImportForm(FlaskForm):
    """An export file (a game as JSON) to import as a new game."""

    file = FileField(_l("Export file (.json)"))


class PinForm(FlaskForm):
    """A device becomes the game's scorekeeper by entering its PIN."""

    pin = StringField(_l("PIN"))


class ChangePinForm(FlaskForm):
    """Set, change or remove a game's PIN (the current one is needed when it has one)."""

    current = StringField(_l("Current PIN"))
    new = StringField(_l("New PIN (4 to 8 digits)"))


class ConfirmForm(FlaskForm):
    """A bare form for actions that need only the CSRF token (delete, undo)."""


class RoundForm(FlaskForm):
    """The round's scores; the per-player fields are read by the view (one per seat)."""

    revision = HiddenField()
    confirm = HiddenField(default="")


class SeasonForm(FlaskForm):
    """A new season: a name and its first and last days (checked by records.check_season)."""

    name = StringField(_l("Season name"))
    start = StringField(_l("From"), render_kw={"type": "date"})
    end = StringField(_l("To"), render_kw={"type": "date"})


class AliasForm(FlaskForm):
    """Another spelling of this player, to be joined to them (people.add_alias)."""

    alias = StringField(_l("Another spelling of this player"))
