"""Every API answer is JSON with a sentence, errors included; a busy database is 503, not 500."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import paragraphs
from scorekeeper import create_app

PLAYERS = ["Ann", "Bob", "Chi"]
NO_ROUTE = "There is no such API route. The routes are listed in docs/api.md."
TOO_DEEP = "The JSON is nested too deeply (the limit is 32); no real request is."
CRASHED = ("The server could not answer this request; nothing was changed by it. Try again, "
           "and restart the server if it keeps happening.")
BUSY = ("The database stayed busy with other saves for several seconds; nothing was saved. "
        "Try again in a moment.")


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("method, path, kwargs, status, sentence", [
    ("GET", "/api/nowhere", {}, 404, NO_ROUTE),
    ("GET", "/api", {}, 404, NO_ROUTE),
    ("PUT", "/api/games/{gid}/rounds/abc", {"json": {"scores": {}}}, 404, NO_ROUTE),
    ("PUT", "/api/games/{gid}/rounds/-1", {"json": {"scores": {}}}, 404, NO_ROUTE),
    ("DELETE", "/api/hand-score", {}, 405, "This address does not accept a DELETE request."),
    ("POST", "/api/games/{gid}", {"json": {}}, 405,
     "This address does not accept a POST request."),
    ("POST", "/api/games", {"data": "players=Ann", "content_type": "text/plain"}, 415,
     "Send the body as JSON (Content-Type: application/json)."),
    ("POST", "/api/games", {"data": json.dumps({"players": ["A" * 1_100_000, "B"]}),
                            "content_type": "application/json"}, 413,
     "What was sent is too large: at most 1 MB is accepted."),
    ("POST", "/api/rulings", {"data": '{"table": ' + deep(5000) + "}",
                              "content_type": "application/json"}, 400, TOO_DEEP),
    ("POST", "/api/games", {"data": '{"players": ["A", "B"], "x": ' + deep(40) + "}",
                            "content_type": "application/json"}, 400, TOO_DEEP),
    ("POST", "/api/hand-score", {"data": b"\xff\xfe{", "content_type": "application/json"},
     400, "The body is not valid JSON."),
])
def test_api_errors_are_json_sentences(app, client, gid, method, path, kwargs, status,
                                       sentence):
    r = client.open(path.format(gid=gid), method=method, **kwargs)
    assert r.status_code == status
    assert r.is_json, r.get_data(as_text=True)[:200]
    assert r.get_json()["error"] == sentence
    if status == 405:
        assert r.headers["Allow"]
    games = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in games] == [gid]   # nothing stored by a refused request


def test_pages_keep_html_errors(client):
    r = client.get("/games/nope/rounds/abc")
    assert r.status_code == 404 and "Page not found" in r.get_data(as_text=True)
    assert "There is no page at this address." in paragraphs(r)
    r = client.delete("/")
    assert r.status_code == 405
    assert "This address does not accept a DELETE request." in paragraphs(r)


def test_a_crash_is_500_json_on_the_api_and_a_page_elsewhere(database, monkeypatch):
    app = create_app({"DATABASE": database, "SECRET_KEY": "k"})  # not TESTING
    client = app.test_client()
    from scorekeeper.api import games as api_games
    from scorekeeper.views import games as page_games

    def broken(_db):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(api_games, "list_games", broken)
    monkeypatch.setattr(page_games, "list_games", broken)
    r = client.get("/api/games")
    assert r.status_code == 500 and r.get_json()["error"] == CRASHED
    r = client.get("/")
    assert r.status_code == 500 and CRASHED in paragraphs(r)
    assert "disk on fire" not in r.get_data(as_text=True)


@pytest.fixture
def locked(app):
    """Another writer holds the database; the app gives up after 0.2 s."""
    app.config["BUSY_TIMEOUT"] = 0.2
    holder = sqlite3.connect(app.config["DATABASE"])
    holder.execute("BEGIN IMMEDIATE")
    yield
    holder.rollback()
    holder.close()


def test_busy_database_is_503_json_with_nothing_stored(client, gid, locked):
    r = client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 3, "Chi": 4}})
    assert r.status_code == 503 and r.headers["Retry-After"]
    assert r.get_json()["error"] == BUSY
    r = client.post("/api/games", json={"players": PLAYERS})
    assert r.status_code == 503


def test_busy_round_form_keeps_what_was_typed(client, gid, locked):
    r = client.post(f"/games/{gid}/rounds/1", data={"revision": "0", "score-0": "0",
                                                   "score-1": "31", "score-2": "7"})
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and BUSY in paragraphs(html)
    assert 'value="31"' in html and 'value="7"' in html


def test_busy_new_game_form_keeps_the_names(client, locked):
    form = {"players-0": "Ann", "players-1": "Bob", "set": "12", "deal": "A",
            "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker",
            "double_owner_satisfies": "false", "double_blank": "50"}
    r = client.post("/games/new", data=form)
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and BUSY in paragraphs(html) and 'value="Bob"' in html


# --- a save refused before it could be stored: the form comes back with what was typed --

BUSY_FORMS = [
    # path, what is sent, what comes back of it
    ("/games/{gid}/rename", {"name": "Saturday"}, 'value="Saturday"'),
    ("/seasons", {"name": "Autumn", "start": "2026-09-01", "end": "2026-11-30"}, 'value="Autumn"'),
    ("/games/{gid}/pin/change", {"current": "", "new": "2468", "action": "set"}, "New PIN"),
    ("/games/{gid}/rounds/1/live/start", {"starter": "1", "tiles_each": "12"}, "Start the live"),
]


@pytest.mark.parametrize("path, data, kept", BUSY_FORMS)
def test_a_busy_database_shows_the_form_again_with_what_was_typed(app, client, gid, locked,
                                                                   path, data, kept):
    r = client.post(path.format(gid=gid), data=data)
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert BUSY in paragraphs(html) and kept in html


@pytest.fixture
def live_started(client, gid):
    """Round 1's live table, Bob first (before the database is locked)."""
    client.post(f"/games/{gid}/rounds/1/live/start", data={"starter": "1", "tiles_each": "12"})


def test_a_busy_database_keeps_the_live_tables_pick(client, gid, live_started, locked):
    r = client.post(f"/games/{gid}/rounds/1/live/action",
                    data={"kind": "play", "tile": "12-4", "train": "1"})
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and BUSY in paragraphs(html)
    assert 'name="tile" value="4-12" checked' in html


@pytest.mark.parametrize("path, data", [
    ("/players/aliases", {"alias": "Ann", "of": "Bob"}),
    ("/seasons/nope/delete", {}),
])
def test_a_busy_database_without_a_form_to_show_is_the_busy_page(client, gid, locked, path,
                                                                 data):
    r = client.post(path, data=data)
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert BUSY in paragraphs(r)


def test_an_expired_import_form_says_so_on_the_import_page(csrf_app):
    r = csrf_app.test_client().post("/games/import", data={})
    assert r.status_code == 400
    assert "The page expired; choose the file again and import it." in paragraphs(r)
    assert 'id="import-form"' in r.get_data(as_text=True)


# The depth check reads the JSON text (a few regular-expression passes), not the parsed
# value: it must agree with a walk of the value, strings full of brackets, quotes and
# backslashes included, in UTF-8 and in the UTF-16 JSON also allows.
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n'),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(alphabet='[]{}"\\k', max_size=3), children, max_size=3),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(_json_values, st.sampled_from(["utf-8", "utf-16"]))
def test_the_depth_read_from_the_text_is_the_depth_of_the_value(value, encoding):
    from scorekeeper.parsing import MAX_JSON_DEPTH, depth, nesting
    text = json.dumps(value, ensure_ascii=False)
    assert nesting(text.encode(encoding), value) == min(depth(value), MAX_JSON_DEPTH + 1)
    assert nesting(text, value) == min(depth(value), MAX_JSON_DEPTH + 1)
