"""R8: the order of players, tiebreaks and shared places, with explanations."""

import itertools

from hypothesis import given, settings, strategies as st

from scorekeeper.standings import compute


def places(standings):
    return [(r.player, r.place) for r in standings.rows]


def test_r8_1_lowest_total_wins():
    s = compute(["Ann", "Bob"], [{"Ann": 10, "Bob": 0}, {"Ann": 0, "Bob": 20}])
    assert places(s) == [("Ann", 1), ("Bob", 2)]
    assert s.complete and s.winners == ("Ann",)
    assert s.notes == ()


def test_r8_2_more_zero_rounds_ranks_higher():
    rounds = [{"Ann": 10, "Bob": 0}, {"Ann": 0, "Bob": 5}, {"Ann": 0, "Bob": 5}]
    s = compute(["Bob", "Ann"], rounds)
    assert places(s) == [("Ann", 1), ("Bob", 2)]
    assert s.notes == ("Ann ahead of Bob: more zero rounds, 2 to 1 (R8.2).",)


def test_r8_3_lower_lowest_nonzero_round_ranks_higher():
    rounds = [{"Ann": 0, "Bob": 0}, {"Ann": 4, "Bob": 7}, {"Ann": 11, "Bob": 8}]
    s = compute(["Bob", "Ann"], rounds)
    assert places(s) == [("Ann", 1), ("Bob", 2)]
    assert s.notes == ("Ann ahead of Bob: lower lowest non-zero round, 4 to 7 (R8.3).",)


def test_r8_4_still_equal_share_the_place_and_skip_the_next():
    rounds = [{"A": 5, "B": 5, "C": 0, "D": 9}, {"A": 0, "B": 0, "C": 12, "D": 0}]
    s = compute(["A", "B", "C", "D"], rounds)
    assert places(s) == [("A", 1), ("B", 1), ("D", 3), ("C", 4)]
    assert s.winners == ("A", "B")
    assert "A and B share place 1" in s.notes[0]
    assert [r.to_json() for r in s.rows][0] == {
        "player": "A", "place": 1, "total": 5, "zero_rounds": 1, "lowest_nonzero": 5}


def test_r8_5_in_progress_uses_the_same_order():
    s = compute(["A", "B"], [{"A": 3, "B": 0}, None])
    assert not s.complete
    assert places(s) == [("B", 1), ("A", 2)]
    assert s.rows[0].lowest_nonzero is None  # R8.3: no non-zero round yet


def test_no_round_played_everyone_shares_first():
    s = compute(["A", "B", "C"], [None, None])
    assert [r.place for r in s.rows] == [1, 1, 1]
    assert not s.complete


round_scores = st.integers(0, 60)


@settings(max_examples=80)
@given(st.integers(2, 6).flatmap(
    lambda n: st.lists(st.lists(st.one_of(st.just(0), round_scores), min_size=n, max_size=n),
                       min_size=1, max_size=6)))
def test_property_order_follows_r8_and_ignores_seating(matrix):
    players = [f"P{i}" for i in range(len(matrix[0]))]
    rounds = [dict(zip(players, row)) for row in matrix]
    s = compute(players, rounds)
    key = lambda r: (r.total, -r.zero_rounds,
                     r.lowest_nonzero if r.lowest_nonzero is not None else 10 ** 9)
    # Sorted by R8.1–R8.3; equal keys share a place, and places skip after a share.
    assert [key(r) for r in s.rows] == sorted(key(r) for r in s.rows)
    for i, r in enumerate(s.rows):
        first = next(j for j, o in enumerate(s.rows) if key(o) == key(r))
        assert r.place == first + 1
    # Seating order changes nothing but the order among shared places.
    for perm in itertools.islice(itertools.permutations(players), 4):
        other = compute(list(perm), rounds)
        assert {(r.player, r.place) for r in other.rows} == {(r.player, r.place) for r in s.rows}
    # Totals add up.
    assert sum(r.total for r in s.rows) == sum(sum(row) for row in matrix)


def test_no_tiebreak_is_explained_before_any_round_is_played():
    # Everyone level at 0 with nothing played: R8 has nothing to decide yet.
    s = compute(["Ann", "Bob", "Chi"], [None, None, None])
    assert [r.place for r in s.rows] == [1, 1, 1] and s.notes == ()
