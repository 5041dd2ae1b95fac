"""At the table with a tablet: settle a dispute on the ruling page, then keep a
short live round. Debian's Chromium via Playwright, tablet-size window."""

import re

import pytest

pytestmark = pytest.mark.browser


def new_game(page, base, names, set_n="6"):
    page.goto(base + "/games/new")
    for seat, name in enumerate(names):
        page.fill(f"#players-{seat}", name)
    page.select_option("select[name=set]", set_n)
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r"/rounds/1$"))


def test_settle_an_open_double_dispute(live_server, page):
    new_game(page, live_server, ["Ann", "Bob", "Chi"], "12")
    page.click("#referee-link")
    page.wait_for_url(re.compile(r"/referee"))
    # Bob's turn; Ann's train ends in the 5-5 (tapped as it lies on the table: an open
    # double, R6.3); Bob wants 12-9 on the Mexican train.
    page.click("fieldset.situation label.pill:has-text('Bob')")
    page.click(".train-sketch[data-train='0'] .last-btn")
    page.click("#last-picker .tile-btn[data-tile='5-5']")
    assert page.is_visible(".train-sketch[data-train='0'] .answered")
    page.click(".train-choice label.pill:has-text('Mexican train')")
    page.click("label.tile-choice[title='9-12']")
    page.click("#ask")
    verdict = page.inner_text("#verdict")
    assert "NOT LEGAL" in verdict
    assert "R6.3" in verdict and "Ann's 5-5 is an open double: Bob must play on it first." in verdict
    assert "Bob may play a tile showing 5 on the train of Ann." in verdict
    # The shared address carries the table as described.
    assert "last-0=5-5" in page.url and "current=1" in page.url
    # Once the double is answered, the same tile is legal: one tap.
    page.click(".train-sketch[data-train='0'] .answered")
    # A form (GET) sent: the old page's "NOT LEGAL" is a .verdict-word too.
    with page.expect_navigation():
        page.click("#ask")
    assert page.inner_text(".verdict-word") == "LEGAL"


def test_a_short_live_round(live_server, page):
    new_game(page, live_server, ["Lan", "Minh"])
    page.click("#live-link")
    page.select_option("#starter", "0")
    page.fill("#tiles_each", "3")
    page.click("#start-live")
    # Lan set the 6-6 and holds two tiles; she builds 6-1, 1-1 and goes out in the first turn.
    assert "Lan" in page.inner_text(".turn-name")
    page.click("label.tile-choice[title='1-6']")
    # Plain form posts: the next tap or look would land on the page before it.
    with page.expect_navigation():
        page.click("#record-play")
    # Minh's train is not Lan's to build in the first turn: refused with R4.1 (after Lan's turn).
    page.click("label.tile-choice[title='1-1']")
    with page.expect_navigation():
        page.click("#record-play")
    assert page.inner_text(".turn-name") == "Minh"
    page.click("label.pill:has-text('Lan')")
    page.click("label.tile-choice[title='1-5']")
    page.click("#record-play")
    assert "R4.1" in page.inner_text("#refused")
    page.click("label.pill:has-text('Minh')")
    page.click("label.tile-choice[title='5-6']")
    with page.expect_navigation():
        page.click("#record-play")
    page.click("#record-pass")   # Minh ends his first turn: Lan is out, the round is over (R4.4)
    assert "Lan went out" in page.inner_text(".verdict-word")
    page.click("#to-scores")
    assert page.input_value("#score-0") == "0"
    page.fill("#score-1", "7")
    page.click("#save-round")
    page.wait_for_url(re.compile(r"/rounds/2$"))
    # The move log is kept with the round.
    page.goto(page.url.replace("/rounds/2", "/rounds/1/live/log"))
    log = page.inner_text(".move-log")
    assert "Lan played 1-6 on their own train" in log and "Minh ended their first turn" in log
