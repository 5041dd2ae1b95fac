"""The forms (flask-wtf): new game, rename, delete, round scores, undo, PINs, seasons.

Every page form is a :class:`PageForm`: refused as a whole (its token expired, the
database stayed busy, a refusal that belongs to no field) it says so in one sentence,
``form.refusal``, shown above it; a refusal that belongs to a field is put on that
field by :func:`attach`.
"""

from __future__ import annotations

import re

from flask import g, request
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


class PageForm(FlaskForm):
    """A form of the pages: its fields' checks, and the one sentence that refuses it as a
    whole (:attr:`refusal`)."""

    #: Said above the form when its token expired (CSRF); what was typed comes back with it.
    expired = _l("The page expired; try again.")

    def validate(self, extra_validators=None) -> bool:
        """The fields' checks; none when :func:`refuse_forms` refused this request's forms
        (the view then only shows the form again, with what was typed)."""
        refused = g.get("forms_refused")
        if refused is not None:
            self.form_errors.append(refused)
            return False
        return super().validate(extra_validators)

    @property
    def refusal(self) -> str | None:
        """The sentence above the form when it was refused as a whole, else None."""
        if self.form_errors:
            return self.form_errors[0]
        token = getattr(self, "csrf_token", None)
        if token is not None and token.errors:
            return str(self.expired)
        return None


def refuse_forms(sentence: str) -> None:
    """Refuse every page form of this request with *sentence*, so that a view run again
    shows its form with what was typed and saves nothing (the database stayed busy)."""
    g.forms_refused = sentence


def attach(form: FlaskForm, error: BadInput) -> None:
    """Show *error* where it belongs on *form*: at the seat's score box (``error.seat``,
    on the round form), else at the field its ``field`` names (its first part: "players.2"
    is the players list; a form's ``error_fields`` maps the domain's names to its own),
    else above the form (``form.refusal``)."""
    seats = getattr(form, "seats", None)
    if error.seat is not None and seats is not None and 0 <= error.seat < len(seats):
        field = seats[error.seat].score
    else:
        name = error.field.split(".")[0]
        name = getattr(form, "error_fields", {}).get(name, name)
        field = form[name] if name and name in form else None
    if field is None:
        form.form_errors.append(error.message)
    else:
        field.errors = [*field.errors, error.message]


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


class NewGameForm(PageForm):
    """A new game: players in seating order, the set, the rule options (R9)."""

    expired = _l("The form expired; everything you typed is still here. Press “Start the game” "
                 "again.")

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


class RenameForm(PageForm):
    """A game's new name (an empty one shows its date)."""

    expired = _l("The page expired; the name you typed is still here. Press “Save name” again.")
    name = StringField(_l("Game name"), validators=[Length(max=60)])


class ImportForm(PageForm):
    """An export file (a game as JSON) to import as a new game."""

    expired = _l("The page expired; choose the file again and import it.")

    file = FileField(_l("Export file (.json)"))


class PinForm(PageForm):
    """A device becomes the game's scorekeeper by entering its PIN."""

    expired = _l("The page expired; enter the PIN again.")

    pin = StringField(_l("PIN"))


class ChangePinForm(PageForm):
    """Set, change or remove a game's PIN (the current one is needed when it has one)."""

    current = StringField(_l("Current PIN"))
    new = StringField(_l("New PIN (4 to 8 digits)"))


class ConfirmForm(PageForm):
    """A bare form for actions that need only the CSRF token (delete, undo)."""


class RoundForm(PageForm):
    """The round's scores; the per-player fields are read by the view (one per seat)."""

    revision = HiddenField()
    confirm = HiddenField(default="")


class SeasonForm(PageForm):
    """A new season: a name and its first and last days (checked by records.check_season)."""

    #: check_season's names for the days ("from", "to"), as the API takes them.
    error_fields = {"from": "start", "to": "end"}

    name = StringField(_l("Season name"))
    start = StringField(_l("From"), render_kw={"type": "date"})
    end = StringField(_l("To"), render_kw={"type": "date"})


class AliasForm(PageForm):
    """Another spelling of this player, to be joined to them (people.add_alias)."""

    alias = StringField(_l("Another spelling of this player"))
