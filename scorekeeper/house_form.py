"""The round screen's house-scoring part (R11): who went out and whose marker stands.

Under a game's house scoring (a bonus for going out or a penalty for a standing marker)
each seat of the round form carries two toggles, ``out-N`` and ``marker-N``, beside its
score box; the score typed or counted is the hand's (R7.3) and the score that counts is
shown beside it (R11.3).  Without house scoring the page sends neither and nothing here
changes the round.  The sentences refusing an entry are house_scoring's.
"""

from __future__ import annotations

from typing import Mapping

from .errors import BadInput
from .game import Game, Round
from .house_scoring import Entry, check_entry, counted_scores, house_on
from .parsing import whole_number
from .text import _


class HouseToggles:
    """Which seats are marked as gone out and as having a standing marker, as the page
    shows them: from the form sent, from a finished live table, or from the round stored."""

    def __init__(self, game: Game, rnd: Round, formdata: Mapping | None = None):
        self.game, self.rnd = game, rnd
        self.on = house_on(game.options)
        players = game.players
        if formdata is not None:
            self.out = {p for i, p in enumerate(players) if formdata.get(f"out-{i}")}
            self.marked = {p for i, p in enumerate(players) if formdata.get(f"marker-{i}")}
        else:
            self.out, self.marked = set(rnd.went_out or ()), set(rnd.markers or ())

    def from_live_table(self, state) -> None:
        """A finished live table says who went out and whose marker stood (R11.2: not those
        who went out)."""
        self.out = set(state.went_out)
        self.marked = {p for p in self.game.players
                       if p in state.table.markers and p not in self.out}

    def entry(self, hand_scores: Mapping[str, int]) -> Entry:
        """The round to save: the hands' scores with the lists (R11.3), or under the
        default options the hands' scores alone; BadInput with R11.3's sentence."""
        if not self.on:
            return check_entry(hand_scores, self.game.players, self.game.options)
        players = self.game.players
        return check_entry(hand_scores, players, self.game.options,
                           [p for p in players if p in self.out],
                           [p for p in players if p in self.marked])

    def counts(self, player: str, hand_text: str) -> int | None:
        """The score that counts for *player* with the hand score typed (None: no whole
        number typed), for the page to show beside it."""
        hand = whole_number(hand_text or "")
        if hand is None:
            return None
        if player in self.out:
            hand = 0
        return counted_scores({player: hand}, tuple(self.out), tuple(self.marked),
                              self.game.options)[player]

    def show_hands(self, form) -> None:
        """The round as stored shows each hand's score in its box (the base of a merge
        stays the score that counts)."""
        hands = self.rnd.hands_scored
        if self.on and hands is not None:
            for seat in form.seats:
                seat.score.data = str(hands[seat.player])

    def crossed(self, form, fresh: Round) -> None:
        """Another tablet saved the round meanwhile: what was typed here stays, the next
        save is checked against the round as stored now, and the page says so."""
        form.revision.data = str(fresh.revision)
        for seat in form.seats:
            seat.base.data = "" if fresh.scores is None else str(fresh.scores[seat.player])
        form.form_errors.append(_(
            "Another tablet saved this round while you were entering it. What you typed is "
            "still here: check it against the round as saved and save again to replace it."))

    def refuse(self, form, error: BadInput) -> None:
        """Show R11.3's refusal on the form: at the seat it names ("scores.Ann"), else
        above the form."""
        named = error.field.partition(".")[2]
        if named in self.game.players:
            seat = form.seats[self.game.players.index(named)]
            seat.score.errors = [*seat.score.errors, error.message]
        else:
            form.form_errors.append(error.message)
