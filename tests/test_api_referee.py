"""The referee's JSON API (API.md "Rulings", legal-plays, plan-train) through the client."""

from __future__ import annotations

import copy

import pytest


def api_table() -> dict:
    """API.md's example table."""
    return {
        "set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi"], "current": "Bob",
        "first_turn": False,
        "trains": {"Ann": [[12, 5], [5, 5]], "Bob": [], "Chi": [[12, 1]]},
        "markers": ["Bob"], "mexican": [], "turn": [], "drawn": None,
        "rules": {"first_turn": "train"},
    }


def ruling(client, play, table=None):
    return client.post("/api/rulings", json={"table": table or api_table(), "play": play})


def test_ruling_legal(client):
    r = ruling(client, {"tile": [5, 9], "train": "Ann"})        # R6.3 satisfying Ann's 5-5
    assert r.status_code == 200
    assert r.get_json() == {"legal": True, "violations": [], "grounds": [
        {"rule": "R6.3", "message": "With 5-9, Bob satisfies the open 5-5 on the train of Ann: "
                                    "an open double may be satisfied even on an unmarked train."},
        {"rule": "R3.2", "message": "5-9 shows 5, the open end of that train."}]}


def test_ruling_grounds_name_the_rules_that_allow_the_play(client):
    # API.md (Rulings): a marked train R5.2/R5.5, the Mexican train R5.3, the first turn R4.1.
    table = api_table()
    table["trains"]["Ann"] = [[12, 5]]
    table["markers"] = ["Ann"]
    said = ruling(client, {"tile": [5, 9], "train": "Ann"}, table).get_json()["grounds"]
    assert [g["rule"] for g in said] == ["R5.2", "R5.5", "R3.2"]
    assert said[0]["message"] == "Ann's train carries a marker, so it is open to everyone."
    said = ruling(client, {"tile": [12, 3], "train": None}, table).get_json()["grounds"]
    assert [g["rule"] for g in said] == ["R5.3", "R3.2"]
    table["first_turn"] = True
    said = ruling(client, {"tile": [12, 3], "train": "Bob"}, table).get_json()["grounds"]
    assert [g["rule"] for g in said] == ["R4.1", "R3.2"]


def test_ruling_illegal_is_api_md_example(client):
    r = ruling(client, {"tile": [9, 12], "train": "Bob"})
    assert r.status_code == 200
    assert r.get_json() == {
        "legal": False,
        "violations": [{"code": "open_double", "rule": "R6.3",
                        "message": "Ann's 5-5 is an open double: Bob must play on it first."}],
        "grounds": []}


def test_ruling_lists_every_broken_rule(client):
    r = ruling(client, {"tile": [13, 14], "train": "Chi"})
    assert r.status_code == 200
    body = r.get_json()
    assert body["legal"] is False
    assert [v["code"] for v in body["violations"]] == [
        "not_in_set", "no_match", "train_closed", "open_double"]
    assert all(v["message"] and v["rule"].startswith("R") for v in body["violations"])


def test_ruling_mexican_train_is_null(client):
    table = api_table()
    table["trains"]["Ann"] = [[12, 5]]
    r = ruling(client, {"tile": [12, 3], "train": None}, table)
    assert r.get_json()["legal"] is True and r.get_json()["violations"] == []


def test_ruling_tile_order_does_not_matter(client):
    assert ruling(client, {"tile": [9, 5], "train": "Ann"}).get_json()["legal"] is True


def with_change(path: str, value):
    table = api_table()
    target = table
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return table


TILE = "A tile is two whole numbers, like [5, 12]."
NO_SUCH_TRAIN = "Dan is not one of the players, so has no train."
ENGINE_12 = "The engine must be a double from 0-0 to 12-12 in a double-12 set (R2.1)."

INVALID = [
    (with_change("trains.Ann", [[12, 5], [4, 4]]), "table.trains.Ann.1",    # does not chain
     "4-4 does not chain in the train of Ann: the tile before it leaves 5 open (R3.2)."),
    (with_change("trains.Chi", [[5, 1]]), "table.trains.Chi.0",             # not from the engine
     "1-5 does not chain in the train of Chi: the tile before it leaves 12 open (R3.2)."),
    (with_change("trains.Chi", [[12, 5]]), "table.trains.Chi.0",            # a tile twice
     "5-12 is on the table twice; each tile exists once (R3.3)."),
    (with_change("mexican", [[5, 5]]), "table.mexican.0",                   # twice (and no chain)
     "5-5 is on the table twice; each tile exists once (R3.3)."),
    (with_change("trains.Bob", [[12, 12]]), "table.trains.Bob.0",           # the engine in a train
     "12-12 is the engine: it sits in the centre and cannot also be in a train (R3.3)."),
    (with_change("trains.Dan", []), "table.trains.Dan", NO_SUCH_TRAIN),     # unknown player
    (with_change("markers", ["Dan"]), "table.markers.0",
     "Dan is not one of the players, so cannot have a marker."),
    (with_change("current", "Dan"), "table.current", "Dan is not one of the players."),
    (with_change("turn", [{"tile": [12, 1], "train": "Ann"}]), "table.turn.0.tile",
     "1-12 is listed as played this turn on the train of Ann, but that train does not hold it "
     "(once)."),
    (with_change("turn", [{"tile": [12, 1], "train": "Dan"}]), "table.turn.0.train",
     NO_SUCH_TRAIN),
    (with_change("set", 10), "table.set",
     "A double-10 set is not used: the sets are double-6, 9, 12, 15 and 18 (R1.2)."),
    (with_change("engine", 15), "table.engine", ENGINE_12),
    (with_change("players", ["Bob"]), "table.players",
     "A round has 2 to 14 players (R1.1); 1 was given."),
    (with_change("players", [f"P{i}" for i in range(15)] + ["Ann", "Bob", "Chi"]), "table.players",
     "A round has 2 to 14 players (R1.1); 18 were given."),
]


@pytest.mark.parametrize("table, field, sentence", INVALID, ids=[c[1] for c in INVALID])
def test_ruling_impossible_table_is_400_naming_the_field(client, table, field, sentence):
    r = ruling(client, {"tile": [5, 9], "train": "Ann"}, table)
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}
    # legal-plays parses the same table the same way
    r = client.post("/api/legal-plays", json={"table": table, "hand": [[5, 9]]})
    assert r.status_code == 400 and r.get_json() == {"error": sentence, "field": field}


MALFORMED = [
    ({"table": api_table()}, "play",
     'Say which play to rule on: {"tile": [a, b], "train": name or null}.'),
    ({"play": {"tile": [5, 9], "train": "Ann"}}, "table",
     "Describe the table: set, engine, players, trains …"),
    ({"table": api_table(), "play": {"tile": [5], "train": "Ann"}}, "play.tile", TILE),
    ({"table": api_table(), "play": {"tile": "5-9", "train": "Ann"}}, "play.tile", TILE),
    ({"table": api_table(), "play": {"train": "Ann"}}, "play.tile", "Say which tile is played."),
    ({"table": api_table(), "play": {"tile": [5, 9], "train": "Dan"}}, "play.train",
     "Dan is not a player at this table, so there is no such train."),
    ({"table": api_table(), "play": {"tile": [5, 9], "train": 1}}, "play.train",
     "The train is a player's name, or null for the Mexican train."),
    ({"table": api_table(), "play": {"tile": [5, 9]}}, "play.train",
     "Say which train the tile goes on: a player's name, or null for the Mexican train."),
    ({"table": api_table(), "play": [5, 9]}, "play",
     'A play is an object like {"tile": [5, 9], "train": "Ann"}.'),
    ({"table": "12", "play": {"tile": [5, 9], "train": "Ann"}}, "table",
     "The table must be an object (see the API's rulings section)."),
    ({"table": with_change("trains.Ann", [[12, "5"]]), "play": {"tile": [5, 9], "train": "Ann"}},
     "table.trains.Ann.0", TILE),
    ({"table": with_change("rules", {"first_turn": "many"}),
      "play": {"tile": [5, 9], "train": "Ann"}}, "table.rules.first_turn",
     "first_turn must be train or single."),
]


@pytest.mark.parametrize("body, field, sentence", MALFORMED, ids=[c[1] for c in MALFORMED])
def test_ruling_malformed_is_400(client, body, field, sentence):
    r = client.post("/api/rulings", json=body)
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}


@pytest.mark.parametrize("route", ["/api/rulings", "/api/legal-plays", "/api/plan-train"])
def test_non_json_is_415(client, route):
    r = client.post(route, data="table=1", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415
    assert r.get_json() == {"error": "Send the body as JSON (Content-Type: application/json).",
                            "field": ""}


@pytest.mark.parametrize("route", ["/api/rulings", "/api/legal-plays", "/api/plan-train"])
def test_broken_json_is_400(client, route):
    r = client.post(route, data="{", content_type="application/json")
    assert r.status_code == 400
    assert r.get_json() == {"error": "The body is not valid JSON.", "field": ""}
    assert r.status_code == 400


HANDS = [
    (api_table(), [[5, 9], [9, 12], [1, 2], [5, 6], [0, 0]]),
    (with_change("trains.Ann", [[12, 5]]), [[5, 9], [12, 3], [1, 4], [12, 12], [13, 1]]),
    (with_change("first_turn", True), [[12, 3], [5, 7], [1, 2]]),
    ({**with_change("turn", [{"tile": [5, 5], "train": "Ann"}]), "current": "Ann"},
     [[5, 9], [12, 0], [1, 3]]),
]


@pytest.mark.parametrize("table, hand", HANDS)
def test_legal_plays_equal_rulings(client, table, hand):
    r = client.post("/api/legal-plays", json={"table": table, "hand": hand})
    assert r.status_code == 200
    plays = r.get_json()["plays"]
    expected = []
    for tile in hand:
        for train in table["players"] + [None]:
            body = ruling(client, {"tile": tile, "train": train}, table).get_json()
            if body["legal"]:
                expected.append({"tile": sorted(tile), "train": train})
    assert plays == expected
    assert plays  # each case has at least one legal play, so the comparison means something


def test_legal_plays_example(client):
    r = client.post("/api/legal-plays", json={"table": api_table(),
                                              "hand": [[9, 5], [9, 12], [6, 5]]})
    assert r.get_json() == {"plays": [{"tile": [5, 9], "train": "Ann"},
                                      {"tile": [5, 6], "train": "Ann"}]}


@pytest.mark.parametrize("body, field", [
    ({"table": api_table()}, "hand"),
    ({"table": api_table(), "hand": "5-9"}, "hand"),
    ({"table": api_table(), "hand": [[5, 9], [1]]}, "hand.1"),
])
def test_legal_plays_bad_hand(client, body, field):
    r = client.post("/api/legal-plays", json=body)
    assert r.status_code == 400 and r.get_json()["field"] == field


def test_plan_train_happy_path(client):
    hand = [[5, 12], [3, 5], [3, 3], [9, 3], [1, 2], [12, 11], [11, 0]]
    r = client.post("/api/plan-train", json={"set": 12, "engine": 12, "hand": hand})
    assert r.status_code == 200
    body = r.get_json()
    # 12-5 5-3 3-3 3-9 (4 tiles, 43 pips) beats 12-11 11-0 (2 tiles)
    assert body == {"train": [[12, 5], [5, 3], [3, 3], [3, 9]], "tiles": 4, "pips": 43,
                    "left": [[1, 2], [11, 12], [0, 11]], "left_pips": 37}


def test_plan_train_more_pips_among_equally_long(client):
    r = client.post("/api/plan-train", json={"set": 12, "engine": 12,
                                             "hand": [[12, 1], [12, 10], [1, 2], [10, 2]]})
    body = r.get_json()
    assert body["tiles"] == 4 and body["pips"] == 50                     # 12-1 1-2 2-10 10-12
    assert body["left"] == [] and body["left_pips"] == 0
    r = client.post("/api/plan-train", json={"set": 12, "engine": 12,
                                             "hand": [[12, 1], [12, 10], [1, 2], [10, 3]]})
    body = r.get_json()
    assert body["tiles"] == 2 and body["train"] == [[12, 10], [10, 3]] and body["pips"] == 35


def test_plan_train_empty(client):
    r = client.post("/api/plan-train", json={"set": 6, "engine": 6, "hand": [[1, 2]]})
    assert r.get_json() == {"train": [], "tiles": 0, "pips": 0, "left": [[1, 2]],
                            "left_pips": 3}


@pytest.mark.parametrize("body, field, sentence", [
    ({"set": 12, "engine": 12, "hand": [[12, 5], [12, 12]]}, "hand.1",      # the engine
     "12-12 is the engine: it is on the table, not in a hand (R3.3)."),
    ({"set": 12, "engine": 12, "hand": [[12, 5], [5, 12]]}, "hand.1",       # a tile twice
     "5-12 is in the hand twice; each tile exists once (R3.3)."),
    ({"set": 12, "engine": 12, "hand": [[12, 5], [5, 13]]}, "hand.1",       # outside the set
     "5-13 is not in a double-12 set (R3.3)."),
    ({"set": 6, "engine": 6, "hand": [[6, 7]]}, "hand.0", "6-7 is not in a double-6 set (R3.3)."),
    ({"set": 12, "engine": 12, "hand": [[12]]}, "hand.0", TILE),
    ({"set": 12, "engine": 12, "hand": {"a": 1}}, "hand",
     "Tiles must be given as a list, like [[5, 12], [0, 0]]."),
    ({"set": 12, "engine": 12}, "hand", "Give the tiles in hand as hand: [[a, b], …]."),
    ({"set": 12, "hand": []}, "engine",
     "Give the round's engine (the number of the engine double)."),
    ({"set": 12, "engine": 13, "hand": []}, "engine", ENGINE_12),
    ({"set": 12, "engine": "12", "hand": []}, "engine", ENGINE_12),
    ({"set": 11, "engine": 11, "hand": []}, "set", "The set must be double-6, 9, 12, 15 or 18."),
])
def test_plan_train_bad_input(client, body, field, sentence):
    r = client.post("/api/plan-train", json=body)
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}


def test_nothing_is_stored_and_same_answer_twice(client):
    body = {"table": api_table(), "play": {"tile": [9, 12], "train": "Bob"}}
    first = client.post("/api/rulings", json=copy.deepcopy(body)).get_json()
    assert client.post("/api/rulings", json=body).get_json() == first
    assert client.get("/api/games").get_json()["games"] == []


def test_sentences_read_right_for_odd_input(client):
    # R3.3: a negative number is named as a number, not shown as a tile "-1-12".
    v = ruling(client, {"tile": [-1, 12], "train": "Bob"}).get_json()["violations"][0]
    assert v["code"] == "not_in_set" and v["rule"] == "R3.3"
    assert v["message"] == ("A tile with the number -1 is not in a double-12 set: numbers run "
                            "from 0 to 12.")
    # R1.1: one player "was" given (ngettext), field unchanged.
    table = api_table()
    table.update(players=["Bob"], trains={}, markers=[])
    r = ruling(client, {"tile": [12, 3], "train": "Bob"}, table)
    assert r.status_code == 400 and r.get_json() == {
        "error": "A round has 2 to 14 players (R1.1); 1 was given.", "field": "table.players"}


def test_r4_2_draw_a_started_train_plays_nothing_after_a_draw(client):
    # Issue 25: under first_turn_stuck: draw only a player who cannot start their train draws;
    # Bob started his and then drew, so his 4-6 may not follow (R4.2), though it matches.
    table = {"set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi"], "current": "Bob",
             "first_turn": True, "trains": {"Bob": [[12, 4]]},
             "turn": [{"tile": [12, 4], "train": "Bob"}], "drawn": [4, 6],
             "rules": {"first_turn_stuck": "draw"}}
    answer = ruling(client, {"tile": [4, 6], "train": "Bob"}, table).get_json()
    assert answer["legal"] is False and answer["grounds"] == []
    assert [(v["code"], v["rule"]) for v in answer["violations"]] == [("drawn_tile_only", "R5.4")]
    assert "(R4.2)" in answer["violations"][0]["message"]


def test_r6_5_a_satisfied_double_leaves_the_other_to_the_next_player(client):
    # Issue 25: Bob satisfied Ann's 5-5; the Mexican 6-6 binds the following players, so a
    # second tile is refused for one tile per turn only (R5.1), not for the open double.
    table = api_table()
    table["trains"]["Ann"] = [[12, 5], [5, 5], [5, 6]]
    table["mexican"] = [[12, 6], [6, 6]]
    table["turn"] = [{"tile": [5, 6], "train": "Ann"}]
    answer = ruling(client, {"tile": [12, 3], "train": "Bob"}, table).get_json()
    assert [v["code"] for v in answer["violations"]] == ["one_tile_per_turn"]
    table["current"], table["turn"] = "Chi", []
    answer = ruling(client, {"tile": [1, 3], "train": "Chi"}, table).get_json()
    assert [v["code"] for v in answer["violations"]] == ["open_double"]
