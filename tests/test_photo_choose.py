"""The tile classifier and deciding from both readers (issue 24): the classifier reads
rendered tiles, its probabilities stay within the set, and the decision rules as a table."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from photolab.render import render_scene, sample_style
from scorekeeper.photo import tilenet
from scorekeeper.photo.choose import RULES, Rules, choose, consistent
from scorekeeper.photo.judge import CONFIDENT, Judgement
from scorekeeper.photo.tilenet import Guess
from scorekeeper.tiles import Tile

T = Tile.of


def _box(corners: np.ndarray) -> np.ndarray:
    """A face's corners ordered as the reader's outlines: p0 -> p1 along the long side."""
    pts = np.asarray(corners, np.float64)
    if np.linalg.norm(pts[1] - pts[0]) < np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def test_the_classifier_reads_rendered_tiles():
    style = sample_style(np.random.default_rng(0), "train")
    style.tile, style.face, style.pips = "ivory", (238, 230, 200), "one"
    style.pip_colour = style.divider_colour = (20, 20, 20)
    style.layout, style.background = "app", "wood"
    tiles = [(1, 5), (3, 6), (2, 4), (6, 6), (0, 2), (4, 5)]
    for seed in range(3, 53):       # the first seed whose layout keeps every tile in
        scene = render_scene(np.random.default_rng(seed), 700, 900, tiles=tiles, set_n=6,
                             mode="scatter", tile_w=60, style=style, allow_partial=False)
        placed = [p for p in scene.tiles if p.visible >= 0.99]
        if len(placed) == len(tiles):
            break
    assert len(placed) == len(tiles)
    guesses = tilenet.classify(scene.image, [_box(p.corners) for p in placed], 6)
    right = sum(g.best == T(p.a, p.b) for g, p in zip(guesses, placed))
    assert right >= len(placed) - 1, [(g.tiles[:2], (p.a, p.b)) for g, p in zip(guesses, placed)]
    assert all(g.tile > 0.5 for g in guesses)


def test_guesses_are_tiles_of_the_set_either_way_round():
    out = np.full((1, tilenet.OUTPUTS), -20.0, np.float32)
    out[0, tilenet.LEFT][9] = 10.0             # the left half says 9: beyond a double-6 set
    out[0, tilenet.LEFT][2] = 8.0
    out[0, tilenet.RIGHT][5] = 10.0
    out[0, tilenet.NOT_A_TILE] = -5.0
    (g,) = tilenet.guesses(out, 6)
    assert g.best == T(2, 5) and g.tiles[0][1] > 0.99
    assert all(max(t.low, t.high) <= 6 for t, _ in g.tiles)
    assert g.tile > 0.99
    (g,) = tilenet.guesses(out, 12)
    assert g.best == T(5, 9)


def test_a_crop_is_read_as_it_is_and_mirrored_the_probabilities_averaged():
    x = np.arange(2 * 3 * 4 * 6, dtype=np.uint8).reshape(2, 3, 4, 6)
    v = tilenet.views(x)
    assert v.shape == (2, tilenet.VIEWS, 3, 4, 6) and tilenet.VIEWS == 2
    assert (v[:, 0] == x).all() and (v[:, 1] == x[:, :, ::-1, :]).all()
    # one view sure of 2-5, the other of 2-4: each has half the probability, in either order
    out = np.full((1, 2, tilenet.OUTPUTS), -20.0, np.float32)
    out[0, :, tilenet.LEFT.start + 2] = 10.0
    out[0, 0, tilenet.RIGHT.start + 5] = 10.0
    out[0, 1, tilenet.RIGHT.start + 4] = 10.0
    out[0, 0, tilenet.NOT_A_TILE], out[0, 1, tilenet.NOT_A_TILE] = -10.0, 10.0
    (g,) = tilenet.guesses(out, 6)
    assert {t for t, _ in g.tiles[:2]} == {T(2, 5), T(2, 4)}
    assert abs(g.p(T(2, 5)) - 0.5) < 1e-3 and abs(g.p(T(2, 4)) - 0.5) < 1e-3
    assert abs(g.tile - 0.5) < 1e-3


def _guess(*tiles, tile=0.95):
    return Guess(tuple((T(*t), p) for t, p in tiles), tile)


def _j(conf, *tiles):
    return Judgement(tuple(T(*t) for t in tiles), conf)


# The shipped rules (choose.RULES) as a table: (the blob counts' judgement, the classifier's
# guess, what is decided: (tile first, confident) or None for dropped)
TABLE = [
    ("both agree, the net sure enough (0.6) whatever the blob counts say",
     _j(0.2, (2, 5), (2, 4)), _guess(((2, 5), 0.6), ((2, 4), 0.1)), ((2, 5), True)),
    ("both agree, the net unsure, the blob counts weak", _j(0.2, (2, 5)),
     _guess(((2, 5), 0.55), ((2, 6), 0.3)), ((2, 5), False)),
    ("both agree, each without much confidence: read", _j(0.5, (2, 5)),
     _guess(((2, 5), 0.55), ((2, 6), 0.3)), ((2, 5), True)),
    ("both agree, each at its limit (0.3 and 0.3): read", _j(0.3, (2, 5)),
     _guess(((2, 5), 0.3), ((2, 6), 0.2)), ((2, 5), True)),
    ("both agree, the net under its limit: a question", _j(0.5, (2, 5)),
     _guess(((2, 5), 0.29), ((2, 6), 0.2)), ((2, 5), False)),
    ("the net likes another better but gives the blob counts' tile 0.15, the counts at 0.4: "
     "their tile is read (a 1-12 whose lone pip the net saw as two)", _j(0.4, (1, 12), (3, 12)),
     _guess(((2, 12), 0.65), ((1, 12), 0.15)), ((1, 12), True)),
    ("... the counts under 0.4: a question, the net's tile first", _j(0.39, (1, 12), (3, 12)),
     _guess(((2, 12), 0.65), ((1, 12), 0.29)), ((2, 12), False)),
    ("... the net under 0.15 for their tile: a question, the net's tile first",
     _j(0.75, (0, 0), (0, 1)), _guess(((0, 1), 0.44), ((0, 0), 0.14)), ((0, 1), False)),
    ("both agree, the net at 0.15: a question (the net backs another reading only where it "
     "likes another better)", _j(0.5, (2, 4)), _guess(((2, 4), 0.15), ((4, 4), 0.09)),
     ((2, 4), False)),
    ("... the net very sure of its own tile: the net's", _j(0.75, (0, 0)),
     _guess(((0, 1), 0.85), ((0, 0), 0.15)), ((0, 1), True)),
    ("both agree, the blob counts under their limit: a question", _j(0.29, (2, 5)),
     _guess(((2, 5), 0.55), ((2, 6), 0.3)), ((2, 5), False)),
    ("a face-down tile's printed logo, read 0-4 by both, the blob counts at 0.1: a question",
     _j(0.1, (0, 4), (0, 2)), _guess(((0, 4), 0.49), ((0, 2), 0.15)), ((0, 4), False)),
    ("the net alone, very sure", _j(0.5, (2, 4)), _guess(((2, 5), 0.87)), ((2, 5), True)),
    ("the net alone, not sure enough: a question, its tile first", _j(0.5, (2, 4)),
     _guess(((2, 5), 0.82), ((2, 4), 0.05)), ((2, 5), False)),
    ("a question on what is most likely no tile is still asked (dropping them cost silent "
     "errors on the held-out renders)", _j(0.15, (1, 1)), _guess(((1, 1), 0.3), tile=0.05),
     ((1, 1), False)),
    ("a question on a likely tile stays", _j(0.3, (1, 1)), _guess(((1, 2), 0.3), tile=0.5),
     ((1, 2), False)),
    ("blob counts sure, net agrees", _j(0.9, (3, 3)), _guess(((3, 3), 0.9)), ((3, 3), True)),
    ("blob counts sure, the net gives their tile some chance", _j(0.9, (3, 3)),
     _guess(((3, 4), 0.8), ((3, 3), 0.1)), ((3, 3), True)),
    ("blob counts sure, the net all but rules it out: a question", _j(0.9, (3, 3)),
     _guess(((3, 4), 0.82), ((3, 3), 0.001)), ((3, 4), False)),
    ("blob counts sure, the net gives their tile under 1 in 20: a question", _j(0.9, (3, 3)),
     _guess(((3, 4), 0.6), ((3, 3), 0.04)), ((3, 4), False)),
    ("blob counts sure, the net rules them out but is unsure itself: they stand",
     _j(0.9, (3, 3)), _guess(((3, 4), 0.4), ((2, 4), 0.3), ((3, 3), 0.001)), ((3, 3), True)),
    ("blob counts sure, the net very sure of another", _j(0.9, (3, 3)),
     _guess(((3, 4), 0.99), ((3, 3), 0.001)), ((3, 4), True)),
    ("a confident tile is never dropped as clutter", _j(0.9, (3, 3)),
     _guess(((3, 3), 0.9), tile=0.01), ((3, 3), True)),
]


@pytest.mark.parametrize("name, j, g, want", TABLE, ids=[t[0] for t in TABLE])
def test_choose(name, j, g, want):
    got = choose(j, g, RULES)
    if want is None:
        assert got is None
        return
    tile, sure = want
    assert got is not None and got.candidates[0] == T(*tile)
    assert (got.confidence >= CONFIDENT) == sure
    assert len(set(got.candidates)) == len(got.candidates)


# R3.3 and the round: tiles that cannot be in this hand (the engine, tiles counted in other
# hands) as a table: (the blob counts, the net's guess, the tiles out, what is decided)
ROUND = [
    ("the blob counts read the engine with confidence: a question, its other candidate first",
     _j(0.9, (6, 6), (5, 6)), _guess(((5, 6), 0.6)), {(6, 6)}, ((5, 6), False)),
    ("... a question even where the net is sure of the other (the engine may be in the "
     "photo after all: a tile read instead would carry no mark)", _j(0.9, (6, 6), (5, 6)),
     _guess(((5, 6), 0.99)), {(6, 6)}, ((5, 6), False)),
    ("the blob counts unsure, their second candidate out of the hand: read as usual",
     _j(0.5, (5, 6), (6, 6)), _guess(((5, 6), 0.85)), {(6, 6)}, ((5, 6), True)),
    ("the blob counts' only candidate is counted elsewhere: the net's best stands in",
     _j(0.9, (2, 7)), _guess(((2, 8), 0.5)), {(2, 7)}, ((2, 8), False)),
    ("a tile out of the hand is never offered, not even last", _j(0.15, (1, 4), (1, 3)),
     _guess(((1, 4), 0.5), ((1, 5), 0.2)), {(1, 3)}, ((1, 4), False)),
    ("tiles out of the hand change nothing else", _j(0.9, (3, 3)), _guess(((3, 3), 0.9)),
     {(6, 6), (1, 2)}, ((3, 3), True)),
]


@pytest.mark.parametrize("name, j, g, out, want", ROUND, ids=[t[0] for t in ROUND])
def test_choose_with_the_round(name, j, g, out, want):
    out = frozenset(T(*t) for t in out)
    got = choose(j, g, RULES, out)
    tile, sure = want
    assert got.candidates[0] == T(*tile) and (got.confidence >= CONFIDENT) == sure
    assert not set(got.candidates) & out


def test_every_tile_out_of_the_hand_is_a_question_not_an_error():
    # a round that says every tile of the set is elsewhere (it cannot be, but no input
    # may break the reader): the tile is asked about
    everything = frozenset(T(a, b) for a in range(7) for b in range(a, 7))
    out = np.zeros((1, tilenet.OUTPUTS), np.float32)
    (g,) = tilenet.guesses(out, 6, everything)
    assert g.tiles == ()
    got = choose(_j(0.9, (2, 5)), g, RULES, everything)
    assert got.confidence < CONFIDENT and got.candidates == (T(2, 5),)
    assert consistent([(got, g)]) == [got]


def test_a_tile_is_offered_once_even_when_the_net_is_certain():
    out = np.full((1, tilenet.OUTPUTS), -200.0, np.float32)   # every other tile underflows
    out[0, tilenet.LEFT.start + 2] = out[0, tilenet.RIGHT.start + 5] = 200.0
    (g,) = tilenet.guesses(out, 6, frozenset({T(0, 1), T(1, 2)}))
    tiles = [t for t, _ in g.tiles]
    assert tiles[0] == T(2, 5) and len(set(tiles)) == len(tiles)
    assert not {T(0, 1), T(1, 2)} & set(tiles)


def test_the_net_never_offers_a_tile_out_of_the_hand():
    out = np.full((1, tilenet.OUTPUTS), -20.0, np.float32)
    out[0, tilenet.LEFT][6] = 10.0             # it looks like the 6-6 engine ...
    out[0, tilenet.RIGHT][6] = 10.0
    out[0, tilenet.RIGHT][5] = 6.0             # ... a little like the 5-6
    (g,) = tilenet.guesses(out, 6, frozenset({T(6, 6)}))
    assert T(6, 6) not in [t for t, _ in g.tiles]
    # the 5-6 keeps its own small probability: not raised to fill the engine's place
    assert g.best == T(5, 6) and g.tiles[0][1] < 0.05


def test_questions_on_no_tile_can_be_dropped_in_the_lab():
    rules = Rules(agree=0.8, alone=0.95, not_tile=0.2, veto=0.005, firm=0.5)
    assert choose(_j(0.3, (1, 1)), _guess(((1, 1), 0.3), tile=0.05), rules) is None
    assert choose(_j(0.9, (1, 1)), _guess(((1, 1), 0.9), tile=0.05), rules) is not None


def test_each_tile_exists_once():
    # R3.3, rules that ask: two tiles read as 2-5; the one the net is less sure of becomes a
    # question with its next candidate first; a question and a different tile are left alone
    decided = [(_j(0.9, (2, 5)), _guess(((2, 5), 0.95))),
               (_j(0.9, (2, 5)), _guess(((2, 5), 0.6), ((2, 6), 0.3))),
               (_j(0.5, (2, 5)), _guess(((2, 5), 0.5))),
               (_j(0.9, (1, 1)), _guess(((1, 1), 0.9)))]
    out = consistent(decided, Rules(agree=0.8, alone=0.95, not_tile=0.0, veto=0.005))
    assert out[0] == decided[0][0] and out[2] == decided[2][0] and out[3] == decided[3][0]
    assert out[1].confidence < CONFIDENT and out[1].candidates[0] == T(2, 6)
    assert T(2, 5) in out[1].candidates



def test_a_tile_read_twice_goes_with_the_shipped_rules():
    # R3.3: the reading of 2-5 the net is less sure of goes (round C: no question where no
    # tile is); a question and a different tile are left alone
    decided = [(_j(0.9, (2, 5)), _guess(((2, 5), 0.95))),
               (_j(0.9, (2, 5)), _guess(((2, 5), 0.6), ((2, 6), 0.3))),
               (_j(0.5, (2, 5)), _guess(((2, 5), 0.5))),
               (_j(0.9, (1, 1)), _guess(((1, 1), 0.9)))]
    assert RULES.drop_twice
    out = consistent(decided)
    assert out == [decided[0][0], None, decided[2][0], decided[3][0]]


def test_of_a_tile_read_twice_the_outline_off_its_divider_goes_first():
    # R3.3: an outline across two tiles (its divider off its middle) read as one of them goes,
    # however sure the net is of it; the tile's own outline stays
    decided = [(_j(0.9, (5, 5)), _guess(((5, 5), 0.98))),
               (_j(0.9, (5, 5)), _guess(((5, 5), 0.95))),
               (_j(0.9, (5, 6)), _guess(((5, 6), 0.98)))]
    out = consistent(decided, doubtful=[True, False, False])
    assert out == [None, decided[1][0], decided[2][0]]
    assert consistent(decided) == [decided[0][0], None, decided[2][0]]


# Any round, any net output: the tiles ruled out are never offered, a tile is offered once,
# and deciding never fails (R3.3; no input may break a read).
SIX = [T(a, b) for a in range(7) for b in range(a, 7)]


@settings(max_examples=150, deadline=None)
@given(logits=st.lists(st.floats(-60, 60, width=32), min_size=tilenet.OUTPUTS * 2,
                       max_size=tilenet.OUTPUTS * 2),
       out=st.sets(st.sampled_from(SIX)),
       blob=st.lists(st.sampled_from(SIX), min_size=1, max_size=4, unique=True),
       conf=st.floats(0, 1))
def test_the_round_is_never_offered_and_nothing_breaks(logits, out, blob, conf):
    out = frozenset(out)
    raw = np.asarray(logits, np.float32).reshape(1, 2, tilenet.OUTPUTS)
    (g,) = tilenet.guesses(raw, 6, out)
    offered = [t for t, _ in g.tiles]
    assert not set(offered) & out and len(set(offered)) == len(offered)
    assert all(t.high <= 6 for t in offered) and 0.0 <= g.tile <= 1.0
    got = choose(Judgement(tuple(blob), conf), g, RULES, out)
    assert got is not None and got.candidates
    if blob[0] in out:           # the pip counts read a tile ruled out: always a question
        assert got.confidence < CONFIDENT
    if set(blob) - out or offered:
        assert not set(got.candidates) & out
    assert consistent([(got, g)]) in ([got], [None])


def test_of_a_tile_read_twice_the_reading_the_net_gives_that_tile_least_goes():
    # R3.3: a reading backed by the blob counts (round K: the net gives its tile 0.2, liking
    # another at 0.7) and a plain one (the net gives the same tile 0.6): the backed one
    # goes, although the net is surer of its own best tile there
    backed = (_j(0.9, (2, 5)), _guess(((2, 4), 0.7), ((2, 5), 0.2)))
    plain = (_j(0.9, (2, 5)), _guess(((2, 5), 0.6), ((2, 6), 0.3)))
    assert consistent([backed, plain]) == [None, plain[0]]
    assert consistent([plain, backed]) == [plain[0], None]


def test_the_net_says_its_probability_for_a_tile_it_does_not_offer():
    # R3.3: two readings of 3-4 that the net ranks below six other tiles each are still
    # ranked by what it gives 3-4 (before, both counted 0 and the first read stayed)
    def net_liking(favourites, p34):
        out = np.full((1, tilenet.OUTPUTS), -30.0, np.float32)
        for a in favourites:                   # a-a likelier than 3-4 on each half ...
            out[0, tilenet.LEFT.start + a] = out[0, tilenet.RIGHT.start + a] = 2.0
        out[0, tilenet.LEFT.start + 3] = out[0, tilenet.RIGHT.start + 4] = p34
        return tilenet.guesses(out, 12, frozenset())[0]
    low, high = net_liking(range(7, 11), -1.0), net_liking(range(7, 11), 0.5)
    for g in (low, high):
        assert T(3, 4) not in [t for t, _ in g.tiles] and len(g.tiles) == tilenet.OFFERED
        assert 0.0 < g.p(T(3, 4)) < g.tiles[-1][1]
        assert abs(sum(q for _, q in g.tiles + g.others) - 1.0) < 1e-5
    assert low.p(T(3, 4)) < high.p(T(3, 4))
    first, second = (_j(0.9, (3, 4)), low), (_j(0.9, (3, 4)), high)
    assert consistent([first, second]) == [None, second[0]]
    assert high.p(T(13, 13)) == 0.0           # above the set's top


def test_the_net_vetoes_a_tile_by_its_probability_whether_it_offers_it_or_not():
    # the blob counts read 3-4 with confidence; the net likes 1-1 at 0.55 and six others
    # more than 3-4: it vetoes 3-4 (a question) under RULES.veto, not above it
    top = ((T(1, 1), 0.55),) + tuple((T(2, k), 0.065) for k in range(2, 7))
    for p34, sure in ((0.06, True), (0.04, False)):
        g = Guess(top, 0.95, ((T(3, 4), p34),))
        got = choose(_j(0.9, (3, 4)), g)
        assert (got.confidence >= CONFIDENT) is sure
        assert got.candidates[0] == (T(3, 4) if sure else T(1, 1))
