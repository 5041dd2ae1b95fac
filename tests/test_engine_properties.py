"""Properties of the referee over random rounds and random hands (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.referee import (
    DrawAction, Finish, IllegalMove, PassAction, PlayAction, RoundState, Table, apply,
    legal_actions, legal_plays, plan_train, replay, start_round,
)
from scorekeeper.options import CHOICES, RuleOptions, deal_for
from scorekeeper.tiles import Tile, full_set, set_size

#: For the properties that play whole rounds: each example is a round of some sixty actions,
#: every one checked against the referee and the stored state (about 0.1 s an example), so
#: 30 rounds check some 2,000 positions; more is for a long run, not for every suite.
ROUNDS = settings(max_examples=30, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])

options_st = st.builds(
    RuleOptions,
    first_turn=st.sampled_from(["train", "single"]),
    first_turn_stuck=st.sampled_from(["marker", "draw"]),
    double_owner_satisfies=st.booleans(),
)


def deal(rng: random.Random, set_n: int, players: list[str], each: int, engine: int):
    """Shuffle, deal, and draw in turn until the engine turns up (R2.2)."""
    tiles = list(full_set(set_n))
    rng.shuffle(tiles)
    hands = {p: [tiles.pop() for _ in range(each)] for p in players}
    engine_tile = Tile.double(engine)
    draws = {p: 0 for p in players}
    holder = next((p for p in players if engine_tile in hands[p]), None)
    i = 0
    while holder is None:
        p = players[i % len(players)]
        t = tiles.pop()
        hands[p].append(t)
        draws[p] += 1
        if t == engine_tile:
            holder = p
        i += 1
    hands[holder].remove(engine_tile)
    return hands, tiles, holder, draws


def assert_consistent(state: RoundState, hands: dict, boneyard: list) -> None:
    """The mirrored state is a possible one and matches the real table."""
    table = state.table
    assert Table.from_json(table.to_json()) == table            # never an invalid table
    assert RoundState.from_json(state.to_json()) == state       # tiles add up to the set
    assert state.hands == {p: len(h) for p, h in hands.items()}
    assert state.boneyard == len(boneyard)


@ROUNDS
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5),
       set_n=st.sampled_from([6, 9, 9, 12]), options=options_st, secret=st.booleans())
def test_random_rounds_stay_valid_and_end(seed, players, set_n, options, secret):
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    each = {6: 5, 9: 8, 12: 10}[set_n] if players <= 3 else {6: 4, 9: 7, 12: 9}[set_n]
    engine = rng.randint(0, set_n)
    hands, boneyard, holder, draws = deal(rng, set_n, names, each, engine)
    start = start_round(set_n, engine, names, holder, each, options, draws=draws)
    state = start
    log = []
    drawn_secret = None
    assert_consistent(state, hands, boneyard)
    for _step in range(2000):
        if state.finished is not None:
            break
        player = state.current
        hand = hands[player]
        actions = legal_actions(state, hand)
        plays = [a for a in actions if isinstance(a, PlayAction)]
        if state.drew and drawn_secret is not None:
            # after a secret draw only the drawn tile may be played: the scorekeeper cannot
            # tell, so the player keeps to the rule
            plays = [a for a in plays if a.tile == drawn_secret]
        # every play apply accepts is one legal_actions offered, and vice versa
        probe = PlayAction(rng.choice(hand), rng.choice(state.table.train_names)) if hand else None
        if probe is not None and not (state.drew and drawn_secret is not None):
            try:
                apply(state, probe)
                assert probe in plays
            except IllegalMove:
                assert probe not in plays
        if not state.drew or state.table.drawn is not None:
            assert [a for a in actions if isinstance(a, PlayAction)] == [
                PlayAction(p.tile, p.train) for p in legal_plays(state.ruling_table(), hand)]
        if plays and rng.random() < 0.9:
            action = rng.choice(plays)
            hand.remove(action.tile)
            drawn_secret = None
        elif DrawAction() in actions:
            tile = boneyard.pop()
            hand.append(tile)
            action = DrawAction(None if secret else tile)
            drawn_secret = tile if secret else None
        else:
            action = PassAction()
            drawn_secret = None
            assert action in actions
        state = apply(state, action)
        log.append(action.to_json())
        assert_consistent(state, hands, boneyard)
    assert state.finished is not None, "the round never ended"
    if state.finished is Finish.OUT:
        assert state.went_out and all(not hands[p] for p in state.went_out)
    else:
        assert not boneyard and state.passes == players
    # the move log, stored as JSON, replays to the same state
    assert replay({"set": set_n, "engine": engine, "players": names, "starter": holder,
                   "tiles_each": each, "rules": options.to_dict(), "draws": draws}, log) == state


def brute_force(engine: int, hand: list[Tile]) -> tuple[int, int]:
    """Most tiles, then most pips, over every train from the engine (no cleverness)."""
    best = (0, 0)

    def grow(end, left, count, pips):
        nonlocal best
        best = max(best, (count, pips))
        for i, t in enumerate(left):
            if t.has(end):
                grow(t.other(end), left[:i] + left[i + 1:], count + 1, pips + t.pips)

    grow(engine, hand, 0, 0)
    return best


@settings(max_examples=100, deadline=None)
@given(data=st.data(), set_n=st.sampled_from([6, 9, 12]))
def test_planner_equals_brute_force(data, set_n):
    engine = data.draw(st.integers(0, set_n))
    pool = [t for t in full_set(set_n) if t != Tile.double(engine)]
    hand = data.draw(st.lists(st.sampled_from(pool), max_size=8, unique=True))
    plan = plan_train(set_n, engine, hand)
    assert (plan.tiles, plan.pips) == brute_force(engine, hand)
    # the train is a real train from the engine, made of the hand's tiles, each once
    end, used = engine, []
    for a, b in plan.train:
        assert a == end
        used.append(Tile.of(a, b))
        end = b
    assert len(set(used)) == len(used) and set(used) <= set(hand)
    assert sorted(plan.left) == sorted(set(hand) - set(used))
    assert plan.left_pips == sum(t.pips for t in plan.left)


# --- R7.2: honest players, real hands -------------------------------------------------

every_option = st.builds(
    RuleOptions, **{name: st.sampled_from(values) for name, values in CHOICES.items()})


def deal_round(rng: random.Random, set_n: int, names: list[str], each: int, engine: int,
               options: RuleOptions):
    """Real hands and the boneyard in draw order (last tile drawn first), and the starter.

    R2.2: the engine's holder starts, after drawing in turn until it turns up.  R2.3
    (highest_draw): the engine is set aside first; whoever draws highest starts (chance:
    any player) and the drawn tiles go back.
    """
    if options.starter == "engine_holder":
        return deal(rng, set_n, names, each, engine)
    tiles = [t for t in full_set(set_n) if t != Tile.double(engine)]
    rng.shuffle(tiles)
    hands = {p: [tiles.pop() for _ in range(each)] for p in names}
    return hands, tiles, rng.choice(names), None


def honest_choice(rng: random.Random, state: RoundState, hand: list[Tile],
                  drawn_secret: Tile | None):
    """What a player who knows their hand does: a legal play, else draw, else pass.

    Now and then they draw although they could play (R5.4 "or does not"), but never the
    last tile of the boneyard: a pass with it empty must mean they had no play (R7.2);
    and in the first turn they may stop building their train (R4.1).
    """
    actions = legal_actions(state, hand)
    plays = [a for a in actions if isinstance(a, PlayAction)]
    if state.drew and drawn_secret is not None:
        plays = [a for a in plays if a.tile == drawn_secret]  # the secret tile is the drawn one
    can_draw, can_pass = DrawAction() in actions, PassAction() in actions
    if plays:
        r = rng.random()
        if can_draw and state.boneyard >= 2 and r < 0.05:
            return DrawAction()
        if state.table.first_turn and state.table.turn and can_pass and r < 0.15:
            return PassAction()
        return rng.choice(plays)
    if can_draw:
        return DrawAction()
    assert can_pass, f"{state.current} can neither play, draw nor pass: {state!r}"
    return PassAction()


@settings(ROUNDS, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       set_n=st.sampled_from([6, 9, 12]), options=every_option, secret=st.booleans(),
       data=st.data())
def test_r7_2_honest_rounds_end_and_a_blocked_round_leaves_nobody_a_play(
        seed, players, set_n, options, secret, data):
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    engine = rng.randint(0, set_n)
    # Up to the deal table's hand (R1.3), always leaving a boneyard; small hands end rounds
    # by going out, big ones empty the boneyard and block them.
    top = min(deal_for(set_n, players, options).tiles_each, (set_size(set_n) - 2) // players)
    each = data.draw(st.integers(1, top), label="tiles each")
    hands, boneyard, starter, draws = deal_round(rng, set_n, names, each, engine, options)
    state = start_round(set_n, engine, names, starter, each, options, draws=draws)
    whole_set = sorted(full_set(set_n))
    drawn_secret = None
    # Bounded: every play or draw uses up a tile, and between two of them at most every
    # player passes twice (once placing a new marker, once more on the unchanged table).
    limit = 2 * set_size(set_n) * (2 * players + 1)
    for _step in range(limit):
        if state.finished is not None:
            break
        hand = hands[state.current]
        action = honest_choice(rng, state, hand, drawn_secret)
        drawn_secret = None
        if isinstance(action, PlayAction):
            hand.remove(action.tile)
        elif isinstance(action, DrawAction):
            tile = boneyard.pop()  # the real next tile
            hand.append(tile)
            drawn_secret = tile if secret else None
            action = DrawAction(None if secret else tile)
        state = apply(state, action)
        # Each tile is somewhere, once: in a hand, in the boneyard or on the table.
        assert sorted([t for h in hands.values() for t in h] + boneyard
                      + list(state.table.on_table)) == whole_set
        assert state.hands == {p: len(h) for p, h in hands.items()}
        assert state.boneyard == len(boneyard)
    assert state.finished is not None, f"the round did not end in {limit} steps"
    event(f"round {state.finished.value}")
    if state.finished is Finish.OUT:
        assert state.went_out and all(not hands[p] for p in state.went_out)  # R7.1, R4.4
    else:
        # R7.2: blocked means nobody can play any tile of their hand on the table as it is.
        assert not boneyard
        for p in names:
            as_if_theirs = state.table.replace(current=p, turn=(), drawn=None)
            assert legal_plays(as_if_theirs, hands[p]) == [], f"{p} could still play"
