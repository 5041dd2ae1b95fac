"""The check code of a printed scoresheet, and whether a printed sheet still matches.

A game's check code is an HMAC of a canonical form of its record — its id, the players'
names in seating order, its set, rule options and engines (R9, R2.1), and every score of
every round — under a key derived from the server's secret, so it cannot be made up
anywhere else.  It is 10 characters of Crockford's base32 (no I, L, O or U: nothing to
mistake when read aloud or copied), printed in two groups of five, and read back
without regard to case, spaces or dashes (and, as Crockford's alphabet reads it, an O
as 0 and an I or L as 1).

Under house scoring (R11) the record also holds each round's lists, who went out and
whose marker stood, so a save that changes only them changes the code too; a game
without house scoring has the record it always had.

Decision: the game's own name and the train colours are not in the record: renaming a
game or its look changes no score, so the sheet printed before still matches.

A code that is not the game's current one may be one it had earlier: the game's past
states are replayed from its history (every save, undo and redo, each with its
changes), and the latest state with that code tells what changed since it was printed
and when.  Pure: the caller passes the game, its history rows and the server's secret.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from .game import Game
from .house_scoring import house_on

#: Crockford's base32: the ten digits and the letters but I, L, O and U.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters in a code (50 bits): within API.md's 8 to 10.
LENGTH = 10
#: Crockford's reading of the look-alikes, after upper-casing.
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
#: What the key is derived for, so the secret's other uses never meet this one.
_PURPOSE = b"mexican-train-scorekeeper/check-code/1"

#: Every score of a game: [round][seat], a score or None (not played).
Rows = list[list[int | None]]
#: Under house scoring, each round's [went_out, markers] (each a list of names or None);
#: None for a game without house scoring.
Lists = list[list] | None


@lru_cache(maxsize=8)
def key_for(secret: str | bytes) -> bytes:
    """The check codes' own key, derived from the server's secret (SECRET_KEY)."""
    raw = secret.encode() if isinstance(secret, str) else bytes(secret)
    return hmac.new(raw, _PURPOSE, hashlib.sha256).digest()


def _frame(game: Game) -> tuple[bytes, bytes]:
    """The record's bytes before and after its scores: the game's id, names, set, rules
    and engines, as compact, sorted JSON (its scores come between, see canonical)."""
    record = {"id": game.id, "players": list(game.players), "set": game.set,
              "rules": game.options.record(), "engines": [r.engine for r in game.rounds],
              "scores": "\0"}
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    head, tail = text.split('"\\u0000"')
    return head.encode(), tail.encode()


def _scores(rows: Rows, lists: Lists = None) -> bytes:
    """The scores part of a record: a round nobody has a score in is null; under house
    scoring, with each round's lists beside the scores."""
    scores = [row if any(v is not None for v in row) else None for row in rows]
    if lists is not None:
        return json.dumps({"lists": lists, "rows": scores}, separators=(",", ":"),
                          ensure_ascii=False).encode()
    return json.dumps(scores, separators=(",", ":")).encode()


def canonical(game: Game, rows: Rows, lists: Lists = None) -> bytes:
    """The record a code is made of: the game's id, names, options and every score in
    *rows* (and, under house scoring, the *lists*), as compact, sorted JSON (the same
    bytes for the same record, always)."""
    head, tail = _frame(game)
    return head + _scores(rows, lists) + tail


def code_of(key: bytes, record: bytes) -> str:
    """The check code of a canonical *record*: its HMAC's first 50 bits in base32."""
    digest = hmac.new(key, record, hashlib.sha256).digest()
    bits = int.from_bytes(digest[:8], "big") >> (64 - 5 * LENGTH)
    return "".join(ALPHABET[(bits >> (5 * (LENGTH - 1 - i))) & 31] for i in range(LENGTH))


def shown(code: str) -> str:
    """A code as printed and shown: two groups of five, "7K3MQ-9XPD2"."""
    return f"{code[:5]}-{code[5:]}"


def read(text: str) -> str:
    """A code as typed, for comparing: upper case, without spaces or dashes, O read as 0
    and I or L as 1."""
    kept = "".join(ch for ch in str(text) if not ch.isspace() and ch not in "-‐‑–—")
    return kept.upper().translate(_READ_AS)


def current_state(game: Game) -> Rows:
    """Every score of the game as it is now."""
    return [[(r.scores or {}).get(p) for p in game.players] for r in game.rounds]


def current_lists(game: Game) -> Lists:
    """Under house scoring, each round's lists as they are now (None: not house-scored)."""
    if not house_on(game.options):
        return None
    return [[None if names is None else list(names) for names in (r.went_out, r.markers)]
            for r in game.rounds]


def game_code(game: Game, secret: str | bytes) -> str:
    """The game's check code as it is now."""
    return code_of(key_for(secret), canonical(game, current_state(game), current_lists(game)))


@dataclass(frozen=True, slots=True)
class Changed:
    """A score that changed since a sheet was printed: as printed, as now, and when."""

    round: int
    player: str
    printed: int | None
    now: int | None
    at: str

    def to_json(self) -> dict:
        return {"round": self.round, "player": self.player, "printed": self.printed,
                "now": self.now, "at": self.at}


@dataclass(frozen=True, slots=True)
class Verification:
    """What a code says about a game: its current code, and for a code given, whether it
    matches, whether the game had it earlier (``known``), and what changed since."""

    code: str
    given: str | None = None
    matches: bool = False
    known: bool = False
    printed_at: str | None = None   # when the game was last in the state printed
    changes: tuple[Changed, ...] = ()

    def to_json(self) -> dict:
        """API.md's answer to GET /api/games/<id>/verify (with or without ?code=)."""
        if self.given is None:
            return {"code": self.code}
        if self.matches:
            return {"matches": True}
        if not self.known:
            return {"matches": False, "known": False}
        return {"matches": False, "known": True, "changes": [c.to_json() for c in self.changes]}


def past_states(game: Game, history: Sequence[Mapping]
                ) -> Iterable[tuple[Rows, str, int, Lists]]:
    """The game's states, oldest first: before any save (at its creation), then after each
    history entry; each with when it began, how many changes had been made by then, and
    under house scoring the rounds' lists (None otherwise).

    *history* is storage's rows, oldest first: each change with its ``edit_id``,
    ``round``, ``player``, ``new`` and ``at`` (and ``lists``, the lists its entry
    changed, as JSON).  The rows yielded are the replay's own: copy them to keep one.
    """
    rounds = {r.number: k for k, r in enumerate(game.rounds)}
    seats = {p: k for k, p in enumerate(game.players)}
    rows: Rows = [[None] * len(game.players) for _r in game.rounds]
    lists: Lists = [[None, None] for _r in game.rounds] if house_on(game.options) else None
    yield rows, game.created_at, 0, lists
    for k, change in enumerate(history):
        rows[rounds[change["round"]]][seats[change["player"]]] = change["new"]
        if lists is not None and change.get("lists"):
            lists[rounds[change["round"]]] = json.loads(change["lists"])["new"]
        last_of_edit = k + 1 == len(history) or history[k + 1]["edit_id"] != change["edit_id"]
        if last_of_edit:
            yield rows, change["at"], k + 1, lists


def verify(game: Game, history: Sequence[Mapping], secret: str | bytes,
           given: str | None = None) -> Verification:
    """Whether a sheet printed with code *given* still matches *game* (API.md "verify").

    No code given: only the current code.  A code the game had earlier: the scores that
    changed since (printed, now, and the time of the last change to each).
    """
    key = key_for(secret)
    now = current_state(game)
    head, tail = _frame(game)
    code = code_of(key, head + _scores(now, current_lists(game)) + tail)
    if given is None:
        return Verification(code)
    wanted = read(given).encode()
    if hmac.compare_digest(wanted, code.encode()):
        return Verification(code, given, matches=True)
    found = None
    for rows, at, done, lists in past_states(game, history):
        if hmac.compare_digest(wanted, code_of(key, head + _scores(rows, lists) + tail).encode()):
            found = ([row[:] for row in rows], at, done)   # the latest state with that code
    if found is None:
        return Verification(code, given)
    printed, at, done = found
    last_change: dict[tuple[int, str], str] = {}
    for change in history[done:]:
        last_change[(change["round"], change["player"])] = change["at"]
    changes = tuple(
        Changed(r.number, p, printed[i][k], now[i][k], last_change.get((r.number, p), at))
        for i, r in enumerate(game.rounds) for k, p in enumerate(game.players)
        if printed[i][k] != now[i][k])
    return Verification(code, given, known=True, printed_at=at, changes=changes)
