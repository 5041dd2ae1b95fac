"""House scoring (R11): a bonus for going out, a penalty for a marker left standing.

A round's hands are scored by R7.3 as ever (its *hand scores*); who went out and whose
marker stood are recorded with them, and the round's **score that counts** is derived
(R11.3): −N for a player who went out (R11.1), the hand plus the penalty for a player
whose marker stood (R11.2), the hand for everyone else.  With both options at 0 the
score that counts is the hand's, and scoring is exactly R7.

Storage keeps the scores that count (history, standings, records and the check code
read them) and the two lists; the hand scores are derived back from them
(:func:`hand_scores_of`).  Pure: no Flask, no database.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Mapping, Sequence

from .errors import BadInput
from .options import RuleOptions
from .scoring import ScoreWarning, round_warnings
from .text import _, format_list, ngettext

#: A round's lists as recorded: names in seating order, or None (not given).
Names = tuple[str, ...] | None


def house_on(options: RuleOptions) -> bool:
    """True when the game scores by house rules: a bonus or a penalty is set (R11)."""
    return bool(options.went_out_bonus or options.marker_penalty)


def counted_scores(hand_scores: Mapping[str, int], went_out: Names, markers: Names,
                   options: RuleOptions) -> dict[str, int]:
    """The scores that count (R11.3): −bonus for who went out (R11.1), the hand plus the
    penalty for a standing marker (R11.2), the hand otherwise."""
    out, marked = set(went_out or ()), set(markers or ())
    return {p: (-options.went_out_bonus if p in out
                else h + options.marker_penalty if p in marked else h)
            for p, h in hand_scores.items()}


def hand_scores_of(counts: Mapping[str, int], went_out: Names, markers: Names,
                   options: RuleOptions) -> dict[str, int]:
    """The R7.3 hand scores behind stored scores that count (the inverse of
    :func:`counted_scores`): 0 for who went out, the score less the penalty for a
    standing marker."""
    out, marked = set(went_out or ()), set(markers or ())
    return {p: (0 if p in out else c - options.marker_penalty if p in marked else c)
            for p, c in counts.items()}


def zero_players(hand_scores: Mapping[str, int], went_out: Names) -> frozenset[str]:
    """The players whose round is a "zero round" for R8.2: under R11.4 those who went out
    or held no pips (a hand scoring 0, a penalty aside); with no lists, a score of 0."""
    out = set(went_out or ())
    return frozenset(p for p, h in hand_scores.items() if p in out or h == 0)


@dataclass(frozen=True, slots=True)
class Entry:
    """A round's checked entry: the hand scores (R7.3), the lists as they are recorded,
    and the scores that count (R11.3)."""

    hand_scores: dict[str, int]
    went_out: Names
    markers: Names
    scores: dict[str, int]


def parse_names(value, players: Sequence[str], field: str) -> Names:
    """A list of player names, each at most once (None stays None: not given); recorded
    in seating order."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not all(isinstance(n, str) for n in value):
        if field.endswith("markers"):
            raise BadInput(_("Whose marker stands must be a list of player names."), field)
        raise BadInput(_("Who went out must be a list of player names."), field)
    for i, name in enumerate(value):
        if name not in players:
            raise BadInput(_("%(name)s is not a player in this game.", name=name[:40]),
                           f"{field}.{i}")
        if name in value[:i]:
            raise BadInput(_("%(name)s is named twice in the list.", name=name), f"{field}.{i}")
    return tuple(p for p in players if p in value)


def check_entry(hand_scores: Mapping[str, int], players: Sequence[str], options: RuleOptions,
                went_out=None, markers=None, hands: Mapping[str, list] | None = None,
                field: str = "") -> Entry:
    """Check who went out and whose marker stands beside a round's checked hand scores
    (R11.3), and derive the scores that count.

    *hands* (the tiles left, when the save gave them): who went out, when not given, is
    then the players with empty hands.  Under house scoring the lists are recorded as
    they stand after this (markers not given: none); under the default options only what
    was given is recorded.  BadInput: a name not of the game or twice, a player in both
    lists, a player who went out with tiles or pips left, or (bonus on) a save by
    scores that does not say who went out.
    """
    out = parse_names(went_out, players, f"{field}went_out")
    marked = parse_names(markers, players, f"{field}markers")
    house = house_on(options)
    if out is None and hands is not None and house:
        out = tuple(p for p in players if not hands.get(p))
    if out is None and hands is None and options.went_out_bonus:
        raise BadInput(_("Say who went out (nobody, for a blocked round): this game gives a "
                         "bonus for going out (R11.1, R11.3)."), f"{field}went_out")
    for name in out or ():
        if hands is not None and hands.get(name):
            raise BadInput(_("%(name)s went out, so no tiles are left in their hand (R11.3).",
                             name=name), f"{field}hands.{name}")
        if hand_scores[name] != 0:
            raise BadInput(_("%(name)s went out, so their hand holds nothing: their score "
                             "must be 0 (R11.3).", name=name), f"{field}scores.{name}")
        if name in (marked or ()):
            raise _out_and_marked(name, f"{field}markers.{marked.index(name)}")
    if marked is None and house and options.marker_penalty:
        marked = ()
    return Entry(dict(hand_scores), out, marked,
                 counted_scores(hand_scores, out, marked, options))


def _out_and_marked(name: str, field: str) -> BadInput:
    return BadInput(_("%(name)s cannot both go out and have a standing marker: a player who "
                      "went out takes no penalty (R11.2).", name=name), field)


def entry_warnings(entry: Entry, options: RuleOptions,
                   engine: int | None = None) -> list[ScoreWarning]:
    """R7.4's unusual rounds, judged on who went out when that is recorded (R11.3: exactly
    one normally; none, a blocked round; several, R4.4), else on the hands' zeros."""
    if entry.went_out is None:
        return round_warnings(entry.hand_scores, options, engine)
    if not entry.went_out:
        return [ScoreWarning("no_zero", "R7.4", _(
            "Nobody went out: that happens only when the round was blocked (R7.2)."))]
    if len(entry.went_out) > 1:
        return [ScoreWarning("several_zeros", "R7.4", ngettext(
            "%(num)s player went out (%(names)s): only possible during the first turn (R4.4).",
            "%(num)s players went out (%(names)s): only possible during the first turn (R4.4).",
            len(entry.went_out), names=format_list(list(entry.went_out))))]
    return []


def score_range(options: RuleOptions, top: int) -> tuple[int, int]:
    """The lowest and highest score that counts a round can hold (R11.3): −bonus, up to
    the largest possible hand plus the penalty."""
    return -options.went_out_bonus, top + options.marker_penalty


def lists_json(went_out: Names, markers: Names) -> dict:
    """The lists as a round object carries them (API.md): lists of names, or null."""
    return {"went_out": None if went_out is None else list(went_out),
            "markers": None if markers is None else list(markers)}


def check_counts(counts: Mapping[str, int], went_out: Names, markers: Names,
                 options: RuleOptions, top: int, field: str) -> dict[str, int]:
    """Stored scores that count (an import) agree with the lists: each hand behind them is
    a possible hand (R7.4), 0 for who went out; BadInput naming the score."""
    hands = hand_scores_of(counts, went_out, markers, options)
    for name in (markers or ()):
        if name in (went_out or ()):
            raise _out_and_marked(name, f"{field}.markers")
    for name, hand in hands.items():
        expected_out = name in (went_out or ())
        if (expected_out and counts[name] != -options.went_out_bonus) or not 0 <= hand <= top:
            low, high = score_range(options, top)
            raise BadInput(_("The score of %(name)s does not fit who went out and whose "
                             "marker stood: a score that counts is from %(low)s to %(high)s, "
                             "−%(bonus)s for a player who went out (R11.3).", name=name,
                             low=low, high=high, bonus=options.went_out_bonus),
                           f"{field}.scores.{name}")
    return dict(counts)


def rounds_zeros(rounds: Sequence) -> list[Collection[str] | None]:
    """Each round's zero-round players (R8.2, R11.4), None for a round not played."""
    return [None if r.scores is None else r.zero_players for r in rounds]
