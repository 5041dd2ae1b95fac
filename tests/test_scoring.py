"""Scoring rules R1.2–R1.4, R2.1, R7.3, R7.4 as a table of cases, plus properties."""

from dataclasses import fields

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.errors import BadInput
from scorekeeper.options import (CHOICES, OPTION_RULES, OPTIONS, VALUE_LABELS, RuleOptions,
                                 deal_for, round_engines)
from scorekeeper.referee import plan_train
from scorekeeper.scoring import (check_hands, check_scores, hand_score, max_hand,
                                 round_warnings)
from scorekeeper.tiles import SETS, Tile, check_hand, full_set, set_pips, set_size

T = Tile.of


@pytest.mark.parametrize("n, tiles, pips", [
    (6, 28, 168), (9, 55, 495), (12, 91, 1092), (15, 136, 2040), (18, 190, 3420),
])
def test_set_sizes_and_pips(n, tiles, pips):
    # R1.2: (N+1)(N+2)/2 tiles, N(N+1)(N+2)/2 pips; 1,092 for double-12.
    assert len(full_set(n)) == set_size(n) == tiles
    assert sum(t.pips for t in full_set(n)) == set_pips(n) == pips
    assert len(set(full_set(n))) == tiles


@pytest.mark.parametrize("tiles, options, score, rule", [
    ([], RuleOptions(), 0, "R7.3 went out: 0"),
    ([T(3, 4)], RuleOptions(), 7, "R7.3 pips"),
    ([T(0, 0), T(3, 4)], RuleOptions(), 57, "R7.3 0-0 counts 50 by default"),
    ([T(0, 0)], RuleOptions(double_blank=25), 25, "R9 double_blank 25"),
    ([T(0, 0), T(0, 5)], RuleOptions(double_blank=0), 5, "R9 double_blank 0: face value"),
    ([T(12, 12), T(6, 6)], RuleOptions(), 36, "R7.3 other doubles: face value"),
])
def test_hand_score(tiles, options, score, rule):
    assert hand_score(tiles, options) == score, rule


@pytest.mark.parametrize("n, engine, options, top", [
    (12, 12, RuleOptions(), 1092 - 24 + 50),   # R7.4: every tile but the engine
    (12, 0, RuleOptions(), 1092),              # engine 0-0 itself is out of the hands
    (6, 6, RuleOptions(double_blank=0), 168 - 12),
    (18, 18, RuleOptions(double_blank=25), 3420 - 36 + 25),
])
def test_max_hand(n, engine, options, top):
    assert max_hand(n, engine, options) == top


@pytest.mark.parametrize("scores, field, message", [
    ({"Ann": 0, "Bob": -1}, "scores.Bob", "A score of -1 for Bob is impossible: a round score is from 0 to 1118, the largest possible hand in this round (R7.4)."),
    ({"Ann": 0, "Bob": 1119}, "scores.Bob", "A score of 1119 for Bob is impossible: a round score is from 0 to 1118, the largest possible hand in this round (R7.4)."),
    ({"Ann": 0, "Bob": 2.5}, "scores.Bob", "The score of Bob must be a whole number from 0 to 1118."),
    ({"Ann": 0, "Bob": "7"}, "scores.Bob", "The score of Bob must be a whole number from 0 to 1118."),
    ({"Ann": 0, "Bob": True}, "scores.Bob", "The score of Bob must be a whole number from 0 to 1118."),
    ({"Ann": 0}, "scores.Bob", "The score of Bob is missing: every player needs one."),
    ({"Ann": 0, "Bob": 1, "Zed": 3}, "scores.Zed", "Zed is not a player in this game."),
])
def test_check_scores_refuses(scores, field, message):
    with pytest.raises(BadInput) as err:
        check_scores(scores, ["Ann", "Bob"], 12, 12)
    assert (err.value.field, err.value.message) == (field, message)


def test_check_scores_accepts_the_largest_hand():
    assert check_scores({"Ann": 0, "Bob": 1118}, ["Ann", "Bob"], 12, 12) == {"Ann": 0, "Bob": 1118}


@pytest.mark.parametrize("hands, field, words", [
    ({"Ann": [], "Bob": [[12, 12]]}, "hands.Bob.0", "this round's engine"),   # R3.3
    ({"Ann": [], "Bob": [[13, 2]]}, "hands.Bob.0", "not in a double-12 set"),  # R3.3
    ({"Ann": [[3, 4]], "Bob": [[4, 3]]}, "hands.Bob.0", "in two hands"),       # R3.3
    ({"Ann": [[3, 4], [4, 3]], "Bob": []}, "hands.Ann.1", "in the hand twice"),  # not "two hands"
    ({"Ann": [], "Bob": [[3]]}, "hands.Bob.0", "two whole numbers"),
    ({"Ann": []}, "hands.Bob", "missing"),
])
def test_check_hands_refuses(hands, field, words):
    with pytest.raises(BadInput) as err:
        check_hands(hands, ["Ann", "Bob"], 12, 12)
    assert err.value.field == field and words in err.value.message


@pytest.mark.parametrize("check, field, message", [
    # One function checks every hand (tiles.check_hand); each caller keeps its sentence.
    (lambda: check_hands({"Ann": [[12, 12]]}, ["Ann"], 12, 12), "hands.Ann.0",
     "12-12 is this round's engine; it cannot be in a hand (R3.3)."),
    (lambda: check_hands({"Ann": [[3, 4]], "Bob": [[4, 3]]}, ["Ann", "Bob"], 12, 12),
     "hands.Bob.0", "3-4 is in two hands (Ann and Bob); each tile exists once (R3.3)."),
    (lambda: plan_train(12, 12, [Tile(12, 12)]), "hand.0",
     "12-12 is the engine: it is on the table, not in a hand (R3.3)."),
    (lambda: plan_train(12, 12, [Tile(1, 2), Tile(1, 2)]), "hand.1",
     "1-2 is in the hand twice; each tile exists once (R3.3)."),
    (lambda: plan_train(6, 6, [Tile(6, 7)]), "hand.0", "6-7 is not in a double-6 set (R3.3)."),
    (lambda: check_hand([Tile(2, 19)], None, field="tiles"), "tiles.0",
     "2-19 is not in any set in use (double-6 to double-18)."),
])
def test_each_hand_check_says_its_own_sentence(check, field, message):
    with pytest.raises(BadInput) as err:
        check()
    assert (err.value.field, err.value.message) == (field, message)


@pytest.mark.parametrize("scores, codes", [
    ({"A": 0, "B": 5, "C": 9}, []),                 # the normal round: exactly one 0
    ({"A": 3, "B": 5, "C": 9}, ["no_zero"]),        # R7.2 blocked round
    ({"A": 0, "B": 0, "C": 9}, ["several_zeros"]),  # R4.4 several out on the first turn
])
def test_round_warnings(scores, codes):
    warnings = round_warnings(scores)
    assert [w.code for w in warnings] == codes
    assert all(w.rule == "R7.4" for w in warnings)


FIRST_TURN_ONLY = ("2 players scored 0 (A and B): only possible when several went out during "
                   "the first turn (R4.4).")
OR_DOUBLE_BLANK = ("2 players scored 0 (A and B): only possible when several went out during "
                   "the first turn (R4.4), or when a player's only tile left is the 0-0, which "
                   "counts 0 in this game (R7.3).")


@pytest.mark.parametrize("options, engine, message", [
    (RuleOptions(), 12, FIRST_TURN_ONLY),                   # R7.4: 0-0 counts 50, R4.4 only
    (RuleOptions(double_blank=25), 12, FIRST_TURN_ONLY),    # R7.4: 0-0 counts 25
    (RuleOptions(double_blank=0), 12, OR_DOUBLE_BLANK),     # R7.4: both cases
    (RuleOptions(double_blank=0), None, OR_DOUBLE_BLANK),   # R7.4: engine not known
    (RuleOptions(double_blank=0), 0, FIRST_TURN_ONLY),      # R7.4 + R3.3: the 0-0 is the engine
])
def test_several_zeros_give_the_reasons_r7_4_names(options, engine, message):
    # R7.4: several 0s are several out in the first turn (R4.4) or, with double_blank 0,
    # a hand left with the 0-0 alone.
    warnings = round_warnings({"A": 0, "B": 0, "C": 9}, options, engine)
    assert [(w.code, w.rule, w.message) for w in warnings] == [("several_zeros", "R7.4",
                                                                 message)]


@pytest.mark.parametrize("players, set_n, options, each, fits", [
    (4, 12, RuleOptions(), 15, True),              # R1.3 table A
    (6, 12, RuleOptions(), 12, True),
    (8, 12, RuleOptions(), 11, True),
    (12, 15, RuleOptions(), 11, True),
    (14, 18, RuleOptions(), 11, True),
    (3, 9, RuleOptions(deal="B"), 8, True),        # R1.3 table B
    (8, 12, RuleOptions(deal="B"), 10, True),
    (8, 6, RuleOptions(), 7, False),               # R1.4: 56 > 28, suggested not forced
    (13, 9, RuleOptions(), 15, False),
])
def test_deal(players, set_n, options, each, fits):
    d = deal_for(set_n, players, options)
    assert (d.tiles_each, d.fits) == (each, fits)


def test_deal_engine_set_aside_needs_one_more_tile():
    # R1.4: 4 × 7 = 28 fits a double-6 set when the engine is dealt (R2.2) but
    # not when it is set aside first (R2.3).
    assert deal_for(6, 4, RuleOptions()).fits
    assert not deal_for(6, 4, RuleOptions(starter="highest_draw")).fits


@pytest.mark.parametrize("n, start, end, engines", [
    (12, None, 0, list(range(12, -1, -1))),   # R2.1: N+1 rounds, N down to 0
    (6, None, 0, [6, 5, 4, 3, 2, 1, 0]),
    (12, 9, 5, [9, 8, 7, 6, 5]),              # R2.1 shortened game
    (12, 4, 4, [4]),                          # a single round
])
def test_round_engines(n, start, end, engines):
    assert round_engines(n, start, end) == engines


@settings(max_examples=60)
@given(st.sampled_from(SETS), st.data())
def test_property_max_hand_is_the_set_without_the_engine(n, data):
    engine = data.draw(st.integers(0, n))
    blank = data.draw(st.sampled_from([50, 25, 0]))
    options = RuleOptions(double_blank=blank)
    rest = [t for t in full_set(n) if t != Tile.double(engine)]
    assert max_hand(n, engine, options) == hand_score(rest, options)
    # Any real hand scores within R7.4's range.
    hand = data.draw(st.lists(st.sampled_from(rest), unique=True, max_size=25))
    assert 0 <= hand_score(hand, options) <= max_hand(n, engine, options)


@given(st.integers(-30, 30), st.integers(-30, 30))
def test_property_tile_order_does_not_matter(a, b):
    assert Tile.of(a, b) == Tile.of(b, a)
    assert Tile.of(a, b).pips == a + b


def test_one_row_per_option_makes_the_rest():
    # R9: RuleOptions has one field per row, in the table's order, defaulting to its first value.
    assert [(f.name, f.default) for f in fields(RuleOptions)] == \
        [(o.name, o.default) for o in OPTIONS]
    assert CHOICES["double_blank"] == (50, 25, 0) and OPTION_RULES["first_turn_stuck"] == "R4.2"
    assert VALUE_LABELS[("double_owner_satisfies", True)] == "Must go on that double"
    assert set(VALUE_LABELS) == {(o.name, v) for o in OPTIONS for v in o.choices}


@pytest.mark.parametrize("rules, ok", [
    # JSON's types: true is not 1, "25" is not 25, 1 is not true.
    ({"double_owner_satisfies": True, "double_blank": 25, "deal": "B"}, True),
    ({"double_owner_satisfies": 1}, False),
    ({"double_blank": True}, False),
    ({"double_blank": "25"}, False),
    ({"double_blank": 25.0}, False),
    ({"deal": "a"}, False),
])
def test_rule_options_from_dict_takes_each_rows_values_only(rules, ok):
    if ok:
        assert RuleOptions.from_dict(rules).to_dict() == {**RuleOptions().to_dict(), **rules}
    else:
        with pytest.raises(BadInput) as err:
            RuleOptions.from_dict(rules)
        assert err.value.field == f"rules.{next(iter(rules))}"


@pytest.mark.parametrize("values, names, expected", [
    # One reader of rule options sent as text (a form, an address): forms, sheets, rulings.
    ({"deal": "B", "double_owner_satisfies": "yes", "double_blank": "25", "other": "x"}, None,
     RuleOptions(deal="B", double_owner_satisfies=True, double_blank=25)),
    ({"double_owner_satisfies": "FALSE", "first_turn": " single "}, None,
     RuleOptions(first_turn="single")),
    ({"double_blank": "", "deal": "  "}, None, RuleOptions()),          # empty: the default
    ({"deal": "B", "first_turn": "single"}, ("first_turn",), RuleOptions(first_turn="single")),
    ({"double_owner_satisfies": True, "double_blank": 0}, None,        # already typed
     RuleOptions(double_owner_satisfies=True, double_blank=0)),
])
def test_rule_options_from_text(values, names, expected):
    given = RuleOptions.from_text(values) if names is None else RuleOptions.from_text(values, names)
    assert given == expected


@pytest.mark.parametrize("values, field", [
    ({"double_blank": "-5"}, "rules.double_blank"),
    ({"double_blank": "٥٠"}, "rules.double_blank"),         # ASCII digits only
    ({"double_owner_satisfies": "maybe"}, "rules.double_owner_satisfies"),
    ({"deal": "C"}, "rules.deal"),
])
def test_rule_options_from_text_refuses_with_the_sentence_of_from_dict(values, field):
    with pytest.raises(BadInput) as err:
        RuleOptions.from_text(values)
    assert err.value.field == field and " must be " in err.value.message
