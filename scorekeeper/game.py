"""A game as the rest of the app sees it: players, set, options and rounds.

Pure values: storage builds them, views, the API and the PDF read them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field as dataclass_field
from typing import Sequence

from .colours import MEXICAN_COLOUR, colour_map
from .errors import BadInput
from .house_scoring import house_on, lists_json, rounds_zeros, zero_players
from .options import MAX_PLAYERS, MIN_PLAYERS, Deal, RuleOptions, deal_for
from .scoring import max_hand
from .standings import Standings, compute
from .text import _, format_date, ngettext
from .tiles import Tile
from .timing import seconds_between, total_seconds

MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its number, its engine (R2.1), the scores once recorded, and when its
    play started and when it was first saved (timing.py; None when not known)."""

    number: int
    engine: int
    scores: dict[str, int] | None = None
    revision: int = 0
    hands: dict[str, list] | None = None
    started_at: str | None = None
    saved_at: str | None = None
    #: House scoring (R11): who went out and whose marker stood, as recorded (None: not
    #: given), and the hands' R7.3 scores behind ``scores`` (None: the same as ``scores``).
    went_out: tuple[str, ...] | None = None
    markers: tuple[str, ...] | None = None
    hand_scores: dict[str, int] | None = None

    @property
    def hands_scored(self) -> dict[str, int] | None:
        """The hands' R7.3 scores (None while the round has no scores)."""
        return self.scores if self.hand_scores is None else self.hand_scores

    @property
    def zero_players(self) -> frozenset[str]:
        """Who had a zero round (R8.2): went out or held no pips (R11.4)."""
        return zero_players(self.hands_scored or {}, self.went_out)

    @property
    def seconds(self) -> int | None:
        """How long the round took, start to first save (None until both are known)."""
        return seconds_between(self.started_at, self.saved_at)

    @property
    def running(self) -> bool:
        """Started and not saved yet: its time is still running."""
        return self.started_at is not None and self.saved_at is None

    def to_json(self) -> dict:
        """The round as a save's answer carries it (API.md: number, engine, scores,
        revision, and house scoring's hand scores and lists, R11.5)."""
        played = self.scores is not None
        return {"number": self.number, "engine": self.engine, "scores": self.scores,
                "hand_scores": self.hands_scored, "revision": self.revision,
                **lists_json(self.went_out if played else None,
                             self.markers if played else None)}

    def timed_json(self) -> dict:
        """The round as a game's JSON carries it: with its times (API.md)."""
        return {**self.to_json(), "started_at": self.started_at, "saved_at": self.saved_at,
                "seconds": self.seconds}

    def counted_tiles(self, but: str | None = None) -> frozenset[Tile]:
        """The tiles in this round's stored hands, but *but*'s own (R3.3: each tile is in
        one hand at most, so a tile read from another hand was misread)."""
        return frozenset(Tile.of(*t) for player, hand in (self.hands or {}).items()
                         if player != but for t in hand)


@dataclass(frozen=True, slots=True)
class Game:
    """A whole game; the options are fixed for the game (R9)."""

    id: str
    name: str
    players: tuple[str, ...]
    set: int
    options: RuleOptions
    rounds: tuple[Round, ...]
    created_at: str = ""
    updated_at: str = ""
    deleted_at: str | None = None   # in "Recently deleted" since then
    version: int = 0                # one more with every change (live updates, caching)
    pin_hash: str | None = dataclass_field(default=None, repr=False)   # never shown
    colours: tuple[str, ...] = ()   # each seat's train colour; () for the default palette

    @property
    def protected(self) -> bool:
        """Writes need the scorekeeper's PIN (API.md "Game PIN")."""
        return self.pin_hash is not None

    @property
    def colours_by_player(self) -> dict[str, str]:
        """Each player's train colour by name (the default palette for an older game)."""
        return colour_map(self.players, self.colours)

    def colour(self, player: str | None) -> str:
        """The train colour of *player*'s seat; None names the Mexican train."""
        return MEXICAN_COLOUR if player is None else self.colours_by_player[player]

    @property
    def timed(self) -> bool:
        """Its rounds are timed: round 1 started with the game (games stored before round
        times were kept have no start, and show no times)."""
        return self.rounds[0].started_at is not None

    @property
    def seconds(self) -> int | None:
        """The recorded rounds' times added up (None before a round is recorded, or when a
        recorded round's time is not known)."""
        if not self.timed:
            return None
        return total_seconds(r.seconds for r in self.rounds if r.scores is not None)

    @property
    def start_engine(self) -> int:
        return self.rounds[0].engine

    @property
    def end_engine(self) -> int:
        return self.rounds[-1].engine

    @property
    def played(self) -> int:
        """How many rounds have scores."""
        return sum(1 for r in self.rounds if r.scores is not None)

    @property
    def complete(self) -> bool:
        return all(r.scores is not None for r in self.rounds)

    @property
    def current_round(self) -> Round:
        """The first round without scores (the last round once the game is complete)."""
        for r in self.rounds:
            if r.scores is None:
                return r
        return self.rounds[-1]

    def round(self, number: int) -> Round:
        for r in self.rounds:
            if r.number == number:
                return r
        raise KeyError(number)

    @property
    def deal(self) -> Deal:
        return deal_for(self.set, len(self.players), self.options)

    def max_hand(self, engine: int) -> int:
        return max_hand(self.set, engine, self.options)

    def standings(self) -> Standings:
        return compute(self.players, [r.scores for r in self.rounds],
                       rounds_zeros(self.rounds), house_on(self.options))

    def display_name(self) -> str:
        return game_title(self.name, self.created_at)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "players": list(self.players),
                "set": self.set, "rules": self.options.to_dict(),
                "start_engine": self.start_engine, "end_engine": self.end_engine,
                "protected": self.protected,
                "colours": list(self.colours_by_player.values()),
                "rounds": [r.timed_json() for r in self.rounds]}


def game_title(name: str, created_at: str) -> str:
    """A game's name, or "Game of <date>" for a game without one."""
    return name or _("Game of %(date)s", date=format_date(created_at[:10]))


def has_hidden_characters(text: str) -> bool:
    """True when *text* holds a Unicode format character (category Cf): zero-width
    spaces and joiners, bidi overrides and isolates (U+200B, U+202E, U+2066 …).

    Invisible on screen, they make two names look alike or reorder the text
    around a name, so names refuse them.
    """
    return any(unicodedata.category(c) == "Cf" for c in text)


def person_key(name: str) -> str:
    """What makes two written names one person: NFC, case-folded, runs of spaces (any
    kind) as one.  Two players of a game never share it; records join games by it."""
    folded = unicodedata.normalize("NFC", name).casefold()
    return unicodedata.normalize("NFC", " ".join(folded.split()))


def clean_name(raw) -> str:
    """A player name as stored: Unicode NFC, trimmed, inner runs of spaces kept."""
    return unicodedata.normalize("NFC", raw).strip() if isinstance(raw, str) else raw


def parse_players(names, field: str = "players") -> list[str]:
    """2–14 player names in seating order: NFC, trimmed, 1–40 characters, unique (any case)."""
    if not isinstance(names, (list, tuple)):
        raise BadInput(_("Players must be a list of names in seating order."), field)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise BadInput(ngettext("A game has %(min)s to %(max)s players; %(num)s was given (R1.1).",
                                "A game has %(min)s to %(max)s players; %(num)s were given "
                                "(R1.1).", len(names), min=MIN_PLAYERS, max=MAX_PLAYERS), field)
    cleaned: list[str] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(names):
        where = f"{field}.{i}"
        if not isinstance(raw, str):
            raise BadInput(_("The name of player %(n)s must be text.", n=i + 1), where)
        name = clean_name(raw)
        if not name:
            raise BadInput(_("Player %(n)s needs a name.", n=i + 1), where)
        if len(name) > MAX_NAME:
            raise BadInput(_("%(name)s is too long: a name has at most %(max)s characters.",
                             name=name[:MAX_NAME] + "…", max=MAX_NAME), where)
        if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
            raise BadInput(_("The name of player %(n)s contains a control character.", n=i + 1),
                           where)
        if has_hidden_characters(name):
            raise BadInput(_("The name of player %(n)s contains an invisible or "
                             "direction-changing character (such as a zero-width space or a "
                             "right-to-left override); type it again without it.", n=i + 1),
                           where)
        key = person_key(name)
        if key in seen:
            raise BadInput(_("%(name)s is in the game twice: names must differ (ignoring case).",
                             name=name), where)
        seen[key] = name
        cleaned.append(name)
    return cleaned


def parse_game_name(raw, field: str = "name") -> str:
    """An optional game name: trimmed, at most 60 characters."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise BadInput(_("The game name must be text."), field)
    name = clean_name(raw)
    if len(name) > 60:
        raise BadInput(_("The game name is too long: at most 60 characters."), field)
    if has_hidden_characters(name) or any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise BadInput(_("The game name contains an invisible, direction-changing or control "
                         "character; type it again without it."), field)
    return name


def find_player(players: Sequence[str], name: str) -> str | None:
    """The stored spelling of *name* (NFC, any case), or None."""
    key = person_key(name) if isinstance(name, str) else None
    for p in players:
        if person_key(p) == key:
            return p
    return None
