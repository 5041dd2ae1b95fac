"""Chicken foot at the live table (RULES.md R10): each train drawn with its foot (the
double, then its toes), and a play that says which open end it joins (R10.5), through
the live table's form posts, without JavaScript."""

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scorekeeper.footview import end_choices, split_end_key
from scorekeeper.options import RuleOptions
from scorekeeper.referee import apply, legal_actions, start_round
from tests.test_referee_pages import act, text


@pytest.fixture
def foot_live(client, game_factory):
    gid = game_factory(["Ann", "Bob"], set=6, start_engine=6,
                       rules={"chicken_foot": True})["id"]
    url = f"/games/{gid}/rounds/1/live"
    r = client.post(url + "/start", data={"starter": "0", "tiles_each": "10", "active": "0"})
    assert r.status_code == 302
    return gid, url


def radios(html: str) -> list[str]:
    """The values the play form's train choice offers."""
    return re.findall(r'name="train" value="([^"]+)"', html)


def test_a_double_its_three_toes_and_a_tile_on_a_toe(client, foot_live):
    gid, url = foot_live
    # R10.6: in her first turn Ann builds her train as a tree: 6-3, the 3-3, three toes.
    assert act(client, url, 1, kind="play", tile="6-3", train="0").status_code == 302
    assert act(client, url, 2, kind="play", tile="3-3", train="0").status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert "0@" not in html            # the 3-3 without toes: one open end, the train's key
    assert act(client, url, 3, kind="play", tile="3-1", train="0").status_code == 302
    html = client.get(url).get_data(as_text=True)
    # Two open ends now (R10.5): a new toe on the 3-3, or the end of its first toe.
    assert radios(html)[:2] == ["0@3-3", "0@1-3"]
    page = text(client.get(url))
    assert "on the 3-3: a new toe" in page and "on toe 1 of the 3-3 (ends in 1)" in page
    assert act(client, url, 4, kind="play", tile="3-2", train="0@3-3").status_code == 302
    assert act(client, url, 5, kind="play", tile="3-4", train="0@3-3").status_code == 302
    html = client.get(url).get_data(as_text=True)
    # The foot is full (R10.1): the 3-3 is no longer offered, each toe's end is.
    assert radios(html)[:3] == ["0@1-3", "0@2-3", "0@3-4"]
    assert "Toe 3" in text(client.get(url))
    # A tile on the second toe's end (R10.5).
    assert act(client, url, 6, kind="play", tile="2-5", train="0@2-3").status_code == 302
    page = text(client.get(url))
    assert "on toe 2 of the 3-3 (ends in 5)" in page
    assert "Ann: 3 tiles" in page     # 10 dealt, the engine set, six tiles played
    log = text(client.get(url + "/log"))
    assert "Ann played 2-5 on their own train, on toe 2 of the 3-3 (ends in 2)" in log
    assert "Ann played 2-3 on their own train, on the 3-3: a new toe" in log
    assert "Ann played 1-3 on their own train" in log
    assert "Ann played 1-3 on their own train," not in log     # one open end: none said


def test_a_play_that_names_no_end_is_refused_with_a_sentence(client, foot_live):
    gid, url = foot_live
    for n, (tile, train) in enumerate([("6-3", "0"), ("3-3", "0"), ("3-1", "0")], 1):
        assert act(client, url, n, kind="play", tile=tile, train=train).status_code == 302
    r = act(client, url, 4, kind="play", tile="3-2", train="0")
    assert r.status_code == 400
    assert "That train has several open ends: choose the one the tile goes on (R10.5)." \
        in text(r)
    assert "Ann: 6 tiles" in text(client.get(url))          # nothing stored
    # An end that is no open end of that train: refused too, nothing stored.
    r = act(client, url, 4, kind="play", tile="3-2", train="0@6-3")
    assert r.status_code == 400 and "is not an open end of that train" in text(r)
    r = act(client, url, 4, kind="play", tile="3-2", train="0@x")
    assert r.status_code == 400
    assert "Ann: 6 tiles" in text(client.get(url))


def test_the_ruling_page_during_the_round_offers_the_live_table_s_ends(client, foot_live):
    gid, url = foot_live
    for n, (tile, train) in enumerate([("6-3", "0"), ("3-3", "0"), ("3-1", "0")], 1):
        assert act(client, url, n, kind="play", tile=tile, train=train).status_code == 302
    ruling = f"/games/{gid}/rounds/1/referee?ask=1&tile=3-2"
    r = client.get(ruling + "&train=0")
    assert "That train has several open ends: choose the one the tile goes on (R10.5)." \
        in text(r)
    assert radios(r.get_data(as_text=True))[:2] == ["0@3-3", "0@1-3"]
    verdict = text(client.get(ruling + "&train=0@3-3"))
    assert "LEGAL" in verdict and "NOT LEGAL" not in verdict
    assert "on the 3-3: a new toe" in verdict


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       first_turn=st.sampled_from(["train", "single"]))
def test_every_open_end_the_referee_knows_is_offered_by_its_own_words(seed, players,
                                                                       first_turn):
    """Random rounds under chicken foot (feet on toes included, R10.4): each train with
    several open ends offers exactly the referee's ends (R10.5), each said in its own
    sentence, and each choice read back names that end."""
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Chi", "Dee"][:players]
    options = RuleOptions(chicken_foot=True, first_turn=first_turn)
    state = start_round(9, 9, names, names[0], tiles_each=7, options=options)
    for _step in range(80):
        if state.is_over:
            break
        table = state.table
        for name in table.train_names:
            choices = end_choices(table, name, "k")
            ends = [e.at for e in table.facts.open_ends[name]]
            assert [c.at for c in choices] == (ends if len(ends) > 1 else [])
            assert len({c.label for c in choices}) == len(choices)
            assert all(split_end_key(c.key) == ("k", c.at) for c in choices)
            assert all(c.label != str(c.at) for c in choices)       # never the fallback
        state = apply(state, rng.choice(legal_actions(state)))
