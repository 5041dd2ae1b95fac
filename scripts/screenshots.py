"""Screenshots of every page at tablet and phone sizes, for looking at the UI.

    .venv/bin/python scripts/screenshots.py [OUTDIR] [--only NAME]

Starts the app on a temporary database (waitress, loopback), fills a demo game
with names in several scripts, and saves PNGs of each page at 1024×768,
768×1024 and 390×844 into OUTDIR (default /tmp/screens).
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
import threading

from playwright.sync_api import sync_playwright
from waitress.server import create_server

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scorekeeper import create_app  # noqa: E402

SIZES = {"tablet-land": (1024, 768), "tablet-port": (768, 1024), "phone": (390, 844)}
PIN = "2468"   # the demo game's scorekeeper PIN ("viewer-" shots are taken without it)
PLAYERS = ["Nguyễn Thị Hương", "Γιώργος Παπαδόπουλος", "สมชาย ใจดี", "王小明", "Siti Nurhaliza",
           "<script>alert(1)</script>"]


def main() -> None:
    argv = sys.argv[1:]
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = argv[i + 1]
        del argv[i:i + 2]
    args = argv
    out = args[0] if args else "/tmp/screens"
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp()
    app = create_app({"DATABASE": os.path.join(tmp, "s.db"), "SECRET_KEY": "shots"})
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    client = app.test_client()
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
    big = client.post("/api/games", json={"players": [f"Player {i} with a long name" for i in range(1, 15)],
                                          "set": 18}).json["id"]
    # A game in "Recently deleted", and a round 5 saved for the two-tablet conflict.
    gone = client.post("/api/games", json={"name": "Last week", "players": PLAYERS[:3]}).json["id"]
    client.delete(f"/api/games/{gone}")
    client.put(f"/api/games/{gid}/rounds/5", json={"scores": dict(zip(PLAYERS, [0, 12, 7, 30, 4, 9]))}, headers={"X-Game-PIN": PIN})
    # The club's record: finished games (three rounds each) and a season around today.
    import random
    rng = random.Random(7)
    for k in range(5):
        seated = PLAYERS[:5] if k % 2 else PLAYERS[1:6]
        done = client.post("/api/games", json={"players": seated, "start_engine": 2,
                                               "end_engine": 0}).json["id"]
        for n in (1, 2, 3):
            client.put(f"/api/games/{done}/rounds/{n}", json={"scores": {
                p: rng.choice([0, 0, 5, 12, 17, 25, 33]) for p in seated}})
    from datetime import date, timedelta
    today = date.today()
    season = client.post("/api/seasons", json={
        "name": "Autumn club nights", "from": (today - timedelta(days=60)).isoformat(),
        "to": (today + timedelta(days=30)).isoformat()}).json["id"]
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
    # SCREEN_LANG=th takes every page in that language (the device's choice, as ?lang= does).
    lang = os.environ.get("SCREEN_LANG")
    # SCREEN_FULL=1 takes whole pages (scrolled), not only the first screen.
    extra = os.environ.get("SCREEN_PAGES")
    if extra:  # NAME=/path,NAME=/path (use {gid} for the demo game)
        for item in extra.split(","):
            name, path = item.split("=", 1)
            pages[name] = path.format(gid=gid, big=big)
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        for size, (w, h) in SIZES.items():
            if not only or only.startswith("viewer"):
                # A phone or tablet that did not enter the PIN: the same pages, no buttons.
                viewer = browser.new_context(viewport={"width": w, "height": h}, has_touch=True)
                vpage = viewer.new_page()
                if lang:
                    vpage.goto(base + f"/?lang={lang}")
                for name in ("game", "round", "history", "live"):
                    vpage.goto(base + pages[name])
                    vpage.screenshot(path=os.path.join(out, f"viewer-{name}-{size}.png"),
                                     full_page=bool(os.environ.get("SCREEN_FULL")))
                viewer.close()
            ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=True)
            page = ctx.new_page()
            page.goto(base + f"/games/{gid}/pin")
            page.fill("#pin", PIN)
            page.click("#pin-submit")
            if lang:
                page.goto(base + f"/?lang={lang}")
            for name, path in pages.items():
                if only and name != only:
                    continue
                if name == "pin":
                    continue   # this device is the scorekeeper: the PIN page sends it back
                page.goto(base + path)
                page.screenshot(path=os.path.join(out, f"{name}-{size}.png"),
                                full_page=bool(os.environ.get("SCREEN_FULL")))
                if name == "round":
                    page.click(".count-tiles >> nth=1")
                    page.click("[data-tile='3-4']")
                    page.click("[data-tile='0-0']")
                    page.screenshot(path=os.path.join(out, f"pipcounter-{size}.png"))
                if name == "import":
                    page.set_input_files("input[type=file]", files=[{
                        "name": "game.json", "mimeType": "application/json",
                        "buffer": b'{"format": "mexican-train-scorekeeper", "version": 1, '
                                  b'"game": {"players": ["Ann", "Bob"], "set": 7}}'}])
                    page.click("#import-game")
                    page.screenshot(path=os.path.join(out, f"import-refused-{size}.png"))
            if not only or only == "conflict":
                # Two tablets on round 5: the other one changes Bob and Chi first.
                page.goto(base + f"/games/{gid}/rounds/5")
                page.fill("#score-1", "15")
                page.fill("#score-3", "28")
                value = 13 if size == "tablet-land" else 14 if size == "tablet-port" else 16
                client.put(f"/api/games/{gid}/rounds/5",
                           json={"scores": dict(zip(PLAYERS, [0, value, 9, 30, 4, 9]))},
                           headers={"X-Game-PIN": PIN})
                page.click("#save-round")
                page.screenshot(path=os.path.join(out, f"conflict-{size}.png"), full_page=True)
            ctx.close()
        if not only or only == "board":
            tv_screen = browser.new_context(viewport={"width": 1920, "height": 1080})
            tv_page = tv_screen.new_page()
            tv_page.goto(base + pages["board"] + (f"?lang={lang}" if lang else ""))
            tv_page.screenshot(path=os.path.join(out, "board-tv-1920.png"))
            tv_page.goto(base + pages["season-board"] + (f"?lang={lang}" if lang else ""))
            tv_page.screenshot(path=os.path.join(out, "season-board-tv-1920.png"))
            tv_screen.close()
        browser.close()
    server.close()
    print(f"Screenshots in {out}")


if __name__ == "__main__":
    main()
