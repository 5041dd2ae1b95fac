"""Standings and tiebreaks (R8): fewer points, more zero rounds, lower lowest non-zero."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Mapping, Sequence

from .text import _


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: place (shared places repeat), total and tiebreak figures."""

    player: str
    place: int
    total: int
    zero_rounds: int
    lowest_nonzero: int | None
    rounds_played: int

    def to_json(self) -> dict:
        return {"player": self.player, "place": self.place, "total": self.total,
                "zero_rounds": self.zero_rounds, "lowest_nonzero": self.lowest_nonzero}


@dataclass(frozen=True, slots=True)
class Standings:
    """The R8 order of every player, with a sentence for each tiebreak that decided it."""

    complete: bool
    rows: tuple[Standing, ...]
    notes: tuple[str, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        """Players in first place (several when they share it, R8.4)."""
        return tuple(r.player for r in self.rows if r.place == 1)

    def to_json(self) -> dict:
        return {"complete": self.complete, "standings": [r.to_json() for r in self.rows]}


def _key(s: Standing):
    # R8.1 fewer points; R8.2 more zero rounds; R8.3 lower lowest non-zero round,
    # with "no non-zero round" ranking after any figure.
    lowest = s.lowest_nonzero if s.lowest_nonzero is not None else float("inf")
    return (s.total, -s.zero_rounds, lowest)


def compute(players: Sequence[str], rounds: Sequence[Mapping[str, int] | None],
            zeros: Sequence[Collection[str] | None] | None = None,
            house: bool = False) -> Standings:
    """Rank *players* by R8 over the rounds recorded so far (None: not played yet).

    *zeros*: each round's players with a zero round (R11.4: went out or held no pips);
    by default those who scored 0.  *house*: the game scores by house rules, and the
    tiebreak sentences name R11.4.
    """
    if zeros is None:
        zeros = [None if r is None else {p for p, v in r.items() if v == 0} for r in rounds]
    played = [(r, z) for r, z in zip(rounds, zeros) if r is not None]
    lines = []
    for name in players:
        values = [r[name] for r, _z in played]
        others = [r[name] for r, z in played if name not in z]
        lines.append(Standing(name, 0, sum(values), len(values) - len(others),
                              min(others) if others else None, len(values)))
    ranked = rank(lines)
    notes: list[str] = []
    # Before any round is played everyone is level at 0: no tiebreak to explain.
    for above, below in zip(ranked, ranked[1:]) if played else ():
        note = explain(above, below, house)
        if note:
            notes.append(note)
    complete = bool(rounds) and all(r is not None for r in rounds)
    return Standings(complete, tuple(ranked), tuple(notes))


def rank(lines: Sequence[Standing]) -> list[Standing]:
    """The lines (places not set yet) in R8 order with their places; equal lines keep
    their seating order and share a place (R8.4)."""
    order = sorted(range(len(lines)), key=lambda i: (_key(lines[i]), i))
    ranked: list[Standing] = []
    for pos, i in enumerate(order):
        line = lines[i]
        if ranked and _key(ranked[-1]) == _key(line):
            place = ranked[-1].place  # R8.4: still equal, they share the place
        else:
            place = pos + 1
        ranked.append(Standing(line.player, place, line.total, line.zero_rounds,
                               line.lowest_nonzero, line.rounds_played))
    return ranked


def explain(above: Standing, below: Standing, house: bool = False) -> str | None:
    """The sentence saying which tiebreak put *above* ahead of *below*, if totals tie
    (under house scoring, *house*, the sentences of R11.4)."""
    if above.total != below.total:
        return None
    if house:
        return explain_house(above, below)
    if above.zero_rounds != below.zero_rounds:
        return _("%(a)s ahead of %(b)s: more zero rounds, %(x)s to %(y)s (R8.2).",
                 a=above.player, b=below.player, x=above.zero_rounds, y=below.zero_rounds)
    if above.lowest_nonzero != below.lowest_nonzero:
        if below.lowest_nonzero is None:
            return _("%(a)s ahead of %(b)s: lower lowest non-zero round, %(x)s to none (R8.3).",
                     a=above.player, b=below.player, x=above.lowest_nonzero)
        return _("%(a)s ahead of %(b)s: lower lowest non-zero round, %(x)s to %(y)s (R8.3).",
                 a=above.player, b=below.player, x=above.lowest_nonzero, y=below.lowest_nonzero)
    return _("%(a)s and %(b)s share place %(place)s: same total, zero rounds and lowest "
             "non-zero round (R8.4).", a=above.player, b=below.player, place=above.place)


def explain_house(above: Standing, below: Standing) -> str:
    """explain() under house scoring: R8.2 counts the rounds out or without pips, R8.3
    the lowest score that counts among the other rounds (R11.4)."""
    if above.zero_rounds != below.zero_rounds:
        return _("%(a)s ahead of %(b)s: more rounds gone out or without pips, %(x)s to %(y)s "
                 "(R8.2, R11.4).", a=above.player, b=below.player, x=above.zero_rounds,
                 y=below.zero_rounds)
    if above.lowest_nonzero != below.lowest_nonzero:
        if below.lowest_nonzero is None:
            return _("%(a)s ahead of %(b)s: lower lowest score in the other rounds, %(x)s to "
                     "none (R8.3, R11.4).", a=above.player, b=below.player,
                     x=above.lowest_nonzero)
        return _("%(a)s ahead of %(b)s: lower lowest score in the other rounds, %(x)s to "
                 "%(y)s (R8.3, R11.4).", a=above.player, b=below.player,
                 x=above.lowest_nonzero, y=below.lowest_nonzero)
    return _("%(a)s and %(b)s share place %(place)s: same total, rounds gone out or without "
             "pips, and lowest score in the other rounds (R8.4, R11.4).", a=above.player,
             b=below.player, place=above.place)
