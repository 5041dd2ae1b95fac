"""A scorekeeper counts a hand from a photo in the "Count tiles" dialog: the photo read by the
real server, shown from the device (blob:), one tile corrected with a tap, the score saved.
Debian's Chromium via Playwright."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

from helpers import create_game
from test_browser_security import watched  # noqa: F401  (console errors and CSP violations)

pytestmark = pytest.mark.browser

PHOTO = Path(__file__).resolve().parent / "photos" / "tk_vintage12.jpg"   # 12 double-six tiles


def tile_score(key: str) -> int:
    """R7.3 with the official rules: a tile's pips, the 0-0 counting 50."""
    a, b = map(int, key.split("-"))
    return 50 if (a, b) == (0, 0) else a + b


def picked(page) -> list[str]:
    return page.eval_on_selector_all("#pip-picker .tile-btn[aria-pressed=true]",
                                     "els => els.map(e => e.dataset.tile)")


def read_photo(page, seat: int):
    page.click(f".count-tiles[data-seat='{seat}']")
    page.set_input_files("#photo-file", str(PHOTO))
    page.wait_for_selector(".photo-chip", timeout=120_000)
    assert page.get_attribute("#photo-image", "src").startswith("blob:")   # the device's copy


def axe_problems(page) -> list[str]:
    """axe-core's WCAG 2.1 A and AA violations on the whole page (the open dialog in it)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    from test_accessibility import WCAG_21_AA
    results = axe.Axe().run(page, options=WCAG_21_AA)
    return [f"{v['id']}: {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:4])
            for v in results.response["violations"]]


def answer_every_question(page):
    """Each "?" or "!" answered: its first candidate that can be picked, else not a tile (the
    next question is asked at once; one not being asked is opened with a tap)."""
    while page.query_selector(".photo-chip.question, .photo-chip.problem"):
        if page.is_hidden("#photo-choose"):
            page.click(".photo-chip.question, .photo-chip.problem")
        choice = page.query_selector(".photo-candidate:not([disabled])")
        page.click(".photo-candidate:not([disabled])" if choice else "#photo-not-tile")


def test_count_a_hand_from_a_photo_correct_a_tile_and_save(live_server, watched):
    page, problems = watched
    game = create_game(live_server, ["Ann", "Bob", "Chi"], name="Photo night")
    page.goto(f"{live_server}/games/{game['id']}/rounds/1")
    read_photo(page, 0)
    chips = page.query_selector_all(".photo-chip")
    assert len(chips) >= 6                                  # most of the 12 tiles are found
    counted = [c.inner_text() for c in page.query_selector_all(".photo-chip.counted")]
    assert sorted(counted) == sorted(picked(page))          # every sure tile is picked below
    assert page.inner_text("#pip-score") == str(sum(map(tile_score, counted)))

    assert axe_problems(page) == []

    # A "?" or "!" still open: "Use this score" waits for it, never guessing.
    if page.query_selector(".photo-chip.question, .photo-chip.problem"):
        page.click("#pip-use")
        assert page.is_visible("#pip-counter")
        assert "First answer each tile marked ?" in page.inner_text("#photo-message")
        answer_every_question(page)

    # One tile corrected with a tap: its outline, then the right tile.
    chip = page.query_selector(".photo-chip.counted")
    wrong = chip.inner_text()
    chip.click()
    assert page.is_visible("#photo-choose")
    right = page.eval_on_selector_all(
        ".photo-candidate:not([disabled])",
        "(els, w) => els.map(e => e.dataset.tile).filter(t => t !== w)", wrong)[0]
    page.click(f".photo-candidate[data-tile='{right}']")
    assert page.is_hidden("#photo-choose")
    assert chip.inner_text() == right
    tiles = picked(page)
    assert right in tiles and wrong not in tiles
    expected = sum(map(tile_score, tiles))
    assert page.inner_text("#pip-score") == str(expected)

    page.click("#pip-use")
    assert page.is_hidden("#pip-counter")
    assert page.input_value("#score-0") == str(expected)
    page.click(".went-out[data-seat='1']")
    page.fill("#score-2", "14")
    page.click("#save-round")
    page.wait_for_url(re.compile(r"/rounds/2$"))
    with urllib.request.urlopen(f"{live_server}/api/games/{game['id']}") as r:
        saved = json.load(r)["rounds"][0]["scores"]
    assert saved == {"Ann": expected, "Bob": 0, "Chi": 14}
    assert problems == []          # the blob: photo and the outlines break no CSP rule


def test_a_tile_picked_for_another_player_is_a_likely_misreading(live_server, page):
    game = create_game(live_server, ["Ann", "Bob", "Chi"])
    page.goto(f"{live_server}/games/{game['id']}/rounds/1")
    read_photo(page, 0)
    tile = page.inner_text(".photo-chip.counted")
    page.click("text=Cancel")
    # Bob's hand is counted first, holding that tile …
    page.click(".count-tiles[data-seat='1']")
    page.click(f"#pip-picker [data-tile='{tile}']")
    page.click("#pip-use")
    # … so in Ann's photo it is flagged with R3.3's sentence, not picked.
    read_photo(page, 0)
    flagged = page.query_selector(f".photo-chip.problem:text-is('{tile} !')")
    assert flagged is not None
    assert (f"{tile} is already counted in another hand this round; each tile exists once "
            "(R3.3).") in page.inner_text("#photo-problems")
    assert tile not in picked(page)
    # By keyboard: the outline's label is a button; Enter opens the choice (unless this is
    # the question asked already).
    if flagged.get_attribute("aria-pressed") != "true":
        flagged.focus()
        page.keyboard.press("Enter")
    assert page.is_visible("#photo-choose") and flagged.get_attribute("aria-pressed") == "true"
    assert page.is_disabled(f".photo-candidate[data-tile='{tile}']")   # Bob holds it
    assert axe_problems(page) == []                  # with the problem and the choice shown
    chips = len(page.query_selector_all(".photo-chip"))
    page.click("#photo-not-tile")
    assert len(page.query_selector_all(".photo-chip")) == chips - 1     # its outline gone
    page.click("text=Cancel")
    assert page.get_attribute("#photo-image", "src") is None          # the photo let go


def test_a_refused_or_lost_photo_is_said_in_the_dialog(live_server, page, tmp_path):
    expect = pytest.importorskip("playwright.sync_api").expect
    game = create_game(live_server, ["Ann", "Bob"])
    page.goto(f"{live_server}/games/{game['id']}/rounds/1")
    sent = []
    page.on("request", lambda r: sent.append(r.url)
            if r.method == "POST" and "/api/hand-photo" in r.url else None)
    page.click(".count-tiles[data-seat='0']")
    # Over 20 MB: said at once, nothing sent.
    # A file on disk: the browser reads it there (a buffer would go through Playwright's
    # pipe, 28 MB of base64, which took most of this test's time).
    big = tmp_path / "big.jpg"
    with open(big, "wb") as f:
        f.write(b"\xff\xd8")
        f.truncate(2 + 21 * 1024 * 1024)
    page.set_input_files("#photo-file", str(big))
    assert page.inner_text("#photo-message") == ("The photo is over 20 MB, the most that is "
                                                 "accepted: send a smaller picture.")
    assert sent == []
    # Not a picture: the server's sentence.
    page.set_input_files("#photo-file", {"name": "notes.jpg", "mimeType": "image/jpeg",
                                         "buffer": b"Round 3: Ann 12"})
    expect(page.locator("#photo-message")).to_have_text(re.compile("^This file is not a photo"),
                                                        timeout=60_000)
    assert page.is_hidden("#photo-result") and page.is_enabled("#photo-take")
    # The connection lost on the way.
    page.route("**/api/hand-photo", lambda route: route.abort())
    page.set_input_files("#photo-file", str(PHOTO))
    expect(page.locator("#photo-message")).to_contain_text("the connection failed",
                                                           timeout=60_000)
    assert len(sent) == 2


# Three tiles read within a few pixels of each other (their markers would stack), and two
# questions: the person's taps, one a question.
CROWDED = {
    "tiles": [{"tile": [3, 5], "box": [[400, 300], [480, 300], [480, 340], [400, 340]],
               "confidence": 0.97},
              {"tile": [2, 6], "box": [[404, 304], [484, 304], [484, 344], [404, 344]],
               "confidence": 0.95}],
    "unsure": [{"box": [[408, 296], [488, 296], [488, 336], [408, 336]],
                "candidates": [[4, 4], [1, 4], [4, 5]]},
               {"box": [[700, 500], [780, 500], [780, 540], [700, 540]],
                "candidates": [[0, 1], [0, 2]]}],
    "problems": [], "score": 16, "width": 1000, "height": 750}


def boxes_of(page) -> list[dict]:
    return [c.bounding_box() for c in page.query_selector_all(".photo-chip")]


def test_questions_are_answered_in_one_tap_each(live_server, watched):
    page, problems = watched
    game = create_game(live_server, ["Ann", "Bob"])
    page.route("**/api/hand-photo", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(CROWDED)))
    page.goto(f"{live_server}/games/{game['id']}/rounds/1")
    # the round page carries only the placeholder; the photo part comes when the dialog opens
    assert page.query_selector("#photo-take") is None
    read_photo(page, 0)

    # markers never overlap, each a target of at least 44 px
    boxes = boxes_of(page)
    assert len(boxes) == 4
    for i, a in enumerate(boxes):
        assert a["width"] >= 44 and a["height"] >= 44
        for b in boxes[i + 1:]:
            assert (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                    or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]), (a, b)

    # the first question is asked at once, its first candidate offered first
    assert page.is_visible("#photo-choose")
    first = page.query_selector(".photo-candidate")
    assert first.get_attribute("data-tile") == "4-4" and "primary" in first.get_attribute("class")
    assert page.evaluate("document.activeElement.dataset.tile") == "4-4"
    # "Use this score" waits for the questions
    page.click("#pip-use")
    assert "First answer each tile marked ?" in page.inner_text("#photo-message")
    # one tap: 4-4 is picked, and the next question is asked
    page.click(".photo-candidate[data-tile='4-4']")
    assert "4-4" in picked(page)
    assert page.is_visible("#photo-choose")
    assert page.query_selector(".photo-candidate").get_attribute("data-tile") == "0-1"
    # one tap: not a tile, its outline and marker go
    page.click("#photo-not-tile")
    assert len(boxes_of(page)) == 3
    assert len(page.query_selector_all("#photo-outlines polygon")) == 3
    assert page.is_hidden("#photo-choose")
    # every question answered: the line asking for answers goes
    message = page.inner_text("#photo-message")
    assert "First answer" not in message and "Tap each tile marked" not in message
    assert sorted(picked(page)) == ["2-6", "3-5", "4-4"]
    assert page.inner_text("#pip-score") == str(8 + 8 + 8)

    # Clear clears the photo's questions and outlines too
    page.click("#pip-clear")
    assert picked(page) == [] and page.is_hidden("#photo-result")
    assert page.inner_text("#photo-message") == ""
    assert problems == []


def test_clear_takes_the_open_questions_away(live_server, page):
    game = create_game(live_server, ["Ann", "Bob"])
    page.route("**/api/hand-photo", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(CROWDED)))
    page.goto(f"{live_server}/games/{game['id']}/rounds/1")
    read_photo(page, 0)
    page.click("#pip-clear")
    assert page.query_selector(".photo-chip.question") is None or page.is_hidden("#photo-result")
    page.click("#pip-use")                 # nothing left to answer: the score is used
    assert page.is_hidden("#pip-counter")
    assert page.input_value("#score-0") == "0"


def test_the_photo_part_speaks_the_language_chosen_on_the_device(live_server, page):
    """A tablet whose browser asks for English but whose person chose Greek (?lang=, kept
    in a cookie): the photo part fetched on opening and the server's refusal of a file come
    in Greek, the page's language (the API follows Accept-Language, which the page's
    script now sends)."""
    expect = pytest.importorskip("playwright.sync_api").expect
    game = create_game(live_server, ["Ann", "Bob"])
    page.goto(f"{live_server}/games/{game['id']}/rounds/1?lang=el")   # the browser: en-US
    page.click(".count-tiles[data-seat='0']")
    expect(page.locator("#photo-take")).to_contain_text("Βγάλτε φωτογραφία")
    page.set_input_files("#photo-file", {"name": "notes.jpg", "mimeType": "image/jpeg",
                                         "buffer": b"Round 3: Ann 12"})
    expect(page.locator("#photo-message")).to_have_text(
        re.compile("^Αυτό το αρχείο δεν είναι φωτογραφία"), timeout=60_000)
