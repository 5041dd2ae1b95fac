"""A chicken-foot round at the live table, by taps (RULES.md R10): the foot drawn with its
toes, and the open end a tile goes on chosen by a large button, at a tablet's and a
phone's width.  Debian's Chromium via Playwright; screenshots under /tmp."""

import os

import pytest
from helpers import create_game

pytestmark = pytest.mark.browser

SHOTS = "/tmp/chicken-foot-shots"


def play(page, tile, end=None):
    """Tap the tile, then the open end (a pill naming it) or leave the train as offered."""
    page.click(f"label.tile-choice[title='{tile}']")
    if end:
        page.click(f"#play-form label.end-pill:has-text(\"{end}\")")
    # A plain form post: wait for the page it answers with, or the next tap or look
    # lands on the page before it (a phone once read no pills, a tablet a pill mid-load).
    with page.expect_navigation():
        page.click("#record-play")


@pytest.mark.parametrize("width,height", [(1024, 768), (768, 1024), (390, 844)])
def test_a_foot_built_and_a_tile_on_its_toe(live_server, browser, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    gid = create_game(live_server, ["Lan", "Minh"], set=6, start_engine=6,
                      rules={"chicken_foot": True})["id"]
    page.goto(f"{live_server}/games/{gid}/rounds/1/live")
    page.select_option("#starter", "0")
    page.fill("#tiles_each", "10")
    with page.expect_navigation():
        page.click("#start-live")
    # R10.6: in her first turn Lan builds 6-3, the 3-3 and its first toe …
    play(page, "3-6")
    play(page, "3-3")
    play(page, "1-3")
    # … then the train has two open ends (R10.5), each a button of its own.
    pills = page.locator("#play-form label.end-pill")
    # (innerText keeps a space where a phone's narrow pill wraps before its words)
    assert [t.strip() for t in pills.all_inner_texts()] == [
        "on the 3-3: a new toe", "on toe 1 of the 3-3 (ends in 1)"]
    for box in (pills.nth(i).bounding_box() for i in range(pills.count())):
        assert box["height"] >= 44 and box["x"] + box["width"] <= width
    # Recorded without saying which end: refused with a sentence, nothing stored.
    page.click("label.tile-choice[title='2-3']")
    with page.expect_navigation():
        page.click("#record-play")
    assert "Pick a train." in page.inner_text(".form-error")
    play(page, "2-3", "a new toe")
    play(page, "3-4", "a new toe")
    # The foot is full (R10.1): three toes drawn, each toe's end offered.
    assert page.locator(".train-feet .toe").count() == 3
    assert "a new toe" not in page.inner_text("#play-form")
    play(page, "2-5", "on toe 2 of the 3-3")
    assert page.locator("#play-form label.end-pill:has-text('ends in 5')").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"live-{width}.png"), full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=os.path.join(SHOTS, f"top-{width}.png"))
    context.close()


def test_the_ruling_page_asks_a_double_s_toes_and_the_end(live_server, page):
    gid = create_game(live_server, ["Ann", "Bob", "Chi"], rules={"chicken_foot": True})["id"]
    page.goto(f"{live_server}/games/{gid}/rounds/1/referee")
    page.click("fieldset.situation label.pill:has-text('Chi')")
    # Toes are asked only where the last tile is a double (R10.1).
    assert not page.is_visible(".train-sketch[data-train='1'] .toes-sketch")
    page.click(".train-sketch[data-train='1'] .last-btn")
    page.click("#last-picker .tile-btn[data-tile='6-6']")
    assert page.is_visible(".train-sketch[data-train='1'] .toes-sketch")
    assert not page.is_visible(".train-sketch[data-train='0'] .toes-sketch")
    page.select_option("select[name='toe-1-1']", "6-3")
    page.click(".train-sketch[data-train='1'] .marker-toggle")
    page.click("label.pill:has(input[name='train'][value='1'])")
    page.click("label.tile-choice[title='6-9']")
    page.click("#ask")
    assert "choose the one the tile goes on (R10.5)" in page.inner_text(".form-error")
    page.click("label.end-pill:has-text('on the 6-6: a new toe')")
    page.click("#ask")
    assert page.inner_text(".verdict-word") == "LEGAL"
    assert "on the 6-6: a new toe" in page.inner_text("#verdict")
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, "ruling-1024.png"), full_page=True)
