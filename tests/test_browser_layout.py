"""Every page, in every language, at tablet and phone sizes: nothing scrolls sideways,
no label overflows its button, every button is big enough for a finger (44 px), a chosen
choice's words stay on its colour.

Debian's Chromium via Playwright.  Wide tables and the tile pickers scroll inside
their own boxes by design; the page itself never does.
"""

import pytest
from helpers import api, at_size, create_game, served

pytestmark = pytest.mark.browser

NAMES = ["Nguyễn Thị Hương", "Γιώργος Παπαδόπουλος", "สมชาย ใจดี", "王小明", "Siti Nurhaliza",
         "Ann"]
SIZES = {"tablet-land": (1024, 768), "tablet-port": (768, 1024), "phone": (390, 844)}
LANGUAGES = ["en", "vi", "th", "zh", "ms", "el"]
PAGES = ["/", "/games/new", "/games/{gid}", "/games/{gid}/rounds/4", "/games/{gid}/standings",
         "/games/{gid}/history", "/games/{gid}/rounds/4/referee?current=1&last-0=9-5&tile=5-3&train=0",
         "/games/{gid}/rounds/4/referee/plan?go=1&hand=9-2&hand=2-2", "/games/{gid}/rounds/4/live",
         "/games/{gid}/board", "/rules", "/deleted", "/players", "/players/Nguyễn Thị Hương",
         "/seasons", "/seasons/{sid}", "/seasons/{sid}/board", "/club", "/backup/restore",
         "/games/{gid}/verify?code={printed}", "/games/{gid}/verify?code=ZZZZZ-ZZZZZ"]

CHECK = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1)
    out.push(`the page is ${document.documentElement.scrollWidth}px wide on a ${width}px screen`);
  for (const chosen of document.querySelectorAll('.pill input:checked + span'))
    for (const inner of chosen.querySelectorAll('*'))
      if (getComputedStyle(inner).backgroundColor !== 'rgba(0, 0, 0, 0)'
          || parseFloat(getComputedStyle(inner).borderTopWidth))
        out.push(`"${chosen.textContent.trim().slice(0, 40)}" is chosen, but a box inside it hides its words`);
  for (const el of document.querySelectorAll('button, .button, .pill > span, .toggle span, summary')) {
    const box = el.getBoundingClientRect();
    if (!box.width || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.scrollWidth > el.clientWidth + 2)
      out.push(`"${el.textContent.trim().slice(0, 40)}" overflows its button`);
    if (el.matches('.button, button:not(.tile-btn)') && (box.height < 43.5 || box.width < 43.5))
      out.push(`"${el.textContent.trim().slice(0, 40)}" is ${Math.round(box.width)}x${Math.round(box.height)} px`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site(browser, tmp_path_factory, new_app, new_database):
    """The app served with seed()'s games: (base URL, (game id, season id))."""
    app = new_app({"DATABASE": new_database(tmp_path_factory.mktemp("layout") / "l.db"),
                   "SECRET_KEY": "layout", "WTF_CSRF_ENABLED": False})
    with served(app) as base:
        yield base, seed(app, base)


def seed(app, base) -> tuple[str, str, str]:
    """A 6-player game three rounds in, a live table started, a finished game and a season
    around today: answers the game's and the season's ids, and the code of a sheet printed
    before round 3 was corrected."""
    gid = create_game(base, NAMES, name="Đêm thứ Sáu", scores=[
        [0, 23, 9, 41, 12, 5], [17, 0, 30, 8, 2, 22], [4, 11, 0, 19, 27, 3]])["id"]
    printed = api(base, "GET", f"/api/games/{gid}/verify")["code"]
    api(base, "PUT", f"/api/games/{gid}/rounds/3",
        {"scores": dict(zip(NAMES, [4, 11, 0, 19, 27, 8]))})
    client = app.test_client()
    client.post(f"/games/{gid}/rounds/4/live/start", data={"starter": "0", "tiles_each": "12"})
    client.post(f"/games/{gid}/rounds/4/live/action", data={"kind": "play", "tile": "9-4",
                                                            "train": "0"})
    create_game(base, NAMES, scores=[[0, 5, 5, 9, 2, 30]], finished=True)
    sid = api(base, "POST", "/api/seasons", {"name": "Mùa thu 2026", "from": "2000-01-01",
                                             "to": "2100-12-31"})["id"]
    return gid, sid, printed


#: Phones in every language; tablets in the languages whose words run longest.
CASES = [(lang, "phone") for lang in LANGUAGES] + [
    (lang, size) for lang in ("en", "th", "el") for size in ("tablet-land", "tablet-port")]
#: Each language's sizes: one page load is looked at in each of them in turn (the pages'
#: layout is CSS alone, so a resized page lays out as one loaded at that size; a load
#: costs far more than a resize, and the suite had 252 loads here).
SIZES_OF = {lang: [size for case_lang, size in CASES if case_lang == lang]
            for lang in LANGUAGES}


def at_each_size(page, sizes, where: str) -> list[str]:
    """CHECK's problems on the page as loaded, at each of *sizes* in turn."""
    problems = []
    for size in sizes:
        w, h = SIZES[size]
        page.set_viewport_size({"width": w, "height": h})
        problems += [f"{where} at {size}: {p}" for p in page.evaluate(CHECK)]
    return problems


def layout_screen(tab, sizes):
    """The file's touch screen (conftest's ``touch_tab``) at the first of *sizes*."""
    return at_size(tab, *SIZES[sizes[0]])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_fit(touch_tab, site, lang):
    base, (gid, sid, printed) = site
    sizes = SIZES_OF[lang]
    page = layout_screen(touch_tab, sizes)
    page.goto(f"{base}/?lang={lang}")
    problems = []
    for path in PAGES:
        page.goto(base + path.format(gid=gid, sid=sid, printed=printed))
        problems += at_each_size(page, sizes, path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_club_pages_fit(touch_tab, tmp_path, new_app, new_database, lang):
    """Issue 19's pages that need a state of their own: the first start, the club PIN's
    prompt (with a form carried along and a file to choose again) and a backup's summary."""
    app = new_app({"DATABASE": new_database(tmp_path / "club.db"), "SECRET_KEY": "layout",
                   "WTF_CSRF_ENABLED": False})
    sizes = SIZES_OF[lang]
    with served(app) as base:
        page = layout_screen(touch_tab, sizes)
        page.goto(f"{base}/?lang={lang}")
        problems = at_each_size(page, sizes, "first start")
        create_game(base, NAMES, name="Đêm thứ Sáu", scores=[[0, 5, 5, 9, 2, 30]],
                    finished=True)
        backup = tmp_path / "b.sqlite"
        from scorekeeper.storage import backup as make_backup
        make_backup(app.config["DATABASE"], str(backup))
        page.goto(f"{base}/backup/restore")
        page.set_input_files("#file", str(backup))
        with page.expect_navigation():
            page.click("#check-backup")
        problems += at_each_size(page, sizes, "summary")
        api(base, "PUT", "/api/club/pin", {"pin": "246810"})
        page.goto(f"{base}/games/import")
        problems += at_each_size(page, sizes, "prompt")
        page.goto(f"{base}/club")
        problems += at_each_size(page, sizes, "settings")
    assert not problems, "\n".join(problems)


#: On a phone, each marker beside its name (issue 26, item 4): the marker's box overlaps
#: its name's first line (never a line of its own above it), a short name that fits keeps
#: to one line ("王小明" was "王小 / 明"), and the phone's score grid marks every player.
MARKERS = """() => {
  const out = [];
  for (const mark of document.querySelectorAll('.train-mark')) {
    const name = mark.nextElementSibling;
    if (!name || !name.matches('bdi, a') || !mark.getClientRects().length) continue;
    if (mark.closest('.player-col, .board-name')) continue;   // a column's head: above, by design
    const m = mark.getBoundingClientRect(), lines = name.getClientRects();
    if (!lines.length) continue;
    const first = lines[0];
    const label = name.textContent.trim().slice(0, 30);
    if (m.bottom <= first.top + 2 || m.top >= first.bottom - 2)
      out.push(`the marker of "${label}" is not on its name's first line`);
    const text = name.textContent.trim();
    const lineHeight = parseFloat(getComputedStyle(name).lineHeight) || 20;
    if (text.length <= 4 && name.getBoundingClientRect().height > lineHeight * 1.5)
      out.push(`"${text}" breaks over lines`);
  }
  for (const row of document.querySelectorAll('.players-down tbody tr'))
    if (!row.querySelector('.player-head .train-mark'))
      out.push(`the phone's score grid has no marker for "${row.querySelector('.player-head').textContent.trim()}"`);
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_on_a_phone_each_marker_stands_beside_its_name(touch_tab, site, lang):
    base, (gid, sid, _printed) = site
    short = create_game(base, ["王小明", "李娜", "Ann", "Konstantinopoulou-Papadimitriou"],
                        name="Short names", scores=[[0, 5, 9, 2]])["id"]
    page = at_size(touch_tab, 390, 844)
    page.goto(f"{base}/?lang={lang}")
    problems = []
    for path in ("/games/{gid}", "/games/{gid}/standings", "/games/{short}",
                 "/games/{short}/standings", "/players/王小明", "/players/Γιώργος Παπαδόπουλος",
                 "/seasons/{sid}"):
        page.goto(base + path.format(gid=gid, sid=sid, short=short))
        problems += [f"{path}: {p}" for p in page.evaluate(MARKERS)]
    assert not problems, "\n".join(problems)
