"""The game PIN: who may change a game (API.md "Game PIN").

A game may carry a PIN of 4 to 8 digits, stored only as a Werkzeug password
hash.  A device that entered it once is that game's scorekeeper (remembered in
its session, tied to the PIN: a new PIN needs entering again); every other
device is a viewer.  The API takes it in the ``X-Game-PIN`` header.  Guessing
is slowed: 5 wrong PINs for a game from one client address within 10 minutes,
and that client waits out the 10 minutes for that game, even with the right PIN.

Each app keeps its own count of wrong PINs (:func:`guesses`, a :class:`Guesses`) and
its own PINs already checked (an :class:`~.lru.LRU`), in ``app.extensions``, made by
:func:`init_app`: two apps (two tests) never share them.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from collections import deque

from flask import Flask, current_app, request, session
from werkzeug.security import check_password_hash, generate_password_hash

from .errors import BadInput
from .game import Game
from .lru import LRU
from .text import _

_PIN = re.compile(r"[0-9]{4,8}")
HEADER = "X-Game-PIN"
MAX_WRONG = 5
WINDOW = 600.0   # seconds


def parse_pin(value, field: str = "pin") -> str:
    """A PIN from input: a string of 4 to 8 ASCII digits."""
    if not isinstance(value, str) or not _PIN.fullmatch(value):
        raise BadInput(_("A PIN is 4 to 8 digits (0-9)."), field)
    return value


def hash_pin(pin: str) -> str:
    return generate_password_hash(pin)


class PinRefused(Exception):
    """Writing to a protected game needs its PIN; *retry_after* > 0 when guessing is slowed."""

    def __init__(self, game: Game, retry_after: int = 0, wrong: bool = False):
        super().__init__(game.id)
        self.game = game
        self.retry_after = retry_after
        self.wrong = wrong

    @property
    def message(self) -> str:
        if self.retry_after:
            minutes = max(1, -(-self.retry_after // 60))
            return _("Too many wrong PINs for this game from this device: try again in "
                     "%(minutes)s min.", minutes=minutes)
        if self.wrong:
            return _("That is not this game's PIN.")
        return _("This game is protected by a PIN: only its scorekeeper can change it. "
                 "Enter the PIN to keep score on this device.")

    @property
    def status(self) -> int:
        """The HTTP status of the refusal: 403 without the right PIN, 429 while guessing is
        slowed."""
        return 429 if self.retry_after else 403

    @property
    def headers(self) -> dict[str, str]:
        """The headers of the refusal: while guessing is slowed, when to try again."""
        return {"Retry-After": str(self.retry_after)} if self.retry_after else {}


class Guesses:
    """Wrong PINs per (client address, game) in the last WINDOW seconds.

    Kept in memory per app; wait() and wrong() are all the rest of the app asks, so
    keeping the count elsewhere (in the database, say) changes this class only.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._wrong: dict[tuple[str, str], deque] = {}

    def wait(self, client: str, game_id: str, now: float | None = None) -> int:
        """Seconds this client must wait before trying this game's PIN again (0: go ahead)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._wrong.get((client, game_id))
            if not times:
                return 0
            while times and now - times[0] >= WINDOW:
                times.popleft()
            if len(times) < MAX_WRONG:
                return 0
            return int(times[0] + WINDOW - now) + 1

    def wrong(self, client: str, game_id: str, now: float | None = None) -> None:
        """Count one wrong PIN from this client for this game."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._wrong.setdefault((client, game_id), deque()).append(now)
            if len(self._wrong) > 10_000:   # a flood of addresses: forget the oldest
                self._wrong.pop(next(iter(self._wrong)))


GUESSES = "scorekeeper.pin_guesses"
CHECKED = "scorekeeper.pins_checked"


def init_app(app: Flask) -> None:
    """Give *app* its own count of wrong PINs and its own checked PINs (create_app calls this)."""
    app.extensions[GUESSES] = Guesses()
    # Checking a Werkzeug hash is slow on purpose (scrypt); an API client sends the PIN with
    # every save, so a right PIN is remembered (as a digest, in memory) once checked.
    app.extensions[CHECKED] = LRU(256)


def guesses() -> Guesses:
    """The current app's count of wrong PINs."""
    return current_app.extensions[GUESSES]


def _matches(pin_hash: str, pin: str) -> bool:
    checked: LRU[tuple[str, str], bool] = current_app.extensions[CHECKED]
    key = (pin_hash, hashlib.sha256(pin.encode()).hexdigest())
    if checked.get(key):
        return True
    if not check_password_hash(pin_hash, pin):
        return False
    checked.put(key, True)
    return True


def check(game: Game, pin: str | None, client: str) -> None:
    """Let a write through, or raise PinRefused (missing, wrong, or guessing slowed)."""
    if not game.protected:
        return
    wait = guesses().wait(client, game.id)
    if wait:
        raise PinRefused(game, retry_after=wait)
    if not pin:
        raise PinRefused(game)
    if not _matches(game.pin_hash, pin):
        guesses().wrong(client, game.id)   # the next try waits if this was the fifth
        raise PinRefused(game, wrong=True)


# --- devices (pages) --------------------------------------------------------

def _fingerprint(pin_hash: str | None) -> str:
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
    return session.get("keepers", {}).get(game_id) == _fingerprint(pin_hash)


def remember(game: Game) -> None:
    """This device entered the game's PIN: it is the game's scorekeeper from now on."""
    keepers = dict(session.get("keepers", {}))
    keepers[game.id] = _fingerprint(game.pin_hash)
    session["keepers"] = keepers


def require_keeper(game: Game) -> None:
    """For a page that changes the game: PinRefused unless this device is its scorekeeper."""
    if not is_keeper(game):
        raise PinRefused(game)


def client_address() -> str:
    return request.remote_addr or "unknown"
