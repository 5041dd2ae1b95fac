"""Chicken foot on the ruling pages (RULES.md R10): a sketched train's last double with
its toes (``toe-k-1`` … ``toe-k-3``), the open end the asked play joins (R10.5), and
"My plays" naming each play's end."""

import re

import pytest

from tests.test_referee_pages import text

# Chi to play; Bob's train ends in the 6-6 with two toes, 6-3 and one ending 1-4 (R10.1),
# and a marker, so Chi may play on it (R5.2).
SKETCH = "current=2&last-0=12-6&last-1=6-6&toe-1-1=6-3&toe-1-2=1-4&mark-1=1"


@pytest.fixture
def foot_game(game_factory):
    return game_factory(["Ann", "Bob", "Chi"], rules={"chicken_foot": True})["id"]


def test_the_sketch_offers_each_toe_and_the_asked_play_names_its_end(client, foot_game):
    url = f"/games/{foot_game}/rounds/1/referee?{SKETCH}"
    page = client.get(url).get_data(as_text=True)
    assert 'name="toe-1-1"' in page and "Toes of its last double" in page
    # Asked without saying which end of Bob's train: refused, and the ends are offered.
    r = client.get(url + "&ask=1&tile=6-9&train=1")
    assert "That train has several open ends: choose the one the tile goes on (R10.5)." \
        in text(r)
    assert re.findall(r'name="train" value="(1@[^"]+)"', r.get_data(as_text=True)) == \
        ["1@6-6", "1@3-6", "1@1-4"]
    assert "on toe 2 of the 6-6 (ends in 4)" in text(r)
    # A third toe on the 6-6: legal, said with its end.
    verdict = text(client.get(url + "&ask=1&tile=6-9&train=1@6-6"))
    assert "LEGAL" in verdict and "NOT LEGAL" not in verdict
    assert "on the 6-6: a new toe" in verdict
    # A tile on a toe's end while the 6-6 is open: not legal (R10.2).
    verdict = text(client.get(url + "&ask=1&tile=4-9&train=1@1-4"))
    assert "NOT LEGAL" in verdict and "R10.2" in verdict


@pytest.mark.parametrize("query,field_sentence", [
    ("current=0&last-0=12-6&toe-0-1=6-3&ask=1&tile=6-9&train=0",
     "Toes go on a double under chicken foot"),                        # no double to hold them
    ("current=0&last-0=12-6&last-1=6-6&toe-1-1=12-6&ask=1&tile=6-9&train=0",
     "is the last tile of two trains"),                                # a tile twice (R3.3)
    ("current=0&last-1=6-6&toe-1-1=x&ask=1&tile=6-9&train=0",
     "Pick the last tile of each train"),
    ("current=1&last-1=6-6&toe-1-1=6-3&played=6-9&played_train=1&ask=1&tile=9-8&train=1",
     "describe that train as it is now (R10.5)"),                     # played on a foot
])
def test_a_foot_that_cannot_be_is_refused_with_a_sentence(client, foot_game, query,
                                                           field_sentence):
    r = client.get(f"/games/{foot_game}/rounds/1/referee?{query}")
    assert r.status_code == 200 and field_sentence in text(r)
    assert "LEGAL" not in text(r).replace("NOT LEGAL", "")


def test_my_plays_names_each_play_s_end(client, foot_game):
    page = text(client.get(f"/games/{foot_game}/rounds/1/referee/plays?go=1&{SKETCH}"
                           "&hand=6-9&hand=4-9"))
    assert "6-9 on the train of Bob · on the 6-6: a new toe" in page
    assert "4-9 on the train of Bob" not in page     # the 6-6 binds first (R10.2)


def test_a_double_is_answered_by_its_three_toes_not_by_a_tick(client, foot_game):
    # R10.1: under chicken foot "Double answered" is not offered; an old link's tick
    # leaves the 6-6 open until it has three toes, so Chi must play a toe on it (R10.2).
    url = f"/games/{foot_game}/rounds/1/referee?current=2&last-1=6-6&mark-1=1"
    page = client.get(url).get_data(as_text=True)
    assert 'name="ans-1"' not in page and "until it has three toes" in page
    verdict = text(client.get(url + "&ans-1=1&ask=1&tile=9-12&train=m"))
    assert "NOT LEGAL" in verdict and "R10.2" in verdict
    three = "&toe-1-1=6-3&toe-1-2=6-4&toe-1-3=6-5"
    verdict = text(client.get(url + three + "&ask=1&tile=9-12&train=m"))
    assert "LEGAL" in verdict and "NOT LEGAL" not in verdict
