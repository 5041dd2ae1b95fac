"""The round page under house scoring (R11): the "Went out" and "Marker stands" toggles,
the score that counts beside the hand, R11.3's refusals, and a live table's fill-in."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from scorekeeper.game import Round
from scorekeeper.house_form import HouseToggles

HOUSE = {"went_out_bonus": 10, "marker_penalty": 15}


def form(scores, revision=0, **extra):
    data = {"revision": str(revision)}
    for i, value in enumerate(scores):
        data[f"score-{i}"] = str(value)
        data[f"base-{i}"] = ""
    data.update(extra)
    return data


def counts(html: str) -> list[str]:
    return re.findall(r'<output id="counts-\d" for="score-\d">([^<]*)</output>', html)


def test_a_house_game_saves_the_toggles_and_shows_hand_and_score(client, game_factory):
    gid = game_factory(rules=HOUSE)["id"]
    url = f"/games/{gid}/rounds/1"
    page = client.get(url).get_data(as_text=True)
    assert 'name="out-0"' in page and 'name="marker-2"' in page and "house-scoring.js" in page
    assert "Going out scores −10; a marker still standing adds 15" in page
    r = client.post(url, data=form([0, 7, 9], **{"out-0": "1", "marker-2": "1"}))
    assert r.status_code == 302
    rnd = client.get(f"/api/games/{gid}").get_json()["rounds"][0]
    assert rnd["scores"] == {"Ann": -10, "Bob": 7, "Chi": 24}
    assert (rnd["went_out"], rnd["markers"]) == (["Ann"], ["Chi"])
    page = client.get(url).get_data(as_text=True)
    # The boxes show the hands (R7.3); the score that counts beside each (R11.3).
    assert 'id="score-2" name="score-2" value="9"' in page
    assert counts(page) == ["−10", "7", "24"]
    assert re.search(r'name="out-0" value="1"\s+data-seat="0" checked', page)
    assert re.search(r'name="marker-2" value="1"\s+data-seat="2" checked', page)


@pytest.mark.parametrize("data, sentence", [
    (form([4, 7, 9], **{"out-0": "1"}),
     'Ann went out, so their hand holds nothing: their score must be 0 '
     '(<a class="rule-ref" href="/rules#R11.3">R11.3</a>).'),
    (form([0, 7, 9], **{"out-0": "1", "marker-0": "1"}),
     "Ann cannot both go out and have a standing marker"),
])
def test_the_round_page_refuses_what_r11_3_refuses(client, game_factory, data, sentence):
    gid = game_factory(rules=HOUSE)["id"]
    r = client.post(f"/games/{gid}/rounds/1", data=data)
    assert r.status_code == 400
    assert sentence in r.get_data(as_text=True).replace("&#39;", "'")
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] is None


def test_nobody_out_is_a_blocked_round_asked_about_first(client, game_factory):
    gid = game_factory(rules=HOUSE)["id"]
    url = f"/games/{gid}/rounds/1"
    r = client.post(url, data=form([3, 7, 9]))
    assert r.status_code == 200 and "Nobody went out" in r.get_data(as_text=True)
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] is None
    r = client.post(url, data=form([3, 7, 9], confirm="1"))
    assert r.status_code == 302
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["went_out"] == []


def test_a_save_crossed_by_another_tablet_keeps_what_was_typed(client, game_factory):
    gid = game_factory(rules=HOUSE)["id"]
    url = f"/games/{gid}/rounds/1"
    client.put(f"/api/games/{gid}/rounds/1",
               json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"]})
    r = client.post(url, data=form([5, 0, 9], revision=0, **{"out-1": "1"}))
    assert r.status_code == 409
    page = r.get_data(as_text=True)
    assert "Another tablet saved this round while you were entering it." in page
    assert 'id="score-0" name="score-0" value="5"' in page   # what was typed stays
    # Saved again from that page (its revision now the stored one): it replaces the round.
    r = client.post(url, data=form([5, 0, 9], revision=1, **{"out-1": "1"}))
    assert r.status_code == 302
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["went_out"] == ["Bob"]


def test_a_game_without_house_scoring_shows_no_toggles(client, game_factory):
    gid = game_factory()["id"]
    page = client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert 'name="out-0"' not in page and "house-scoring.js" not in page
    assert 'class="button went-out"' in page


def test_the_read_only_page_shows_hand_change_and_score(app, client, game_factory):
    gid = game_factory(rules=HOUSE, pin="1234")["id"]
    client.put(f"/api/games/{gid}/rounds/1", headers={"X-Game-PIN": "1234"},
               json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"],
                     "markers": ["Chi"]})
    viewer = app.test_client()
    page = viewer.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert '<span class="house-parts">9 + 15 =</span> <strong>24</strong>' in page
    assert '<span class="house-parts">0 − 10 =</span> <strong>−10</strong>' in page


def test_a_finished_live_table_marks_who_went_out_and_whose_marker_stands():
    game = SimpleNamespace(players=("Ann", "Bob", "Chi"), options=None)
    toggles = HouseToggles.__new__(HouseToggles)
    toggles.game, toggles.rnd, toggles.out, toggles.marked = game, Round(1, 12), set(), set()
    state = SimpleNamespace(went_out=("Ann",), table=SimpleNamespace(markers={"Ann", "Chi"}))
    toggles.from_live_table(state)
    # R11.2: a player who went out is not recorded as marked, even with a marker standing.
    assert (toggles.out, toggles.marked) == ({"Ann"}, {"Chi"})


def test_a_live_round_fills_in_who_went_out(client, game_factory):
    gid = game_factory(["Ann", "Bob"], set=6, start_engine=6, rules=HOUSE)["id"]
    url = f"/games/{gid}/rounds/1/live"
    client.post(url + "/start", data={"starter": "0", "tiles_each": "3", "active": "0"})
    for active, data in enumerate([{"kind": "play", "tile": "6-1", "train": "0"},
                                   {"kind": "play", "tile": "1-1", "train": "0"},
                                   {"kind": "play", "tile": "6-5", "train": "1"},
                                   {"kind": "pass"}], 1):
        client.post(url + "/action", data={**data, "active": str(active)})
    html = client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert re.search(r'name="out-0" value="1"\s+data-seat="0" checked', html)
    assert not re.search(r'name="out-1" value="1"\s+data-seat="1" checked', html)
