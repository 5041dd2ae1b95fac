"""What a guest or a hand-made request cannot break (issue 26, item 8): a round number
past SQLite's integers, a Host with a name after its IPv6 brackets, text that is not
UTF-8, and a backup downloaded without PIN hashes that still held one as free space."""

from __future__ import annotations

import pytest

from helpers import paragraphs

HUGE = "9223372036854775808"      # 2**63: one past SQLite's largest integer


@pytest.mark.parametrize("method, path", [
    ("POST", "/api/games/{gid}/rounds/%s/start" % HUGE),
    ("PUT", "/api/games/{gid}/rounds/%s" % HUGE),
    ("POST", "/games/{gid}/rounds/%s/start" % HUGE),
    ("GET", "/games/{gid}/rounds/%s" % HUGE),
    ("GET", "/games/{gid}/rounds/%s/live" % HUGE),
    ("POST", "/api/games/{gid}/rounds/99999/start"),
])
def test_a_round_number_past_sqlites_integers_is_not_a_500(client, gid, method, path):
    r = client.open(path.format(gid=gid), method=method, json={} if "api" in path else None)
    assert r.status_code in (400, 404), r.get_data(as_text=True)[:300]
    if HUGE in path:
        assert r.status_code == 404


NEW_GAME = {"players-0": "Ann", "players-1": "Bob", "set": "12", "rules-deal": "A"}


@pytest.mark.parametrize("method, path, body", [
    ("POST", "/games/new", "players-0=%FF%FEy&players-1=Bob&set=12"),
    ("POST", "/games/new", "players-0=Ann&players-1=B%C3%28b&set=12"),
    ("POST", "/seasons", "name=%FFWinter&start=2026-01-01&end=2026-02-01"),
    ("POST", "/games/{gid}/rename", "name=%E9t%E9"),
    ("POST", "/games/{gid}/rounds/1", "revision=0&score-0=0&score-1=%FF&score-2=3"),
])
def test_a_form_that_is_not_utf8_is_refused_with_a_sentence(client, gid, method, path, body):
    before = client.get("/api/games").get_json()
    r = client.open(path.format(gid=gid), method=method, data=body,
                    content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400
    assert any("is not UTF-8 text" in p for p in paragraphs(r)), paragraphs(r)
    assert client.get("/api/games").get_json() == before               # nothing stored
    assert "%FF" not in client.get("/").get_data(as_text=True)


def test_a_multipart_form_or_an_address_that_is_not_utf8_is_refused(client):
    r = client.post("/games/new", content_type="multipart/form-data; boundary=X",
                    data=b"--X\r\nContent-Disposition: form-data; name=\"players-0\"\r\n\r\n"
                         b"\xff\xfey\r\n--X\r\nContent-Disposition: form-data; "
                         b"name=\"players-1\"\r\n\r\nBob\r\n--X--\r\n")
    assert r.status_code == 400 and any("UTF-8" in p for p in paragraphs(r))
    r = client.get("/api/games?x=%FF")
    assert r.status_code == 400 and "UTF-8" in r.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_utf8_in_every_script_still_goes_through(client):
    r = client.post("/games/new", data={**NEW_GAME, "players-0": "王小明",
                                        "players-1": "Σοφία", "players-2": "สมชาย"})
    assert r.status_code == 302
    names = client.get("/api/games").get_json()["games"][0]["players"]
    assert names == ["王小明", "Σοφία", "สมชาย"]


def test_a_backup_without_pin_hashes_holds_none_as_free_space(client, game_factory,
                                                              monkeypatch):
    """As on a system whose SQLite is built with secure_delete off (Debian's is on)."""
    import sqlite3
    connect = sqlite3.connect

    def insecure(*args, **kwargs):
        con = connect(*args, **kwargs)
        con.execute("PRAGMA secure_delete = OFF")
        return con

    monkeypatch.setattr(sqlite3, "connect", insecure)
    for n in range(5):
        game_factory(["Ann", "Bob"], pin=f"135{n}")
    r = client.get("/backup.sqlite")
    assert r.status_code == 200 and r.get_data().startswith(b"SQLite format 3\x00")
    assert b"scrypt:" not in r.get_data() and b"pbkdf2:" not in r.get_data()
