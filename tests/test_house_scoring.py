"""House scoring (R11): a bonus for going out, a penalty for a standing marker.

The rulebook table cites each clause of R11; hypothesis checks that both options at 0
score exactly as R7 and that the score that counts is the hand less the bonus or plus the
penalty (R11.3); the API tests save, refuse, undo, export and import house-scored rounds.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.errors import BadInput
from scorekeeper.house_scoring import (check_entry, counted_scores, entry_warnings,
                                       hand_scores_of, zero_players)
from scorekeeper.options import RuleOptions
from scorekeeper.standings import compute

PLAYERS = ("Ann", "Bob", "Chi")
HOUSE = RuleOptions(went_out_bonus=10, marker_penalty=15)
BONUS = {"went_out_bonus": 10, "marker_penalty": 15}


# --- the rulebook table: one line per clause -------------------------------------------

@pytest.mark.parametrize("rule, options, hands, went_out, markers, counts", [
    ("R11 both at 0: exactly R7", RuleOptions(), {"Ann": 0, "Bob": 7, "Chi": 9}, ["Ann"],
     ["Bob"], {"Ann": 0, "Bob": 7, "Chi": 9}),
    ("R11.1 who went out scores -N", RuleOptions(went_out_bonus=10),
     {"Ann": 0, "Bob": 7, "Chi": 9}, ["Ann"], None, {"Ann": -10, "Bob": 7, "Chi": 9}),
    ("R11.2 a standing marker adds N", RuleOptions(marker_penalty=15),
     {"Ann": 0, "Bob": 7, "Chi": 9}, ["Ann"], ["Bob"], {"Ann": 0, "Bob": 22, "Chi": 9}),
    ("R11.1+R11.2 together", HOUSE, {"Ann": 0, "Bob": 7, "Chi": 9}, ["Ann"], ["Bob", "Chi"],
     {"Ann": -10, "Bob": 22, "Chi": 24}),
    ("R11.3 blocked: nobody went out", HOUSE, {"Ann": 3, "Bob": 7, "Chi": 9}, [], ["Chi"],
     {"Ann": 3, "Bob": 7, "Chi": 24}),
    ("R11.3 several out (R4.4)", HOUSE, {"Ann": 0, "Bob": 0, "Chi": 9}, ["Ann", "Bob"], [],
     {"Ann": -10, "Bob": -10, "Chi": 9}),
])
def test_r11_scores_that_count(rule, options, hands, went_out, markers, counts):
    entry = check_entry(hands, PLAYERS, options, went_out, markers)
    assert entry.scores == counts, rule
    assert hand_scores_of(entry.scores, entry.went_out, entry.markers, options) == hands, rule


@pytest.mark.parametrize("rule, options, hands, went_out, markers, field, words", [
    ("R11.3 went out with pips left", HOUSE, {"Ann": 4, "Bob": 7, "Chi": 9}, ["Ann"], [],
     "scores.Ann", "Ann went out, so their hand holds nothing"),
    ("R11.2 a name in both lists", HOUSE, {"Ann": 0, "Bob": 7, "Chi": 9}, ["Ann"], ["Ann"],
     "markers.0", "Ann cannot both go out and have a standing marker"),
    ("R11.3 who went out must be said", HOUSE, {"Ann": 0, "Bob": 7, "Chi": 9}, None, [],
     "went_out", "Say who went out"),
    ("R11.3 not a player", HOUSE, {"Ann": 0, "Bob": 7, "Chi": 9}, ["Dee"], [],
     "went_out.0", "Dee is not a player in this game."),
    ("R11.3 named twice", HOUSE, {"Ann": 0, "Bob": 7, "Chi": 9}, ["Ann"], ["Bob", "Bob"],
     "markers.1", "Bob is named twice in the list."),
    ("R11.3 not a list", HOUSE, {"Ann": 0, "Bob": 7, "Chi": 9}, "Ann", [],
     "went_out", "Who went out must be a list of player names."),
    ("R11 default options check the lists too", RuleOptions(), {"Ann": 5, "Bob": 7, "Chi": 9},
     ["Ann"], None, "scores.Ann", "Ann went out"),
])
def test_r11_3_refusals(rule, options, hands, went_out, markers, field, words):
    with pytest.raises(BadInput) as refused:
        check_entry(hands, PLAYERS, options, went_out, markers)
    assert refused.value.field == field, rule
    assert words in refused.value.message, rule


def test_r11_3_hands_say_who_went_out_and_tiles_refuse_it():
    hands = {"Ann": [], "Bob": [[3, 4]], "Chi": [[1, 2]]}
    entry = check_entry({"Ann": 0, "Bob": 7, "Chi": 3}, PLAYERS, HOUSE, None, ["Bob"], hands)
    assert entry.went_out == ("Ann",) and entry.scores == {"Ann": -10, "Bob": 22, "Chi": 3}
    with pytest.raises(BadInput) as refused:
        check_entry({"Ann": 0, "Bob": 7, "Chi": 3}, PLAYERS, HOUSE, ["Bob"], None, hands)
    assert refused.value.field == "hands.Bob" and "no tiles are left" in refused.value.message
    # Under the default options a save that does not give the lists records none.
    plain = check_entry({"Ann": 0, "Bob": 7, "Chi": 3}, PLAYERS, RuleOptions(), None, None,
                        hands)
    assert (plain.went_out, plain.markers) == (None, None)


@pytest.mark.parametrize("went_out, code", [([], "no_zero"), (["Ann", "Bob"], "several_zeros"),
                                            (["Ann"], None)])
def test_r11_3_unusual_rounds_are_judged_on_who_went_out(went_out, code):
    hands = {"Ann": 0, "Bob": 0, "Chi": 9}
    entry = check_entry(hands, PLAYERS, HOUSE, went_out, [])
    warnings = entry_warnings(entry, HOUSE, 12)
    assert [w.code for w in warnings] == ([code] if code else [])
    assert all(w.rule == "R7.4" for w in warnings)


def test_r11_4_tiebreaks_count_rounds_out_and_the_lowest_other_round():
    # Ann and Bob tie on 20.  Ann went out once (-10) and held 0 pips once with a standing
    # marker (15 in round 3: a zero round, the penalty aside); Bob went out once: R8.2 puts
    # Ann first.  Her lowest other round is round 2's 15.
    rounds = [{"Ann": -10, "Bob": 15, "Chi": 30}, {"Ann": 15, "Bob": -10, "Chi": 5},
              {"Ann": 15, "Bob": 15, "Chi": 5}]
    zeros = [{"Ann"}, {"Bob"}, {"Ann"}]
    table = compute(PLAYERS, rounds, zeros, house=True)
    assert [(r.player, r.total, r.zero_rounds, r.lowest_nonzero) for r in table.rows] == [
        ("Ann", 20, 2, 15), ("Bob", 20, 1, 15), ("Chi", 40, 0, 5)]
    assert table.notes == ("Ann ahead of Bob: more rounds gone out or without pips, 2 to 1 "
                           "(R8.2, R11.4).",)
    # R8.3 under R11.4: the lowest score that counts among the other rounds.
    rounds = [{"Ann": -10, "Bob": -10, "Chi": 30}, {"Ann": 17, "Bob": 12, "Chi": 5},
              {"Ann": 8, "Bob": 13, "Chi": 5}]
    table = compute(PLAYERS, rounds, [{"Ann", "Bob"}, set(), set()], house=True)
    assert table.notes[0] == ("Ann ahead of Bob: lower lowest score in the other rounds, 8 to "
                              "12 (R8.3, R11.4).")


# --- properties ----------------------------------------------------------------------

hand = st.integers(0, 300)
options_st = st.builds(RuleOptions, went_out_bonus=st.sampled_from([0, 5, 10, 15, 20, 25]),
                       marker_penalty=st.sampled_from([0, 5, 10, 15, 20, 25]))


@st.composite
def rounds(draw):
    hands = {p: draw(hand) for p in PLAYERS}
    out = [p for p in PLAYERS if draw(st.booleans())]
    for p in out:
        hands[p] = 0
    marked = [p for p in PLAYERS if p not in out and draw(st.booleans())]
    return hands, out, marked


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_property_both_options_at_0_score_exactly_as_r7(entry):
    hands, out, marked = entry
    checked = check_entry(hands, PLAYERS, RuleOptions(), out, marked)
    assert checked.scores == hands
    plain = compute(PLAYERS, [hands])
    house = compute(PLAYERS, [checked.scores], [zero_players(hands, out)])
    assert plain == house


@settings(max_examples=200, deadline=None)
@given(rounds(), options_st)
def test_property_the_score_that_counts_is_the_hand_less_bonus_or_plus_penalty(entry, options):
    hands, out, marked = entry
    counts = check_entry(hands, PLAYERS, options, out, marked).scores
    for p in PLAYERS:
        if p in out:
            assert counts[p] == -options.went_out_bonus
        elif p in marked:
            assert counts[p] == hands[p] + options.marker_penalty
        else:
            assert counts[p] == hands[p]
    assert hand_scores_of(counts, tuple(out), tuple(marked), options) == hands
    assert counted_scores(hands, tuple(out), tuple(marked), options) == counts


# --- the API ---------------------------------------------------------------------------

def _game(game_factory, **rules):
    return game_factory(rules=rules or BONUS)


def test_api_saves_scores_with_the_lists_and_answers_hand_and_score(client, game_factory):
    gid = _game(game_factory)["id"]
    r = client.put(f"/api/games/{gid}/rounds/1",
                   json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"],
                         "markers": ["Chi"]})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["scores"] == {"Ann": -10, "Bob": 7, "Chi": 24}
    assert body["hand_scores"] == {"Ann": 0, "Bob": 7, "Chi": 9}
    assert (body["went_out"], body["markers"], body["warnings"]) == (["Ann"], ["Chi"], [])
    game = client.get(f"/api/games/{gid}").get_json()
    assert game["rounds"][0]["scores"] == {"Ann": -10, "Bob": 7, "Chi": 24}
    assert game["standings"]["standings"][0] == {"player": "Ann", "place": 1, "total": -10,
                                                 "zero_rounds": 1, "lowest_nonzero": None}
    history = client.get(f"/api/games/{gid}/history").get_json()["changes"]
    assert [(c["player"], c["new"]) for c in history] == [("Ann", -10), ("Bob", 7), ("Chi", 24)]


def test_api_hands_say_who_went_out(client, game_factory):
    gid = _game(game_factory)["id"]
    r = client.put(f"/api/games/{gid}/rounds/1",
                   json={"hands": {"Ann": [], "Bob": [[3, 4]], "Chi": [[0, 1]]},
                         "markers": ["Bob"]})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["went_out"] == ["Ann"] and body["scores"] == {"Ann": -10, "Bob": 22, "Chi": 1}


@pytest.mark.parametrize("body, field", [
    ({"scores": {"Ann": 3, "Bob": 7, "Chi": 9}, "went_out": ["Ann"]}, "scores.Ann"),
    ({"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"], "markers": ["Ann"]},
     "markers.0"),
    ({"scores": {"Ann": 0, "Bob": 7, "Chi": 9}}, "went_out"),
    ({"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Zed"]}, "went_out.0"),
    ({"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": "Ann"}, "went_out"),
    ({"hands": {"Ann": [[1, 2]], "Bob": [], "Chi": []}, "went_out": ["Ann"]}, "hands.Ann"),
    ({"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"], "marker": []}, "marker"),
])
def test_api_refuses_what_r11_3_refuses_and_stores_nothing(client, game_factory, body, field):
    gid = _game(game_factory)["id"]
    r = client.put(f"/api/games/{gid}/rounds/1", json=body)
    assert r.status_code == 400 and r.get_json()["field"] == field
    assert r.get_json()["error"].endswith((".", "?"))
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] is None


def test_api_default_options_keep_the_lists_given_and_change_no_score(client, game_factory):
    gid = game_factory()["id"]
    url = f"/api/games/{gid}/rounds/1"
    r = client.put(url, json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}})
    assert (r.get_json()["went_out"], r.get_json()["markers"]) == (None, None)
    r = client.put(url, json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": [],
                              "markers": ["Bob"]})
    body = r.get_json()
    assert body["scores"] == body["hand_scores"] == {"Ann": 0, "Bob": 7, "Chi": 9}
    # A change of the lists alone is a new revision; R7.4 is judged on who went out.
    assert body["revision"] == 2 and [w["code"] for w in body["warnings"]] == ["no_zero"]


def test_undo_puts_the_lists_back_with_the_scores(app, client, game_factory):
    from scorekeeper import storage
    gid = _game(game_factory)["id"]
    url = f"/api/games/{gid}/rounds/1"
    client.put(url, json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"]})
    client.put(url, json={"scores": {"Ann": 4, "Bob": 0, "Chi": 9}, "went_out": ["Bob"],
                          "markers": ["Ann"]})
    with app.app_context():
        from scorekeeper.db import get_db
        db = get_db()
        game = storage.load_game(db, gid)
        assert game.round(1).scores == {"Ann": 19, "Bob": -10, "Chi": 9}
        storage.undo_last(db, game)
        back = storage.load_game(db, gid).round(1)
        assert (back.scores, back.went_out, back.markers) == (
            {"Ann": -10, "Bob": 7, "Chi": 9}, ("Ann",), ())
        storage.redo_last(db, storage.load_game(db, gid))
        again = storage.load_game(db, gid).round(1)
        assert (again.went_out, again.markers) == (("Bob",), ("Ann",))
        storage.undo_last(db, storage.load_game(db, gid))
        storage.undo_last(db, storage.load_game(db, gid))
        blank = storage.load_game(db, gid).round(1)
        assert (blank.scores, blank.went_out, blank.markers) == (None, None, None)


def test_export_and_import_keep_the_options_lists_and_scores(client, game_factory):
    gid = _game(game_factory)["id"]
    client.put(f"/api/games/{gid}/rounds/1",
               json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"],
                     "markers": ["Bob"]})
    client.put(f"/api/games/{gid}/rounds/1",
               json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"]})
    doc = client.get(f"/api/games/{gid}/export").get_json()
    assert doc["game"]["rules"]["went_out_bonus"] == 10
    assert doc["rounds"][0]["went_out"] == ["Ann"] and doc["rounds"][0]["markers"] == []
    r = client.post("/api/games/import", json=doc)
    assert r.status_code == 201, r.get_json()
    copy = r.get_json()
    assert copy["rounds"][0]["scores"] == {"Ann": -10, "Bob": 7, "Chi": 9}
    assert copy["rounds"][0]["hand_scores"] == {"Ann": 0, "Bob": 7, "Chi": 9}
    assert copy["standings"] == client.get(f"/api/games/{gid}/standings").get_json()
    # A score that does not fit the lists is refused, naming it.
    doc["rounds"][0]["scores"]["Ann"] = 0
    r = client.post("/api/games/import", json=doc)
    assert r.status_code == 400 and r.get_json()["field"] == "rounds.0.scores.Ann"


def test_seats_count_zero_rounds_as_r11_4_says(app, client, game_factory):
    from scorekeeper.db import get_db
    gid = _game(game_factory)["id"]
    client.put(f"/api/games/{gid}/rounds/1",
               json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"],
                     "markers": ["Chi"]})
    with app.app_context():
        rows = get_db().execute("select name, total, zero_rounds, lowest_nonzero from seats "
                                "where game_id = ? order by seat", [gid]).fetchall()
    assert [tuple(r) for r in rows] == [("Ann", -10, 1, None), ("Bob", 7, 0, 7),
                                        ("Chi", 24, 0, 24)]


def test_options_are_chosen_in_the_api_and_refused_out_of_their_values(client, game_factory):
    game = _game(game_factory)
    assert game["rules"]["went_out_bonus"] == 10 and game["rules"]["marker_penalty"] == 15
    r = client.post("/api/games", json={"players": list(PLAYERS),
                                        "rules": {"went_out_bonus": 7}})
    assert r.status_code == 400 and r.get_json()["field"] == "rules.went_out_bonus"


def test_an_older_games_check_code_record_leaves_the_new_options_out(client, game_factory):
    from scorekeeper.checkcode import canonical, current_state
    from scorekeeper.game import Game
    plain = Game("g1", "", PLAYERS, 12, RuleOptions(), ())
    record = canonical(plain, current_state(plain))
    assert b"went_out_bonus" not in record and b"marker_penalty" not in record
    house = Game("g1", "", PLAYERS, 12, HOUSE, ())
    assert b'"went_out_bonus":10' in canonical(house, current_state(house))
