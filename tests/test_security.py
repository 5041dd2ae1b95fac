"""Security basics: headers on every response, no inline script or style, redirects that
stay in the app, private files, and an optional list of trusted host names."""

from __future__ import annotations

import os
import re
import stat

import pytest

from scorekeeper import create_app
from scorekeeper.views import safe_next

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


@pytest.fixture
def gid(client, game_factory):
    """A game with a round scored and a live table kept for round 2: every kind of page."""
    gid = game_factory(name="Friday", scores=[[0, 4, 9]])["id"]
    client.post(f"/games/{gid}/rounds/2/live/start", data={"starter": "0", "tiles_each": "12"})
    return gid


PAGES = ["/", "/games/new", "/games/{gid}", "/games/{gid}/rounds/1", "/games/{gid}/standings",
         "/games/{gid}/history", "/games/{gid}/rename", "/games/{gid}/delete", "/deleted",
         "/games/import", "/games/{gid}/rounds/2/live", "/games/{gid}/rounds/2/live/log",
         "/games/{gid}/rounds/1/referee?tile=3-4&train=0", "/games/{gid}/rounds/1/referee/plays",
         "/games/{gid}/rounds/1/referee/plan", "/referee", "/nowhere"]


@pytest.mark.parametrize("path", PAGES + ["/static/app.css", "/static/app.js", "/healthz",
                                          "/api/games", "/api/nowhere", "/backup.sqlite",
                                          "/games/{gid}/export.json"])
def test_every_response_has_the_security_headers(client, gid, path):
    r = client.get(path.format(gid=gid))
    assert r.headers["Content-Security-Policy"] == CSP
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("path", PAGES)
def test_pages_have_no_inline_script_or_style(client, gid, path):
    html = client.get(path.format(gid=gid)).get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)          # only <script src=…>
    assert not re.search(r"\sstyle\s*=", html)                     # CSP blocks style="…"
    assert not re.search(r"<style\b", html)
    assert not re.search(r"\son[a-z]+\s*=", html)                  # no onclick=…
    assert "javascript:" not in html


def test_session_cookie_is_same_site_lax(client):
    r = client.get("/games/new")   # the form's CSRF token lives in the session
    cookie = r.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie


@pytest.mark.parametrize("target, expected", [
    ("/games/abc", "/games/abc"),
    ("/games/abc?x=1#y", "/games/abc?x=1#y"),
    ("https://evil.example/", "/home"),
    ("http:/evil.example", "/home"),
    ("//evil.example/x", "/home"),
    ("/\\evil.example", "/home"),
    ("/\\/evil.example", "/home"),
    ("\\\\evil.example", "/home"),
    ("javascript:alert(1)", "/home"),
    (" /games/abc", "/home"),
    ("/games/abc\r\nSet-Cookie: x=1", "/home"),
    ("games/abc", "/home"),
    ("", "/home"),
    (None, "/home"),
])
def test_safe_next(target, expected):
    assert safe_next(target, "/home") == expected


@pytest.mark.parametrize("evil", ["https://evil.example/", "//evil.example/", "/\\evil.example"])
def test_rename_and_undo_never_redirect_elsewhere(client, gid, evil):
    r = client.post(f"/games/{gid}/rename?next={evil}", data={"name": "Sat"})
    assert r.status_code == 302 and r.location == f"/games/{gid}"
    r = client.post(f"/games/{gid}/undo", data={"next": evil})
    assert r.status_code == 302 and r.location == f"/games/{gid}/history"
    r = client.post(f"/games/{gid}/rename?next=/", data={"name": "Sun"})
    assert r.location == "/"   # a path of the app is still followed


def test_database_and_instance_folder_are_private(app, game_factory):
    import sqlite3
    db = app.config["DATABASE"]
    server = sqlite3.connect(db)        # an open connection keeps -wal and -shm in place
    server.execute("select 1 from games").fetchall()
    game_factory()
    for path in (db, db + "-wal", db + "-shm"):
        assert os.path.exists(path), path
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
    assert stat.S_IMODE(os.stat(app.instance_path).st_mode) == 0o700
    server.close()


def test_an_existing_database_is_made_private_at_start(tmp_path):
    db = tmp_path / "old.db"
    create_app({"DATABASE": str(db), "SECRET_KEY": "k"})
    os.chmod(db, 0o644)
    create_app({"DATABASE": str(db), "SECRET_KEY": "k"})
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600


@pytest.fixture
def trusted(database, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "scorekeeper.lan, 192.168.1.20")
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k"})
    assert app.config["TRUSTED_HOSTS"] == ["scorekeeper.lan", "192.168.1.20"]
    return app.test_client()


@pytest.mark.parametrize("host, status", [
    ("scorekeeper.lan", 200), ("scorekeeper.lan:5000", 200), ("192.168.1.20:5000", 200),
    ("evil.example", 400), ("evil.example:5000", 400), ("scorekeeper.lan.evil.example", 400),
])
def test_trusted_hosts(trusted, host, status):
    r = trusted.get("/", headers={"Host": host})
    assert r.status_code == status
    if status == 400:
        assert "does not answer at this address" in r.get_data(as_text=True)
        r = trusted.get("/api/games", headers={"Host": host})
        assert r.status_code == 400 and "TRUSTED_HOSTS" in r.get_json()["error"]
