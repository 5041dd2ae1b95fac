"""How pages show house scoring (R11.5): the hand, the bonus or penalty, and the score
that counts, side by side ("7 + 15 = 22", "0 − 10 = −10"), and the round page's hint.

Figures and signs only, no words, so a cell reads the same in every language; the
sentences around them are the pages' own.
"""

from __future__ import annotations

from markupsafe import Markup

from .game import Round
from .house_scoring import hand_scores_of, house_on
from .options import RuleOptions
from .text import _

#: The minus sign, as the pages write negative scores.
MINUS = "\u2212"


def signed(value: int) -> str:
    """A score as printed: −10 with a true minus sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def house_parts(rnd: Round, player: str, options: RuleOptions) -> tuple[int, int, int] | None:
    """The hand's score, the bonus (negative) or penalty added, and the score that counts,
    for a played round (None while it has no scores)."""
    if rnd.scores is None:
        return None
    count = rnd.scores[player]
    hand = (rnd.hands_scored or rnd.scores)[player]
    return hand, count - hand, count


def house_text(rnd: Round, player: str, options: RuleOptions) -> str:
    """The cell as plain text: "7 + 15 = 22", "0 − 10 = −10", or the score alone when
    neither applies ("" while unplayed)."""
    parts = house_parts(rnd, player, options)
    if parts is None:
        return ""
    hand, change, count = parts
    if not change:
        return signed(count)
    sign = "+" if change > 0 else MINUS
    return f"{hand} {sign} {abs(change)} = {signed(count)}"


def house_cell(rnd: Round, player: str, options: RuleOptions) -> Markup:
    """The cell in HTML: the hand and the change small, the score that counts strong."""
    parts = house_parts(rnd, player, options)
    if parts is None:
        return Markup("")
    hand, change, count = parts
    if not change:
        return Markup("{}").format(signed(count))
    sign = "+" if change > 0 else MINUS
    return Markup('<span class="house-parts">{} {} {} =</span> <strong>{}</strong>').format(
        hand, sign, abs(change), signed(count))


def house_hint(options: RuleOptions) -> str:
    """The round page's reminder of the game's house scoring (R11.1, R11.2)."""
    if options.went_out_bonus and options.marker_penalty:
        return _("Going out scores −%(bonus)s; a marker still standing adds %(penalty)s "
                 "(R11.1, R11.2).", bonus=options.went_out_bonus,
                 penalty=options.marker_penalty)
    if options.went_out_bonus:
        return _("Going out scores −%(bonus)s (R11.1).", bonus=options.went_out_bonus)
    return _("A marker still standing adds %(penalty)s (R11.2).",
             penalty=options.marker_penalty)


def house_totals(game) -> dict[str, tuple[int, int, int]] | None:
    """Each player's hands, bonuses (negative) and penalties added up over the rounds
    played, for a house-scored game (R11.5); None under the default options."""
    if not house_on(game.options):
        return None
    totals = {p: [0, 0, 0] for p in game.players}
    for rnd in game.rounds:
        for p in game.players:
            parts = house_parts(rnd, p, game.options)
            if parts is not None:
                hand, change, _count = parts
                totals[p][0] += hand
                totals[p][1 if change < 0 else 2] += change
    return {p: tuple(t) for p, t in totals.items()}


def house_sum(parts: tuple[int, int, int]) -> str:
    """A player's total as its parts: "120 − 20 + 15 =" (hands, bonuses, penalties)."""
    hands, bonus, penalty = parts
    text = str(hands)
    if bonus:
        text += f" {MINUS} {-bonus}"
    if penalty:
        text += f" + {penalty}"
    return text + " ="


def history_shown(game, entries: list[dict]) -> None:
    """Under house scoring, each change of the history (oldest first) gets ``old_shown``
    and ``new_shown``: the score that counts as its parts ("9 + 15 = 24"), worked out
    from the round's lists before and after its entry (R11.5)."""
    if not house_on(game.options):
        return
    lists: dict[int, list] = {}
    for entry in entries:
        before = lists.get(entry["round"], [None, None])
        after = entry["lists"]["new"] if entry.get("lists") else before
        lists[entry["round"]] = after
        for change in entry["changes"]:
            for key, names in (("old", before), ("new", after)):
                value = change[key]
                if value is not None:
                    rnd = Round(entry["round"], 0, {change["player"]: value},
                                went_out=_names(names[0]), markers=_names(names[1]),
                                hand_scores=hand_scores_of({change["player"]: value},
                                                           _names(names[0]), _names(names[1]),
                                                           game.options))
                    change[f"{key}_shown"] = house_text(rnd, change["player"], game.options)


def _names(names) -> tuple[str, ...] | None:
    return None if names is None else tuple(names)


def total_parts(total: int, changes: tuple[int, int] | None) -> tuple[int, int, int] | None:
    """A total as its parts (hands, bonuses, penalties) given the bonuses and penalties in
    it (None: none, nothing to show)."""
    if not changes or not any(changes):
        return None
    bonus, penalty = changes
    return total - bonus - penalty, bonus, penalty


def summed(changes: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """Bonuses and penalties of several games added up."""
    return (sum(b for b, _p in changes.values()), sum(p for _b, p in changes.values()))
