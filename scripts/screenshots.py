"""Screenshots of every page at tablet and phone sizes, for looking at the UI.

    .venv/bin/python scripts/screenshots.py [OUTDIR] [--only NAME] [--lang th] [--full]

Starts the app on a temporary database (waitress, loopback), fills a demo game
with names in several scripts, and saves PNGs of each page at 1024×768,
768×1024 and 390×844 into OUTDIR (default /tmp/screens).  OUTDIR must lie
outside the checkout: screenshots are never committed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import sys
import tempfile
import threading
from datetime import date, timedelta
from pathlib import Path

from playwright.sync_api import sync_playwright
from waitress.server import create_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from scorekeeper import create_app  # noqa: E402

SIZES = {"tablet-land": (1024, 768), "tablet-port": (768, 1024), "phone": (390, 844)}
PIN = "2468"   # the demo game's scorekeeper PIN ("viewer-" shots are taken without it)
PLAYERS = ["Nguyễn Thị Hương", "Γιώργος Παπαδόπουλος", "สมชาย ใจดี", "王小明", "Siti Nurhaliza",
           "<script>alert(1)</script>"]
DEFAULT_OUT = "/tmp/screens"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options; an OUTDIR inside the checkout is refused (screenshots are never committed)."""
    parser = argparse.ArgumentParser(
        description="Screenshots of every page at 1024x768, 768x1024 and 390x844.")
    parser.add_argument("outdir", nargs="?", default=DEFAULT_OUT,
                        help=f"folder for the PNGs, outside the checkout (default {DEFAULT_OUT})")
    parser.add_argument("--only", metavar="NAME", help="only this page (e.g. round, board, conflict)")
    parser.add_argument("--lang", default=os.environ.get("SCREEN_LANG"),
                        help="every page in this language (en, vi, th, zh, ms, el)")
    parser.add_argument("--full", action="store_true", default=bool(os.environ.get("SCREEN_FULL")),
                        help="whole pages (scrolled), not only the first screen")
    parser.add_argument("--pages", default=os.environ.get("SCREEN_PAGES"), metavar="NAME=/path,...",
                        help="more pages to take ({gid} and {big} stand for the demo games)")
    args = parser.parse_args(argv)
    if inside_checkout(args.outdir):
        parser.error(f"{args.outdir} is inside the checkout {ROOT}; "
                     f"write screenshots outside it (default {DEFAULT_OUT})")
    return args


def inside_checkout(folder: str) -> bool:
    out = Path(folder).resolve()
    return out == ROOT or ROOT in out.parents


def start_server(app) -> tuple[object, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    return server, f"http://127.0.0.1:{port}"


def demo_game(app, client) -> tuple[int, str]:
    """The demo game: three rounds, a printed sheet's code, a live table for round 4."""
    game = client.post("/api/games", json={"name": "Friday club", "players": PLAYERS,
                                           "pin": PIN}).json
    gid = game["id"]
    rounds = [[0, 23, 9, 41, 12, 5], [17, 0, 30, 8, 0, 22], [4, 11, 0, 19, 27, 3]]
    for n, row in enumerate(rounds, 1):
        client.put(f"/api/games/{gid}/rounds/{n}", json={"scores": dict(zip(PLAYERS, row))}, headers={"X-Game-PIN": PIN})
    printed = client.get(f"/api/games/{gid}/verify").json["code"]   # a sheet printed now
    client.put(f"/api/games/{gid}/rounds/2", json={"scores": dict(zip(PLAYERS, [17, 0, 30, 8, 2, 22]))}, headers={"X-Game-PIN": PIN})
    # A live table for round 4 (engine 9), a few moves in.
    app.config["WTF_CSRF_ENABLED"] = False
    client.post(f"/games/{gid}/pin", data={"pin": PIN})   # this client keeps score
    live = f"/games/{gid}/rounds/4/live"
    client.post(live + "/start", data={"starter": "0", "tiles_each": "12", "active": "0"})
    for n, (tile, train) in enumerate([("9-4", "0"), ("4-4", "0"), ("4-10", "0")], 1):
        client.post(live + "/action", data={"kind": "play", "tile": tile, "train": train, "active": str(n)})
    client.post(live + "/action", data={"kind": "pass", "active": "4"})
    client.post(live + "/action", data={"kind": "pass", "active": "5"})
    app.config["WTF_CSRF_ENABLED"] = True
    return gid, printed


def club_record(client) -> int:
    """Finished games (three rounds each) and a season around today; the season's id."""
    rng = random.Random(7)
    for k in range(5):
        seated = PLAYERS[:5] if k % 2 else PLAYERS[1:6]
        done = client.post("/api/games", json={"players": seated, "start_engine": 2,
                                               "end_engine": 0}).json["id"]
        for n in (1, 2, 3):
            client.put(f"/api/games/{done}/rounds/{n}", json={"scores": {
                p: rng.choice([0, 0, 5, 12, 17, 25, 33]) for p in seated}})
    today = date.today()
    return client.post("/api/seasons", json={
        "name": "Autumn club nights", "from": (today - timedelta(days=60)).isoformat(),
        "to": (today + timedelta(days=30)).isoformat()}).json["id"]


def demo_pages(app, client) -> tuple[dict[str, str], int, int]:
    """Fill the database; each page's name and path, the demo game's id and the 14-seat game's."""
    gid, printed = demo_game(app, client)
    big = client.post("/api/games", json={"players": [f"Player {i} with a long name" for i in range(1, 15)],
                                          "set": 18}).json["id"]
    # A game in "Recently deleted", and a round 5 saved for the two-tablet conflict.
    gone = client.post("/api/games", json={"name": "Last week", "players": PLAYERS[:3]}).json["id"]
    client.delete(f"/api/games/{gone}")
    client.put(f"/api/games/{gid}/rounds/5", json={"scores": dict(zip(PLAYERS, [0, 12, 7, 30, 4, 9]))}, headers={"X-Game-PIN": PIN})
    season = club_record(client)
    pages = {
        "players": "/players", "player": "/players/" + PLAYERS[1], "seasons": "/seasons",
        "season": f"/seasons/{season}", "season-average": f"/seasons/{season}?rank_by=average&min_games=4",
        "season-board": f"/seasons/{season}/board",
        "home": "/", "new": "/games/new", "game": f"/games/{gid}", "round": f"/games/{gid}/rounds/4",
        "standings": f"/games/{gid}/standings", "history": f"/games/{gid}/history",
        "round14": f"/games/{big}/rounds/1", "game14": f"/games/{big}",
        "ruling": f"/games/{gid}/rounds/4/referee?sketch=1&current=1&last-0=4-5&last-1=3-9&mark-2=1"
                  f"&last-2=10-3&last-m=9-2&tile=9-3&train=2",
        "plays": f"/games/{gid}/rounds/4/referee/plays?sketch=1&go=1&current=0&last-m=9-2"
                 f"&hand=9-4&hand=4-4&hand=2-11",
        "plan": f"/games/{gid}/rounds/4/referee/plan?go=1&hand=9-4&hand=4-4&hand=4-11&hand=11-2"
                f"&hand=2-2&hand=5-6&hand=0-0",
        "referee-free": "/referee",
        "live": f"/games/{gid}/rounds/4/live", "live-log": f"/games/{gid}/rounds/4/live/log",
        "delete": f"/games/{gid}/delete", "deleted": "/deleted", "import": "/games/import",
        "rename": f"/games/{gid}/rename", "board": f"/games/{gid}/board",
        "rules": "/rules", "undo": f"/games/{gid}/undo", "pin-change": f"/games/{gid}/pin/change",
        "pin": f"/games/{gid}/pin", "club": "/club", "restore": "/backup/restore",
        "verify": f"/games/{gid}/verify?code={printed}", "verify-unknown": f"/games/{gid}/verify?code=ABCDE-FGHJK",
    }
    return pages, gid, big


class Shooter:
    """Takes the screenshots of one run into its folder."""

    def __init__(self, args, base: str, client, pages: dict[str, str], gid: int) -> None:
        self.args, self.base, self.client, self.pages, self.gid = args, base, client, pages, gid
        self.only, self.lang, self.out = args.only, args.lang, args.outdir

    def shot(self, page, name: str, full: bool | None = None) -> None:
        page.screenshot(path=os.path.join(self.out, name + ".png"),
                        full_page=self.args.full if full is None else full)

    def viewer(self, browser, size: str, w: int, h: int) -> None:
        """A phone or tablet that did not enter the PIN: the same pages, no buttons."""
        viewer = browser.new_context(viewport={"width": w, "height": h}, has_touch=True)
        vpage = viewer.new_page()
        if self.lang:
            vpage.goto(self.base + f"/?lang={self.lang}")
        for name in ("game", "round", "history", "live"):
            vpage.goto(self.base + self.pages[name])
            self.shot(vpage, f"viewer-{name}-{size}")
        viewer.close()

    def scorekeeper(self, browser, size: str, w: int, h: int) -> None:
        """The device that entered the game's PIN: every page, with its buttons."""
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=True)
        page = ctx.new_page()
        page.goto(self.base + f"/games/{self.gid}/pin")
        page.fill("#pin", PIN)
        page.click("#pin-submit")
        if self.lang:
            page.goto(self.base + f"/?lang={self.lang}")
        for name, path in self.pages.items():
            if (self.only and name != self.only) or name == "pin":
                continue   # this device is the scorekeeper: the PIN page sends it back
            page.goto(self.base + path)
            self.shot(page, f"{name}-{size}")
            if name == "round":
                page.click(".count-tiles >> nth=1")
                page.click("[data-tile='3-4']")
                page.click("[data-tile='0-0']")
                self.shot(page, f"pipcounter-{size}", full=False)
            if name == "import":
                page.set_input_files("input[type=file]", files=[{
                    "name": "game.json", "mimeType": "application/json",
                    "buffer": b'{"format": "mexican-train-scorekeeper", "version": 1, '
                              b'"game": {"players": ["Ann", "Bob"], "set": 7}}'}])
                page.click("#import-game")
                self.shot(page, f"import-refused-{size}", full=False)
        if not self.only or self.only == "conflict":
            self.conflict(page, size)
        ctx.close()

    def conflict(self, page, size: str) -> None:
        """Two tablets on round 5: the other one changes Bob and Chi first."""
        gid = self.gid
        page.goto(self.base + f"/games/{gid}/rounds/5")
        page.fill("#score-1", "15")
        page.fill("#score-3", "28")
        value = 13 if size == "tablet-land" else 14 if size == "tablet-port" else 16
        self.client.put(f"/api/games/{gid}/rounds/5",
                        json={"scores": dict(zip(PLAYERS, [0, value, 9, 30, 4, 9]))},
                        headers={"X-Game-PIN": PIN})
        page.click("#save-round")
        self.shot(page, f"conflict-{size}", full=True)

    def tv(self, browser) -> None:
        """The game's and the season's boards on a 1920x1080 television."""
        query = f"?lang={self.lang}" if self.lang else ""
        tv_screen = browser.new_context(viewport={"width": 1920, "height": 1080})
        tv_page = tv_screen.new_page()
        tv_page.goto(self.base + self.pages["board"] + query)
        self.shot(tv_page, "board-tv-1920", full=False)
        tv_page.goto(self.base + self.pages["season-board"] + query)
        self.shot(tv_page, "season-board-tv-1920", full=False)
        tv_screen.close()


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    tmp = tempfile.mkdtemp()
    app = create_app({"DATABASE": os.path.join(tmp, "s.db"), "SECRET_KEY": "shots"})
    server, base = start_server(app)
    client = app.test_client()
    pages, gid, big = demo_pages(app, client)
    if args.pages:  # NAME=/path,NAME=/path (use {gid} for the demo game)
        for item in args.pages.split(","):
            name, path = item.split("=", 1)
            pages[name] = path.format(gid=gid, big=big)
    shooter = Shooter(args, base, client, pages, gid)
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        for size, (w, h) in SIZES.items():
            if not args.only or args.only.startswith("viewer"):
                shooter.viewer(browser, size, w, h)
            shooter.scorekeeper(browser, size, w, h)
        if not args.only or args.only == "board":
            shooter.tv(browser)
        browser.close()
    server.close()
    print(f"Screenshots in {args.outdir}")


if __name__ == "__main__":
    main()
