"""Helpers shared by the tests: serving an app, calling its API, creating a game, reading a
page's sentences."""

from __future__ import annotations

import json
import re
import socket
import threading
import urllib.request
from contextlib import contextmanager
from html import unescape


#: The players of a game when a test does not say: three, as at most tables in the tests.
PLAYERS = ("Ann", "Bob", "Chi")


def free_port() -> int:
    """A loopback port free now, for a server started in another process (one in this
    process binds port 0 instead: see served())."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(app, threads: int = 4):
    """The app served by waitress on a free loopback port; yields its base URL."""
    from scorekeeper.serve import make_server, waitress_options

    # Port 0: the system picks a free port as it binds, so tests running side by side
    # (pytest -n) never race for one.  The server is the one run.sh starts (its own error
    # answers with the security headers, its body sizes).
    server = make_server(app, host="127.0.0.1", port=0, threads=threads,
                         **waitress_options(app))
    closed = threading.Event()

    def run():
        try:
            server.run()
        except OSError:           # the socket closed under the loop's select(): stopping
            if not closed.is_set():
                raise

    threading.Thread(target=run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        closed.set()
        # The task threads first: one still answering a request when the server closes
        # would wake the closed loop by writing a byte to its trigger's file descriptor,
        # by then perhaps reused by the next test's database or a subprocess's pipe (seen
        # as "file is not a database" and "Bad exception data from child: b'x'").
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=10)
        server.close()


def api(base: str, method: str, path: str, body=None, pin: str | None = None):
    """Call the JSON API of a served app; answers the decoded JSON."""
    headers = {"Content-Type": "application/json"}
    if pin:
        headers["X-Game-PIN"] = pin
    req = urllib.request.Request(base + path, method=method, headers=headers,
                                 data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def create_game(to, players=PLAYERS, *, scores=(), finished=False, pin=None, **body) -> dict:
    """Create a game through the API and score one round per row of *scores* (a row is the
    players' scores in seating order; None leaves that round unplayed); answers the game as
    GET /api/games/<id> does after those rounds.

    *to* is a Flask test client or a served app's base URL.  *body* is the rest of
    POST /api/games (name, set, rules, start_engine, end_engine), None values left out;
    *pin* protects the game and is sent with the rounds.  *finished*: the game is exactly
    the rows of *scores* (engines len(scores) - 1 down to 0), so a row for every round
    makes it complete, as a club's records count it.
    """
    if finished:
        body = {"start_engine": len(scores) - 1, "end_engine": 0, **body}
    body = {"players": list(players), "pin": pin, **body}
    game = _call(to, "POST", "/api/games", {k: v for k, v in body.items() if v is not None},
                 pin)
    for number, row in enumerate(scores, 1):
        if row is not None:
            _call(to, "PUT", f"/api/games/{game['id']}/rounds/{number}",
                  {"scores": dict(zip(game["players"], row))}, pin)
    if any(row is not None for row in scores):
        game = _call(to, "GET", f"/api/games/{game['id']}", None, pin)
    return game


def _call(to, method: str, path: str, body, pin: str | None):
    """One API request, through a Flask test client or to a served app's base URL; a
    refusal fails the test with the API's sentence."""
    if isinstance(to, str):
        return api(to, method, path, body, pin=pin)
    r = to.open(path, method=method, json=body, headers={"X-Game-PIN": pin} if pin else {})
    assert r.status_code in (200, 201), (method, path, r.status_code, r.get_json())
    return r.get_json()


def paragraphs(page) -> list[str]:
    """The text of each paragraph (<p>) of a page or response, as a person reads it: tags
    dropped, entities decoded, white space collapsed. A refusal is asserted as one whole
    paragraph of it: `sentence in paragraphs(r)`."""
    html = page if isinstance(page, str) else page.get_data(as_text=True)
    return [unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", p))).strip()
            for p in re.findall(r"<p\b[^>]*>(.*?)</p>", html, re.S)]


def at_size(tab, width: int, height: int):
    """*tab* (conftest's ``touch_tab``) as a device of this size with no cookies: no
    language chosen, no PIN held.  The tab is the file's, reused by each test."""
    tab.context.clear_cookies()
    tab.set_viewport_size({"width": width, "height": height})
    return tab


def open_count_tiles(page, which: str) -> None:
    """Open the round page's Count tiles dialog (*which*: the button's selector suffix, e.g.
    "[data-seat='1']") and wait for its photo part, fetched on opening, to be in place: it
    comes in above the tiles, so a tap before it lands could hit another tile."""
    page.click(f".count-tiles{which}")
    page.wait_for_selector("#photo-take", state="visible")
