"""A person at a tablet keeps a house-scored round (R11): taps "Went out" and "Marker
stands", sees the score that counts beside each hand, and saves; at 1024, 768 and 390 px
wide the toggles are large targets and nothing spills out of its row."""

import re

import pytest

from helpers import api, create_game

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

HOUSE = {"went_out_bonus": 10, "marker_penalty": 15}


@pytest.mark.parametrize("width, height", [(1024, 768), (768, 1024), (390, 844)])
def test_the_toggles_mark_the_round_and_show_the_score_that_counts(live_server, browser,
                                                                     width, height):
    game = create_game(live_server, rules=HOUSE)
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/games/{game['id']}/rounds/1")
        page.fill("#score-0", "12")
        page.fill("#score-1", "7")
        page.fill("#score-2", "9")
        # "Went out" puts 0 in the box and shows the bonus; it clears that seat's marker.
        page.click("label.out-pill:has(input[data-seat='0'])")
        expect(page.locator("#score-0")).to_have_value("0")
        expect(page.locator("#counts-0")).to_have_text("−10")
        page.click("label.marker-pill:has(input[data-seat='2'])")
        expect(page.locator("#counts-2")).to_have_text("24")
        page.click("label.marker-pill:has(input[data-seat='0'])")
        expect(page.locator("input[name='out-0']")).not_to_be_checked()
        page.click("label.out-pill:has(input[data-seat='0'])")
        expect(page.locator("input[name='marker-0']")).not_to_be_checked()
        for selector in ("label.out-pill", "label.marker-pill"):
            for box in page.query_selector_all(selector):
                size = box.bounding_box()
                assert size["height"] >= 44 and size["width"] >= 44   # a large target
        rows = page.query_selector_all(".score-row")
        for row in rows:
            outer = row.bounding_box()
            for part in row.query_selector_all("label, input:not([type=hidden]), button, .score-counts"):
                inner = part.bounding_box()
                if inner is None:
                    continue
                assert inner["x"] >= outer["x"] - 1
                assert inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        page.click("#save-round")
        page.wait_for_url(re.compile(r"/rounds/2$"), timeout=60000)
    finally:
        context.close()
    saved = api(live_server, "GET", f"/api/games/{game['id']}")["rounds"][0]
    assert saved["scores"] == {"Ann": -10, "Bob": 7, "Chi": 24}
    assert (saved["went_out"], saved["markers"]) == (["Ann"], ["Chi"])


def test_a_round_kept_offline_comes_back_with_its_toggles(live_server, browser):
    game = create_game(live_server, rules=HOUSE)
    url = f"{live_server}/games/{game['id']}/rounds/1"
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    try:
        page = tablet.new_page()
        page.goto(url)
        page.fill("#score-1", "7")
        page.fill("#score-2", "9")
        page.click("label.out-pill:has(input[data-seat='0'])")
        page.click("label.marker-pill:has(input[data-seat='2'])")
        tablet.set_offline(True)
        page.click("#save-round")
        page.wait_for_selector("#unsent:not([hidden])")
        page.close()
        tablet.set_offline(False)
        page = tablet.new_page()
        page.goto(url)
        page.wait_for_selector("#unsent:not([hidden])")
        expect(page.locator("input[name='out-0']")).to_be_checked()
        expect(page.locator("input[name='marker-2']")).to_be_checked()
        expect(page.locator("#counts-2")).to_have_text("24")
        page.click("#save-round")
        page.wait_for_url(re.compile(r"/rounds/2$"), timeout=60000)
    finally:
        tablet.close()
    saved = api(live_server, "GET", f"/api/games/{game['id']}")["rounds"][0]
    assert (saved["went_out"], saved["markers"]) == (["Ann"], ["Chi"])
