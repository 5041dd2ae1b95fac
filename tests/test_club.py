"""The club PIN (issue 19, item 1; API.md "Club PIN"): optional; once set it guards the
club-level changes, in the API (X-Club-PIN) and on the pages (entered once per device, the
prompt coming back to what was being done), with its own guessing limit; it opens no game."""

from __future__ import annotations

import io
import re
import sqlite3

import pytest

from helpers import create_game, paragraphs
from scorekeeper import clubpin, pins

CLUB = "246810"
HEADER = {clubpin.HEADER: CLUB}
ASK = ("A club PIN protects the club's data: seasons, player spellings, imports, restores and "
       "the backup. Enter it once on this device to change them.")
WRONG = "That is not the club PIN."
TOO_MANY = ("Too many wrong club PINs from this network address (every device on it counts "
            "together): try again in 10 min.")


def protect(client, pin=CLUB):
    r = client.put("/api/club/pin", json={"pin": pin})
    assert r.status_code == 200 and r.get_json() == {"protected": True}


@pytest.fixture
def club(client, game_factory):
    """Two finished games (Ann and Bob each once with an other spelling), a deleted one, an
    export to import, a season and an alias; then the club PIN is set."""
    game_factory(["Ann", "Bob"], scores=[[0, 10]], finished=True)
    game_factory(["Anne", "Cy"], scores=[[0, 3]], finished=True)
    deleted = game_factory(["Dee", "Eve"])["id"]
    client.delete(f"/api/games/{deleted}")
    export = client.get(f"/api/games/{game_factory(['Fay', 'Gus'])['id']}/export").get_json()
    season = client.post("/api/seasons", json={"name": "Autumn", "from": "2000-01-01",
                                               "to": "2100-12-31"}).get_json()
    assert client.post("/api/players/aliases", json={"alias": "Ann", "of": "Bob"}).status_code \
        == 400   # they sat at the same game
    protect(client)
    return {"deleted": deleted, "export": export, "season": season["id"]}


def state(client) -> dict:
    """What the guarded changes change."""
    return {"games": sorted(g["id"] for g in client.get("/api/games").get_json()["games"]),
            "seasons": client.get("/api/seasons").get_json(),
            "players": client.get("/api/players").get_json(),
            "club": client.get("/api/club").get_json()}


# --- the API -----------------------------------------------------------------------------

def test_no_club_pin_by_default_and_everything_as_before(client, game_factory):
    assert client.get("/api/club").get_json() == {"protected": False}
    game_factory(["Ann", "Bob"], scores=[[0, 1]], finished=True)
    assert client.post("/api/seasons", json={"name": "S", "from": "2000-01-01",
                                             "to": "2100-01-01"}).status_code == 201
    assert client.get("/backup.sqlite").status_code == 200


def test_setting_changing_and_removing_the_club_pin(client):
    r = client.put("/api/club/pin", json={"pin": "12"})
    assert r.status_code == 400 and r.get_json() == {"error": "A PIN is 4 to 8 digits (0-9).",
                                                     "field": "pin"}
    assert client.get("/api/club").get_json() == {"protected": False}
    protect(client)
    for headers, error in (({}, ASK), ({clubpin.HEADER: "1111"}, WRONG)):
        r = client.put("/api/club/pin", json={"pin": "1357"}, headers=headers)
        assert r.status_code == 403 and r.get_json() == {"error": error, "field": "club_pin"}
    r = client.put("/api/club/pin", json={"pin": "13579"}, headers=HEADER)
    assert r.status_code == 200 and r.get_json() == {"protected": True}
    assert client.put("/api/club/pin", json={"pin": None}, headers=HEADER).status_code == 403
    r = client.put("/api/club/pin", json={"pin": None}, headers={clubpin.HEADER: "13579"})
    assert r.get_json() == {"protected": False}
    # Removing when none is set changes nothing.
    assert client.put("/api/club/pin", json={"pin": None}).get_json() == {"protected": False}


def test_the_club_pin_is_stored_hashed_and_never_shown(app, client, club):
    row = sqlite3.connect(app.config["DATABASE"]).execute("select pin_hash from club").fetchone()
    assert row[0].startswith("scrypt:") and CLUB not in row[0]
    for url in ("/api/club", "/api/games", "/api/seasons", "/api/players", "/club", "/"):
        body = client.get(url).get_data(as_text=True)
        assert CLUB not in body and "scrypt" not in body


def guarded(club):
    """Every club-level change of the API: (method, path, body, what it leaves changed)."""
    return [
        ("POST", "/api/seasons", {"name": "Winter", "from": "2026-12-01", "to": "2027-02-28"}),
        ("DELETE", f"/api/seasons/{club['season']}", None),
        ("POST", "/api/players/aliases", {"alias": "Anne", "of": "Ann"}),
        ("POST", "/api/games/import", club["export"]),
        ("POST", f"/api/games/{club['deleted']}/restore", {}),
        ("PUT", "/api/club/pin", {"pin": "8642"}),
    ]


@pytest.mark.parametrize("index", range(6))
@pytest.mark.parametrize("pin, error", [(None, ASK), ("000000", WRONG), ("24681", WRONG)])
def test_club_changes_need_the_club_pin_and_store_nothing_without_it(client, club, index,
                                                                    pin, error):
    method, path, body = guarded(club)[index]
    before = state(client)
    r = client.open(path, method=method, json=body,
                    headers={} if pin is None else {clubpin.HEADER: pin})
    assert r.status_code == 403
    assert r.get_json() == {"error": error, "field": "club_pin"}
    assert state(client) == before


@pytest.mark.parametrize("index", range(6))
def test_club_changes_with_the_club_pin(client, club, index):
    method, path, body = guarded(club)[index]
    before = state(client)
    r = client.open(path, method=method, json=body, headers=HEADER)
    assert r.status_code in (200, 201), r.get_json()
    if path == "/api/club/pin":   # the old PIN no longer serves
        assert client.put(path, json={"pin": None}, headers=HEADER).status_code == 403
    else:
        assert state(client) != before


def test_separating_a_spelling_needs_the_club_pin(client, club):
    assert client.post("/api/players/aliases", json={"alias": "Anne", "of": "Ann"},
                       headers=HEADER).status_code == 200
    assert client.delete("/api/players/aliases/Anne").status_code == 403
    assert len(client.get("/api/players/Ann").get_json()["games"]) == 2    # still joined
    assert client.delete("/api/players/aliases/Anne", headers=HEADER).status_code == 200


def test_reads_stay_open(client, club):
    for url in ("/api/seasons", f"/api/seasons/{club['season']}",
                f"/api/seasons/{club['season']}/standings", "/api/players", "/api/players/Ann",
                "/api/games", "/api/games/deleted", "/players", "/seasons",
                f"/seasons/{club['season']}", f"/seasons/{club['season']}.csv",
                f"/seasons/{club['season']}/board", "/deleted", "/club"):
        assert client.get(url).status_code == 200, url


def test_a_club_pin_opens_no_game(client, club, game_factory):
    game = game_factory(["Ann", "Bob"], pin="1357")
    r = client.put(f"/api/games/{game['id']}/rounds/1", json={"scores": {"Ann": 0, "Bob": 4}},
                   headers={**HEADER, pins.HEADER: CLUB})
    assert r.status_code == 403 and r.get_json()["field"] == "pin"
    r = client.patch(f"/api/games/{game['id']}", json={"name": "X"}, headers=HEADER)
    assert r.status_code == 403 and r.get_json()["field"] == "pin"


def test_a_deleted_game_comes_back_with_its_own_pin_too(client, club, game_factory):
    gid = game_factory(["Ann", "Bob"], pin="1357")["id"]
    client.delete(f"/api/games/{gid}", headers={pins.HEADER: "1357"})
    r = client.post(f"/api/games/{gid}/restore", json={}, headers={pins.HEADER: "0000"})
    assert r.status_code == 403 and r.get_json()["field"] == "pin"
    r = client.post(f"/api/games/{gid}/restore", json={}, headers={pins.HEADER: "1357"})
    assert r.status_code == 200 and r.get_json()["protected"] is True


def test_the_club_pin_has_its_own_guessing_limit(app, client, club, game_factory):
    for _ in range(pins.MAX_WRONG):
        assert client.post("/api/seasons", json={}, headers={clubpin.HEADER: "1111"}
                           ).status_code == 403
    r = client.post("/api/seasons", json={"name": "W", "from": "2026-01-01",
                                          "to": "2026-02-01"}, headers=HEADER)
    assert r.status_code == 429 and r.get_json() == {"error": TOO_MANY, "field": "club_pin"}
    assert 0 < int(r.headers["Retry-After"]) <= 600
    # Another address is not slowed; nor is a game's PIN from this one.
    other = app.test_client()
    assert other.post("/api/seasons", json={"name": "W", "from": "2026-01-01", "to":
                                            "2026-02-01"}, headers=HEADER,
                      environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 201
    gid = game_factory(["Ann", "Bob"], pin="1357")["id"]
    assert client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 1}},
                      headers={pins.HEADER: "1357"}).status_code == 200


def test_twenty_wrong_club_pins_from_everyone_stop_club_pin_entry(app, club):
    for i in range(pins.MAX_WRONG_ALL):
        r = app.test_client().post("/api/seasons", json={}, headers={clubpin.HEADER: "1111"},
                                   environ_base={"REMOTE_ADDR": f"10.1.{i // 4}.1"})
        assert r.status_code == 403
    r = app.test_client().post("/api/seasons", json={}, headers=HEADER,
                               environ_base={"REMOTE_ADDR": "10.2.2.2"})
    assert r.status_code == 429 and "from every device together" in r.get_json()["error"]


# --- the pages ---------------------------------------------------------------------------

def test_the_first_start_offers_a_club_pin(client):
    html = client.get("/").get_data(as_text=True)
    assert 'id="first-start"' in html and 'action="/club?next=/"' in html
    assert html.count('href="/club"') == 1            # one "Club settings" button (issue 26)
    r = client.post("/club?next=/", data={"new": CLUB, "action": "set"})
    assert r.status_code == 302 and r.location == "/"
    assert client.get("/api/club").get_json() == {"protected": True}
    html = client.get("/").get_data(as_text=True)
    assert 'id="first-start"' not in html
    assert "The backup keeps the games' PINs (as hashes)" in " ".join(paragraphs(html))


def test_the_first_start_is_only_the_first(client, game_factory):
    game_factory()
    assert 'id="first-start"' not in client.get("/").get_data(as_text=True)


def test_the_settings_page_says_what_a_club_pin_does(client, app):
    text = " ".join(paragraphs(client.get("/club")))
    assert "No club PIN is set: every device on the network can change the club's data" in text
    assert "opens no game" in text
    client.post("/club", data={"new": CLUB, "action": "set"})
    text = " ".join(paragraphs(client.get("/club")))
    assert "A club PIN is set." in text and "This device holds the club PIN." in text
    assert "This device has not entered the club PIN." in " ".join(
        paragraphs(app.test_client().get("/club")))


def test_changing_and_removing_on_the_settings_page(client, app):
    client.post("/club", data={"new": CLUB, "action": "set"})
    other = app.test_client()
    other.post("/club/pin", data={"club_pin": CLUB})
    r = client.post("/club", data={"current": "1111", "new": "13579", "action": "set"})
    assert r.status_code == 403 and WRONG in paragraphs(r)
    r = client.post("/club", data={"current": CLUB, "new": "12", "action": "set"})
    assert r.status_code == 400 and "A PIN is 4 to 8 digits (0-9)." in paragraphs(r)
    r = client.post("/club", data={"current": CLUB, "new": "13579", "action": "set"})
    assert r.status_code == 302
    # The other device held the old PIN: it must enter the new one.
    assert other.post("/seasons", data={"name": "W", "start": "2026-01-01",
                                        "end": "2026-02-01"}).status_code == 403
    assert client.post("/seasons", data={"name": "W", "start": "2026-01-01",
                                         "end": "2026-02-01"}).status_code == 302
    r = client.post("/club", data={"current": "13579", "action": "remove"})
    assert r.status_code == 302 and client.get("/api/club").get_json()["protected"] is False


def test_a_guarded_form_shows_the_prompt_and_goes_ahead_with_the_pin(app, client, club):
    other = app.test_client()
    form = {"name": "Winter “26”", "start": "2026-12-01", "end": "2027-02-28"}
    r = other.post("/seasons", data=form)
    assert r.status_code == 403 and ASK in paragraphs(r)
    html = r.get_data(as_text=True)
    assert 'action="/seasons"' in html
    # What was typed is carried, to be sent again with the PIN.
    for name, value in form.items():
        assert f'<input type="hidden" name="{name}" value="{value}">' in html
    r = other.post("/seasons", data={**form, "club_pin": "1111"})
    assert r.status_code == 403 and WRONG in paragraphs(r)
    assert len(client.get("/api/seasons").get_json()["seasons"]) == 1
    r = other.post("/seasons", data={**form, "club_pin": CLUB})
    assert r.status_code == 302
    assert "Winter “26”" in [s["name"] for s in client.get("/api/seasons").get_json()["seasons"]]
    # Entered once: the device holds it now.
    r = other.post(f"/seasons/{club['season']}/delete")
    assert r.status_code == 302
    assert len(client.get("/api/seasons").get_json()["seasons"]) == 1


@pytest.mark.parametrize("path, data", [
    ("/players/aliases", {"alias": "Anne", "of": "Ann"}),
    ("/players/aliases/remove", {"alias": "Anne", "player": "Ann"}),
    ("/seasons/{season}/delete", {}),
    ("/games/{deleted}/restore", {}),
])
def test_every_club_form_is_guarded(app, club, path, data):
    other = app.test_client()
    before = state(other)
    r = other.post(path.format(**club), data=data)
    assert r.status_code == 403 and ASK in paragraphs(r)
    assert state(other) == before


@pytest.mark.parametrize("path", ["/games/import", "/backup.sqlite", "/backup/restore"])
def test_a_guarded_page_asks_first_and_leads_back(app, club, path):
    other = app.test_client()
    r = other.get(path)
    assert r.status_code == 403 and ASK in paragraphs(r)
    assert f'action="/club/pin?next={path}"' in r.get_data(as_text=True)
    r = other.post(f"/club/pin?next={path}", data={"club_pin": "1111"})
    assert r.status_code == 403 and WRONG in paragraphs(r)
    assert f'action="/club/pin?next={path}"' in r.get_data(as_text=True)   # the same way back
    r = other.post(f"/club/pin?next={path}", data={"club_pin": CLUB})
    assert r.status_code == 302 and r.location == path
    assert other.get(path).status_code == 200


def test_an_import_sent_without_the_pin_asks_for_the_file_again(app, client, club):
    other = app.test_client()
    upload = {"file": (io.BytesIO(str(club["export"]).encode()), "game.json")}
    r = other.post("/games/import", data=upload, content_type="multipart/form-data")
    html = r.get_data(as_text=True)
    assert r.status_code == 403 and 'enctype="multipart/form-data"' in html
    assert re.search(r'<input type="file" id="again-1" name="file">', html)
    assert "Choose the file again" in html


def test_the_scorekeeper_of_a_protected_game_restores_it_without_the_club_pin(app, club):
    keeper = app.test_client()
    gid = create_game(keeper, ["Ann", "Bob"], pin="1357")["id"]
    keeper.post(f"/games/{gid}/pin", data={"pin": "1357"})
    keeper.delete(f"/api/games/{gid}", headers={pins.HEADER: "1357"})
    assert keeper.post(f"/games/{gid}/restore").status_code == 302
    assert keeper.get(f"/api/games/{gid}").status_code == 200


def test_the_backup_keeps_the_pin_hashes_with_a_club_pin_only(client, tmp_path, game_factory):
    game_factory(["Ann", "Bob"], pin="1357")

    def hashes(response):
        path = tmp_path / "b.sqlite"
        path.write_bytes(response.get_data())
        con = sqlite3.connect(path)
        try:
            return con.execute("select count(pin_hash) from games").fetchone()[0]
        finally:
            con.close()

    text = " ".join(paragraphs(client.get("/")))
    assert ("Without a club PIN, the backup leaves out the games' PINs: restored, every game "
            "is open.") in text
    assert hashes(client.get("/backup.sqlite")) == 0
    client.post("/club", data={"new": CLUB, "action": "set"})
    assert hashes(client.get("/backup.sqlite")) == 1


def test_the_home_page_leads_a_device_without_the_club_pin_to_it_first(app, client, club):
    html = app.test_client().get("/").get_data(as_text=True)
    link = re.search(r'<a class="button" href="([^"]+)" id="backup-all"', html)
    assert link and link.group(1) == "/club/pin?next=/"
    client.post("/club/pin", data={"club_pin": CLUB})
    html = client.get("/").get_data(as_text=True)
    assert 'href="/backup.sqlite" id="backup-all" download' in html


def test_a_script_downloads_the_backup_with_the_header(app, club):
    script = app.test_client()
    assert script.get("/backup.sqlite", headers={clubpin.HEADER: "1111"}).status_code == 403
    r = script.get("/backup.sqlite", headers=HEADER)
    assert r.status_code == 200 and r.get_data().startswith(b"SQLite format 3\x00")


def test_a_device_holding_the_club_pin_keeps_it_through_a_lockout(app, client, club):
    client.post("/club/pin", data={"club_pin": CLUB})
    for i in range(pins.MAX_WRONG_ALL):
        app.test_client().post("/api/seasons", json={}, headers={clubpin.HEADER: "1111"},
                               environ_base={"REMOTE_ADDR": f"10.3.{i // 4}.1"})
    assert client.post("/seasons", data={"name": "W", "start": "2026-01-01",
                                         "end": "2026-02-01"}).status_code == 302
    r = app.test_client().post("/club/pin", data={"club_pin": CLUB},
                               environ_base={"REMOTE_ADDR": "10.4.4.4"})
    assert r.status_code == 429 and r.headers["Retry-After"]
    assert any("waits 60 min" in p for p in paragraphs(r))


def test_the_prompt_carries_the_forms_token(csrf_app):
    """With CSRF on, as in production: the form sent again from the prompt still passes."""
    client = csrf_app.test_client()
    client.put("/api/club/pin", json={"pin": CLUB})
    page = client.get("/seasons").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "name": "Winter", "start": "2026-12-01", "end": "2027-02-28"}
    r = client.post("/seasons", data=form)
    assert r.status_code == 403 and f'name="csrf_token" value="{token}"' in r.get_data(
        as_text=True)
    r = client.post("/seasons", data={**form, "club_pin": CLUB})
    assert r.status_code == 302
