"""Every tile picker, tapped where a person taps: scroll it, tap tiles by their place
on the screen, and exactly those tiles are picked (a tapped 5-8 is never a 2-5).

Before the fix, each hidden input sat where the picker had been before it was
scrolled, so a tap could land on another tile's input.  Debian's Chromium via
Playwright, at tablet and phone sizes.
"""

import re

import pytest
from helpers import create_game, open_count_tiles

pytestmark = pytest.mark.browser

SIZES = [(1024, 768), (390, 844)]


@pytest.fixture(params=SIZES, ids=["tablet", "phone"])
def touch_page(request, browser):
    w, h = request.param
    context = browser.new_context(viewport={"width": w, "height": h}, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def served_gid(live_server):
    """The id of a game of Ann, Bob and Chi on live_server, nothing scored."""
    return create_game(live_server)["id"]


def scroll_into_picker(page, picker, tile):
    """Scroll the picker (and the page) so *tile* is on screen, the way a finger would."""
    page.eval_on_selector(picker, "el => { el.scrollTop = el.scrollHeight; el.scrollLeft = 0; }")
    # Centred, as a person scrolls a tile into plain view (not under the sticky buttons).
    page.eval_on_selector(tile, "el => el.scrollIntoView({block: 'center', inline: 'center'})")


def tap(page, selector):
    """Tap the middle of what is shown on screen at *selector* (not the element by name)."""
    box = page.locator(selector).bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def checked(page, name):
    return sorted(page.eval_on_selector_all(
        f"input[name='{name}']:checked", "els => els.map(e => e.value)"))


def test_ruling_tile_picker(live_server, served_gid, touch_page):
    page = touch_page
    page.goto(f"{live_server}/games/{served_gid}/rounds/1/referee")
    for tile in ("8-11", "2-5", "10-12"):
        sel = f"label.tile-choice[title='{tile}']"
        scroll_into_picker(page, ".referee-form .choice-picker", sel)
        tap(page, sel)
        assert checked(page, "tile") == [tile]


@pytest.mark.parametrize("tab", ["plays", "plan"])
def test_hand_pickers(live_server, served_gid, touch_page, tab):
    page = touch_page
    page.goto(f"{live_server}/games/{served_gid}/rounds/1/referee/{tab}")
    hand = ["0-3", "5-8", "7-11", "9-9", "11-11", "2-4"]
    for tile in hand:
        sel = f"label.tile-choice[title='{tile}']"
        scroll_into_picker(page, ".choice-picker", sel)
        tap(page, sel)
    assert checked(page, "hand") == sorted(hand)
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"go=1"))
    assert sorted(re.findall(r"hand=([0-9]+-[0-9]+)", page.url)) == sorted(hand)


def test_live_table_picker(live_server, served_gid, touch_page):
    page = touch_page
    page.goto(f"{live_server}/games/{served_gid}/rounds/1/live")
    page.click("#start-live")
    page.wait_for_selector("#play-form")
    for tile in ("3-7", "1-5", "11-12"):
        sel = f"#play-form label.tile-choice[title='{tile}']"
        scroll_into_picker(page, "#play-form .choice-picker", sel)
        tap(page, sel)
        assert checked(page, "tile") == [tile]


def test_pip_counter(live_server, served_gid, touch_page):
    page = touch_page
    page.goto(f"{live_server}/games/{served_gid}/rounds/1")
    open_count_tiles(page, "[data-seat='1']")
    picked = ["0-0", "4-9", "11-12"]
    for tile in picked:
        sel = f"#pip-counter .tile-btn[data-tile='{tile}']"
        scroll_into_picker(page, "#pip-picker", sel)
        tap(page, sel)
    assert page.inner_text("#pip-score") == str(50 + 13 + 23)   # 0-0 counts 50 (R7.3)
    page.click("#pip-use")
    assert page.input_value("#score-1") == "86"
    assert sorted(page.input_value("#hand-1").split()) == sorted(picked)


def test_last_tile_picker(live_server, served_gid, touch_page):
    """The tap-what-you-see dispute form: each train's last tile from the dialog."""
    page = touch_page
    page.goto(f"{live_server}/games/{served_gid}/rounds/1/referee")
    page.click(".train-sketch[data-train='0'] .last-btn")
    sel = "#last-picker .tile-btn[data-tile='5-12']"
    scroll_into_picker(page, "#last-picker", sel)
    tap(page, sel)
    # Touching the engine (12), the tile's open end is 5.
    assert page.input_value("select[name='last-0']") == "12-5"
    page.click(".train-sketch[data-train='0'] .flip-btn")
    assert page.input_value("select[name='last-0']") == "5-12"
    # A tile already ending another train cannot be picked twice.
    page.click(".train-sketch[data-train='1'] .last-btn")
    assert page.is_disabled("#last-picker .tile-btn[data-tile='5-12']")
    assert page.is_disabled("#last-picker .tile-btn[data-tile='12-12']")   # the engine
    sel = "#last-picker .tile-btn[data-tile='3-3']"
    scroll_into_picker(page, "#last-picker", sel)
    tap(page, sel)
    assert page.input_value("select[name='last-1']") == "3-3"
    assert page.is_visible(".train-sketch[data-train='1'] .answered")   # a double: answered?
