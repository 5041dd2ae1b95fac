"""Two devices at one table: the scorekeeper's tablet and a player's phone (Debian's
Chromium via Playwright, two browser contexts = two devices)."""

import re
import time

import pytest
from helpers import api

pytestmark = pytest.mark.browser

PLAYERS = ["Nguyễn Văn An", "Γιώργος", "สมชาย"]


@pytest.fixture
def devices(browser):
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                is_mobile=True)
    yield tablet.new_page(), phone.new_page()
    tablet.close()
    phone.close()


def test_scorekeeper_and_viewer(live_server, devices):
    tablet, phone = devices
    # The scorekeeper creates a protected game on the tablet.
    tablet.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        tablet.fill(f"#players-{seat}", name)
    tablet.fill("#pin", "4826")
    tablet.click("text=Start the game")
    tablet.wait_for_url(re.compile(r"/rounds/1$"))
    gid = tablet.url.split("/")[4]

    # A phone joins by the game's own address: a viewer, without write controls.
    phone.goto(f"{live_server}/games/{gid}/rounds/1")
    assert phone.is_visible("#enter-pin")
    assert phone.locator("#save-round, .went-out, .count-tiles").count() == 0
    phone.goto(f"{live_server}/games/{gid}")
    assert phone.locator("text=Rename").count() == 0 and phone.locator("text=Delete").count() == 0

    # The tablet saves round 1; the phone's open page shows it within 3 seconds, no reload.
    phone.evaluate("window.__loaded = true")   # survives only if the page is not reloaded
    tablet.fill("#score-0", "12")
    tablet.click(".went-out[data-seat='1']")
    tablet.fill("#score-2", "30")
    tablet.click("#save-round")
    saved = time.monotonic()
    # (Predicates as functions: the pages' CSP forbids evaluating strings.)
    phone.wait_for_function(
        "() => document.querySelector('#score-grid td.num') && "
        "document.querySelector('#score-grid td.num').textContent.trim() === '12'", timeout=3000)
    assert time.monotonic() - saved < 3
    assert phone.evaluate("window.__loaded") is True

    # The TV board follows too.
    board = phone.context.new_page()
    board.set_viewport_size({"width": 1920, "height": 1080})
    board.goto(f"{live_server}/games/{gid}/board")
    assert "Round 2 of 13" in board.inner_text(".board-round")
    total = board.locator(".board-total").first
    assert float(total.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 64
    api(live_server, "PUT", f"/api/games/{gid}/rounds/2",
        {"scores": {PLAYERS[0]: 0, PLAYERS[1]: 4, PLAYERS[2]: 8}}, pin="4826")
    board.wait_for_function(
        "() => document.querySelector('.board-round').textContent.includes('Round 3 of 13')",
        timeout=3000)

    # A form someone is typing in is not replaced: it says another device saved.
    tablet.goto(f"{live_server}/games/{gid}/rounds/3")
    tablet.fill("#score-0", "7")
    api(live_server, "PUT", f"/api/games/{gid}/rounds/3",
        {"scores": {PLAYERS[0]: 0, PLAYERS[1]: 9, PLAYERS[2]: 6}}, pin="4826")
    tablet.wait_for_selector("#updates-notice:not([hidden])", timeout=3000)
    assert "Another device saved round 3" in tablet.inner_text("#updates-notice")
    assert tablet.input_value("#score-0") == "7"

    # The phone's scorekeeper enters the PIN: now it has the buttons.
    phone.goto(f"{live_server}/games/{gid}/rounds/4")
    phone.click("#enter-pin")
    phone.fill("#pin", "4826")
    phone.click("#pin-submit")
    phone.wait_for_url(re.compile(r"/rounds/4$"))
    assert phone.is_visible("#save-round")
