"""The referee against the rulebook: one line per clause (RULES.md R3–R7, R9 options).

A table is a compact literal: ``"Ann: 12-5 5-5 | Bob*: | Chi: 12-1 | M: 12-3"`` —
players in seating order with their trains from the engine outward, ``*`` for a
marker, ``M`` for the Mexican train.  A play is ``"5-9>Ann"`` (``>M``: Mexican).
Unless a case says otherwise: double-12 set, engine 12-12, Bob to play, later turns.
"""

from __future__ import annotations

import pytest

from scorekeeper.referee import (
    DrawAction, Finish, IllegalMove, InvalidTable, PassAction, Play, PlayAction, RoundState,
    Table, action_from_json, apply, check, grounds, is_legal, legal_actions, legal_plays, replay,
    start_from_json, start_round,
)
from scorekeeper.errors import BadInput
from scorekeeper.options import RuleOptions
from scorekeeper.tiles import Tile


def tile(text: str) -> Tile:
    a, b = text.split("-")
    return Tile.of(int(a), int(b))


def play(text: str) -> Play:
    t, train = text.split(">")
    return Play(tile(t), None if train == "M" else train)


def T(spec: str = "Ann: | Bob: | Chi:", cur: str = "Bob", first: bool = False, turn: str = "",
      drawn: str | None = None, set_n: int = 12, engine: int = 12, **rules) -> Table:
    """A table from its compact literal; it must be a possible table."""
    players, trains, markers, mexican = [], {}, set(), ()
    for part in spec.split("|"):
        head, _, tiles = part.partition(":")
        name = head.strip()
        parsed = tuple(tile(t) for t in tiles.split())
        if name == "M":
            mexican = parsed
            continue
        if name.endswith("*"):
            name = name[:-1]
            markers.add(name)
        players.append(name)
        trains[name] = parsed
    table = Table(set_n, engine, tuple(players), cur, first, trains, mexican, frozenset(markers),
                  tuple(play(p) for p in turn.split()), tile(drawn) if drawn else None,
                  RuleOptions(**rules))
    return table.validate()


# Each case: the table, the play, the codes of every rule it breaks ([] = legal).
CASES = [
    # --- R3 trains and matching
    (T(), "12-3>Bob", []),  # R3.2 first tile shows the engine's number
    (T(), "3-4>Bob", ["no_match"]),  # R3.2 … and only such a tile
    (T("Ann: | Bob: 12-3 3-8 | Chi:"), "8-1>Bob", []),  # R3.2 later tiles match the open end
    (T("Ann: | Bob: 12-3 3-8 | Chi:"), "3-1>Bob", ["no_match"]),  # R3.2 the old end is no longer open
    (T(), "4-12>Bob", []),  # R3.2 either end of the tile may match
    (T(), "12-4>M", []),  # R3.2 an empty Mexican train starts from the engine
    (T(), "4-5>M", ["no_match"]),  # R3.2 … so it needs the engine's number
    (T(), "12-13>Bob", ["not_in_set"]),  # R3.3 13 is above N in a double-12 set
    (T(), "13-14>Bob", ["not_in_set", "no_match"]),  # R3.3 + R3.2 every broken rule is listed
    (T(engine=6, set_n=6), "6-7>Bob", ["not_in_set"]),  # R3.3 double-6: nothing above 6
    (T("Ann: 12-5 | Bob: | Chi:"), "12-5>Bob", ["already_played"]),  # R3.3 a tile exists once
    (T("Ann: | Bob: | Chi: | M: 12-7"), "7-12>Bob", ["already_played"]),  # R3.3 … in any train
    (T(), "12-12>Bob", ["already_played"]),  # R3.3 the engine itself is on the table
    # --- R5.2 / R5.3 where a tile may go (later turns)
    (T("Ann: | Bob: 12-3 | Chi:"), "3-4>Bob", []),  # R5.2 own train, unmarked
    (T("Ann: | Bob*: 12-3 | Chi:"), "3-4>Bob", []),  # R5.2 own train, marked
    (T("Ann: 12-5 | Bob: | Chi:"), "5-6>Ann", ["train_closed"]),  # R5.2 another's train without a marker
    (T("Ann*: 12-5 | Bob: | Chi:"), "5-6>Ann", []),  # R5.2 … with a marker it is open
    (T("Ann: 12-5 | Bob: | Chi:"), "4-6>Ann", ["no_match", "train_closed"]),  # R5.2 + R3.2
    (T("Ann: | Bob: | Chi: | M: 12-7"), "7-1>M", []),  # R5.2 the Mexican train at any time
    (T(), "12-1>M", []),  # R5.3 anyone may start it from the second turn
    # --- R4 the first turn
    (T(first=True), "12-3>Bob", []),  # R4.1 own train
    (T("Ann: | Bob: 12-3 | Chi:", first=True, turn="12-3>Bob"), "3-8>Bob", []),  # R4.1 as many as chain
    (T("Ann: | Bob: 12-3 | Chi:", first=True, turn="12-3>Bob"), "8-9>Bob", ["no_match"]),  # R4.1 … each matching
    (T(first=True), "12-3>M", ["first_turn_own_train"]),  # R4.1 no Mexican train
    (T("Ann*: | Bob: | Chi:", first=True), "12-3>Ann", ["first_turn_own_train"]),  # R4.1 not even a marked train
    (T(first=True), "3-4>Chi", ["no_match", "first_turn_own_train"]),  # R4.1 + R3.2
    (T(first=True, first_turn="single"), "12-3>Bob", []),  # R4.1 single: one tile
    (T("Ann: | Bob: 12-3 | Chi:", first=True, turn="12-3>Bob", first_turn="single"),
     "3-8>Bob", ["one_tile_per_turn"]),  # R4.1 single: exactly one
    (T(first=True, drawn="12-4", first_turn_stuck="draw"), "12-4>Bob", []),  # R4.2 draw: the drawn tile if it matches
    (T(first=True, drawn="12-4", first_turn_stuck="draw"), "12-3>Bob", ["drawn_tile_only"]),  # R4.2 that tile only
    (T(first=True, drawn="3-4", first_turn_stuck="draw"), "3-4>Bob", ["no_match"]),  # R4.2 … if it matches the engine
    (T("Ann: | Bob: 12-4 | Chi:", first=True, drawn="12-4", turn="12-4>Bob", first_turn_stuck="draw"),
     "4-5>Bob", ["one_tile_per_turn"]),  # R4.2 the drawn tile ends the first turn
    (T("Ann: | Bob: 12-4 | Chi:", first=True, turn="12-4>Bob", drawn="4-6", first_turn_stuck="draw"),
     "4-6>Bob", ["drawn_tile_only"]),  # R4.2 draw: only who cannot start draws; no play after it
    (T(first=True, drawn="12-4"), "12-4>Bob", ["drawn_tile_only"]),  # R4.2 marker (A): nobody draws, so no play
    (T("Ann: 12-5 5-5 | Bob: | Chi:", first=True), "12-3>Bob", []),  # R4.3 a first-turn double binds no one
    (T("Ann: | Bob: 12-3 3-3 | Chi:", first=True, turn="12-3>Bob 3-3>Bob"), "3-8>Bob", []),  # R4.3 may go on
    (T("Ann: | Bob: 12-3 3-3 | Chi:", first=True, turn="12-3>Bob 3-3>Bob", first_turn="single"),
     "3-8>Bob", ["one_tile_per_turn"]),  # R4.3 single: a double owes nothing
    (T("Ann: 12-5 5-5 | Bob: | Chi:"), "12-3>Bob", ["open_double"]),  # R6.3 … it binds once the second turn begins
    # --- R5.1 one tile per turn, R5.4 drawing
    (T("Ann: | Bob: 12-3 3-8 | Chi:", turn="3-8>Bob"), "8-1>Bob", ["one_tile_per_turn"]),  # R5.1
    (T("Ann: | Bob: 12-3 | Chi:", turn="12-3>Bob"), "12-1>M", ["one_tile_per_turn"]),  # R5.1 anywhere
    (T("Ann: | Bob: 12-3 | Chi:", drawn="3-9"), "3-9>Bob", []),  # R5.4 the drawn tile may be played
    (T("Ann: | Bob: 12-3 | Chi:", drawn="3-9"), "3-4>Bob", ["drawn_tile_only"]),  # R5.4 that tile only
    (T("Ann: | Bob: 12-3 | Chi:", drawn="9-10"), "9-10>Bob", ["no_match"]),  # R5.4 … if it can be played
    (T("Ann: | Bob: 12-3 3-3 | Chi:", drawn="3-3", turn="3-3>Bob"), "3-5>Bob", []),  # R5.4 a drawn double owes (R6.1)
    # --- R6 doubles
    (T("Ann: | Bob: 12-8 8-8 | Chi:", turn="8-8>Bob"), "8-2>Bob", []),  # R6.1 a tile owed: on the double
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob"), "4-6>M", []),  # R6.1 … or anywhere legal
    (T("Ann: | Bob: 12-8 8-8 | Chi*: 12-1", turn="8-8>Bob"), "1-6>Chi", []),  # R6.1 … a marked train
    (T("Ann: 12-5 | Bob: 12-8 8-8 | Chi:", turn="8-8>Bob"), "5-6>Ann", ["train_closed"]),  # R6.1 … legal only
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4 4-4", turn="8-8>Bob 4-4>M"), "8-1>Bob", []),  # R6.1 double after double
    (T("Ann: | Bob: 12-8 8-8 | Chi:", turn="8-8>Bob", drawn="8-5"), "8-5>Bob", []),  # R6.2 the drawn owed tile
    (T("Ann: | Bob: 12-8 8-8 | Chi:", turn="8-8>Bob", drawn="8-5"), "8-2>Bob", ["drawn_tile_only"]),  # R6.2
    (T("Ann: 12-5 5-5 | Bob: | Chi:"), "5-9>Ann", []),  # R6.3 satisfy it, even on an unmarked train
    (T("Ann: 12-5 5-5 | Bob: | Chi:"), "4-9>Ann", ["no_match"]),  # R6.3 … with a matching tile
    (T("Ann: 12-5 5-5 | Bob: | Chi:"), "12-3>M", ["open_double"]),  # R6.3 … and nowhere else
    (T("Ann: | Bob: | Chi: | M: 12-6 6-6"), "12-3>Bob", ["open_double"]),  # R6.3 anywhere on the table
    (T("Ann: | Bob: 12-4 4-4 | Chi:"), "12-3>M", ["open_double"]),  # R6.3 his own, left open last turn
    (T("Ann: | Bob: | Chi:", drawn="12-3"), "12-3>Bob", []),  # R6.4 no open double: the drawn tile is free
    (T("Ann: 12-5 5-5 | Bob: | Chi:", drawn="5-9"), "5-9>Ann", []),  # R6.4 the drawn tile satisfies it
    (T("Ann: 12-5 5-5 | Bob: | Chi:", drawn="12-3"), "12-3>Bob", ["open_double"]),  # R6.4 … or it may not be played
    (T("Ann: 12-5 5-5 | Bob: | Chi: | M: 12-6 6-6"), "6-1>M", []),  # R6.5 any open double first
    (T("Ann: 12-5 5-5 | Bob: | Chi: | M: 12-6 6-6"), "5-1>Ann", []),  # R6.5 … either one
    (T("Ann: 12-5 5-5 | Bob: | Chi: | M: 12-6 6-6"), "12-3>Bob", ["open_double"]),  # R6.5 bound until none open
    (T("Ann: 12-5 5-5 5-6 | Bob: | Chi: | M: 12-6 6-6", turn="5-6>Ann"), "6-1>M",
     ["one_tile_per_turn"]),  # R6.5 one satisfied, the other waits
    (T("Ann: 12-5 5-5 5-6 | Bob: | Chi: | M: 12-6 6-6", turn="5-6>Ann"), "12-3>Bob",
     ["one_tile_per_turn"]),  # R6.5 duty met: the other binds the following players, not Bob
    (T("Ann: | Bob: 12-3 3-3 | Chi:", turn="3-3>Bob"), "12-4>M", []),  # R6.6 his own double does not bind him
    (T("Ann: 12-5 5-5 | Bob: | Chi: | M: 12-4 4-4", turn="4-4>M"), "4-1>M", ["open_double"]),  # R6.6 an older one does
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob", double_owner_satisfies=True),
     "4-6>M", ["owner_must_satisfy"]),  # R6.7 the owed tile goes on that double
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob", double_owner_satisfies=True),
     "8-6>Bob", []),  # R6.7 … on it, fine
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob", drawn="4-6",
       double_owner_satisfies=True), "4-6>M", ["owner_must_satisfy"]),  # R6.7 the drawn tile too
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob", drawn="8-6",
       double_owner_satisfies=True), "8-6>Bob", []),  # R6.7 … the drawn tile on it
    # --- several rules at once
    (T("Ann: 12-5 5-5 | Bob: 12-3 3-8 | Chi:", turn="3-8>Bob", drawn="3-8"), "12-1>Chi",
     ["train_closed", "open_double", "one_tile_per_turn"]),  # R5.2 + R6.3 + R5.1
]


@pytest.mark.parametrize("table, text, codes", CASES,
                         ids=[f"{i}:{c[1]}" for i, c in enumerate(CASES)])
def test_rulebook(table, text, codes):
    violations = check(table, play(text))
    assert [v.code for v in violations] == codes
    assert is_legal(table, play(text)) is (codes == [])
    # legal_plays is the same check: the play is offered exactly when it is legal
    assert (play(text) in legal_plays(table, [play(text).tile])) is (codes == [])


@pytest.mark.parametrize("table, text, codes", CASES,
                         ids=[f"{i}:{c[1]}" for i, c in enumerate(CASES)])
def test_a_legal_play_has_grounds_an_illegal_one_none(table, text, codes):
    # API.md (Rulings): at least one ground when legal, [] when not; R3.2 always among them.
    said = grounds(table, play(text))
    if codes:
        assert said == []
    else:
        assert said and said[-1].rule == "R3.2"
        assert all(g.message.endswith(".") and g.rule.startswith("R") for g in said)


# Each case: the table, a legal play, the rules its grounds cite, in order.
GROUNDS = [
    (T(), "12-3>Bob", ["R5.2", "R3.2"]),  # R5.2 own train; R3.2 the first tile shows the engine
    (T("Ann: | Bob*: 12-3 | Chi:"), "3-4>Bob", ["R5.2", "R3.2"]),  # R5.2 own train, marked
    (T("Ann*: 12-5 | Bob: | Chi:"), "5-6>Ann", ["R5.2", "R5.5", "R3.2"]),  # R5.2/R5.5 a marked train
    (T(), "12-1>M", ["R5.3", "R3.2"]),  # R5.3 anyone may start the Mexican train
    (T("Ann: | Bob: | Chi: | M: 12-7"), "7-1>M", ["R5.3", "R3.2"]),  # R5.3 … and play on it
    (T(first=True), "12-3>Bob", ["R4.1", "R3.2"]),  # R4.1 the first turn: own train
    (T("Ann: | Bob: 12-3 | Chi:", first=True, turn="12-3>Bob"), "3-8>Bob",
     ["R4.1", "R3.2"]),  # R4.1 as many as chain
    (T(first=True, first_turn="single"), "12-3>Bob", ["R4.1", "R3.2"]),  # R4.1 single
    (T(first=True, drawn="12-4", first_turn_stuck="draw"), "12-4>Bob",
     ["R4.1", "R4.2", "R3.2"]),  # R4.2 draw: the drawn tile that matches
    (T("Ann: 12-5 5-5 | Bob: | Chi:", first=True), "12-3>Bob",
     ["R4.1", "R4.3", "R3.2"]),  # R4.3 a first-turn double binds no one
    (T("Ann: | Bob: 12-3 | Chi:", drawn="3-9"), "3-9>Bob", ["R5.2", "R5.4", "R3.2"]),  # R5.4 drawn
    (T("Ann: | Bob: 12-8 8-8 | Chi:", turn="8-8>Bob"), "8-2>Bob",
     ["R5.2", "R6.1", "R3.2"]),  # R6.1 the tile owed, on the double
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob"), "4-6>M",
     ["R5.3", "R6.1", "R6.6", "R3.2"]),  # R6.1 … anywhere legal: R6.6 his double binds not him
    (T("Ann: | Bob: 12-8 8-8 | Chi:", turn="8-8>Bob", drawn="8-5"), "8-5>Bob",
     ["R5.2", "R6.1", "R6.2", "R3.2"]),  # R6.2 the drawn owed tile
    (T("Ann: 12-5 5-5 | Bob: | Chi:"), "5-9>Ann", ["R6.3", "R3.2"]),  # R6.3 even unmarked
    (T("Ann: | Bob: | Chi: | M: 12-6 6-6"), "6-3>M", ["R5.3", "R6.3", "R3.2"]),  # R6.3 Mexican
    (T("Ann: | Bob: 12-4 4-4 | Chi:"), "4-3>Bob", ["R5.2", "R6.3", "R3.2"]),  # R6.3 his own
    (T("Ann: 12-5 5-5 | Bob: | Chi:", drawn="5-9"), "5-9>Ann",
     ["R6.3", "R6.4", "R3.2"]),  # R6.4 the drawn tile satisfies it
    (T("Ann: 12-5 5-5 | Bob: | Chi: | M: 12-6 6-6"), "5-1>Ann",
     ["R6.3", "R6.5", "R3.2"]),  # R6.5 any open double first
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob", double_owner_satisfies=True),
     "8-6>Bob", ["R5.2", "R6.7", "R3.2"]),  # R6.7 the owed tile on that double
]


@pytest.mark.parametrize("table, text, rules", GROUNDS,
                         ids=[f"{i}:{c[1]}" for i, c in enumerate(GROUNDS)])
def test_grounds_cite_the_rules_that_allow_the_play(table, text, rules):
    assert [g.rule for g in grounds(table, play(text))] == rules


def test_grounds_are_whole_sentences_naming_players_and_tiles():
    said = grounds(T("Ann*: 12-5 | Bob: | Chi:"), play("5-6>Ann"))
    assert [g.to_json() for g in said] == [
        {"rule": "R5.2", "message": "Ann's train carries a marker, so it is open to everyone."},
        {"rule": "R5.5", "message": "The marker stays until Ann plays a tile on their own train."},
        {"rule": "R3.2", "message": "5-6 shows 5, the open end of that train."}]
    (satisfies, _) = grounds(T("Ann: 12-5 5-5 | Bob: | Chi:"), play("5-9>Ann"))
    assert satisfies.message == ("With 5-9, Bob satisfies the open 5-5 on the train of Ann: an "
                                 "open double may be satisfied even on an unmarked train.")
    first = grounds(T(), play("12-3>Bob"))[-1]
    assert first.message == "3-12 shows 12, the engine's number, as the first tile of a train must."


RULE_NUMBERS = [
    (T(), "12-13>Bob", "R3.3"),
    (T(), "3-4>Bob", "R3.2"),
    (T("Ann: 12-5 | Bob: | Chi:"), "5-6>Ann", "R5.2"),
    (T(first=True), "12-3>M", "R4.1"),
    (T("Ann: 12-5 5-5 | Bob: | Chi:"), "12-3>Bob", "R6.3"),
    (T("Ann: | Bob: 12-3 3-8 | Chi:", turn="3-8>Bob"), "8-1>Bob", "R5.1"),
    (T("Ann: | Bob: 12-3 | Chi:", first=True, turn="12-3>Bob", first_turn="single"), "3-8>Bob", "R4.1"),
    (T("Ann: | Bob: 12-3 | Chi:", drawn="3-9"), "3-4>Bob", "R5.4"),
    # API.md ties drawn_tile_only to R5.4 even in the first turn; the sentence names R4.2.
    (T(first=True, drawn="12-4", first_turn_stuck="draw"), "12-3>Bob", "R5.4"),
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob", double_owner_satisfies=True),
     "4-6>M", "R6.7"),
]


@pytest.mark.parametrize("table, text, rule", RULE_NUMBERS)
def test_each_violation_cites_its_rule(table, text, rule):
    (violation,) = check(table, play(text))
    assert violation.rule == rule
    assert violation.to_json() == {"code": violation.code, "rule": rule,
                                   "message": violation.message}


def test_messages_are_sentences_naming_players_and_tiles():
    table = T("Ann: 12-5 5-5 | Bob*: | Chi: 12-1")
    (v,) = check(table, play("9-12>Bob"))
    assert v.message == "Ann's 5-5 is an open double: Bob must play on it first."
    (v,) = check(T("Ann: | Bob: | Chi: | M: 12-6 6-6"), play("12-3>Bob"))
    assert v.message == "The Mexican train's 6-6 is an open double: Bob must play on it first."
    (v,) = check(T("Ann: 12-5 5-5 | Bob: | Chi: | M: 12-6 6-6"), play("12-3>Bob"))
    assert v.message == ("Bob must first play on one of the open doubles: the 5-5 on the train "
                         "of Ann and the 6-6 on the Mexican train.")
    (v,) = check(T("Ann: 12-5 | Bob: | Chi:"), play("5-6>Ann"))
    assert v.message == "The train of Ann has no marker: Bob may not play on it."
    (v,) = check(T(), play("3-4>M"))
    assert v.message == "3-4 does not match the Mexican train, whose open end is 12."


# Each sentence is one whole message: the train named inside it, never glued on after.
SENTENCES = [
    (T(), play("3-4>M"), "3-4 does not match the Mexican train, whose open end is 12."),  # R3.2
    (T("Ann: 12-5 | Bob*: | Chi:"), play("3-4>Bob"),
     "3-4 does not match the train of Bob, whose open end is 12."),  # R3.2
    (T(), Play(Tile(-1, 12), "Bob"), "A tile with the number -1 is not in a double-12 set: "
                                     "numbers run from 0 to 12."),  # R3.3 no "-1-12"
    (T(), play("12-13>Bob"), "12-13 is not in a double-12 set."),  # R3.3
    (T("Ann: 12-5 | Bob: | Chi:"), play("5-12>Bob"), "5-12 is already on the table."),  # R3.3
    (T(), play("12-12>Bob"), "12-12 is the engine: it is already on the table."),  # R3.3
    (T(first=True), play("12-3>M"),
     "In the first turn Bob may only build their own train, not the Mexican train."),  # R4.1
    (T(first=True), play("12-3>Chi"),
     "In the first turn Bob may only build their own train, not the train of Chi."),  # R4.1
    (T("Ann: | Bob: 12-8 8-8 | Chi: | M: 12-4", turn="8-8>Bob", double_owner_satisfies=True),
     play("4-6>M"), "Bob owes a tile on the 8-8 just played on their own train: under this game's "
              "rules it must go on that double."),  # R6.7
    (T("Ann: | Bob: 12-8 | Chi: | M: 12-4 4-4", turn="4-4>M", double_owner_satisfies=True),
     play("8-6>Bob"), "Bob owes a tile on the 4-4 just played on the Mexican train: under this "
                "game's rules it must go on that double."),  # R6.7
    (T("Ann*: 12-4 4-4 | Bob: 12-8 | Chi:", turn="4-4>Ann", double_owner_satisfies=True),
     play("8-6>Bob"), "Bob owes a tile on the 4-4 just played on the train of Ann: under this "
                "game's rules it must go on that double."),  # R6.7
]


@pytest.mark.parametrize("table, p, message", SENTENCES,
                         ids=[f"{i}:{c[1]!r}" for i, c in enumerate(SENTENCES)])
def test_each_violation_is_one_whole_sentence(table, p, message):
    assert message in [v.message for v in check(table, p)]


def test_unknown_train_is_bad_input():
    with pytest.raises(BadInput) as info:
        check(T(), Play(Tile(3, 12), "Dan"))
    assert info.value.field == "play.train"


def test_derived_facts():
    table = T("Ann: 12-5 5-5 | Bob: 12-8 8-8 | Chi: | M: 12-6 6-6", turn="8-8>Bob")
    assert table.open_end("Ann") == 5 and table.open_end("Chi") == 12 and table.open_end(None) == 6
    assert table.open_doubles == {"Ann": tile("5-5"), "Bob": tile("8-8"), None: tile("6-6")}
    assert table.binding_doubles == {"Ann": tile("5-5"), None: tile("6-6")}  # R6.6
    assert table.owed_after == play("8-8>Bob")  # R6.1
    assert not table.turn_over
    assert table.oriented("Ann") == ((12, 5), (5, 5))
    assert tile("12-12") in table.on_table and tile("12-8") in table.on_table
    assert "Bob to play" in repr(table) and repr(play("5-9>Ann")) == "Play(5-9 on Ann)"


def test_legal_plays_are_every_legal_play_of_the_hand():
    table = T("Ann: 12-5 5-5 | Bob*: | Chi: 12-1")
    hand = [tile("5-9"), tile("9-12"), tile("1-2"), tile("5-6"), tile("5-9")]
    assert legal_plays(table, hand) == [play("5-9>Ann"), play("5-6>Ann")]
    table = T("Ann*: 12-5 | Bob: | Chi: 12-1")
    assert legal_plays(table, [tile("12-3"), tile("5-1")]) == [
        play("12-3>Bob"), play("12-3>M"), play("5-1>Ann")]


# --- impossible tables: 400 naming the field -----------------------------------------


def good_table() -> dict:
    return {"set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi"], "current": "Bob",
            "first_turn": False, "trains": {"Ann": [[12, 5], [5, 5]], "Bob": [], "Chi": [[12, 1]]},
            "markers": ["Bob"], "mexican": [], "turn": [], "drawn": None,
            "rules": {"first_turn": "train"}}


def changed(**changes) -> dict:
    data = good_table()
    for key, value in changes.items():
        if "__" in key:
            outer, inner = key.split("__")
            data[outer][inner] = value
        else:
            data[key] = value
    return data


INVALID = [
    (changed(trains__Ann=[[12, 5], [4, 4]]), "table.trains.Ann.1"),  # R3.2 does not chain
    (changed(trains__Chi=[[5, 1]]), "table.trains.Chi.0"),  # R3.2 not from the engine
    (changed(trains__Chi=[[12, 5]]), "table.trains.Chi.0"),  # R3.3 a tile twice
    (changed(mexican=[[12, 1]], trains__Chi=[[12, 1]]), "table.mexican.0"),  # R3.3 twice (Mexican last)
    (changed(trains__Bob=[[12, 12]]), "table.trains.Bob.0"),  # R3.3 the engine in a train
    (changed(trains__Bob=[[12, 13]]), "table.trains.Bob.0"),  # R3.3 above the set
    (changed(trains__Dan=[]), "table.trains.Dan"),  # unknown player's train
    (changed(markers=["Bob", "Dan"]), "table.markers.1"),  # unknown player's marker
    (changed(current="Dan"), "table.current"),  # unknown current player
    (changed(turn=[{"tile": [1, 2], "train": "Chi"}]), "table.turn.0.tile"),  # not in that train
    (changed(turn=[{"tile": [5, 5], "train": "Chi"}]), "table.turn.0.tile"),  # in another train
    (changed(turn=[{"tile": [5, 5], "train": "Dan"}]), "table.turn.0.train"),  # unknown train
    (changed(set=7), "table.set"),  # R1.2 not a set in use
    (changed(set=24), "table.set"),
    (changed(engine=13), "table.engine"),  # R2.1 engine above the set
    (changed(engine=-1), "table.engine"),
    (changed(players=["Ann"], current="Ann", trains={}, markers=[]), "table.players"),  # R1.1 < 2
    (changed(players=[f"P{i}" for i in range(15)], current="P1", trains={}, markers=[]),
     "table.players"),  # R1.1 > 14
    (changed(players=["Ann", "Bob", "Ann"]), "table.players.2"),  # a name twice
    (changed(drawn=[12, 5]), "table.drawn"),  # drawn, yet on the table
    (changed(drawn=[12, 12]), "table.drawn"),  # drawn the engine
]


@pytest.mark.parametrize("data, field", INVALID, ids=[f for _, f in INVALID])
def test_impossible_tables_name_the_field(data, field):
    with pytest.raises(InvalidTable) as info:
        Table.from_json(data)
    assert info.value.field == field
    assert info.value.message.endswith(".")


@pytest.mark.parametrize("data, message", [
    (changed(turn=[{"tile": [1, 2], "train": "Chi"}]),
     "1-2 is listed as played this turn on the train of Chi, but that train does not hold it "
     "(once)."),
    (changed(turn=[{"tile": [1, 2], "train": None}]),
     "1-2 is listed as played this turn on the Mexican train, but that train does not hold it "
     "(once)."),
    (changed(trains__Ann=[[12, 5], [4, 4]]),
     "4-4 does not chain in the train of Ann: the tile before it leaves 5 open (R3.2)."),
    (changed(mexican=[[3, 4]]),
     "3-4 does not chain in the Mexican train: the tile before it leaves 12 open (R3.2)."),
    (changed(drawn=[-1, 3]),
     "A tile with the number -1 is not in a double-12 set: numbers run from 0 to 12 (R3.3)."),
    (changed(players=["Ann"], current="Ann", trains={}, markers=[]),
     "A round has 2 to 14 players (R1.1); 1 was given."),
    (changed(players=[f"P{i}" for i in range(15)], current="P1", trains={}, markers=[]),
     "A round has 2 to 14 players (R1.1); 15 were given."),
])
def test_impossible_tables_are_said_in_whole_sentences(data, message):
    with pytest.raises(InvalidTable) as info:
        Table.from_json(data)
    assert info.value.message == message


UNPARSEABLE = [
    ([], "table"),
    (changed(set="12"), "table.set"),
    (changed(engine=None), "table.engine"),
    (changed(players="Ann,Bob"), "table.players"),
    (changed(players=["Ann", 3]), "table.players.1"),
    (changed(current=None), "table.current"),
    (changed(trains=[[12, 5]]), "table.trains"),
    (changed(trains__Ann=[[12]]), "table.trains.Ann.0"),
    (changed(trains__Ann=[[12, "5"]]), "table.trains.Ann.0"),
    (changed(trains__Ann="12-5"), "table.trains.Ann"),
    (changed(mexican=[[True, 12]]), "table.mexican.0"),
    (changed(markers="Bob"), "table.markers"),
    (changed(turn=[{"tile": [12, 5]}]), "table.turn.0.train"),
    (changed(turn=["12-5"]), "table.turn.0"),
    (changed(first_turn="no"), "table.first_turn"),
    (changed(drawn=[1, 2, 3]), "table.drawn"),
    (changed(rules={"first_turn": "all"}), "table.rules.first_turn"),
    (changed(rules={"speed": 1}), "table.rules.speed"),
]


@pytest.mark.parametrize("data, field", UNPARSEABLE, ids=[f for _, f in UNPARSEABLE])
def test_unparseable_tables_are_bad_input(data, field):
    with pytest.raises(BadInput) as info:
        Table.from_json(data)
    assert not isinstance(info.value, InvalidTable)
    assert info.value.field == field


def test_table_json_round_trip_and_defaults():
    table = Table.from_json(good_table())
    assert Table.from_json(table.to_json()) == table
    assert hash(Table.from_json(table.to_json())) == hash(table)
    minimal = Table.from_json({"set": 12, "engine": 12, "players": ["Ann", "Bob"],
                               "current": "Ann"})
    assert minimal.trains == {"Ann": (), "Bob": ()} and minimal.mexican == ()
    assert minimal.options == RuleOptions() and minimal.first_turn is False


def test_play_from_json():
    table = Table.from_json(good_table())
    assert Play.from_json({"tile": [9, 5], "train": "Ann"}, table) == Play(Tile(5, 9), "Ann")
    assert Play.from_json({"tile": [9, 5], "train": None}, table) == Play(Tile(5, 9), None)
    for data, field in [({"tile": [9, 5], "train": "Dan"}, "play.train"),
                        ({"tile": [9, 5]}, "play.train"),
                        ({"tile": [9, 5], "train": 3}, "play.train"),
                        ({"train": "Ann"}, "play.tile"), ({"tile": 5, "train": "Ann"}, "play.tile"),
                        ("5-9", "play")]:
        with pytest.raises(BadInput) as info:
            Play.from_json(data, table)
        assert info.value.field == field


# --- live play: apply() keeps the turn order, markers and the round's end -------------


def state(spec="Ann: | Bob: | Chi:", cur="Bob", hands=(5, 5, 5), boneyard=None, first=False,
          starter="Ann", passes=0, **rules) -> RoundState:
    table = T(spec, cur=cur, first=first, **rules)
    counts = dict(zip(table.players, hands))
    if boneyard is None:
        boneyard = 91 - sum(hands) - len(table.on_table)
    st = RoundState(table, starter, counts, boneyard, passes=passes)
    return RoundState.from_json(st.to_json())  # a consistent state


def run(st: RoundState, *actions: str) -> RoundState:
    """Apply actions written "5-9>Ann", "draw", "draw 3-4", "pass"."""
    for text in actions:
        if text == "pass":
            st = apply(st, PassAction())
        elif text.startswith("draw"):
            rest = text[4:].strip()
            st = apply(st, DrawAction(tile(rest) if rest else None))
        else:
            p = play(text)
            st = apply(st, PlayAction(p.tile, p.train))
    return st


def refused(st: RoundState, text: str) -> list[str]:
    with pytest.raises(IllegalMove) as info:
        run(st, text)
    return [v.code for v in info.value.violations]


def test_r3_3_a_draw_says_the_same_rule_as_a_play():
    # One R3.3 check (rules.tile_violation) for plays and draws; a draw says where from.
    st = state("Ann: 12-5 | Bob: | Chi:")
    for text, code, message in [
            ("draw 5-12", "already_played",
             "5-12 is already on the table, so it cannot come from the boneyard."),
            ("draw 12-12", "already_played",
             "12-12 is already on the table, so it cannot come from the boneyard."),
            ("draw 3-13", "not_in_set", "3-13 is not in a double-12 set.")]:
        with pytest.raises(IllegalMove) as info:
            run(st, text)
        assert [(v.code, v.rule, v.message) for v in info.value.violations] == [
            (code, "R3.3", message)]


def test_r5_1_a_plain_tile_ends_the_turn():
    st = run(state(), "12-3>Bob")
    assert st.current == "Chi" and st.hands["Bob"] == 4 and st.table.turn == ()


def test_r6_1_a_double_owes_another_tile_then_the_turn_passes():
    st = run(state("Ann: | Bob: 12-3 | Chi:"), "3-3>Bob")
    assert st.current == "Bob" and st.table.owed_after == play("3-3>Bob")
    st = run(st, "12-4>M")
    assert st.current == "Chi"
    assert st.table.binding_doubles == {"Bob": tile("3-3")}  # R6.3 Chi must satisfy it


def test_r6_2_owed_tile_not_played_draw_then_marker():
    st = run(state("Ann: | Bob: 12-3 | Chi:"), "3-3>Bob")
    assert refused(st, "pass") == ["must_draw"]  # R6.2 draw first
    st = run(st, "draw 7-9", "pass")
    assert st.current == "Chi" and "Bob" in st.table.markers and st.hands["Bob"] == 5


def test_r5_4_draw_play_the_drawn_tile_only():
    st = run(state(), "draw 12-9")
    assert st.boneyard == state().boneyard - 1 and st.hands["Bob"] == 6
    assert refused(st, "12-3>Bob") == ["drawn_tile_only"]
    assert refused(st, "draw") == ["already_drew"]
    st = run(st, "12-9>M")
    assert st.current == "Chi" and st.hands["Bob"] == 5


def test_r5_4_secret_draw_the_next_play_is_the_drawn_tile():
    st = run(state(), "draw")
    assert st.drew and st.table.drawn is None
    st2 = run(st, "12-9>Bob")
    assert st2.current == "Chi"
    # the secret tile must still be legal where it goes
    assert refused(st, "3-9>Bob") == ["no_match"]


def test_r5_4_empty_boneyard_marker_and_pass():
    st = state(hands=(30, 30, 30), boneyard=0)
    assert refused(st, "draw") == ["boneyard_empty"]
    st = run(st, "pass")
    assert st.current == "Chi" and "Bob" in st.table.markers


def test_r5_5_marker_comes_off_when_the_owner_plays_on_it():
    st = state("Ann: | Bob*: 12-3 | Chi:")
    assert run(st, "12-4>M").table.markers == {"Bob"}  # elsewhere: stays
    assert run(st, "3-4>Bob").table.markers == frozenset()  # own train: off


def test_r7_1_going_out_ends_the_round_even_on_a_double():
    st = state("Ann: | Bob: 12-3 | Chi:", hands=(5, 1, 5))
    out = run(st, "3-3>Bob")
    assert out.finished is Finish.OUT and out.went_out == ("Bob",) and out.hands["Bob"] == 0
    assert refused(out, "12-4>M") == ["round_over"]
    assert legal_actions(out) == []


def test_r7_2_blocked_when_every_player_passes_with_an_empty_boneyard():
    st = state(hands=(30, 30, 30), boneyard=0)
    st = run(st, "pass", "pass", "pass")  # R7.2 each pass placed a new marker: not blocked yet
    assert st.finished is None and st.table.markers == {"Ann", "Bob", "Chi"}
    st = run(st, "pass", "pass")
    assert st.finished is None and st.passes == 2
    st = run(st, "pass")  # R7.2 a whole cycle of passes on an unchanged table
    assert st.finished is Finish.BLOCKED
    # a play in between starts the count again
    st = run(state("Ann*: | Bob*: | Chi*:", hands=(30, 30, 30), boneyard=0),
             "pass", "pass", "12-1>Ann", "pass", "pass")
    assert st.finished is None and st.passes == 2


def test_r7_2_a_new_marker_gives_the_players_who_passed_another_look():
    # R7.2 Bob holds 0-1 but nothing fits while Ann's train is unmarked; Bob passes (a marker),
    # Ann passes (a marker on her train): now Bob can play 0-1 on Ann's train.
    table = T("Ann: 2-3 3-4 4-0 0-6 6-3 3-3 3-5 5-0 | Bob: 2-0 0-3 | M: 2-1 1-3",
              set_n=6, engine=2)
    st = RoundState(table, "Ann", {"Ann": 5, "Bob": 10}, 0)
    st = RoundState.from_json(st.to_json())  # the 28 tiles add up
    st = run(st, "pass", "pass")
    assert st.finished is None and st.current == "Bob" and st.table.markers == {"Ann", "Bob"}
    assert st.passes == 0
    after = run(st, "0-1>Ann")
    assert after.table.trains["Ann"][-1] == tile("0-1") and after.current == "Ann"
    # Had Bob nothing to play either: two more passes on the unchanged table block the round.
    assert run(st, "pass").finished is None
    assert run(st, "pass", "pass").finished is Finish.BLOCKED


def test_r4_1_first_turn_builds_a_train_then_ends_by_passing():
    st = state(first=True, cur="Ann", starter="Ann")
    st = run(st, "12-3>Ann", "3-3>Ann", "3-8>Ann")
    assert st.current == "Ann" and st.hands["Ann"] == 2
    st = run(st, "pass")
    assert st.current == "Bob" and "Ann" not in st.table.markers  # a built train: no marker
    assert st.table.first_turn


def test_r4_1_single_one_tile_ends_the_first_turn():
    st = run(state(first=True, cur="Ann", starter="Ann", first_turn="single"), "12-3>Ann")
    assert st.current == "Bob"


def test_r4_2_stuck_marker_no_draw():
    st = state(first=True, cur="Ann", starter="Ann")
    assert refused(st, "draw") == ["no_draw_first_turn"]
    st = run(st, "pass")
    assert st.current == "Bob" and st.table.markers == {"Ann"} and st.hands["Ann"] == 5


def test_r4_2_stuck_draw_option():
    st = state(first=True, cur="Ann", starter="Ann", first_turn_stuck="draw")
    assert refused(st, "pass") == ["must_draw"]
    st = run(st, "draw 12-4")
    assert refused(st, "12-4>M") == ["first_turn_own_train"]
    after = run(st, "12-4>Ann")
    assert after.current == "Bob" and after.hands["Ann"] == 5  # the drawn tile ends the turn
    marked = run(st, "pass")
    assert marked.current == "Bob" and marked.table.markers == {"Ann"}
    started = run(state(first=True, cur="Ann", starter="Ann", first_turn_stuck="draw"), "12-4>Ann")
    assert refused(started, "draw") == ["no_draw_first_turn"]


def test_r4_3_first_turn_ends_after_everyone_then_doubles_bind():
    st = state(first=True, cur="Ann", starter="Ann")
    st = run(st, "12-5>Ann", "5-5>Ann", "pass")  # R4.3 no tile owed
    assert st.current == "Bob" and st.table.binding_doubles == {}
    st = run(st, "12-3>Bob", "pass", "pass")
    assert st.current == "Ann" and not st.table.first_turn
    assert st.table.binding_doubles == {"Ann": tile("5-5")}  # R6.3 from the second turn
    assert refused(st, "12-4>M") == ["open_double"]


def test_r4_4_going_out_in_the_first_turn_waits_for_everyone():
    st = state(first=True, cur="Ann", starter="Ann", hands=(2, 1, 5))
    st = run(st, "12-5>Ann", "5-6>Ann")
    assert st.went_out == ("Ann",) and st.finished is None and st.current == "Bob"
    st = run(st, "12-3>Bob")  # several may go out
    assert st.went_out == ("Ann", "Bob") and st.finished is None and st.current == "Chi"
    st = run(st, "pass")
    assert st.finished is Finish.OUT


def test_r6_4_cannot_satisfy_draw_then_marker_and_the_duty_passes():
    st = state("Ann: 12-5 5-5 | Bob: | Chi:")
    assert refused(st, "pass") == ["must_draw"]
    st = run(st, "draw 1-2", "pass")
    assert st.current == "Chi" and "Bob" in st.table.markers
    assert st.table.binding_doubles == {"Ann": tile("5-5")}


def test_override_applies_what_the_table_accepted_but_not_the_impossible():
    st = state("Ann: 12-5 | Bob: | Chi:")
    assert refused(st, "5-6>Ann") == ["train_closed"]
    after = apply(st, PlayAction(tile("5-6"), "Ann", override=True))
    assert after.table.trains["Ann"] == (tile("12-5"), tile("5-6"))
    with pytest.raises(IllegalMove) as info:
        apply(st, PlayAction(tile("4-6"), "Ann", override=True))
    assert [v.code for v in info.value.violations] == ["no_match"]


def test_start_round_counts_hands_and_boneyard():
    st = start_round(12, 12, ["Ann", "Bob", "Chi", "Dee"], "Bob")  # R1.3: 15 each
    assert st.hands == {"Ann": 15, "Bob": 14, "Chi": 15, "Dee": 15}  # R2.2 Bob set the engine
    assert st.boneyard == 91 - 60 and st.table.first_turn and st.current == "Bob"
    drew = start_round(12, 12, ["Ann", "Bob"], "Bob", 15, draws={"Ann": 1, "Bob": 2})
    assert drew.hands == {"Ann": 16, "Bob": 16} and drew.boneyard == 91 - 33
    aside = start_round(12, 12, ["Ann", "Bob"], "Ann", 15,
                        RuleOptions(starter="highest_draw"))
    assert aside.hands == {"Ann": 15, "Bob": 15} and aside.boneyard == 90 - 30
    with pytest.raises(BadInput) as info:
        start_round(12, 12, ["Ann", "Bob"], "Dan")
    assert info.value.field == "start.starter"
    with pytest.raises(BadInput):
        start_round(6, 6, ["Ann", "Bob", "Chi", "Dee"], "Ann", 8)  # R1.4 does not fit


def test_state_and_actions_json_and_replay():
    start = {"set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi"], "starter": "Ann",
             "tiles_each": 10}
    log = [{"type": "play", "tile": [12, 5], "train": "Ann"},
           {"type": "play", "tile": [5, 5], "train": "Ann"},
           {"type": "pass"},
           {"type": "pass"},
           {"type": "play", "tile": [12, 1], "train": "Chi"},
           {"type": "pass"},
           {"type": "draw", "tile": None},
           {"type": "play", "tile": [3, 4], "train": None, "override": True}]
    with pytest.raises(IllegalMove) as info:
        replay(start, log)
    assert info.value.index == 7  # no_match cannot be overridden
    final = replay(start, log[:7])
    assert final.current == "Ann" and final.drew and final.hands["Ann"] == 8
    assert RoundState.from_json(final.to_json()) == final
    for action in (PlayAction(tile("5-9"), None, True), DrawAction(tile("1-2")), DrawAction(),
                   PassAction()):
        assert action_from_json(action.to_json()) == action
    assert start_from_json(start) == replay(start, [])
    with pytest.raises(BadInput) as info:
        action_from_json({"type": "jump"}, "actions.3")
    assert info.value.field == "actions.3.type"


def test_state_from_json_refuses_tiles_that_do_not_add_up():
    data = state().to_json()
    data["boneyard"] += 1
    with pytest.raises(InvalidTable) as info:
        RoundState.from_json(data)
    assert info.value.field == "state.boneyard"


def test_legal_actions_follow_apply():
    st = state("Ann: 12-5 5-5 | Bob: | Chi:")
    actions = legal_actions(st, [tile("5-9"), tile("12-3")])
    assert actions == [PlayAction(tile("5-9"), "Ann"), DrawAction()]
    everything = legal_actions(st)  # unknown hand: any unplayed tile
    assert {a.tile for a in everything if isinstance(a, PlayAction)} == {
        Tile.of(5, n) for n in range(13) if n not in (5, 12)}
