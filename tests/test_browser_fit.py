"""What a person sees fits the screen (issue 18, items 3 to 6), measured in Debian's
Chromium at a phone (390×844) and both ways of a tablet (768×1024, 1024×768):

- every tile picker, for every set: no tile hidden to the right (the grid's scrollWidth
  is its clientWidth), a dialog inside the screen with its title and buttons in view, and
  no bar kept on screen (the top bar, the sticky buttons) over a tile when the tile is in
  view; on a page, a picker is never a scroll box inside the page;
- the top bar: at most two rows on a phone and a portrait tablet, one on a 1024-wide
  tablet, in each of the six languages, and the app's name never cut;
- the scores, the standings and the season table on a phone: every player's name, total
  and place in view without scrolling sideways, with 8 and 14 players and long names;
- the join boxes: the QR code fills its box, the address sits right by it and breaks
  only after a "/".
"""

import pytest

from helpers import api, at_size, create_game, open_count_tiles, served
from scorekeeper.tiles import SETS

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "tablet-port": (768, 1024), "tablet-land": (1024, 768)}
LANGUAGES = ["en", "vi", "th", "zh", "ms", "el"]

#: A tile picker's measurements, one JS function: *picker* is the grid, *dialog* the
#: dialog it sits in (or null).  Each tile is brought into view as a finger would (in
#: the dialog, its grid scrolled to it; on a page, the page scrolled to put it in the
#: middle of the screen) and must then be the element under its own centre.
MEASURE = """([picker, dialog]) => {
  const grid = document.querySelector(picker);
  const out = [];
  const rect = el => el.getBoundingClientRect();
  if (grid.scrollWidth > grid.clientWidth + 1)
    out.push(`${picker}: ${grid.scrollWidth}px of tiles in ${grid.clientWidth}px`);
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) out.push(`the page scrolls sideways`);
  if (dialog) {
    const d = rect(document.querySelector(dialog));
    if (d.top < 0 || d.bottom > innerHeight + 0.5 || d.left < 0 || d.right > innerWidth + 0.5)
      out.push(`${dialog} is ${Math.round(d.left)},${Math.round(d.top)} to ${Math.round(d.right)},${Math.round(d.bottom)} on ${innerWidth}x${innerHeight}`);
    for (const part of document.querySelectorAll(`${dialog} h2, ${dialog} footer button`)) {
      const r = rect(part);
      if (r.top < d.top - 0.5 || r.bottom > d.bottom + 0.5 || r.height === 0)
        out.push(`${dialog}: "${part.textContent.trim()}" is not in view`);
    }
  } else if (grid.scrollHeight > grid.clientHeight + 1) {
    out.push(`${picker} is a scroll box inside the page (${grid.scrollHeight}px in ${grid.clientHeight}px)`);
  }
  for (const tile of grid.querySelectorAll('.tile-btn, .tile-choice')) {
    if (dialog) {
      tile.scrollIntoView({block: 'nearest', inline: 'nearest'});
    } else {
      const r = rect(tile);
      window.scrollBy(0, r.top + r.height / 2 - innerHeight / 2);
    }
    const r = rect(tile);
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const name = tile.dataset.tile || tile.title;
    if (r.right > innerWidth + 0.5 || r.left < -0.5) out.push(`${name} is off the screen sideways`);
    else if (!hit || !(tile === hit || tile.contains(hit)))
      out.push(`${name} is covered by ${hit ? (hit.closest('[class]') || hit).className : 'nothing'}`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def table(tmp_path_factory, new_app, new_database):
    """A served app with, for every set, a game of four (a live table started in round 1):
    (base URL, {set: game id})."""
    app = new_app({"DATABASE": new_database(tmp_path_factory.mktemp("fit") / "f.db"),
                   "SECRET_KEY": "fit", "WTF_CSRF_ENABLED": False})
    with served(app) as base:
        games = {}
        client = app.test_client()
        for set_n in SETS:
            gid = create_game(base, ["Nguyễn Thị Hương", "Γιώργος Παπαδόπουλος", "สมชาย ใจดี",
                                     "Siti Nurhaliza"], set=set_n)["id"]
            client.post(f"/games/{gid}/rounds/1/live/start",
                        data={"starter": "0", "tiles_each": "5", "active": "0"})
            games[set_n] = gid
        yield base, games


def screen(tab, size):
    """The file's touch screen (conftest's ``touch_tab``) at *size*, with no cookies."""
    return at_size(tab, *SIZES[size])


@pytest.mark.parametrize("set_n", SETS)
def test_every_picker_fits(touch_tab, table, set_n):
    """Each picker opened once, on a phone, and measured at each size in turn (a picker's
    layout is CSS alone: resized, it lays out as one opened at that size; each page load
    and opening took longer than a measurement)."""
    base, games = table
    gid = games[set_n]
    page = screen(touch_tab, "phone")
    problems = []

    def measure(where, picker, dialog=None):
        for size, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            problems.extend(f"{size} {where}: {p}"
                            for p in page.evaluate(MEASURE, [picker, dialog]))
        w, h = SIZES["phone"]
        page.set_viewport_size({"width": w, "height": h})   # back, for the next tap

    page.goto(f"{base}/games/{gid}/rounds/1")
    open_count_tiles(page, "[data-seat='1']")
    measure("Count tiles", "#pip-picker", "#pip-counter")
    page.goto(f"{base}/games/{gid}/rounds/1/referee?sketch=1")
    measure("Which tile?", ".referee-form .choice-picker")
    page.evaluate("window.scrollTo(0, 0)")
    page.click(".train-sketch[data-train='0'] .last-btn")
    measure("Pick the last tile", "#last-picker", "#last-dialog")
    page.goto(f"{base}/games/{gid}/rounds/1/live")
    measure("Live table", "#play-form .choice-picker")
    for tab in ("plays", "plan"):
        page.goto(f"{base}/games/{gid}/rounds/1/referee/{tab}")
        measure(tab, ".choice-picker")
    assert not problems, "\n".join(problems)


HEADER_ROWS = """() => {
  // The rows of the top bar: its parts (the name, the language, each link) by where they
  // start, any two starting within 8 px being one row.
  const bar = document.querySelector('.topbar');
  const parts = [bar.querySelector('.brand'), bar.querySelector('.lang-picker summary'),
                 ...bar.querySelectorAll('nav a')];
  const tops = [];
  for (const p of parts) {
    const t = p.getBoundingClientRect().top;
    if (!tops.some(u => Math.abs(u - t) < 8)) tops.push(t);
  }
  const brand = bar.querySelector('.brand').getBoundingClientRect();
  const name = bar.querySelector('.brand span');
  const cut = name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1;
  return {rows: tops.length, height: Math.round(bar.getBoundingClientRect().height),
          brand: Math.round(brand.width), cut: cut ? `"${name.textContent.trim()}" in ${name.clientWidth}px` : ""};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_top_bar_keeps_to_its_rows(touch_tab, table, lang):
    """Each page loaded once and its top bar measured at each size in turn (the bar's
    layout is CSS alone: resized, it lays out as loaded at that size)."""
    base, games = table
    gid = games[12]
    allowed = {"phone": 2, "tablet-port": 2, "tablet-land": 1}
    problems = []
    page = screen(touch_tab, "phone")
    page.goto(f"{base}/?lang={lang}")
    for path in ("/", f"/games/{gid}", f"/games/{gid}/rounds/1", "/rules", "/players"):
        page.goto(base + path)
        for size, most in allowed.items():
            w, h = SIZES[size]
            page.set_viewport_size({"width": w, "height": h})
            bar = page.evaluate(HEADER_ROWS)
            if bar["rows"] > most or bar["brand"] < 44:
                problems.append(f"{size} {path}: {bar}")
            if bar["cut"]:
                # Greek's name was cut ("Σκορ για το Μεξικάνικ…") at 1024 and 390 px (issue
                # 26, item 5): it gives way onto a second line instead.
                problems.append(f"{size} {path}: the app's name is cut ({bar['cut']})")
    assert not problems, "\n".join(problems)


LONG_NAMES = ["Maximilian Alexander von Hohenberg", "Nguyễn Thị Thanh Hương Giang",
              "Γιώργος Παπαδόπουλος-Καραγιάννης", "สมชาย ใจดีมีสุขเสมอไป", "王小明", "Siti Nurhaliza binti Tarudin",
              "María José Fernández de la Peña", "Ann", "Bob", "Christopher Montgomery",
              "Dimitra Alexandropoulou", "Trần Văn Bảo Long", "Aleksandra Wiśniewska-Kowalczyk",
              "Kittisak Wongsawat"]

#: Which boxes must be in view, for each player, on each page: every player's name, total
#: and place, found by where they are in the table's rows.
IN_VIEW = """(rowSelector) => {
  const out = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) out.push(`the page scrolls sideways`);
  const rows = [...document.querySelectorAll(rowSelector)].filter(r => r.offsetParent);
  for (const row of rows) {
    const wrap = row.closest('.table-wrap, .grid-wrap');
    const box = wrap.getBoundingClientRect();
    const right = Math.min(box.right, page.clientWidth);
    for (const cell of row.querySelectorAll('[data-must-see]')) {
      const r = cell.getBoundingClientRect();
      if (r.width === 0 || r.left < box.left - 0.5 || r.right > right + 0.5)
        out.push(`${cell.dataset.mustSee} of ${row.textContent.trim().slice(0, 30)} is out of view (${Math.round(r.left)} to ${Math.round(r.right)}, the box ${Math.round(box.left)} to ${Math.round(right)})`);
    }
  }
  if (!rows.length) out.push(`no rows ${rowSelector}`);
  return [rows.length, out];
}"""

MARK = """([rowSelector, marks]) => {
  for (const row of document.querySelectorAll(rowSelector))
    for (const [what, selector] of Object.entries(marks))
      for (const cell of row.querySelectorAll(selector)) cell.dataset.mustSee = what;
}"""


@pytest.mark.parametrize("count", [8, 14])
def test_a_phone_shows_every_players_name_total_and_place(touch_tab, tmp_path, new_app,
                                                         new_database, count):
    app = new_app({"DATABASE": new_database(tmp_path / "p.db"), "SECRET_KEY": "phone",
                   "WTF_CSRF_ENABLED": False})
    names = LONG_NAMES[:count]
    with served(app) as base:
        scores = [[(7 * i + 3 * r) % 40 if i != r else 0 for i in range(count)]
                  for r in range(13)]
        gid = create_game(base, names, name="Long names", scores=scores[:5])["id"]
        create_game(base, names, scores=scores[:2], finished=True)
        sid = api(base, "POST", "/api/seasons", {"name": "Autumn", "from": "2000-01-01",
                                                 "to": "2100-12-31"})["id"]
        page = screen(touch_tab, "phone")
        problems = []
        for path, rows, marks in [
                (f"/games/{gid}", ".by-player tbody tr",
                 {"name": ".player-head", "total": ".total-cell", "place": ".place"}),
                (f"/games/{gid}/standings", "table.standings tbody tr",
                 {"place": "td:nth-child(1)", "name": "td.name", "total": "td.total"}),
                (f"/seasons/{sid}", "table.season-table tbody tr:not(:has(th))",
                 {"place": ".place-cell", "name": "td.name", "figures": "td.num"}),
                ("/players", "table.records tbody tr",
                 {"name": "td.name", "figures": "td.num"})]:
            page.goto(base + path)
            page.evaluate(MARK, [rows, marks])
            seen, out = page.evaluate(IN_VIEW, rows)
            problems += [f"{path}: {p}" for p in out]
            if seen != count:
                problems.append(f"{path}: {seen} players shown of {count}")
    assert not problems, "\n".join(problems)


JOIN_BOX = """([box, qr, url]) => {
  const out = [];
  const code = document.querySelector(`${box} ${qr} svg`);
  const address = document.querySelector(`${box} ${url}`);
  const c = code.getBoundingClientRect(), drawn = code.querySelector('path').getBoundingClientRect();
  if (drawn.height < c.height * 0.97) out.push(`the code fills ${Math.round(drawn.height)} of its ${Math.round(c.height)}px`);
  const a = address.getBoundingClientRect();
  const beside = a.left >= c.right - 1;
  const gap = beside ? a.top - c.top : a.top - c.bottom;
  if (gap > 24) out.push(`${Math.round(gap)}px between the code and its address (${beside ? 'beside' : 'below'})`);
  // Where the address breaks: each line but the last ends with "/", none is "/" alone.
  const text = address.textContent, lines = [];
  let top = null;
  const walker = document.createTreeWalker(address, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getClientRects()[0];
      if (!r) continue;
      if (top === null || r.top > top + 2) { lines.push(''); top = r.top; }
      lines[lines.length - 1] += node.data[i];
    }
  }
  lines.slice(0, -1).forEach(l => { if (!l.endsWith('/')) out.push(`the address breaks after "${l}"`); });
  lines.forEach(l => { if (l.trim() === '/') out.push(`a "/" alone on a line`); });
  if (lines.join('') !== text) out.push(`the address reads "${lines.join('')}"`);
  return out;
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_join_boxes_hold_together(touch_tab, tmp_path, new_app, new_database, size):
    app = new_app({"DATABASE": new_database(tmp_path / "j.db"), "SECRET_KEY": "join",
                   "PUBLIC_URL": "http://192.168.100.200:5000/"})
    with served(app) as base:
        gid = create_game(base, name="Friday")["id"]
        page = screen(touch_tab, size)
        problems = []
        for path, box in (("/", ".join"), (f"/games/{gid}", ".game-join")):
            page.goto(base + path)
            problems += [f"{path}: {p}" for p in page.evaluate(JOIN_BOX,
                                                               [box, ".qr", ".join-url"])]
    assert not problems, "\n".join(problems)
