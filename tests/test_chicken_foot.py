"""Chicken foot (RULES.md R10, option ``chicken_foot``): the rulebook one line per clause,
the API's feet, ``at`` and ``checks`` (API.md), and properties over random rounds."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.errors import BadInput
from scorekeeper.options import RuleOptions
from scorekeeper.referee import (Finish, PlayAction, RoundState, Table, apply, check, grounds,
                                 legal_actions, legal_plays, start_round)
from scorekeeper.referee.feet import Foot, feet
from scorekeeper.referee.values import Play
from scorekeeper.tiles import Tile

T = Tile.of
FOOT = {"chicken_foot": True}


def table(trains=None, mexican=(), cur="Bob", first=False, turn=(), drawn=None, markers=(),
          **rules) -> Table:
    """A double-12 table of Ann, Bob and Chi under chicken foot, from API.md's JSON."""
    return Table.from_json({
        "set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi"], "current": cur,
        "first_turn": first, "trains": trains or {}, "mexican": list(mexican),
        "markers": list(markers), "turn": [{"tile": t, "train": n} for t, n in turn],
        "drawn": drawn, "rules": {**FOOT, **rules}})


def foot(double: int, *toes) -> dict:
    return {"double": [double, double], "toes": [list(t) for t in toes]}


def play(tile, train, at=None) -> Play:
    return Play(T(*tile), train, None if at is None else T(*at))


ONE_TOE = {"Ann": [[12, 6], foot(6, [[6, 3]])]}                  # Ann's 6-6 has one toe
FULL = {"Ann": [[12, 6], foot(6, [[6, 3]], [[6, 9]], [[6, 1]])]}  # three toes: not open

# Each case: the table, the play, the codes of every rule it breaks ([] = legal).
CASES = [
    # R10.1 a toe shows the double's number …
    (table(ONE_TOE, cur="Ann"), play((6, 4), "Ann", (6, 6)), []),
    (table(ONE_TOE, cur="Ann"), play((5, 4), "Ann", (6, 6)), ["no_match"]),
    # … and a fourth can never go on it
    (table(FULL, cur="Ann"), play((6, 4), "Ann", (6, 6)), ["foot_full"]),
    # R10.2 an open double binds every player in turn: a toe on it, nowhere else
    (table(ONE_TOE), play((12, 4), "Bob"), ["chicken_foot"]),
    (table(ONE_TOE), play((12, 4), None), ["chicken_foot"]),
    # … even on another player's unmarked train (no train_closed for the toe)
    (table(ONE_TOE), play((6, 4), "Ann", (6, 6)), []),
    # … but only as a toe: the end of a toe of an unmarked train stays closed
    (table(ONE_TOE), play((3, 4), "Ann", (6, 3)), ["train_closed", "chicken_foot"]),
    # … one toe per turn: the duty is met, the next player is bound (R10.2, R10.4)
    (table({"Ann": [[12, 6], foot(6, [[6, 3]], [[6, 4]])]}, turn=[([6, 4], "Ann")]),
     play((6, 5), "Ann", (6, 6)), ["one_tile_per_turn"]),
    (table({"Ann": [[12, 6], foot(6, [[6, 3]], [[6, 4]])]}, cur="Chi"),
     play((12, 5), "Chi"), ["chicken_foot"]),
    # … a drawn tile may be played if it fits the open double, else not (R6.4)
    (table(ONE_TOE, drawn=[6, 4]), play((6, 4), "Ann", (6, 6)), []),
    (table(ONE_TOE, drawn=[12, 4]), play((12, 4), "Bob"), ["chicken_foot"]),
    # R10.3 the double's player owes the first toe on that double
    (table({"Bob": [[12, 8], [8, 8]]}, turn=[([8, 8], "Bob")]), play((8, 2), "Bob", (8, 8)), []),
    (table({"Bob": [[12, 8], [8, 8]]}, mexican=[[12, 4]], turn=[([8, 8], "Bob")]),
     play((4, 2), None), ["owed_on_double"]),
    # R10.4 a double at the end of a toe starts a foot of its own, which binds the same way
    (table({"Ann": [[12, 6], foot(6, [[6, 3], [3, 3]], [[6, 9]], [[6, 1]])]}),
     play((12, 4), "Bob"), ["chicken_foot"]),
    (table({"Ann": [[12, 6], foot(6, [[6, 3], [3, 3]], [[6, 9]], [[6, 1]])]}),
     play((3, 4), "Ann", (3, 3)), []),
    # … several open doubles: any one of them first
    (table({"Ann": [[12, 6], [6, 6]], "Chi": [[12, 2], [2, 2]]}), play((2, 4), "Chi", (2, 2)), []),
    (table({"Ann": [[12, 6], [6, 6]], "Chi": [[12, 2], [2, 2]]}), play((6, 4), "Ann", (6, 6)), []),
    # R10.5 once no double is open, a tile may go at any open end of a train it may use
    (table(FULL, cur="Ann"), play((9, 4), "Ann", (6, 9)), []),
    (table(FULL, cur="Ann"), play((3, 4), "Ann", (6, 3)), []),
    (table(FULL, markers=["Ann"]), play((1, 4), "Ann", (1, 6)), []),
    (table(FULL), play((1, 4), "Ann", (1, 6)), ["train_closed"]),
    # R10.6 the first turn: any open end of one's own train, a chain that branches …
    (table({"Bob": [[12, 6], foot(6, [[6, 3]])]}, first=True, turn=[([12, 6], "Bob"),
                                                                  ([6, 6], "Bob"),
                                                                  ([6, 3], "Bob")]),
     play((6, 9), "Bob", (6, 6)), []),
    # … and doubles bind nobody while it lasts (R4.3)
    (table(ONE_TOE, first=True), play((12, 4), "Bob"), []),
    (table(ONE_TOE, first=True), play((6, 4), "Ann", (6, 6)), ["first_turn_own_train"]),
]


@pytest.mark.parametrize("tab, p, codes", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_rulebook_r10(tab, p, codes):
    violations = check(tab, p)
    assert [v.code for v in violations] == codes
    assert all(v.message.endswith(".") for v in violations)
    # legal_plays is the same check, one entry per open end (R10.5)
    assert (p in legal_plays(tab, [p.tile])) is (codes == []) or p.at is None
    said = grounds(tab, p, violations)
    assert bool(said) is (codes == [])


@pytest.mark.parametrize("tab, p, rules", [
    (table(ONE_TOE), play((6, 4), "Ann", (6, 6)), ["R10.2", "R10.1", "R10.5", "R3.2"]),
    (table({"Bob": [[12, 8], [8, 8]]}, turn=[([8, 8], "Bob")]), play((8, 2), "Bob", (8, 8)),
     ["R5.2", "R10.3", "R10.1", "R3.2"]),
    (table({"Ann": [[12, 6], [6, 6]], "Chi": [[12, 2], [2, 2]]}), play((2, 4), "Chi", (2, 2)),
     ["R10.2", "R10.4", "R10.1", "R3.2"]),
    (table(first=True), play((12, 4), "Bob"), ["R4.1", "R10.6", "R3.2"]),
])
def test_grounds_cite_r10(tab, p, rules):
    assert [g.rule for g in grounds(tab, p)] == rules


def test_open_double_codes_are_replaced_under_the_option():
    # API.md: chicken_foot replaces open_double, owed_on_double replaces owner_must_satisfy.
    codes = {v.code for tab, p, _ in CASES for v in check(tab, p)}
    assert not codes & {"open_double", "owner_must_satisfy"}
    owed = table({"Bob": [[12, 8], [8, 8]]}, mexican=[[12, 4]], turn=[([8, 8], "Bob")],
                 double_owner_satisfies=True)
    assert [v.code for v in check(owed, play((4, 2), None))] == ["owed_on_double"]


@pytest.mark.parametrize("p, field", [
    (play((6, 4), "Ann"), "play.at"),                 # several open ends: say which
    (play((6, 4), "Ann", (12, 6)), "play.at"),        # a tile inside the train
    (play((3, 4), "Ann", (6, 9)), "play.at"),         # no tile of that train
])
def test_an_end_that_is_none_is_bad_input(p, field):
    with pytest.raises(BadInput) as info:
        check(table(ONE_TOE, cur="Ann"), p)
    assert info.value.field == field and info.value.message.endswith(".")


def test_a_play_goes_where_at_says():
    tab = table(ONE_TOE, cur="Ann")
    after = tab.with_play(play((6, 4), "Ann", (6, 6)))
    assert after.trains["Ann"] == (T(12, 6), Foot(T(6, 6), ((T(3, 6),), (T(4, 6),))))
    after = after.replace(turn=()).with_play(play((3, 2), "Ann", (3, 6)))
    assert after.trains["Ann"][1].toes[0] == (T(3, 6), T(2, 3))
    assert Table.from_json(after.to_json()) == after


def test_r10_7_going_out_on_a_double_ends_the_round():
    # R10.7 (R7.1): the last tile ends the round, even a double that would owe a toe.
    tab = table({"Ann": [[12, 7]]}, cur="Ann").replace(turn=(), first_turn=False)
    st = RoundState(tab, "Ann", {"Ann": 1, "Bob": 5, "Chi": 5}, 91 - 1 - 1 - 11)
    assert apply(st, PlayAction(T(7, 7), "Ann", at=T(7, 12))).finished is Finish.OUT
    st = RoundState(tab, "Ann", {"Ann": 2, "Bob": 5, "Chi": 4}, 91 - 1 - 1 - 11)
    after = apply(st, PlayAction(T(7, 7), "Ann"))
    assert not after.is_over and after.table.owed_after == Play(T(7, 7), "Ann")


# --------------------------------------------------------------------------- the API

def ruling(client, tab: dict, p: dict):
    return client.post("/api/rulings", json={"table": tab, "play": p})


def api_table(**changes) -> dict:
    """API.md's chicken-foot example table."""
    return {"set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi"], "current": "Bob",
            "trains": {"Ann": [[12, 6], {"double": [6, 6],
                                          "toes": [[[6, 3], [3, 1]], [[6, 9]]]}],
                       "Bob": [], "Chi": [[12, 2]]},
            "rules": {"chicken_foot": True}, **changes}


def test_api_a_toe_is_legal_and_says_the_checks(client):
    """R10.8: under the option every answer says the checks the referee makes (six, each
    citing its R10 rule); an answer under the plain rules carries none."""
    answer = ruling(client, api_table(), {"tile": [6, 4], "train": "Ann", "at": [6, 6]})
    body = answer.get_json()
    assert answer.status_code == 200 and body["legal"] is True
    assert [g["rule"] for g in body["grounds"]][:2] == ["R10.2", "R10.1"]
    assert len(body["checks"]) == 6 and all("(R10." in c for c in body["checks"])
    body = ruling(client, api_table(), {"tile": [12, 4], "train": "Bob"}).get_json()
    assert [v["code"] for v in body["violations"]] == ["chicken_foot"]
    assert body["violations"][0]["rule"] == "R10.2" and "checks" in body
    plain = ruling(client, {**api_table(), "rules": {}, "trains": {"Ann": [[12, 6]]}},
                   {"tile": [6, 4], "train": "Ann"}).get_json()
    assert "checks" not in plain


def test_api_foot_full_is_an_answer(client):
    tab = api_table(current="Ann", trains={"Ann": [[12, 6], {"double": [6, 6], "toes": [
        [[6, 3]], [[6, 9]], [[6, 1]]]}]})
    body = ruling(client, tab, {"tile": [6, 4], "train": "Ann", "at": [6, 6]}).get_json()
    assert [(v["code"], v["rule"]) for v in body["violations"]] == [("foot_full", "R10.1")]


@pytest.mark.parametrize("trains, field", [
    ({"Ann": [[12, 6], [6, 6], [6, 3]]}, "table.trains.Ann[1]"),           # bare double inside
    ({"Ann": [[12, 6], {"double": [6, 6], "toes": []}, [6, 3]]}, "table.trains.Ann[2]"),
    ({"Ann": [[12, 6], {"double": [6, 6], "toes": [[[6, 1]], [[6, 2]], [[6, 3]], [[6, 4]]]}]},
     "table.trains.Ann[1].toes[3]"),                                        # a fourth toe
    ({"Ann": [[12, 6], {"double": [6, 6], "toes": [[]]}]}, "table.trains.Ann[1].toes[0]"),
    ({"Ann": [[12, 6], {"double": [6, 6], "toes": [[[5, 1]]]}]},
     "table.trains.Ann[1].toes[0][0]"),                                     # toe not matching
    ({"Ann": [[12, 6], {"double": [6, 6], "toes": [[[6, 1], [2, 3]]]}]},
     "table.trains.Ann[1].toes[0][1]"),                                     # toe not chaining
    ({"Ann": [[12, 6], {"double": [6, 6], "toes": [[[6, 1]]], "x": 1}]},
     "table.trains.Ann[1].x"),                                              # unknown field
])
def test_api_malformed_feet_name_the_field(client, trains, field):
    answer = ruling(client, api_table(trains=trains), {"tile": [2, 4], "train": "Chi"})
    assert answer.status_code == 400
    assert answer.get_json()["field"] == field
    assert answer.get_json()["error"].endswith(".")


def test_api_a_foot_without_the_option_is_refused(client):
    answer = ruling(client, {**api_table(), "rules": {}}, {"tile": [2, 4], "train": "Chi"})
    assert answer.status_code == 400 and answer.get_json()["field"] == "table.trains.Ann.1"


@pytest.mark.parametrize("p, status, field", [
    ({"tile": [6, 4], "train": "Ann"}, 400, "play.at"),           # several ends, none said
    ({"tile": [6, 4], "train": "Ann", "at": [12, 6]}, 400, "play.at"),
    ({"tile": [6, 4], "train": "Ann", "at": [5, 5]}, 400, "play.at"),
    ({"tile": [12, 4], "train": "Bob", "at": None}, 200, None),   # an empty train: one end
])
def test_api_at(client, p, status, field):
    answer = ruling(client, api_table(), p)
    assert answer.status_code == status
    assert answer.get_json().get("field") == field


def test_api_at_without_the_option_is_the_last_tile(client):
    tab = {**api_table(), "rules": {}, "trains": {"Ann": [[12, 6]], "Chi": [[12, 2]]}}
    assert ruling(client, tab, {"tile": [2, 4], "train": "Chi", "at": [12, 2]}).status_code == 200
    answer = ruling(client, tab, {"tile": [12, 4], "train": "Bob", "at": [12, 6]})
    assert answer.status_code == 400 and answer.get_json()["field"] == "play.at"


def test_api_legal_plays_one_per_end(client):
    tab = api_table(current="Ann", trains={"Ann": [[12, 6], {"double": [6, 6], "toes": [
        [[6, 3]], [[6, 9]], [[6, 1]]]}]})
    plays = client.post("/api/legal-plays", json={"table": tab, "hand": [[3, 4], [12, 4]]}
                        ).get_json()["plays"]
    assert {"tile": [3, 4], "train": "Ann", "at": [3, 6]} in plays
    assert {"tile": [4, 12], "train": None, "at": None} in plays
    assert all("at" in p for p in plays)


# --------------------------------------------------------------------------- properties

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       set_n=st.sampled_from([6, 9]), first_turn=st.sampled_from(["train", "single"]))
def test_every_legal_play_keeps_the_table_valid(seed, players, set_n, first_turn):
    """Random rounds under chicken foot: every legal play leaves a table that can exist,
    and no double ever holds a fourth toe (R10.1)."""
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Chi", "Dee"][:players]
    options = RuleOptions(chicken_foot=True, first_turn=first_turn)
    state = start_round(set_n, set_n, names, names[0], tiles_each=5, options=options)
    for _step in range(60):
        if state.is_over:
            break
        actions = legal_actions(state)
        for action in actions:
            if isinstance(action, PlayAction):
                after = state.table.with_play(action.play)
                after.validate()
                assert Table.from_json(after.to_json()) == after
                for name in after.train_names:
                    assert all(len(f.toes) <= 3 for f in feet(after.train(name)))
        state = apply(state, rng.choice(actions))


def test_an_older_game_records_the_same_options():
    # A game's check code records its options: chicken foot, added later, is recorded only
    # when it is on, so that the codes printed on older sheets still verify.
    assert "chicken_foot" not in RuleOptions().record()
    assert RuleOptions(chicken_foot=True).record() == {**RuleOptions().record(),
                                                       "chicken_foot": True}


def test_a_bare_double_at_the_end_is_a_foot_with_no_toes():
    # API.md: a bare double as the last element means a foot with no toes.
    tab = Table(12, 12, ("Ann", "Bob"), "Bob", trains={"Ann": (T(12, 6), T(6, 6))},
                options=RuleOptions(chicken_foot=True))
    assert tab.trains["Ann"][-1] == Foot(T(6, 6))
    assert [v.code for v in check(tab, play((12, 4), "Bob"))] == ["chicken_foot"]


# --------------------------------------------------------------------------- the planner

def brute_force(tab: Table, hand: frozenset) -> tuple[int, int]:
    """The best first turn by trying every legal play in every order (the referee's R10.6)."""
    best = (0, 0)
    for p in legal_plays(tab, sorted(hand)):
        c, s = brute_force(tab.with_play(p), hand - {p.tile})
        best = max(best, (c + 1, s + p.tile.pips))
    return best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), engine=st.integers(0, 6))
def test_the_opening_tree_is_never_beaten_by_brute_force(data, engine):
    # R10.6: the planner's tree has the most tiles, then the most pips, of any first turn.
    from scorekeeper.referee.treeplan import plan_tree
    from scorekeeper.tiles import full_set
    pool = [t for t in full_set(6) if t != Tile.double(engine)]
    hand = data.draw(st.lists(st.sampled_from(pool), max_size=6, unique=True))
    plan = plan_tree(6, engine, hand)
    start = Table(6, engine, ("Ann", "Bob"), "Ann", True, options=RuleOptions(chicken_foot=True))
    assert (plan.tiles, plan.pips) == brute_force(start, frozenset(hand))
    # … and it is a tree the referee accepts, played in the order it lists
    tab = start
    for near, far in plan.train:
        tile = T(near, far)
        ends = [e for e in tab.facts.open_ends["Ann"] if e.number == near]
        assert any(not check(tab, Play(tile, "Ann", e.at)) for e in ends)
        legal = next(e for e in ends if not check(tab, Play(tile, "Ann", e.at)))
        tab = tab.with_play(Play(tile, "Ann", legal.at))
    assert Table.from_json({**tab.to_json(), "turn": []}).trains["Ann"] == tab.trains["Ann"]


def test_plan_train_api_under_chicken_foot(client):
    hand = [[12, 6], [6, 6], [6, 3], [6, 9], [6, 1], [3, 4], [12, 5]]
    plain = client.post("/api/plan-train", json={"set": 12, "engine": 12, "hand": hand})
    assert plain.get_json()["tiles"] == 4 and "tree" not in plain.get_json()
    tree = client.post("/api/plan-train", json={"set": 12, "engine": 12, "hand": hand,
                                                 "rules": {"chicken_foot": True}}).get_json()
    assert tree["tiles"] == 6 and tree["pips"] == 68 and tree["left"] == [[5, 12]]
    assert tree["tree"][1]["double"] == [6, 6] and len(tree["tree"][1]["toes"]) == 3


def test_a_live_table_under_chicken_foot_shows_its_feet(client, game_factory):
    # Until the live table draws each foot, it lists a foot's double and then its toes; a
    # play on a train with several open ends that does not say which is refused in a
    # sentence (400), never a 500.
    gid = game_factory(["Ann", "Bob"], set=6, start_engine=6,
                       rules={"chicken_foot": True})["id"]
    url = f"/games/{gid}/rounds/1/live"
    assert client.post(url + "/start", data={"starter": "0", "tiles_each": "7",
                                             "active": "0"}).status_code == 302
    for active, tile in ((1, "6-2"), (2, "2-2"), (3, "2-3")):
        r = client.post(url + "/action", data={"active": str(active), "kind": "play",
                                               "tile": tile, "train": "0"})
        assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    page = client.get(url)
    assert page.status_code == 200
    r = client.post(url + "/action", data={"active": "4", "kind": "play", "tile": "2-4",
                                           "train": "0"})
    assert r.status_code == 400 and "several open ends" in r.get_data(as_text=True)


def test_the_verdict_says_the_first_toe_is_owed():
    # R10.3: a legal double under chicken foot owes its first toe, on that double.
    from scorekeeper.verdict import verdict
    tab = table(cur="Bob", trains={"Bob": [[12, 8]]})
    said = verdict(tab, play((8, 8), "Bob", (8, 12)), hand_count=5).said
    assert said[-1] == "It is a double: Bob must play its first toe this turn, on this double (R10.3)."
