"""What every page form is (:class:`PageForm`: refused as a whole in one sentence) and
where a refusal lands (:func:`attach`); the fields the forms share."""

from __future__ import annotations

from flask import g
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField
from wtforms.validators import ValidationError

from ..errors import BadInput
from ..options import Option
from ..parsing import whole_number

try:  # WTForms 3.3 names select options with SelectChoice; tuples before that
    from wtforms.fields.choices import SelectChoice as Choice
except ImportError:  # pragma: no cover
    def Choice(value, label):
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


def option_field(option: Option) -> ChoiceField:
    """The radio group of one R9 option, from its row: its label, its values' labels, the
    default checked."""
    return ChoiceField(
        _l(option.label),
        choices=[Choice(option.as_text(value), _l(label)) for value, label in option.values],
        default=option.as_text(option.default),
    )


class ConfirmForm(PageForm):
    """A bare form for actions that need only the CSRF token (delete, undo)."""
