"""The check code of a printed scoresheet, and whether a printed sheet still matches.

A game's check code is an HMAC of a canonical form of its record — its id, the players'
names in seating order, its set, rule options and engines (R9, R2.1), and every score of
every round — under a key derived from the server's secret, so it cannot be made up
anywhere else.  It is 10 characters of Crockford's base32 (no I, L, O or U: nothing to
mistake when read aloud or copied), printed in two groups of five, and read back
without regard to case, spaces or dashes (and, as Crockford's alphabet reads it, an O
as 0 and an I or L as 1).

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

#: Crockford's base32: the ten digits and the letters but I, L, O and U.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters in a code (50 bits): within API.md's 8 to 10.
LENGTH = 10
#: Crockford's reading of the look-alikes, after upper-casing.
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
#: What the key is derived for, so the secret's other uses never meet this one.
_PURPOSE = b"mexican-train-scorekeeper/check-code/1"

State = dict[tuple[int, str], int | None]   # (round, player) -> score, or None unplayed


@lru_cache(maxsize=8)
def key_for(secret: str | bytes) -> bytes:
    """The check codes' own key, derived from the server's secret (SECRET_KEY)."""
    raw = secret.encode() if isinstance(secret, str) else bytes(secret)
    return hmac.new(raw, _PURPOSE, hashlib.sha256).digest()


def canonical(game: Game, state: Mapping[tuple[int, str], int | None]) -> bytes:
    """The record a code is made of: the game's id, names, options and *state*'s scores,
    as compact, sorted JSON (the same bytes for the same record, always)."""
    rounds = []
    for r in game.rounds:
        row = [state.get((r.number, p)) for p in game.players]
        rounds.append(None if all(v is None for v in row) else row)
    record = {"id": game.id, "players": list(game.players), "set": game.set,
              "rules": game.options.to_dict(), "engines": [r.engine for r in game.rounds],
              "scores": rounds}
    return json.dumps(record, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


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


def current_state(game: Game) -> State:
    """Every score of the game as it is now."""
    return {(r.number, p): (r.scores or {}).get(p) for r in game.rounds for p in game.players}


def game_code(game: Game, secret: str | bytes) -> str:
    """The game's check code as it is now."""
    return code_of(key_for(secret), canonical(game, current_state(game)))


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


def past_states(game: Game, history: Sequence[Mapping]) -> Iterable[tuple[State, str, int]]:
    """The game's states, oldest first: before any save (at its creation), then after each
    history entry; each with when it began and how many changes had been made by then.

    *history* is storage's rows, oldest first: each change with its ``edit_id``,
    ``round``, ``player``, ``new`` and ``at``.
    """
    state: State = {(r.number, p): None for r in game.rounds for p in game.players}
    yield dict(state), game.created_at, 0
    for k, change in enumerate(history):
        state[(change["round"], change["player"])] = change["new"]
        last_of_edit = k + 1 == len(history) or history[k + 1]["edit_id"] != change["edit_id"]
        if last_of_edit:
            yield dict(state), change["at"], k + 1


def verify(game: Game, history: Sequence[Mapping], secret: str | bytes,
           given: str | None = None) -> Verification:
    """Whether a sheet printed with code *given* still matches *game* (API.md "verify").

    No code given: only the current code.  A code the game had earlier: the scores that
    changed since (printed, now, and the time of the last change to each).
    """
    key = key_for(secret)
    now = current_state(game)
    code = code_of(key, canonical(game, now))
    if given is None:
        return Verification(code)
    wanted = read(given)
    if hmac.compare_digest(wanted.encode(), code.encode()):
        return Verification(code, given, matches=True)
    found = None
    for state, at, done in past_states(game, history):
        if hmac.compare_digest(wanted.encode(), code_of(key, canonical(game, state)).encode()):
            found = (state, at, done)   # the latest state with that code
    if found is None:
        return Verification(code, given)
    state, at, done = found
    last_change: dict[tuple[int, str], str] = {}
    for change in history[done:]:
        last_change[(change["round"], change["player"])] = change["at"]
    changes = tuple(
        Changed(r.number, p, state[(r.number, p)], now[(r.number, p)],
                last_change.get((r.number, p), at))
        for r in game.rounds for p in game.players if state[(r.number, p)] != now[(r.number, p)])
    return Verification(code, given, known=True, printed_at=at, changes=changes)
