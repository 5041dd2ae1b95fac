"""On a tablet's home screen like an app: the web app manifest, its icons and the
apple-touch-icon, linked from every page, served with their types, allowed by the CSP
(issue 18, item 7)."""

import json

import pytest

from helpers import create_game

PAGES = ["/", "/games/new", "/games/{gid}", "/games/{gid}/rounds/1", "/games/{gid}/standings",
         "/games/{gid}/history", "/games/{gid}/rounds/1/referee", "/games/{gid}/rounds/1/live",
         "/games/{gid}/board", "/games/{gid}/pin", "/referee", "/rules", "/players",
         "/seasons", "/deleted", "/games/import", "/no-such-page"]


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height a PNG's header gives (IHDR, the first chunk)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize("path", PAGES)
def test_every_page_links_the_manifest_and_the_touch_icon(client, game_factory, path):
    gid = game_factory(pin="2468")["id"]
    html = client.get(path.format(gid=gid)).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=en">' in html
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in html
    assert '<meta name="theme-color" content="#223333">' in html


@pytest.mark.parametrize("lang, name, short", [
    ("en", "Mexican Train Scorekeeper", "Scorekeeper"),
    ("th", "จดคะแนนรถไฟเม็กซิกัน", "จดคะแนน"),
    ("el", "Σκορ Μεξικάνικου τρένου", "Σκορ τρένου"),
])
def test_the_manifest(client, lang, name, short):
    r = client.get(f"/manifest.webmanifest?lang={lang}")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    manifest = json.loads(r.get_data(as_text=True))
    assert {k: manifest[k] for k in ("name", "short_name", "lang", "start_url", "scope",
                                     "display", "theme_color", "background_color")} == {
        "name": name, "short_name": short, "lang": lang, "start_url": "/", "scope": "/",
        "display": "standalone", "theme_color": "#223333", "background_color": "#faf7f0"}
    assert {(i["sizes"], i["purpose"]) for i in manifest["icons"]} == {
        ("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"),
        ("512x512", "maskable")}
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == icon["type"] == "image/png"
        assert "%dx%d" % png_size(image.data) == icon["sizes"]


def test_the_touch_icon_is_a_full_square_of_180(client):
    image = client.get("/static/icons/apple-touch-icon.png")
    assert image.mimetype == "image/png" and png_size(image.data) == (180, 180)
    # Full square: a PNG without transparency (colour type 2, RGB), as iOS asks.
    assert image.data[25] == 2


@pytest.mark.browser
def test_chromium_reads_the_manifest_under_the_csp(live_server, browser):
    gid = create_game(live_server)["id"]
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = context.new_page()
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.goto(f"{live_server}/games/{gid}?lang=el")
    cdp = context.new_cdp_session(page)
    got = cdp.send("Page.getAppManifest")
    context.close()
    assert got["url"].endswith("/manifest.webmanifest?lang=el") and got["errors"] == []
    manifest = json.loads(got["data"])
    assert manifest["short_name"] == "Σκορ τρένου" and manifest["display"] == "standalone"
    assert refused == []
