"""The three-way merge of a round two tablets saved at once (merge.merge_scores)."""

import pytest

from scorekeeper.merge import Merge, merge_scores

P = ("Ann", "Bob", "Chi")


def r(a, b, c):
    return {"Ann": a, "Bob": b, "Chi": c}


@pytest.mark.parametrize("base, mine, theirs, expected", [
    # The case: they corrected Ann, I corrected Chi: both kept, nobody asked.
    (r(5, 12, 9), r(5, 12, 8), r(0, 12, 9), Merge(r(0, 12, 8), ("Ann",), ())),
    # Only I changed something: mine as it is.
    (r(5, 12, 9), r(5, 14, 9), r(5, 12, 9), Merge(r(5, 14, 9))),
    # Only they changed something: theirs, and it is said to be theirs.
    (r(5, 12, 9), r(5, 12, 9), r(5, 12, 3), Merge(r(5, 12, 3), ("Chi",), ())),
    # Both changed Bob to the same score: no conflict.
    (r(5, 12, 9), r(5, 21, 9), r(5, 21, 9), Merge(r(5, 21, 9))),
    # Both changed Bob, differently: ask about Bob (mine held meanwhile); Ann merged.
    (r(5, 12, 9), r(5, 21, 9), r(0, 15, 9), Merge(r(0, 21, 9), ("Ann",), ("Bob",))),
    # A round nobody had saved when both started: every different score is asked.
    ({}, r(0, 12, 9), r(0, 15, 7), Merge(r(0, 12, 9), (), ("Bob", "Chi"))),
    # Base unknown (a page that did not send it): every difference is asked.
    (None, r(0, 12, 9), r(0, 15, 9), Merge(r(0, 12, 9), (), ("Bob",))),
    (None, r(0, 12, 9), r(0, 12, 9), Merge(r(0, 12, 9))),
    # The other tablet undid the round's first recording: nothing of theirs to keep.
    (r(5, 12, 9), r(5, 12, 0), None, Merge(r(5, 12, 0))),
])
def test_merge(base, mine, theirs, expected):
    merged = merge_scores(P, base, mine, theirs)
    assert merged == expected
    assert merged.clean == (not expected.conflicts)
