"""The game PIN: who may change a game (API.md "Game PIN").

A game may carry a PIN of 4 to 8 digits, stored only as a Werkzeug password
hash.  A device that entered it once is that game's scorekeeper (remembered in
its session, tied to the PIN: a new PIN needs entering again); every other
device is a viewer.  The API takes it in the ``X-Game-PIN`` header.  Guessing
is slowed twice over (API.md, Game PIN): 5 wrong PINs for a game from one client
address within 10 minutes, and that client waits out the 10 minutes for that game,
even with the right PIN; and 20 wrong PINs for a game within an hour from everyone
together, and entering that game's PIN waits for every device — except a device that
already keeps score, which keeps its role, and one that holds the club PIN (issue 26);
``scorekeeper unlock`` on the server machine forgets every wrong PIN counted.  The wrong PINs are counted in the database
(``storage.guesses``), so a restart forgets none.  The club PIN (``clubpin.py``) is
checked by the same :func:`verify`, with its own count.

Each app keeps its own count of wrong PINs (:func:`guesses`, a :class:`Guesses` over the
app's database) and its own PINs already checked (an :class:`~.lru.LRU`), in
``app.extensions``, made by :func:`init_app`: two apps (two tests) never share them.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from typing import Callable

from flask import Flask, current_app, request, session
from werkzeug.security import check_password_hash, generate_password_hash

from .db import get_db
from .errors import BadInput
from .game import Game
from .lru import LRU
from .storage import release_guess, reserve_guess, wrong_times
from .text import _

_PIN = re.compile(r"[0-9]{4,8}")
HEADER = "X-Game-PIN"
#: Wrong PINs from one client address, within WINDOW seconds, before it waits.
MAX_WRONG = 5
WINDOW = 600.0
#: Wrong PINs from every client together, within WINDOW_ALL seconds, before PIN entry
#: waits for everyone (a device that already holds the role excepted).
MAX_WRONG_ALL = 20
WINDOW_ALL = 3600.0


def parse_pin(value, field: str = "pin") -> str:
    """A PIN from input: a string of 4 to 8 ASCII digits."""
    if not isinstance(value, str) or not _PIN.fullmatch(value):
        raise BadInput(_("A PIN is 4 to 8 digits (0-9)."), field)
    return value


def hash_pin(pin: str) -> str:
    """The hash a PIN is stored as (Werkzeug's scrypt: slow to check, on purpose)."""
    return generate_password_hash(pin)


class Refused(Exception):
    """A write that needs a PIN it was not given: missing, wrong, or (*retry_after* > 0)
    guessing slowed, from this client (*everyone* false) or from everyone together."""

    #: The field an API refusal names.
    field = "pin"

    def __init__(self, retry_after: int = 0, wrong: bool = False, everyone: bool = False):
        super().__init__()
        self.retry_after = retry_after
        self.wrong = wrong
        self.everyone = everyone

    @property
    def minutes(self) -> int:
        """The wait in whole minutes, rounded up (at least 1)."""
        return max(1, -(-self.retry_after // 60))

    @property
    def status(self) -> int:
        """The HTTP status of the refusal: 403 without the right PIN, 429 while guessing is
        slowed."""
        return 429 if self.retry_after else 403

    @property
    def headers(self) -> dict[str, str]:
        """The headers of the refusal: while guessing is slowed, when to try again."""
        return {"Retry-After": str(self.retry_after)} if self.retry_after else {}


class PinRefused(Refused):
    """Writing to a protected game needs its PIN."""

    def __init__(self, game: Game, retry_after: int = 0, wrong: bool = False,
                 everyone: bool = False):
        super().__init__(retry_after, wrong, everyone)
        self.game = game

    @property
    def message(self) -> str:
        """The refusal's sentence, in the request's language."""
        if self.retry_after and self.everyone:
            return " ".join((
                _("Too many wrong PINs were tried for this game in the last hour, from "
                  "every device together: entering its PIN waits %(minutes)s min. A "
                  "device that already keeps score goes on keeping it.",
                  minutes=self.minutes),
                _("A device that holds the club PIN is let through this wait; on the "
                  "server machine, the command “scorekeeper unlock” lifts every wait at "
                  "once.")))
        if self.retry_after:
            return _("Too many wrong PINs for this game from this network address (every "
                     "device on it counts together): try again in %(minutes)s min.",
                     minutes=self.minutes)
        if self.wrong:
            return _("That is not this game's PIN.")
        return _("This game is protected by a PIN: only its scorekeeper can change it. "
                 "Enter the PIN to keep score on this device.")


class Guesses:
    """The wrong PINs of one app, counted per scope (a game's id, or the club) in its
    database: per client address (MAX_WRONG in WINDOW) and from everyone together
    (MAX_WRONG_ALL in WINDOW_ALL).

    wait(), wait_all(), count() and take_back() are all the rest of the app asks.  Times
    are seconds of the wall clock (*now*, for tests), as they must mean the same after a
    restart.
    """

    def __init__(self, database: Callable[[], object]):
        self._database = database

    def wait(self, client: str, scope: str, now: float | None = None) -> int:
        """Seconds this client must wait before trying this PIN again (0: go ahead)."""
        now = time.time() if now is None else now
        times = wrong_times(self._database(), scope, now - WINDOW, client)
        return _wait(times, MAX_WRONG, WINDOW, now)

    def wait_all(self, scope: str, now: float | None = None) -> int:
        """Seconds every client (but one holding the role) must wait before trying this
        PIN again, after too many wrong ones from everyone together (0: go ahead)."""
        now = time.time() if now is None else now
        times = wrong_times(self._database(), scope, now - WINDOW_ALL)
        return _wait(times, MAX_WRONG_ALL, WINDOW_ALL, now)

    def count(self, client: str, scope: str, *, everyone: bool = True,
              now: float | None = None) -> tuple[int | None, int, bool]:
        """Count a guess about to be checked, as wrong until :meth:`take_back` says it was
        right — unless a limit is reached meanwhile (another guess checked side by side):
        then nothing is counted.  *everyone*: the limit of all counts (not for a device
        holding the role).  Answers (the guess, or None; the seconds to wait; whether the
        wait is everyone's)."""
        now = time.time() if now is None else now
        guess, mine, others = reserve_guess(
            self._database(), scope, client, now, client_since=now - WINDOW,
            max_client=MAX_WRONG, all_since=now - WINDOW_ALL,
            max_all=MAX_WRONG_ALL if everyone else None, forget_before=now - WINDOW_ALL)
        if guess is not None:
            return guess, 0, False
        wait = _wait(mine, MAX_WRONG, WINDOW, now)
        return None, wait or _wait(others, MAX_WRONG_ALL, WINDOW_ALL, now), not wait

    def take_back(self, guess: int) -> None:
        """The guess counted by :meth:`count` was the right PIN: it is not a wrong one."""
        release_guess(self._database(), guess)


def _wait(times: list[float], limit: int, window: float, now: float) -> int:
    """Seconds until fewer than *limit* of *times* (oldest first) are within *window*."""
    if len(times) < limit:
        return 0
    return int(times[len(times) - limit] + window - now) + 1


GUESSES = "scorekeeper.pin_guesses"
CHECKED = "scorekeeper.pins_checked"


def init_app(app: Flask) -> None:
    """Give *app* its own count of wrong PINs and its own checked PINs (create_app calls this)."""
    app.extensions[GUESSES] = Guesses(get_db)   # the request's connection to the database
    # Checking a Werkzeug hash is slow on purpose (scrypt); an API client sends the PIN with
    # every save, so a right PIN is remembered (as a digest, in memory) once checked.
    app.extensions[CHECKED] = LRU(256)


def guesses() -> Guesses:
    """The current app's count of wrong PINs."""
    return current_app.extensions[GUESSES]


#: Tests of a request that mark the club's owner, let through a game's wait of every
#: device together: ``clubpin.holds_club_pin`` adds itself (clubpin builds on this
#: module, so this module cannot import it).
OWNERS: list[Callable[[], bool]] = []


def check(game: Game, pin: str | None, client: str) -> None:
    """Let a write through, or raise PinRefused (missing, wrong, or guessing slowed).

    The wait of every device together (MAX_WRONG_ALL) does not hold a device that keeps
    this game's score, nor one that holds the club PIN (issue 26: the owner's way back,
    which a guesser does not have); the club PIN never stands for the game's PIN."""
    if not game.protected:
        return
    verify(game.id, game.pin_hash, pin, client,
           holds_role=is_keeper(game) or any(test() for test in OWNERS),
           refused=lambda **why: PinRefused(game, **why))


def verify(scope: str, pin_hash: str, pin: str | None, client: str, *, holds_role: bool,
           refused: Callable[..., Refused]) -> None:
    """Let a *pin* for *pin_hash* through, or raise *refused(…)*: missing, wrong, or
    guessing slowed — from this client (even with the right PIN), or from everyone
    together unless this device already *holds_role* (it keeps its role, API.md)."""
    wait = guesses().wait(client, scope)
    if wait:
        raise refused(retry_after=wait)
    if not holds_role:
        wait = guesses().wait_all(scope)
        if wait:
            raise refused(retry_after=wait, everyone=True)
    if not pin:
        raise refused()
    checked: LRU[tuple[str, str], bool] = current_app.extensions[CHECKED]
    key = (pin_hash, hashlib.sha256(pin.encode()).hexdigest())
    if checked.get(key):
        return   # the right PIN, checked before: no guess to count
    # Counted before the (slow) check, in the transaction that reads the counts: guesses
    # checked side by side cannot all slip under a limit.
    guess, wait, everyone = guesses().count(client, scope, everyone=not holds_role)
    if guess is None:
        raise refused(retry_after=wait, everyone=everyone)
    if not check_password_hash(pin_hash, pin):
        raise refused(wrong=True)   # stays counted: the next try waits if one too many
    guesses().take_back(guess)
    checked.put(key, True)


# --- devices (pages) --------------------------------------------------------

def fingerprint(pin_hash: str | None) -> str:
    """What a device keeps to show it entered this PIN (not the PIN, not its hash)."""
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, (pin_hash or "").encode(), hashlib.sha256).hexdigest()[:20]


def is_keeper(game: Game) -> bool:
    """True when this device may change the game: it is open, or the PIN was entered here."""
    return keeps(game.id, game.pin_hash)


def keeps(game_id: str, pin_hash: str | None) -> bool:
    """is_keeper() from the game's id and PIN hash alone."""
    if pin_hash is None:
        return True
    return session.get("keepers", {}).get(game_id) == fingerprint(pin_hash)


def remember(game: Game) -> None:
    """This device entered the game's PIN: it is the game's scorekeeper from now on."""
    keepers = dict(session.get("keepers", {}))
    keepers[game.id] = fingerprint(game.pin_hash)
    session["keepers"] = keepers


def require_keeper(game: Game) -> None:
    """For a page that changes the game: PinRefused unless this device is its scorekeeper."""
    if not is_keeper(game):
        raise PinRefused(game)


def client_address() -> str:
    """The address the guessing limits count a request's wrong PINs by."""
    return request.remote_addr or "unknown"
