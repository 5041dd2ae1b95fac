"""The API refuses what it does not understand (issue 19, items 4 and 5): every body is
checked whole against its route's fields (API.md, Games and scores), and every POST must
be JSON, even with no body (API.md, Club PIN) — through the client and the real server."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from scorekeeper.parsing import Fields

TABLE = {"set": 12, "engine": 12, "players": ["Ann", "Bob"], "current": "Ann",
         "first_turn": False, "trains": {}, "markers": [], "mexican": [], "turn": [],
         "drawn": None, "rules": {}}


def test_a_new_game_with_a_misspelt_field_is_refused_with_the_field_named(client):
    r = client.post("/api/games", json={"players": ["Ann", "Bob"], "start_engin": 6})
    assert r.status_code == 400
    assert r.get_json() == {"error": "“start_engin” is not a field of a new game. Did you "
                                     "mean start_engine?", "field": "start_engin"}
    assert client.get("/api/games").get_json()["games"] == []      # nothing stored


def test_a_field_far_from_any_lists_the_fields(client):
    r = client.post("/api/games", json={"players": ["Ann", "Bob"], "zzz": 1})
    assert r.get_json() == {"error": "“zzz” is not a field of a new game. Its fields are "
                                     "name, players, set, rules, start_engine, end_engine, pin, "
                                     "and colours.", "field": "zzz"}


def test_every_field_of_api_md_is_known(client, game_factory):
    body = {"name": "Friday", "players": ["Ann", "Bob"], "set": 12, "rules": {},
            "start_engine": 12, "end_engine": 0, "pin": "2468"}
    assert client.post("/api/games", json=body).status_code == 201
    # "colours" is API.md's too: known (its checks are issue 20's), never "not a field".
    r = client.post("/api/games", json={"players": ["Ann", "Bob"],
                                        "colours": ["#d62728", "#1f77b4"]})
    assert "not a field" not in (r.get_json().get("error") or "")


@pytest.mark.parametrize("method, path, body, field, words", [
    ("PATCH", "/api/games/{gid}", {"name": "Sat", "nmae": 1}, "nmae", "of a game's new name. "
     "Did you mean name?"),
    ("PUT", "/api/games/{gid}/pin", {"pin": "1234", "pni": 1}, "pni", "of a game's PIN."),
    ("PUT", "/api/games/{gid}/rounds/1", {"scores": {"Ann": 0, "Bob": 5, "Chi": 9},
                                          "revison": 0}, "revison", "of a round's scores. "
     "Did you mean revision?"),
    ("POST", "/api/hand-score", {"tiles": [[3, 4]], "rule": {}}, "rule",
     "of a hand to score. Did you mean rules?"),
    ("POST", "/api/rulings", {"table": TABLE, "play": {"tile": [12, 3], "train": "Ann"},
                              "why": 1}, "why", "of a ruling's question."),
    ("POST", "/api/rulings", {"table": {**TABLE, "enigne": 1}, "play": {"tile": [12, 3],
                                                                       "train": "Ann"}},
     "table.enigne", "of a table. Did you mean engine?"),
    ("POST", "/api/rulings", {"table": TABLE, "play": {"tile": [12, 3], "train": "Ann",
                                                      "tarin": 1}},
     "play.tarin", "of a play. Did you mean train?"),
    ("POST", "/api/rulings", {"table": {**TABLE, "turn": [{"tile": [12, 3], "train": "Ann",
                                                           "x": 1}]},
                              "play": {"tile": [3, 4], "train": "Ann"}},
     "table.turn.0.x", "of a play."),
    ("POST", "/api/legal-plays", {"table": TABLE, "hand": [[12, 3]], "hands": []}, "hands",
     "of a question about legal plays. Did you mean hand?"),
    ("POST", "/api/plan-train", {"set": 12, "engine": 12, "hand": [[12, 3]], "sets": 1},
     "sets", "of a hand to plan an opening train from. Did you mean set?"),
    ("POST", "/api/players/aliases", {"alias": "Ann", "of": "Bob", "off": 1}, "off",
     "of another spelling. Did you mean of?"),
    ("POST", "/api/seasons", {"name": "Autumn", "from": "2026-09-01", "to": "2026-11-30",
                              "too": 1}, "too", "of a season. Did you mean to?"),
    ("PUT", "/api/club/pin", {"pin": "123456", "pn": 1}, "pn", "of the club PIN. Did you mean "
     "pin?"),
    ("POST", "/api/games/import", {"format": "mexican-train-scorekeeper", "version": 1,
                                   "gmae": {}}, "gmae", "of a game's export. Did you mean game?"),
])
def test_every_route_refuses_an_unknown_field_and_stores_nothing(client, game_factory,
                                                                 method, path, body, field,
                                                                 words):
    game = game_factory(name="Friday")
    before = client.get(f"/api/games/{game['id']}").get_json()
    r = client.open(path.format(gid=game["id"]), method=method, json=body)
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["field"] == field
    name = field.rsplit(".", 1)[-1]
    assert r.get_json()["error"] == f"“{name}” is not a field {words}" or \
        r.get_json()["error"].startswith(f"“{name}” is not a field {words} ")
    assert client.get(f"/api/games/{game['id']}").get_json() == before
    assert client.get("/api/seasons").get_json()["seasons"] == []
    assert client.get("/api/club").get_json() == {"protected": False}
    assert len(client.get("/api/games").get_json()["games"]) == 1


def test_a_restore_takes_no_fields(client, gid):
    client.delete(f"/api/games/{gid}")
    r = client.post(f"/api/games/{gid}/restore", json={"force": True})
    assert r.status_code == 400 and r.get_json() == {
        "error": "“force” is not a field of a restore: send {} (no fields).", "field": "force"}
    assert client.get(f"/api/games/{gid}").status_code == 404            # still deleted
    r = client.post(f"/api/games/{gid}/restore", data=b"", content_type="application/json")
    assert r.status_code == 200                                          # {} or nothing


def test_the_sentence_follows_the_language(client):
    r = client.post("/api/games", json={"players": ["Ann", "Bob"], "start_engin": 6},
                    headers={"Accept-Language": "el"})
    assert r.status_code == 400 and r.get_json()["field"] == "start_engin"
    assert "start_engin" in r.get_json()["error"] and "start_engine" in r.get_json()["error"]
    assert "not a field" not in r.get_json()["error"]


def test_fields_is_one_declaration():
    fields = Fields(("alpha", "beta"), "“%(name)s” is not a field of a test.")
    assert fields.check({"alpha": 1}) == {"alpha": 1}
    with pytest.raises(Exception) as refused:
        fields.check({"alpha": 1, "alhpa": 2}, "outer")
    assert refused.value.field == "outer.alhpa"
    assert refused.value.message == "“alhpa” is not a field of a test. Did you mean alpha?"
    long = "x" * 5000
    with pytest.raises(Exception) as refused:
        fields.check({long: 1})
    assert len(refused.value.message) < 200 and refused.value.field == long


def test_a_table_as_the_live_table_stores_it_is_read_back():
    """Stored live tables are Table.to_json's: every key of it is a field of a table."""
    from scorekeeper.referee import TABLE_FIELDS, Table
    table = Table.from_json(TABLE)
    assert set(table.to_json()) <= set(TABLE_FIELDS.names)
    assert Table.from_json(table.to_json()) == table


# --- every POST is JSON -------------------------------------------------------------

POSTS = ["/api/games", "/api/games/{gid}/restore", "/api/games/import", "/api/hand-score",
         "/api/rulings", "/api/legal-plays", "/api/plan-train", "/api/players/aliases",
         "/api/seasons"]


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("content_type, data", [
    ("text/plain", b'{"players": ["Ann", "Bob"]}'), ("text/plain", b""), (None, b""),
    ("application/x-www-form-urlencoded", b"players=Ann"), ("multipart/form-data; boundary=x",
                                                            b"--x--\r\n")])
def test_a_post_that_is_not_json_is_415_even_without_a_body(client, gid, path, content_type,
                                                             data):
    client.delete(f"/api/games/{gid}")
    headers = {} if content_type is None else {"Content-Type": content_type}
    r = client.post(path.format(gid=gid), data=data, headers=headers)
    assert r.status_code == 415
    assert r.get_json() == {"error": "Send the body as JSON (Content-Type: application/json).",
                            "field": ""}
    assert client.get(f"/api/games/{gid}").status_code == 404          # not restored
    assert client.get("/api/games").get_json()["games"] == []           # nothing created


def test_the_photo_route_alone_is_not_held_to_json():
    from scorekeeper.api import MULTIPART_POSTS
    assert MULTIPART_POSTS == {"/api/hand-photo"}


def test_a_cross_site_text_plain_restore_through_the_real_server_is_refused(live_server):
    """What a page on another site can send without a preflight: a text/plain POST."""
    from helpers import api
    gid = api(live_server, "POST", "/api/games", {"players": ["Ann", "Bob"]})["id"]
    api(live_server, "DELETE", f"/api/games/{gid}")
    url = urlsplit(live_server)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    conn.request("POST", f"/api/games/{gid}/restore", body=b"",
                 headers={"Content-Type": "text/plain", "Origin": "http://evil.example"})
    r = conn.getresponse()
    assert r.status == 415 and json.loads(r.read())["field"] == ""
    conn.close()
    assert api(live_server, "GET", "/api/games") == {"games": []}
    # A JSON body still restores it, and an unknown field is named on the real server too.
    assert api(live_server, "POST", f"/api/games/{gid}/restore", {})["id"] == gid
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    conn.request("POST", "/api/games", body=json.dumps({"players": ["A", "B"], "set_": 6}),
                 headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    assert r.status == 400 and json.loads(r.read())["field"] == "set_"
    conn.close()
