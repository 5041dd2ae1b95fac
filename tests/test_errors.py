"""Every API answer is JSON with a sentence, errors included; a busy database is 503, not 500."""

from __future__ import annotations

import json
import sqlite3

import pytest

from scorekeeper import create_app

PLAYERS = ["Ann", "Bob", "Chi"]


@pytest.fixture
def gid(client):
    return client.post("/api/games", json={"players": PLAYERS}).get_json()["id"]


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("method, path, kwargs, status, words", [
    ("GET", "/api/nowhere", {}, 404, "no such API route"),
    ("GET", "/api", {}, 404, "no such API route"),
    ("PUT", "/api/games/{gid}/rounds/abc", {"json": {"scores": {}}}, 404, "no such API route"),
    ("PUT", "/api/games/{gid}/rounds/-1", {"json": {"scores": {}}}, 404, "no such API route"),
    ("DELETE", "/api/hand-score", {}, 405, "does not accept a DELETE request"),
    ("POST", "/api/games/{gid}", {"json": {}}, 405, "does not accept a POST request"),
    ("POST", "/api/games", {"data": "players=Ann", "content_type": "text/plain"}, 415, "JSON"),
    ("POST", "/api/games", {"data": json.dumps({"players": ["A" * 1_100_000, "B"]}),
                            "content_type": "application/json"}, 413, "at most 1 MB"),
    ("POST", "/api/rulings", {"data": '{"table": ' + deep(5000) + "}",
                              "content_type": "application/json"}, 400, "the limit is 32"),
    ("POST", "/api/games", {"data": '{"players": ["A", "B"], "x": ' + deep(40) + "}",
                            "content_type": "application/json"}, 400, "nested too deeply"),
    ("POST", "/api/hand-score", {"data": b"\xff\xfe{", "content_type": "application/json"},
     400, "not valid JSON"),
])
def test_api_errors_are_json_sentences(app, client, gid, method, path, kwargs, status, words):
    r = client.open(path.format(gid=gid), method=method, **kwargs)
    assert r.status_code == status
    assert r.is_json, r.get_data(as_text=True)[:200]
    body = r.get_json()
    assert words in body["error"] and body["error"].endswith("."), body
    if status == 405:
        assert r.headers["Allow"]
    games = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in games] == [gid]   # nothing stored by a refused request


def test_pages_keep_html_errors(client):
    r = client.get("/games/nope/rounds/abc")
    assert r.status_code == 404 and "Page not found" in r.get_data(as_text=True)
    r = client.delete("/")
    assert r.status_code == 405 and "does not accept a DELETE request" in r.get_data(as_text=True)


def test_a_crash_is_500_json_on_the_api_and_a_page_elsewhere(tmp_path, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "e.db"), "SECRET_KEY": "k"})  # not TESTING
    client = app.test_client()
    from scorekeeper.api import games as api_games
    from scorekeeper.views import games as page_games

    def broken(_db):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(api_games, "list_games", broken)
    monkeypatch.setattr(page_games, "list_games", broken)
    r = client.get("/api/games")
    assert r.status_code == 500 and "could not answer" in r.get_json()["error"]
    r = client.get("/")
    assert r.status_code == 500 and "could not answer" in r.get_data(as_text=True)
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
    assert "busy" in r.get_json()["error"]
    r = client.post("/api/games", json={"players": PLAYERS})
    assert r.status_code == 503


def test_busy_round_form_keeps_what_was_typed(client, gid, locked):
    r = client.post(f"/games/{gid}/rounds/1", data={"revision": "0", "score-0": "0",
                                                   "score-1": "31", "score-2": "7"})
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and "stayed busy" in html
    assert 'value="31"' in html and 'value="7"' in html


def test_busy_new_game_form_keeps_the_names(client, locked):
    form = {"players-0": "Ann", "players-1": "Bob", "set": "12", "deal": "A",
            "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker",
            "double_owner_satisfies": "false", "double_blank": "50"}
    r = client.post("/games/new", data=form)
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and "stayed busy" in html and 'value="Bob"' in html
