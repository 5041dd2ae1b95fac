"""The owner's way back in through a lockout (issue 26, item 8): the limit stays, but a
device holding the club PIN passes a game's wait of every device, and the server
machine's commands lift every wait and set a new club PIN; the refusals say so, and the
per-address limit says what it counts."""

from __future__ import annotations

import pytest

from helpers import paragraphs
from scorekeeper import clubpin, owner, pins, storage
from scorekeeper.serve import main

PIN, CLUB = "2468", "975310"
SCORES = {"scores": {"Ann": 0, "Bob": 5, "Chi": 9}}


def lock_game(app, gid):
    """Twenty wrong PINs from five addresses: the game waits for every device."""
    for i in range(pins.MAX_WRONG_ALL):
        r = app.test_client().put(f"/api/games/{gid}/rounds/1", json=SCORES,
                                  headers={pins.HEADER: "0000"},
                                  environ_base={"REMOTE_ADDR": f"10.0.{i // 4}.1"})
        assert r.status_code == 403


def lock_club(app):
    for i in range(pins.MAX_WRONG_ALL):
        app.test_client().post("/api/seasons", json={}, headers={clubpin.HEADER: "1111"},
                               environ_base={"REMOTE_ADDR": f"10.1.{i // 4}.1"})


@pytest.fixture
def locked(app, client, game_factory):
    client.put("/api/club/pin", json={"pin": CLUB})
    gid = game_factory(pin=PIN)["id"]
    lock_game(app, gid)
    return gid


def test_the_club_pin_lets_the_owner_through_a_games_lockout(app, locked):
    stranger = app.test_client()
    env = {"REMOTE_ADDR": "10.9.9.9"}
    r = stranger.put(f"/api/games/{locked}/rounds/1", json=SCORES, headers={pins.HEADER: PIN},
                     environ_base=env)
    assert r.status_code == 429
    assert "A device that holds the club PIN is let through this wait" in r.get_json()["error"]
    assert "“scorekeeper unlock”" in r.get_json()["error"]
    # The API with the club PIN: through (the game's own PIN still needed).
    both = {pins.HEADER: PIN, clubpin.HEADER: CLUB}
    r = stranger.put(f"/api/games/{locked}/rounds/1", json=SCORES, headers=both,
                     environ_base=env)
    assert r.status_code == 200, r.get_json()
    r = stranger.put(f"/api/games/{locked}/rounds/2", json=SCORES,
                     headers={pins.HEADER: "1111", clubpin.HEADER: CLUB}, environ_base=env)
    assert r.status_code == 403          # the club PIN never stands for the game's
    # A wrong club PIN lifts nothing.
    r = stranger.put(f"/api/games/{locked}/rounds/2", json=SCORES,
                     headers={pins.HEADER: PIN, clubpin.HEADER: "1111"}, environ_base=env)
    assert r.status_code == 429
    # A page's device that entered the club PIN enters the game's PIN through the wait.
    owner_device = app.test_client()
    assert owner_device.post("/club/pin", data={"club_pin": CLUB},
                             environ_base=env).status_code == 302
    r = owner_device.post(f"/games/{locked}/pin", data={"pin": PIN}, environ_base=env)
    assert r.status_code == 302
    r = app.test_client().post(f"/games/{locked}/pin", data={"pin": PIN}, environ_base=env)
    assert r.status_code == 429 and any("scorekeeper unlock" in p for p in paragraphs(r))


def test_unlock_on_the_server_machine_lifts_every_wait(app, locked, monkeypatch, capsys):
    lock_club(app)
    monkeypatch.setenv("SCOREKEEPER_DATABASE", app.config["DATABASE"])
    with pytest.raises(SystemExit) as done:
        main(["unlock"])
    assert done.value.code == 0 and "Every wrong PIN counted is forgotten" in capsys.readouterr().out
    stranger = app.test_client()
    assert stranger.put(f"/api/games/{locked}/rounds/1", json=SCORES,
                        headers={pins.HEADER: PIN}).status_code == 200
    assert stranger.post("/api/seasons", json={"name": "W", "from": "2026-01-01",
                                               "to": "2026-02-01"},
                         headers={clubpin.HEADER: CLUB}).status_code == 201


def test_club_pin_on_the_server_machine_sets_a_new_one(app, client, monkeypatch, capsys):
    client.put("/api/club/pin", json={"pin": CLUB})
    lock_club(app)
    r = app.test_client().post("/api/seasons", json={}, headers={clubpin.HEADER: CLUB})
    assert r.status_code == 429 and "“scorekeeper club-pin”" in r.get_json()["error"]
    monkeypatch.setenv("SCOREKEEPER_DATABASE", app.config["DATABASE"])
    answers = iter(["13572468", "13572460"])
    assert owner.club_pin_command(False, ask=lambda _prompt: next(answers)) == 1
    assert "differ" in capsys.readouterr().err
    answers = iter(["13572468", "13572468"])
    assert owner.club_pin_command(False, ask=lambda _prompt: next(answers)) == 0
    body = {"name": "W", "from": "2026-01-01", "to": "2026-02-01"}
    assert app.test_client().post("/api/seasons", json=body,
                                  headers={clubpin.HEADER: CLUB}).status_code == 403
    assert app.test_client().post("/api/seasons", json=body,
                                  headers={clubpin.HEADER: "13572468"}).status_code == 201
    assert owner.club_pin_command(True) == 0
    db = storage.connect(app.config["DATABASE"])
    assert storage.club_pin_hash(db) is None
    db.close()


def test_the_per_address_limit_says_what_it_counts(app, game_factory):
    gid = game_factory(pin=PIN)["id"]
    for _ in range(pins.MAX_WRONG):
        app.test_client().put(f"/api/games/{gid}/rounds/1", json=SCORES,
                              headers={pins.HEADER: "0000"})
    r = app.test_client().put(f"/api/games/{gid}/rounds/1", json=SCORES,
                              headers={pins.HEADER: PIN})
    assert r.status_code == 429 and "from this network address" in r.get_json()["error"]
