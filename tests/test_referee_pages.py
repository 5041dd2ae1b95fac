"""The referee's pages through the Flask client: rulings from a sketched table,
my plays, the planner, the live table and its move log."""

import re

import pytest

from scorekeeper.engine import Play, check
from scorekeeper.errors import BadInput
from scorekeeper.options import RuleOptions
from scorekeeper.situation import Situation, TrainSketch, instead, sketch_table
from scorekeeper.tiles import Tile

T = Tile.of
PLAYERS = ("Ann", "Bob", "Chi")


def sit(**kw):
    base = dict(set=12, engine=12, players=PLAYERS, current="Bob")
    base.update(kw)
    return Situation(**base)


# --- the sketched table (pure) ---------------------------------------------

@pytest.mark.parametrize("situation, tile, train, codes", [
    # R6.3: Ann's open 5-5 binds Bob even on Ann's unmarked train.
    (sit(trains={"Ann": TrainSketch(5, True)}), T(5, 9), "Ann", []),
    (sit(trains={"Ann": TrainSketch(5, True)}), T(12, 9), "Bob", ["open_double"]),
    # R5.2: a marked train is open; an unmarked one is not.
    (sit(trains={"Chi": TrainSketch(3)}, markers=frozenset({"Chi"})), T(3, 7), "Chi", []),
    (sit(trains={"Chi": TrainSketch(3)}), T(3, 7), "Chi", ["train_closed"]),
    # R3.2 on an empty Mexican train: it needs the engine's number.
    (sit(), T(12, 4), None, []),
    (sit(), T(4, 5), None, ["no_match"]),
    # R4.1: first turn, own train only.
    (sit(first_turn=True), T(12, 4), None, ["first_turn_own_train"]),
    # R6.1: after a double played this turn, a tile is owed anywhere legal.
    (sit(trains={"Bob": TrainSketch(5)}, played=Play(T(5, 5), "Bob")), T(12, 1), None, []),
    # R5.4: after a draw, only the drawn tile.
    (sit(drawn=T(2, 3)), T(12, 1), None, ["drawn_tile_only"]),
])
def test_sketched_situations(situation, tile, train, codes):
    table = sketch_table(situation, avoid=[tile])
    assert [v.code for v in check(table, Play(tile, train))] == codes


def test_stand_in_tiles_never_use_the_tile_in_dispute():
    # The obvious filler for an open end of 5 is 12-5: it must not be used when 12-5 is asked about.
    table = sketch_table(sit(trains={"Ann": TrainSketch(5)}), avoid=[T(12, 5)])
    assert T(12, 5) not in table.on_table
    assert table.open_end("Ann") == 5


@pytest.mark.parametrize("situation, field", [
    (sit(trains={"Ann": TrainSketch(12, True)}), "trains.Ann"),          # the engine as a double
    (sit(trains={"Ann": TrainSketch(None, True)}), "trains.Ann"),        # empty yet a double
    (sit(trains={"Bob": TrainSketch(4)}, played=Play(T(5, 6), "Bob")), "played"),
])
def test_impossible_sketches_are_refused(situation, field):
    with pytest.raises(BadInput) as err:
        sketch_table(situation)
    assert err.value.field == field


def test_instead_says_where_and_to_draw():
    table = sketch_table(sit(trains={"Ann": TrainSketch(5, True)}))
    lines = instead(table)
    assert lines[0] == "Play a tile showing 5 on Ann's train."
    assert "draw one tile" in lines[-1]


# --- the pages --------------------------------------------------------------

@pytest.fixture
def gid(client):
    return client.post("/api/games", json={"players": list(PLAYERS)}).get_json()["id"]


def text(response):
    html = re.sub(r"</?bdi>", "", response.get_data(as_text=True))   # names are isolated inline
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_ruling_page_prefilled_from_the_round(client, gid):
    html = client.get(f"/games/{gid}/rounds/3/referee").get_data(as_text=True)
    assert "Engine: double-10" in html and "Round 3" in html
    assert 'value="10-10"' in html and "disabled" in html  # the engine is not a choice
    for name in PLAYERS:
        assert name in html


def test_ruling_not_legal_with_rule_and_alternatives(client, gid):
    r = client.get(f"/games/{gid}/rounds/1/referee?current=1&end-0=5&dbl-0=1&tile=12-9&train=1")
    page = text(r)
    assert "NOT LEGAL" in page
    assert "R6.3 Ann's 5-5 is an open double: Bob must play on it first." in page.replace("&#39;", "'")
    assert "Play a tile showing 5 on Ann's train." in page.replace("&#39;", "'")


def test_ruling_legal(client, gid):
    page = text(client.get(f"/games/{gid}/rounds/1/referee?current=1&tile=12-9&train=m"))
    assert "LEGAL" in page and "NOT LEGAL" not in page


def test_ruling_bad_sketch_is_a_sentence(client, gid):
    r = client.get(f"/games/{gid}/rounds/1/referee?current=1&end-0=12&dbl-0=1&tile=12-9&train=1")
    assert r.status_code == 200 and "cannot be an open double" in r.get_data(as_text=True)
    r = client.get(f"/games/{gid}/rounds/1/referee?current=1&tile=banana&train=1")
    assert "Pick a tile." in r.get_data(as_text=True)


def test_free_referee_without_a_game(client):
    page = text(client.get("/referee?set=9&engine=9&names=Lan,Minh&current=0&tile=9-3&train=1"))
    assert "NOT LEGAL" in page and "Minh" in page  # Lan may not play on Minh's unmarked train


def test_my_plays(client, gid):
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plays?go=1&current=0&hand=12-4&hand=3-3"))
    assert "2 legal plays" in page  # 12-4 on Ann's own train and on the Mexican train
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plays?go=1&current=0&hand=3-3"))
    assert "No legal play" in page
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plays?go=1&current=0"))
    assert "Tap the tiles in the hand first." in page


def test_plan_my_opening_train(client, gid):
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plan?go=1&hand=12-4&hand=4-4&hand=4-9&hand=1-2"))
    assert "A train of 3 tiles · 37 pips" in page  # 12-4, 4-4, 4-9
    assert "Left in the hand (3 pips)" in page


def test_referee_unknown_game_or_round(client, gid):
    assert client.get("/games/nope/rounds/1/referee").status_code == 404
    assert client.get(f"/games/{gid}/rounds/99/referee").status_code == 404


# --- the live table ---------------------------------------------------------

@pytest.fixture
def live(client):
    gid = client.post("/api/games", json={"players": ["Ann", "Bob"], "set": 6,
                                          "start_engine": 6}).get_json()["id"]
    url = f"/games/{gid}/rounds/1/live"
    r = client.post(url + "/start", data={"starter": "0", "tiles_each": "7", "active": "0"})
    assert r.status_code == 302
    return gid, url


def act(client, url, active, **data):
    data["active"] = str(active)
    return client.post(url + "/action", data=data)


def test_live_setup_page(client, gid):
    html = client.get(f"/games/{gid}/rounds/1/live").get_data(as_text=True)
    assert "Keep a live table for round 1" in html and "R2.2" in html


def test_live_start_refuses_a_deal_that_cannot_fit(client):
    gid = client.post("/api/games", json={"players": ["Ann", "Bob"], "set": 6}).get_json()["id"]
    url = f"/games/{gid}/rounds/1/live"
    r = client.post(url + "/start", data={"starter": "0", "tiles_each": "20", "active": "0"})
    assert r.status_code == 400 and "does not fit" in r.get_data(as_text=True)
    assert "Keep a live table" in client.get(url).get_data(as_text=True)  # nothing stored


def test_live_round_plays_refusal_override_undo_and_log(client, live):
    gid, url = live
    assert act(client, url, 1, kind="play", tile="6-2", train="0").status_code == 302
    assert act(client, url, 2, kind="pass").status_code == 302           # Ann's train is built
    # Bob in the first turn may not play on Ann's train (R4.1): refused with the rule.
    r = act(client, url, 3, kind="play", tile="2-3", train="0")
    assert r.status_code == 409 and "R4.1" in r.get_data(as_text=True)
    assert "The table accepted it anyway" in r.get_data(as_text=True)
    # A play that cannot exist (no match) offers no override.
    r = act(client, url, 3, kind="play", tile="1-3", train="1")
    assert r.status_code == 409 and "R3.2" in r.get_data(as_text=True)
    assert "accepted it anyway" not in r.get_data(as_text=True)
    # The table accepted the R4.1 play anyway: recorded as an override.
    assert act(client, url, 3, kind="play", tile="2-3", train="0", override="1").status_code == 302
    log = text(client.get(url + "/log"))
    assert "Bob played 2-3 on Ann's train".replace("'", "&#39;") in log or "Bob played 2-3 on Ann" in log
    assert "accepted by the table against the referee" in log
    # Undo marks the last action; it stays in the log.
    assert client.post(url + "/undo", data={"active": "4"}).status_code == 302
    log = text(client.get(url + "/log"))
    assert "undone" in log
    page = text(client.get(url))
    assert "To play: Bob" in page


def test_live_stale_tablet_records_nothing(client, live):
    gid, url = live
    act(client, url, 1, kind="play", tile="6-2", train="0")
    r = act(client, url, 1, kind="play", tile="6-1", train="0", )
    assert r.status_code == 302
    page = text(client.get(url))
    assert "Another tablet changed the live table" in page
    assert "Ann: 5 tiles" in page  # 7 dealt, engine set, one play: the stale play was not stored


def test_live_round_going_out_prefills_scores(client):
    gid = client.post("/api/games", json={"players": ["Ann", "Bob"], "set": 6,
                                          "start_engine": 6}).get_json()["id"]
    url = f"/games/{gid}/rounds/1/live"
    # Ann holds two tiles after setting the engine: 6-1 and 1-1 … then 1-2 would be a third.
    client.post(url + "/start", data={"starter": "0", "tiles_each": "3", "active": "0"})
    act(client, url, 1, kind="play", tile="6-1", train="0")
    act(client, url, 2, kind="play", tile="1-1", train="0")   # Ann is out in the first turn (R4.4)
    act(client, url, 3, kind="play", tile="6-5", train="1")   # Bob's first turn
    act(client, url, 4, kind="pass")                          # ends the first turn: round over
    page = text(client.get(url))
    assert "Ann went out" in page and "Enter the scores" in page
    html = client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert 'id="score-0" name="score-0" value="0"' in html
    assert "From the live table: <bdi>Ann</bdi> went out" in html


def test_ruling_during_a_live_round_uses_the_live_state(client, live):
    gid, url = live
    act(client, url, 1, kind="play", tile="6-2", train="0")
    act(client, url, 2, kind="pass")
    page = text(client.get(f"/games/{gid}/rounds/1/referee?tile=6-3&train=m"))
    assert "Answered from the live table" in page
    assert "NOT LEGAL" in page and "R4.1" in page   # Bob's first turn: own train only
    page = text(client.get(f"/games/{gid}/rounds/1/referee?sketch=1"))
    assert "Answered from the live table" not in page and "The table as it is" in page


def test_live_csrf(csrf_app):
    client = csrf_app.test_client()
    gid = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()["id"]
    r = client.post(f"/games/{gid}/rounds/1/live/start", data={"starter": "0", "tiles_each": "7"})
    assert r.status_code == 400
    assert "Keep a live table" in client.get(f"/games/{gid}/rounds/1/live").get_data(as_text=True)
