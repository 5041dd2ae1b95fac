"""Nothing typed is lost when the Wi-Fi drops (issue 18, item 2): a round saved while the
server cannot be reached stays on the tablet, the page says so, and it is sent by itself
as soon as the server answers (issue 26, item 2: no tap needed; "Send it now" still sends
at once), through the usual revision and merge; never twice.

Debian's Chromium via Playwright; the network is cut with ``context.set_offline``.
"""

import pytest

from helpers import api, create_game, open_count_tiles

pytestmark = pytest.mark.browser

UNSENT = ("Not sent yet — the scorekeeper's server can't be reached. What you typed stays on "
          "this device and is sent by itself as soon as the server answers.")
RESTORED = "Not sent yet: what you typed on this device for round 1 is filled in below."
TYPED = {"Ann": 0, "Bob": 5, "Chi": 9}


@pytest.fixture
def tablet(browser):
    """A tablet's browser (its pages share one localStorage, as a tablet's tabs do)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    yield context
    context.close()


def type_round(page, scores):
    for seat, score in enumerate(scores):
        page.fill(f"#score-{seat}", str(score))


def changes_to_round(base, gid, number):
    """The history's changes to round *number*: one per player a save changed (a round
    saved once, for three players: three)."""
    changes = api(base, "GET", f"/api/games/{gid}/history")["changes"]
    return len([c for c in changes if c["round"] == number])


def save_offline(tablet, base, gid, counted=None):
    """Open round 1, type TYPED (Chi's hand counted as *counted*, if given), cut the
    network and save: answers the page, its "Not sent yet" shown."""
    page = tablet.new_page()
    page.goto(f"{base}/games/{gid}/rounds/1")
    type_round(page, TYPED.values())
    if counted:
        open_count_tiles(page, "[data-seat='2']")
        page.click(f"#pip-counter .tile-btn[data-tile='{counted}']")
        page.click("#pip-use")
    tablet.set_offline(True)
    page.click("#save-round")
    page.wait_for_selector("#unsent:not([hidden])")
    return page


def drafts(page):
    return page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('scorekeeper.draft:'))")


def test_a_round_saved_offline_is_sent_by_itself_once_the_server_answers(live_server, tablet):
    gid = create_game(live_server)["id"]
    page = save_offline(tablet, live_server, gid)
    assert page.inner_text("#unsent-text") == UNSENT
    assert page.is_visible("#unsent-send")          # for a person who wants to try at once
    assert page.url.endswith("/rounds/1") and page.input_value("#score-1") == "5"
    assert api(live_server, "GET", f"/api/games/{gid}")["rounds"][0]["scores"] is None
    assert len(drafts(page)) == 1
    tablet.set_offline(False)
    # Nobody taps anything: the round goes as soon as the server answers.
    page.wait_for_url(f"{live_server}/games/{gid}/rounds/2", timeout=15_000)
    assert "Round 1 saved." in page.inner_text(".flashes")
    stored = api(live_server, "GET", f"/api/games/{gid}")["rounds"][0]
    assert stored["scores"] == TYPED and stored["revision"] == 1
    assert changes_to_round(live_server, gid, 1) == 3 and drafts(page) == []


def test_send_it_now_sends_at_once_and_still_only_once(live_server, tablet):
    gid = create_game(live_server)["id"]
    page = save_offline(tablet, live_server, gid)
    page.click("#unsent-send")                       # still offline: kept, and said so
    # (the button is disabled while it tries: wait for the try to end, or going online
    # below could let this first try through before the server's answers are held)
    page.wait_for_selector("#unsent-send:not([hidden]):enabled")
    assert page.inner_text("#unsent-text") == UNSENT and len(drafts(page)) == 1
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    held = []
    page.route("**/healthz", lambda route: held.append(route))   # answers held a moment
    tablet.set_offline(False)
    page.click("#unsent-send")                       # a tap, while the page asks by itself
    page.wait_for_timeout(3500)
    assert len(held) >= 2                            # both asked whether the server answers
    for route in held:
        route.continue_()
    page.wait_for_url(f"{live_server}/games/{gid}/rounds/2", timeout=15_000)
    assert len(posts) == 1 and posts[0].endswith(f"/games/{gid}/rounds/1")
    assert api(live_server, "GET", f"/api/games/{gid}")["rounds"][0]["revision"] == 1
    assert changes_to_round(live_server, gid, 1) == 3 and drafts(page) == []


def test_a_round_kept_on_the_tablet_comes_back_when_the_page_is_opened_again(live_server,
                                                                              tablet):
    gid = create_game(live_server)["id"]
    page = save_offline(tablet, live_server, gid, counted="4-5")   # Chi's 9 counted
    page.close()                                        # the tablet is put away
    tablet.set_offline(False)
    page = tablet.new_page()
    page.goto(f"{live_server}/games/{gid}/rounds/1")
    page.wait_for_selector("#unsent:not([hidden])")
    assert RESTORED in page.inner_text("#unsent-text")
    assert [page.input_value(f"#score-{i}") for i in range(3)] == ["0", "5", "9"]
    assert page.input_value("#hand-2") == "4-5" and "4-5" in page.inner_text("#hand-summary-2")
    page.click("#save-round")
    page.wait_for_url(f"{live_server}/games/{gid}/rounds/2")
    game = api(live_server, "GET", f"/api/games/{gid}")
    assert game["rounds"][0]["scores"] == TYPED and changes_to_round(live_server, gid, 1) == 3
    # Opened again, the round is as saved: nothing is offered a second time.
    page.goto(f"{live_server}/games/{gid}/rounds/1")
    assert page.is_hidden("#unsent") and drafts(page) == []
    assert page.input_value("#score-1") == "5"


def test_a_round_another_tablet_saved_meanwhile_goes_through_the_merge(live_server, tablet):
    gid = create_game(live_server)["id"]
    page = save_offline(tablet, live_server, gid)
    # Meanwhile another tablet saves round 1 with Bob at 7.
    api(live_server, "PUT", f"/api/games/{gid}/rounds/1",
        {"scores": {"Ann": 0, "Bob": 7, "Chi": 9}})
    tablet.set_offline(False)
    # Sent by itself with the revision it was typed at: the server puts the one
    # difference to us.
    page.wait_for_selector(".conflict", timeout=15_000)
    assert "Another tablet saved this round while you were entering it." in page.inner_text(
        ".conflict")
    assert page.is_visible("input[name='pick-1'][value='mine']")
    assert api(live_server, "GET", f"/api/games/{gid}")["rounds"][0]["scores"]["Bob"] == 7
    page.check("input[name='pick-1'][value='mine']")
    page.click("#save-round")
    page.wait_for_url(f"{live_server}/games/{gid}/rounds/2")
    assert api(live_server, "GET", f"/api/games/{gid}")["rounds"][0]["scores"] == TYPED
    assert drafts(page) == []


def test_a_refused_save_keeps_the_typed_round_and_the_pin_sends_it(live_server, tablet):
    # The scorekeeper's cookie is gone (a private tab, data cleared): the save is refused
    # for the PIN; entering it on the PIN page saves the round as typed.
    gid = create_game(live_server, pin="2468")["id"]
    page = tablet.new_page()
    page.goto(f"{live_server}/games/{gid}/pin?next=/games/{gid}/rounds/1")
    page.fill("#pin", "2468")
    page.click("#pin-submit")
    page.wait_for_url(f"{live_server}/games/{gid}/rounds/1")
    type_round(page, TYPED.values())
    tablet.clear_cookies()
    page.click("#save-round")
    page.wait_for_selector("#carried")
    assert "Bob: 5" in page.inner_text("#carried")
    assert len(drafts(page)) == 1                        # and on the tablet, in case
    page.fill("#pin", "2468")
    page.click("#pin-submit")
    page.wait_for_url(f"{live_server}/games/{gid}/rounds/2")
    assert "Round 1 saved." in page.inner_text(".flashes")
    assert api(live_server, "GET", f"/api/games/{gid}")["rounds"][0]["scores"] == TYPED
    assert changes_to_round(live_server, gid, 1) == 3 and drafts(page) == []
