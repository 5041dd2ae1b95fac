"""Under the Content-Security-Policy nothing is blocked: Chromium reports no violation and
no console error on any page, and the page scripts still work (pip counter, new game)."""

import re

import pytest
from helpers import open_count_tiles

pytestmark = pytest.mark.browser

PLAYERS = ["Nguyễn Thị Hương", "สมชาย", "王小明", "שרה"]


@pytest.fixture
def watched(page):
    """The page, with every console error and CSP violation collected."""
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                         "console.error('CSP violation: ' + e.violatedDirective + ' ' + "
                         "e.blockedURI))")
    return page, problems


def test_no_page_is_blocked_by_the_csp(live_server, watched):
    page, problems = watched
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#players-{seat}", name)
    assert "Deal" in page.inner_text("#deal-line")      # the new-game script ran
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r"/rounds/1$"))
    gid = page.url.split("/")[4]
    # The pip counter (a dialog driven by the page script) under the policy.
    open_count_tiles(page, " >> nth=1")
    page.click("[data-tile='3-4']")
    page.click("#pip-use")
    assert page.input_value("#score-1") == "7"
    for seat, value in ((0, "0"), (2, "12"), (3, "5")):
        page.fill(f"#score-{seat}", value)
    page.click("#save-round")
    page.wait_for_url(re.compile(r"/rounds/2$"))
    for path in ("/", f"/games/{gid}", f"/games/{gid}/standings", f"/games/{gid}/history",
                 f"/games/{gid}/rounds/2/live", f"/games/{gid}/rounds/2/referee?tile=3-4&train=0",
                 "/deleted", "/games/import", f"/games/{gid}/delete", f"/games/{gid}/board",
                 f"/games/{gid}/verify?code=ZZZZZ-ZZZZZ"):
        page.goto(live_server + path)
        assert page.locator("main").is_visible()
        if path.endswith("/standings"):
            # The legend's train colours are presentation attributes: drawn, not blocked.
            marks = page.locator(".legend svg.train-mark")
            assert marks.count() == 4
            assert marks.first.evaluate("e => getComputedStyle(e).fill") == "rgb(0, 114, 178)"
            # Drawn from the sprite, which the CSP allows ('self'): the locomotive is there.
            assert marks.first.evaluate("e => e.querySelector('use').getBBox().width") > 15
    assert problems == []
