"""axe-core (WCAG 2.1 A and AA rules) on every page, in Debian's Chromium: 0 violations.

The pages are those of a game in progress with names in several scripts, a
live round, a ruling, the referee without a game, the rulebook and the error
pages, at tablet size.
"""

import pytest
from helpers import api, at_size, create_game, served

pytestmark = pytest.mark.browser

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

NAMES = ["Nguyễn Thị Hương", "Γιώργος Παπαδόπουλος", "สมชาย ใจดี", "王小明"]
#: axe's options: the WCAG 2.1 A and AA rules, with the details of the violations only (the
#: passes' and the rest's are what the tests never read, and half of axe's time).
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
              "resultTypes": ["violations"]}


@pytest.fixture(scope="module")
def site(tmp_path_factory, new_app, new_database):
    """A served app with a game three rounds in, and a live table kept for round 4."""
    app = new_app({"DATABASE": new_database(tmp_path_factory.mktemp("a11y") / "a.db"),
                   "SECRET_KEY": "a11y", "WTF_CSRF_ENABLED": False})
    with served(app) as base:
        gid = create_game(base, NAMES, name="Friday",
                          scores=[[0, 23, 9, 41], [17, 0, 30, 8], [4, 11, 0, 19]])["id"]
        client = app.test_client()
        live = f"/games/{gid}/rounds/4/live"
        client.post(live + "/start", data={"starter": "0", "tiles_each": "12", "active": "0"})
        client.post(live + "/action", data={"kind": "play", "tile": "9-4", "train": "0",
                                            "active": "1"})
        # A sheet printed before round 3 was corrected: its code is an earlier one.
        printed = api(base, "GET", f"/api/games/{gid}/verify")["code"]
        api(base, "PUT", f"/api/games/{gid}/rounds/3", {"scores": dict(zip(NAMES, [4, 11, 0, 21]))})
        protected = create_game(base, NAMES[:2], pin="2468")["id"]
        create_game(base, NAMES, scores=[[0, 5, 5, 9]], finished=True)
        api(base, "POST", "/api/seasons", {"name": "Autumn", "from": "2000-01-01",
                                           "to": "2100-12-31"})
        yield base, gid, protected, printed


PAGES = {
    "home": "/",
    "new game": "/games/new",
    "scores": "/games/{gid}",
    "round": "/games/{gid}/rounds/4",
    "recorded round": "/games/{gid}/rounds/2",
    "standings": "/games/{gid}/standings",
    "history": "/games/{gid}/history",
    "undo": "/games/{gid}/undo",
    "ruling": "/games/{gid}/rounds/5/referee?current=1&last-0=9-5&last-1=8-8&mark-2=1"
              "&tile=5-9&train=0",
    "ruling live": "/games/{gid}/rounds/4/referee?tile=4-8&train=0",
    "my plays": "/games/{gid}/rounds/5/referee/plays?go=1&hand=8-2&hand=0-0",
    "plan": "/games/{gid}/rounds/5/referee/plan?go=1&hand=8-2&hand=2-2&hand=2-11",
    "referee without a game": "/referee",
    "live table": "/games/{gid}/rounds/4/live",
    "live table not started": "/games/{gid}/rounds/6/live",
    "move log": "/games/{gid}/rounds/4/live/log",
    "rename": "/games/{gid}/rename",
    "delete": "/games/{gid}/delete",
    "not found": "/no/such/page",
    "scoreboard": "/games/{gid}/board",
    "PIN change": "/games/{gid}/pin/change",
    "PIN entry": "/games/{protected}/pin",
    "viewer of a protected game": "/games/{protected}/rounds/1",
    "rulebook": "/rules",
    "recently deleted": "/deleted",
    "import": "/games/import",
    "rulebook in Thai": "/rules?lang=th",
    "players": "/players",
    "a player in Greek": "/players/Γιώργος Παπαδόπουλος?lang=el",
    "seasons": "/seasons",
    "season table in Thai": "/seasons/{season}?lang=th&min_games=2",
    "season board": "/seasons/{season}/board",
    "round in Chinese": "/games/{gid}/rounds/4?lang=zh",
    "ruling in Greek": "/games/{gid}/rounds/5/referee?current=1&last-0=9-5&tile=5-9&train=0&lang=el",
    "club settings": "/club",
    "restore a backup": "/backup/restore",
    "check a printed sheet": "/games/{gid}/verify",
    "a sheet changed since printed": "/games/{gid}/verify?code={printed}",
    "an unknown code in Thai": "/games/{gid}/verify?code=ZZZZZ-ZZZZZ&lang=th",
    "a round started, in Greek": "/games/{gid}/rounds/4?lang=el",
    "new game in Thai": "/games/new?lang=th",
}


@pytest.fixture
def page(touch_tab):
    """The file's tablet (1024×768), reused by each test: the pages here are only looked
    at (a new tab for each was half of this file's time)."""
    return at_size(touch_tab, 1024, 768)


@pytest.fixture
def phone(touch_tab):
    return at_size(touch_tab, 390, 844)


@pytest.mark.parametrize("name", list(PAGES))
def test_page_has_no_axe_violations(site, page, name):
    base, gid, protected, printed = site
    season = api(base, "GET", "/api/seasons")["seasons"][0]["id"]
    page.goto(base + PAGES[name].format(gid=gid, protected=protected, season=season,
                                        printed=printed))
    problems = violations(page)
    assert not problems, "\n".join(problems)


#: Pages laid out differently on a phone: the scores a player per row, the records a card
#: per player, the top bar in two rows.
PHONE_PAGES = {
    "scores on a phone": "/games/{gid}",
    "season table on a phone": "/seasons/{season}?min_games=2",
    "players on a phone": "/players",
    "round on a phone": "/games/{gid}/rounds/4",
}


def violations(page) -> list[str]:
    results = axe_module.Axe().run(page, options=WCAG_21_AA)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["target"][0] for n in v["nodes"][:4])
            for v in results.response["violations"]]


@pytest.mark.parametrize("name", list(PHONE_PAGES))
def test_phone_page_has_no_axe_violations(site, phone, name):
    base, gid, _protected, _printed = site
    season = api(base, "GET", "/api/seasons")["seasons"][0]["id"]
    phone.goto(base + PHONE_PAGES[name].format(gid=gid, season=season))
    problems = violations(phone)
    assert not problems, "\n".join(problems)


def test_the_pin_page_carrying_a_refused_round_has_no_axe_violations(site, page):
    base, _gid, protected, _printed = site
    page.goto(f"{base}/games/{protected}/rounds/1")
    # The round as a device that lost its cookie sends it: the PIN page, carrying it.
    page.evaluate("""(action) => {
      const form = document.createElement('form');
      form.method = 'post'; form.action = action;
      for (const [k, v] of [['score-0', '0'], ['score-1', '7'], ['revision', '0']]) {
        const input = document.createElement('input');
        input.type = 'hidden'; input.name = k; input.value = v; form.appendChild(input);
      }
      document.body.appendChild(form); form.submit();
    }""", f"/games/{protected}/rounds/1")
    page.wait_for_selector("#carried")
    problems = violations(page)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("step", ["first start", "backup summary", "club PIN prompt",
                                  "club PIN refused", "club settings with a PIN"])
def test_the_club_pages_have_no_axe_violations(tmp_path, new_app, new_database, page, step):
    """Issue 19's pages that need a state of their own, in a fresh club."""
    from scorekeeper.storage import backup
    app = new_app({"DATABASE": new_database(tmp_path / "club.db"), "SECRET_KEY": "a11y",
                   "WTF_CSRF_ENABLED": False})
    with served(app) as base:
        page.goto(base + "/")
        if step != "first start":
            create_game(base, NAMES, scores=[[0, 5, 5, 9]], finished=True)
        if step == "backup summary":
            backup(app.config["DATABASE"], str(tmp_path / "b.sqlite"))
            page.goto(base + "/backup/restore")
            page.set_input_files("#file", str(tmp_path / "b.sqlite"))
            with page.expect_navigation():
                page.click("#check-backup")
        elif step != "first start":
            api(base, "PUT", "/api/club/pin", {"pin": "246810"})
            page.goto(base + ("/club" if step == "club settings with a PIN" else "/games/import"))
            if step == "club PIN refused":
                page.fill("#club_pin", "1111")
                with page.expect_navigation():
                    page.click("#club-pin-submit")
        results = axe_module.Axe().run(page, options=WCAG_21_AA)
    problems = [f"{v['id']} ({v['impact']}): {v['help']} — "
                + "; ".join(n["target"][0] for n in v["nodes"][:4])
                for v in results.response["violations"]]
    assert not problems, "\n".join(problems)
