"""The round form: each player's score or counted tiles, the revision and base scores
it was opened at, and the merge with another device's save."""

from __future__ import annotations

import wtforms
from flask import request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField
from wtforms.validators import ValidationError

from ..errors import BadInput
from ..parsing import whole_number
from ..scoring import check_hands, check_scores, hand_score
from ..tiles import parse_tile_text

from .base import PageForm, attach


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

    Its fields carry the seat in their names, as the page, static/js/offline.js and pages
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
