"""A club's records in a browser (Debian's Chromium via Playwright): a season made with
its form and ranked both ways on a tablet, a player's page on a phone, the last table
seated again, and a season's TV board following a save."""

import re
import time

import pytest
from helpers import api, create_game

pytestmark = pytest.mark.browser

NAMES = ["Nguyễn Văn An", "Γιώργος", "สมชาย"]


def finished(base, rows):
    """A game of NAMES with one round per row (engines down to 0), every round scored."""
    return create_game(base, NAMES, scores=rows, finished=True)["id"]


@pytest.fixture
def tablet(browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    yield context.new_page()
    context.close()


def rows(page):
    return [t.strip() for t in page.locator(".season-table tbody:not(.unranked) td.name")
            .all_text_contents()]


def test_a_season_made_with_the_form_and_ranked_both_ways(live_server, tablet):
    # An wins two games with high totals; Γιώργος wins one with a low average.
    finished(live_server, [[0, 5, 9], [0, 5, 9]])           # An 0, Γ 10, ส 18
    finished(live_server, [[10, 12, 30], [10, 15, 30]])     # An 20, Γ 27, ส 60
    finished(live_server, [[40, 0, 30], [40, 0, 30]])       # Γ 0 wins; An 80
    tablet.goto(live_server + "/")
    tablet.click("nav >> text=Seasons")
    tablet.fill("#name", "Autumn 2026")
    tablet.fill("#start", "2000-01-01")
    tablet.fill("#end", "2100-12-31")
    tablet.click("text=Create season")
    tablet.wait_for_url(re.compile(r"/seasons/[0-9a-f]+$"))
    # By wins: An (2 wins) before Γιώργος (1) before สมชาย (0).
    assert rows(tablet) == NAMES
    # By average: Γιώργος 37/6 = 6.17, An 100/6 = 16.67, สมชาย 117/6 = 19.50.
    tablet.click("text=By average per round")
    tablet.wait_for_url(re.compile(r"rank_by=average"))
    assert rows(tablet) == ["Γιώργος", "Nguyễn Văn An", "สมชาย"]
    assert tablet.locator(".season-table td.num").nth(2).text_content().strip() == "6.17"
    width = tablet.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 1024
    tablet.click(".season-table >> text=Γιώργος")
    tablet.wait_for_url(re.compile(r"/players/"))
    assert tablet.is_visible("svg.chart")


def test_a_players_page_on_a_phone_and_joining_a_spelling(live_server, phone):
    finished(live_server, [[0, 5, 9]])
    create_game(live_server, ["Nguyen Van An", "Bob"], scores=[[3, 0]], finished=True)
    phone.goto(live_server + "/players")
    phone.click("text=Nguyễn Văn An")
    phone.wait_for_url(re.compile(r"/players/"))
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    phone.click("text=Another spelling of this player?")
    phone.fill("#alias", "Nguyen Van An")
    # (a form post: the page it answers with, not the loaded page before it)
    with phone.expect_navigation():
        phone.click("text=Join to")
    figures = phone.locator(".record-figures dd").all_text_contents()
    assert figures[0].strip() == "2"        # two games now
    # Named by the spelling of their most recent game, the other one listed.
    assert phone.locator("h1").text_content().strip() == "Nguyen Van An"
    assert "Nguyễn Văn An" in phone.locator(".meta").text_content()


def test_the_same_table_as_last_time(live_server, phone):
    finished(live_server, [[0, 5, 9]])
    phone.goto(live_server + "/games/new")
    assert phone.locator("#known-players option").count() == 3
    phone.click("#same-table")
    phone.wait_for_url(re.compile(r"same=last"))
    assert [phone.input_value(f"#players-{k}") for k in range(3)] == NAMES
    assert phone.input_value("#players-3") == ""
    phone.click("text=Start the game")
    phone.wait_for_url(re.compile(r"/rounds/1$"))


def test_the_season_board_follows_a_save(live_server, browser):
    season = api(live_server, "POST", "/api/seasons", {"name": "Autumn", "from": "2000-01-01",
                                                       "to": "2100-12-31"})["id"]
    tv = browser.new_context(viewport={"width": 1920, "height": 1080})
    board = tv.new_page()
    board.goto(f"{live_server}/seasons/{season}/board")
    assert board.locator(".board-row").count() == 0
    board.evaluate("window.__loaded = true")
    # Timed from the save's answer (finished() would read the game back first).
    gid = api(live_server, "POST", "/api/games", {"players": NAMES, "start_engine": 0,
                                                  "end_engine": 0})["id"]
    api(live_server, "PUT", f"/api/games/{gid}/rounds/1", {"scores": dict(zip(NAMES, [0, 4, 8]))})
    saved = time.monotonic()
    board.wait_for_function("() => document.querySelectorAll('.board-row').length === 3",
                            timeout=3000)
    assert time.monotonic() - saved < 3
    assert board.evaluate("window.__loaded") is True
    assert board.locator(".board-row.leader .board-name bdi").text_content() == NAMES[0]
    tv.close()
