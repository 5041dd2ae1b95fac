"""Rule options (R9), the deal (R1.3, R1.4) and a game's engines (R2.1).

One :class:`RuleOptions` value is threaded through scoring and the referee, so
no view ever asks "which profile is this?".  Each option is one row of
:data:`OPTIONS` (an :class:`Option`: its name, rule, words and values); the
labels, the rules, the choices, the defaults, the reading of text and the
new-game form's fields are all made from the rows.  :func:`deal_table_json` is every
deal the new-game page's script may look up, worked out once.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Iterable, Mapping

from .errors import BadInput
from .parsing import whole_number
from .text import N_, _, format_list
from .tiles import SETS, set_size

MIN_PLAYERS = 2
MAX_PLAYERS = 14

#: The words a yes-or-no option reads as text.
_YES = {"true", "yes", "on", "1"}
_NO = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class Option:
    """One row of the R9 table: an option's name, the rule it changes, a person's words
    for it and for each of its values (marked N_, translated where they are shown),
    the values default first.  Everything else about the options is made from the rows."""

    name: str
    rule: str
    label: str
    values: tuple[tuple[bool | int | str, str], ...]

    @property
    def default(self) -> bool | int | str:
        """The Official profile's value: the first."""
        return self.values[0][0]

    @property
    def choices(self) -> tuple:
        """The allowed values, default first."""
        return tuple(value for value, _label in self.values)

    def accepts(self, value) -> bool:
        """True when *value* is one of the choices, of their type (JSON's 1 is not true)."""
        if isinstance(self.default, bool):
            ok = isinstance(value, bool)
        elif isinstance(self.default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, str)
        return ok and value in self.choices

    def from_text(self, text: str):
        """The value *text* means (a yes-or-no word, ASCII digits, or the text itself); text
        that means none is given back, for accepts() to refuse."""
        if isinstance(self.default, bool):
            low = text.lower()
            return True if low in _YES else False if low in _NO else text
        if isinstance(self.default, int):
            number = whole_number(text)
            return text if number is None else number
        return text

    @staticmethod
    def as_text(value) -> str:
        """A value as a form carries it: "true" or "false", "25", "B"."""
        return "true" if value is True else "false" if value is False else str(value)


#: The R9 table, one row per option: everything below, the RuleOptions fields' defaults
#: and the new-game form's radio groups are made from it.
OPTIONS: tuple[Option, ...] = (
    Option("deal", "R1.3", N_("Deal table"), (
        ("A", N_("Table A (Official)")),
        ("B", N_("Table B")))),
    Option("starter", "R2.2", N_("Who starts a round"), (
        ("engine_holder", N_("The player holding the engine")),
        ("highest_draw", N_("Engine set aside; highest draw starts")))),
    Option("first_turn", "R4.1", N_("First turn"), (
        ("train", N_("Build a whole train on your own train")),
        ("single", N_("Exactly one tile")))),
    Option("first_turn_stuck", "R4.2", N_("Stuck on the first turn"), (
        ("marker", N_("Place a marker, no draw")),
        ("draw", N_("Draw one, then marker if it does not fit")))),
    Option("double_owner_satisfies", "R6.7", N_("Tile owed after a double"), (
        (False, N_("Anywhere legal")),
        (True, N_("Must go on that double")))),
    Option("double_blank", "R7.3", N_("Double-blank (0-0) counts"), (
        (50, N_("50 points")),
        (25, N_("25 points")),
        (0, N_("0 (face value)")))),
    Option("went_out_bonus", "R11.1", N_("Bonus for going out"), (
        (0, N_("None: going out scores 0")),
        (5, N_("−5 points")),
        (10, N_("−10 points")),
        (15, N_("−15 points")),
        (20, N_("−20 points")),
        (25, N_("−25 points")))),
    Option("marker_penalty", "R11.2", N_("Penalty for a standing marker"), (
        (0, N_("No penalty")),
        (5, N_("+5 points")),
        (10, N_("+10 points")),
        (15, N_("+15 points")),
        (20, N_("+20 points")),
        (25, N_("+25 points")))),
)
OPTION = {option.name: option for option in OPTIONS}

#: Each option's allowed values, default first.
CHOICES: dict[str, tuple] = {option.name: option.choices for option in OPTIONS}
#: The rule each option changes, for labels and rulings.
OPTION_RULES = {option.name: option.rule for option in OPTIONS}
#: A person's words for each option and value (marked for translation).
OPTION_LABELS = {option.name: option.label for option in OPTIONS}
VALUE_LABELS = {(option.name, value): label for option in OPTIONS
                for value, label in option.values}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The house rules of one game (R9): a field per row of OPTIONS, defaulting to the
    row's first value (the Official profile)."""

    deal: str = OPTION["deal"].default
    starter: str = OPTION["starter"].default
    first_turn: str = OPTION["first_turn"].default
    first_turn_stuck: str = OPTION["first_turn_stuck"].default
    double_owner_satisfies: bool = OPTION["double_owner_satisfies"].default
    double_blank: int = OPTION["double_blank"].default
    went_out_bonus: int = OPTION["went_out_bonus"].default
    marker_penalty: int = OPTION["marker_penalty"].default

    @classmethod
    def from_dict(cls, data: Mapping | None, field: str = "rules") -> "RuleOptions":
        """Options from JSON or a form; omitted ones take their defaults."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise BadInput(_("The rules must be an object of rule options."), field)
        values = {}
        for name, value in data.items():
            option = OPTION.get(name)
            if option is None:
                raise BadInput(
                    _("%(name)s is not a rule option; the options are %(names)s.",
                      name=name, names=format_list(list(OPTION))),
                    f"{field}.{name}",
                )
            if not option.accepts(value):
                raise BadInput(
                    _("%(name)s must be %(values)s.", name=name,
                      values=format_list([_json_word(v) for v in option.choices],
                                         style="or")),
                    f"{field}.{name}",
                )
            values[name] = value
        return cls(**values)

    @classmethod
    def from_text(cls, values: Mapping, names: Iterable[str] = OPTION,
                  field: str = "rules") -> "RuleOptions":
        """Options as a form or an address sends them: text by name (the one reader of them).

        A yes-or-no option reads "true", "yes", "on" or "1" (and "false", "no", "off",
        "0"), a number ASCII digits; other text goes on to from_dict, which refuses it
        with its sentence.  Only *names* are read; an empty or absent one is the default.
        """
        data = {}
        for name in names:
            value = values.get(name)
            if isinstance(value, str):
                value = OPTION[name].from_text(value.strip())
            if value is not None and value != "":
                data[name] = value
        return cls.from_dict(data, field)

    def to_dict(self) -> dict:
        """The options by name, as JSON and the export carry them."""
        return asdict(self)

    def record(self) -> dict:
        """The options as a game's record (the check code) holds them: as to_dict, but the
        house-scoring options (R11, added later) only when set, so an older game's record,
        and the code printed on its sheet, stays what it was."""
        return {name: value for name, value in self.to_dict().items()
                if name not in _LATER or value != OPTION[name].default}

    def changed(self) -> dict:
        """The options that differ from the Official defaults."""
        default = RuleOptions()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def summary_items(self) -> list[str]:
        """The house rules as short labels, each whole: ["0-0 = 50", "first turn: train", …]."""
        items = [
            _("0-0 = %(points)s", points=self.double_blank),
            _("first turn: train") if self.first_turn == "train" else _("first turn: one tile"),
            _("deal %(table)s", table=self.deal),
        ]
        if self.starter == "highest_draw":
            items.append(_("highest draw starts"))
        if self.first_turn_stuck == "draw":
            items.append(_("stuck first turn draws"))
        if self.double_owner_satisfies:
            items.append(_("double's owner satisfies it"))
        if self.went_out_bonus:
            items.append(_("going out: −%(points)s", points=self.went_out_bonus))
        if self.marker_penalty:
            items.append(_("standing marker: +%(points)s", points=self.marker_penalty))
        return items

    def summary(self) -> str:
        """A short line for headers: the labels side by side, "0-0 = 50 · first turn: train"."""
        return " · ".join(self.summary_items())


#: Options added after games were stored: left out of a game's record at their default.
_LATER = ("went_out_bonus", "marker_penalty")


def _json_word(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# R1.3: (first player count, last player count, set, tiles each)
DEAL_TABLES = {
    "A": ((2, 4, 6, 7), (2, 3, 9, 15), (4, 4, 12, 15), (5, 6, 12, 12),
          (7, 8, 12, 11), (9, 12, 15, 11), (13, 14, 18, 11)),
    "B": ((2, 3, 9, 8), (4, 6, 12, 12), (7, 8, 12, 10), (9, 12, 15, 11),
          (13, 14, 18, 11)),
}


@dataclass(frozen=True, slots=True)
class Deal:
    """How many tiles each player gets, and whether that fits the set (R1.4)."""

    set: int
    players: int
    tiles_each: int
    in_table: bool
    fits: bool
    max_each: int
    engine_aside: bool = False

    @property
    def boneyard(self) -> int:
        """Tiles left face down after the deal (R1.5)."""
        aside = 1 if self.engine_aside else 0
        return max(0, set_size(self.set) - aside - self.players * self.tiles_each)


def deal_for(set_n: int, players: int, options: RuleOptions = RuleOptions()) -> Deal:
    """Tiles each for a set and player count (R1.3), checked against R1.4.

    Outside the table, the app suggests the tiles each of the same set's row
    nearest in player count, and says whether it fits.
    """
    rows = [r for r in DEAL_TABLES[options.deal] if r[2] == set_n]
    exact = [r for r in rows if r[0] <= players <= r[1]]
    if exact:
        each, in_table = exact[0][3], True
    elif rows:
        nearest = min(rows, key=lambda r: min(abs(players - r[0]), abs(players - r[1])))
        each, in_table = nearest[3], False
    else:
        # A set the table never names: deal table A's 11 (for the large sets)
        # or as many as fit, whichever is fewer.
        each, in_table = 11, False
    # R1.4: with the engine set aside first (R2.3) one tile fewer is available.
    available = set_size(set_n) - (1 if options.starter == "highest_draw" else 0)
    max_each = available // players if players else 0
    if not in_table and not rows:
        each = min(each, max_each)
    return Deal(set_n, players, each, in_table, players * each <= available, max_each,
                options.starter == "highest_draw")


def round_engines(set_n: int, start: int | None = None, end: int = 0) -> list[int]:
    """The engines of a game's rounds, counting down (R2.1)."""
    start = set_n if start is None else start
    return list(range(start, end - 1, -1))


def parse_engines(set_n: int, start, end) -> tuple[int, int]:
    """Validate a shortened game's start and end engines (R2.1)."""
    start = set_n if start is None else start
    end = 0 if end is None else end
    messages = {"start_engine": N_("The start engine must be a double from 0 to %(top)s."),
                "end_engine": N_("The end engine must be a double from 0 to %(top)s.")}
    for name, value in (("start_engine", start), ("end_engine", end)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= set_n:
            raise BadInput(_(messages[name], top=set_n), name)
    if end > start:
        raise BadInput(_("Engines count down: the end engine cannot be above the start engine."),
                       "end_engine")
    return start, end


@lru_cache(maxsize=1)
def deal_table_json() -> str:
    """Every deal the form can ask about (R1.3, R1.4), so its script only looks up; and
    how many players a game may have.

    Worked out once per process: it depends on nothing but the deal tables, the sets and
    the numbers of players (no game, no language), and every GET of the page sends it."""
    deals, suggested = {}, {}
    for table in DEAL_TABLES:
        suggested[table] = {n: [{"set": r[2], "tiles_each": r[3]}
                                for r in DEAL_TABLES[table] if r[0] <= n <= r[1]]
                            for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
        for starter in CHOICES["starter"]:
            options = RuleOptions(deal=table, starter=starter)
            for set_n in SETS:
                for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                    d = deal_for(set_n, n, options)
                    deals[f"{table}|{starter}|{set_n}|{n}"] = {
                        "tiles_each": d.tiles_each, "fits": d.fits, "max_each": d.max_each,
                        "in_table": d.in_table, "boneyard": d.boneyard}
    return json.dumps({"deals": deals, "suggested": suggested, "sizes": {n: set_size(n) for n in SETS},
                       "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS}})


__all__ = ["RuleOptions", "Option", "OPTIONS", "OPTION", "CHOICES", "Deal", "deal_for",
           "round_engines", "parse_engines", "deal_table_json", "SETS", "MIN_PLAYERS", "MAX_PLAYERS"]
