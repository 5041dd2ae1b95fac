"""Chicken foot's own rulings (RULES.md R10), which :mod:`.rules` asks for a table under
the option: the violations :func:`full` (R10.1), :func:`unanswered` (``chicken_foot``,
R10.2, replacing ``open_double``) and :func:`owed_elsewhere` (``owed_on_double``, R10.3,
replacing ``owner_must_satisfy``); the grounds of a toe, an open end and the first turn
(R10.1–R10.6); and :func:`checks`, the sentences of R10.8.  Pure: no Flask, storage or
PDF.
"""

from __future__ import annotations

from ..text import N_, _, format_list
from .feet import End
from .values import Ground, Violation, train_sentence


def full(end: End) -> Violation:
    """R10.1: a play on a double that already holds three toes."""
    return Violation("foot_full", "R10.1", _(
        "The %(double)s already holds three toes: no fourth tile can go on it.",
        double=end.foot.double))


def unanswered(binding: dict, player: str) -> Violation:
    """R10.2: a double with fewer than three toes binds, and the play is not a toe on one."""
    return Violation("chicken_foot", "R10.2", _binding_sentence(binding, player))


def owed_elsewhere(player: str, double) -> Violation:
    """R10.3: the tile owed after a double does not go on that double."""
    return Violation("owed_on_double", "R10.3", _(
        "%(player)s owes the first toe on the %(double)s just played: it must go on that "
        "double.", player=player, double=double))


def _binding_sentence(binding: dict, player: str) -> str:
    """R10.2: which doubles with fewer than three toes the player must answer first."""
    if len(binding) == 1:
        (double, where), = binding.items()
        return train_sentence(
            where,
            N_("The %(double)s on the Mexican train has fewer than three toes: %(player)s "
               "must play a toe on it."),
            N_("The %(double)s on the train of %(owner)s has fewer than three toes: "
               "%(player)s must play a toe on it."),
            double=double, player=player)
    doubles = [train_sentence(where, N_("the %(tile)s on the Mexican train"),
                              N_("the %(tile)s on the train of %(owner)s"), tile=double)
               for double, where in binding.items()]
    return _("Doubles have fewer than three toes: %(player)s must play a toe on one of "
             "them: %(doubles)s.", player=player, doubles=format_list(doubles))


def toe_grounds(table, f, play, end: End) -> list[Ground]:
    """Why a toe (or the tile owed on a double) is allowed (R10.1–R10.4)."""
    out: list[Ground] = []
    double = end.foot.double if end.foot is not None else None
    if double is not None and double in f.binding_feet:
        out.append(Ground("R10.2", _(
            "With %(tile)s, %(player)s plays a toe on the %(double)s, which has fewer than "
            "three toes: while it has, each player in turn must play a toe on it.",
            tile=play.tile, player=table.current, double=double)))
        if len(f.binding_feet) > 1:
            out.append(Ground("R10.4", _("Several doubles have fewer than three toes: any one "
                                         "of them may be answered first.")))
    owes = f.owes
    if owes is not None and double == owes.tile:
        out.append(Ground("R10.3", _(
            "%(player)s played the %(double)s this turn and plays its first toe on it, as "
            "they must.", player=table.current, double=double)))
    if double is not None:
        out.append(Ground("R10.1", _(
            "A toe shows the double's number, and the %(double)s holds up to three.",
            double=double)))
    return out


def end_ground(table, play, end: End) -> Ground:
    """R10.5: the open end the tile joins, when the train has several or it is a toe's."""
    return Ground("R10.5", _(
        "%(tile)s goes at the open end %(at)s, one of the open ends of that train.",
        tile=play.tile, at=end.at))


def first_turn_ground(table) -> Ground:
    """R10.6: the first turn's chain becomes a tree."""
    return Ground("R10.6", _(
        "In the first turn each tile of %(player)s may go at any open end of their own "
        "train.", player=table.current))


#: R10.8: the checks the referee makes under chicken foot, each a whole sentence.
CHECKS = (
    N_("The referee judges the table described to it; it cannot see the hands (R10.8)."),
    N_("Each toe shows the double's number (R10.1)."),
    N_("A double holds at most three toes (R10.1)."),
    N_("While a double has fewer than three toes, each player in turn plays a toe on an "
       "open double and nowhere else (R10.2)."),
    N_("The tile owed after a double goes on that double (R10.3)."),
    N_("Each tile goes at the open end it names: a train's last tile, a double with fewer "
       "than three toes, or the last tile of a toe (R10.5)."),
)


def checks() -> list[str]:
    """The sentences of R10.8, translated."""
    return [_(sentence) for sentence in CHECKS]
