"""The forms (flask-wtf): new game, rename, delete, round scores, undo, PINs, seasons, the
club PIN and a backup's restore.

Every page form is a :class:`PageForm`: refused as a whole (its token expired, the
database stayed busy, a refusal that belongs to no field) it says so in one sentence,
``form.refusal``, shown above it; a refusal that belongs to a field is put on that
field by :func:`attach`.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import wtforms
from flask import g, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (BooleanField, FieldList, HiddenField, IntegerField, SelectField,
                     StringField)
from wtforms.validators import NumberRange, Optional, ValidationError

from .colours import PALETTE, parse_colour, parse_colours
from .errors import BadInput
from .game import clean_name, parse_game_name, parse_players, person_key
from .options import MAX_PLAYERS, OPTIONS, Option, RuleOptions, parse_engines
from .parsing import whole_number
from .pins import parse_pin
from .scoring import check_hands, check_scores, hand_score
from .tiles import DEFAULT_SET, SETS, parse_tile_text

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


def option_field(option: Option) -> ChoiceField:
    """The radio group of one R9 option, from its row: its label, its values' labels, the
    default checked."""
    return ChoiceField(
        _l(option.label),
        choices=[_Choice(option.as_text(value), _l(label)) for value, label in option.values],
        default=option.as_text(option.default),
    )


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
                      choices=[_Choice(n, _l("Double-%(n)s", n=n)) for n in SETS])
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


class ConfirmForm(PageForm):
    """A bare form for actions that need only the CSRF token (delete, undo)."""


class ClubPinForm(PageForm):
    """Set the club PIN (none yet), or change or remove it with the current one."""

    current = StringField(_l("Current club PIN"))
    new = StringField(_l("New club PIN (4 to 8 digits)"))


class ClubPinEntryForm(PageForm):
    """A device enters the club PIN before a change to the club's data."""

    expired = _l("The page expired; enter the club PIN again.")
    club_pin = StringField(_l("Club PIN"))


class RestoreForm(PageForm):
    """A backup file to check (then, confirmed, to restore)."""

    expired = _l("The page expired; choose the backup file again.")
    file = FileField(_l("Backup file (.sqlite)"))


class RestoreConfirmForm(PageForm):
    """The confirmation of a checked backup, by the token it was staged under."""

    expired = _l("The page expired; nothing was restored. Choose the backup file again.")
    staged = HiddenField()


def _stripped(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def hand_text(hand) -> str:
    """Counted tiles as the round form carries them: "3-4 0-0"."""
    return " ".join(f"{a}-{b}" for a, b in (hand or []))


class SeatForm(wtforms.Form):
    """One player's row of the round form: the score, the tiles counted for it with the
    pip counter, and the score the page showed when it was opened (the base of a
    merge); after a conflict, instead of a score, the choice between the score typed
    here (mine, with its tiles) and the one the other tablet saved (the base, with its).

    Its fields carry the seat in their names, as the page, static/app.js and pages
    already open send them: score-0, hand-0, base-0, mine-0, mine-hand-0,
    theirs-hand-0, pick-0.
    """

    score = StringField(filters=[_stripped])
    hand = StringField(filters=[_stripped])
    base = StringField(filters=[_stripped])
    mine = StringField(filters=[_stripped])
    mine_hand = StringField(filters=[_stripped])
    theirs_hand = StringField(filters=[_stripped])
    pick = StringField()   # "mine", "theirs" or not yet

    class Meta:
        def bind_field(self, form, unbound_field, options):
            """score-0, mine-hand-0: the seat after the name (WTForms' prefixes come first)."""
            name = f"{options['name'].replace('_', '-')}-{form.seat}"
            return unbound_field.bind(form=form, **{**options, "name": name, "prefix": ""})

    def __init__(self, round_form: RoundForm, seat: int, formdata=None, **data):
        self.round_form, self.seat = round_form, seat
        self.player = round_form.game.players[seat]
        super().__init__(formdata, data=data)
        #: A row of the conflict form, which sends a choice (mine-N) instead of a score.
        self.is_choice = bool(self.mine.raw_data)

    @property
    def entry(self) -> tuple[str, str]:
        """The score and tiles this row sends: as typed, or the side picked after a conflict
        (nothing until one is picked)."""
        if not self.is_choice:
            return self.score.data, self.hand.data
        return {"mine": (self.mine.data, self.mine_hand.data),
                "theirs": (self.base.data, self.theirs_hand.data)}.get(self.pick.data, ("", ""))

    @property
    def base_score(self) -> int | None:
        """The score the page showed when it was opened (None: none yet)."""
        return whole_number(self.base.data)

    def validate_score(self, _field):
        """R7.4: a whole number from 0 to the round's largest hand; a conflict's row needs
        its choice."""
        text, game = self.entry[0], self.round_form.game
        if text == "" and self.is_choice:
            raise ValidationError(gettext(
                "Choose the score to keep for %(name)s: yours or the one the other tablet "
                "saved.", name=self.player))
        if text == "":
            raise ValidationError(gettext(
                "%(name)s's score is missing: enter a number, tap \"Went out\" for 0, or "
                "count the tiles.", name=self.player))
        value = whole_number(text)
        if value is None:
            raise ValidationError(gettext(
                "%(name)s's score must be a whole number from 0 to %(top)s.", name=self.player,
                top=game.max_hand(self.round_form.rnd.engine)))
        try:
            check_scores({self.player: value}, [self.player], game.set,
                         self.round_form.rnd.engine, game.options)
        except BadInput as error:
            raise ValidationError(error.message) from None

    def tiles(self) -> list[list[int]] | None:
        """The tiles the pip counter picked for this row ("5-12 0-0"), None for none."""
        text = self.entry[1]
        if not text:
            return None
        try:
            return [parse_tile_text(part, "hand").to_json()
                    for part in text.replace(",", " ").split()]
        except BadInput:
            raise BadInput(gettext("The tiles picked for this hand could not be read; pick "
                                   "them again."), f"hand-{self.seat}") from None


class RoundForm(PageForm):
    """The round screen: a row per seat (:class:`SeatForm`), the round's revision as the
    page read it, and the confirmation of a save the page warned about (R7.4).

    It checks in the order a scorekeeper mends things: the token and the revision;
    then every seat's score at once, so every wrong box is marked together (R7.4);
    then the tiles counted (R3.3) and whether each matches its score.  Passed, it
    holds :attr:`scores` and :attr:`hands` to save.
    """

    expired = _l("The form expired; your scores are still here. Save again.")
    revision = HiddenField()
    confirm = HiddenField(default="")

    def __init__(self, game, rnd):
        super().__init__()
        self.game, self.rnd = game, rnd
        self.scores: dict[str, int] | None = None
        self.hands: dict[str, list] | None = None
        if self.is_submitted():
            self.seats = [SeatForm(self, i, request.form) for i in range(len(game.players))]
            return
        # The round as stored: its scores (also the base of the next save) and tiles.
        self.revision.data = str(rnd.revision)
        stored = {p: "" if rnd.scores is None else str(rnd.scores[p]) for p in game.players}
        self.seats = [SeatForm(self, i, score=stored[p], base=stored[p],
                               hand=hand_text((rnd.hands or {}).get(p)))
                      for i, p in enumerate(game.players)]

    def validate_revision(self, field):
        """The revision the page was opened at: a whole number, else the page is old."""
        if whole_number(field.data) is None:
            raise ValidationError(gettext("This page is out of date: open the round again."))

    def validate(self, extra_validators=None) -> bool:
        """The token and the revision, then every seat's score (R7.4), then the tiles
        counted (R3.3): each refusal on its seat's box, every wrong seat at once."""
        if not super().validate(extra_validators):
            return False
        if not all([seat.validate() for seat in self.seats]):   # every seat, not the first
            return False
        scores = {seat.player: whole_number(seat.entry[0]) for seat in self.seats}
        try:
            self.hands = self._counted(scores)
        except BadInput as error:
            attach(self, error)
            return False
        self.scores = scores
        return True

    def _counted(self, scores: dict[str, int]) -> dict[str, list] | None:
        """The tiles picked with the pip counter, checked (R3.3) and matched to each score."""
        given = {seat.player: tiles for seat in self.seats if (tiles := seat.tiles())}
        if not given:
            return None
        game = self.game
        # A refused hand comes with its seat: a name may hold a dot.
        counted = check_hands(given, game.players, game.set, self.rnd.engine, every_player=False)
        for name, tiles in counted.items():
            total = hand_score(tiles, game.options)
            if total != scores[name]:
                raise BadInput(gettext(
                    "%(name)s's score (%(typed)s) does not match the tiles picked "
                    "(%(counted)s): count again or clear the tiles.", name=name,
                    typed=scores[name], counted=total), "", game.players.index(name))
        return {p: [t.to_json() for t in tiles] for p, tiles in counted.items()}

    @property
    def refusal(self) -> str | None:
        """The sentence above the form: the first thing wrong, in the order checked."""
        wrong = self.problems
        return wrong[0] if wrong else None

    @property
    def problems(self) -> list[str]:
        """Every sentence above the form, in the order checked: the form's as a whole, or
        the revision's and every seat's (each wrong box is also marked beside it)."""
        whole = super().refusal
        if whole is not None:
            return [whole]
        return [*self.revision.errors, *(e for seat in self.seats for e in seat.score.errors)]

    @property
    def confirmed(self) -> bool:
        """The scorekeeper saw the round's warnings (R7.4) and saves anyway."""
        return self.confirm.data == "1"

    def expected_revision(self) -> int:
        """The revision of the round the page was opened at (checked by validate)."""
        return whole_number(self.revision.data)

    def base_scores(self) -> dict[str, int | None] | None:
        """The scores the page showed when it was opened, for the merge (None: a page that
        did not send them)."""
        if not any(seat.base.raw_data for seat in self.seats):
            return None
        return {seat.player: seat.base_score for seat in self.seats}

    def went_out(self, names) -> None:
        """0 filled in for those a finished live table saw go out (R7.1)."""
        for seat in self.seats:
            if seat.player in names:
                seat.score.data = "0"

    def rebase(self, conflict) -> None:
        """Show the form again on the round as another tablet just saved it (StaleRound):
        the merge where it is clean, a choice where both changed a player differently;
        the next save is checked against the round as stored now."""
        fresh, merged = conflict.round, conflict.merge
        self.revision.data = str(fresh.revision)
        for seat in self.seats:
            p, typed_hand = seat.player, seat.entry[1]
            theirs_hand = hand_text((fresh.hands or {}).get(p))
            seat.base.data = str(fresh.scores[p])
            seat.is_choice = p in merged.conflicts
            if seat.is_choice:
                seat.mine.data, seat.mine_hand.data = str(self.scores[p]), typed_hand
                seat.theirs_hand.data, seat.pick.data = theirs_hand, ""
            else:
                seat.score.data = str(merged.scores[p])
                seat.hand.data = theirs_hand if p in merged.theirs else typed_hand


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
