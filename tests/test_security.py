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


@pytest.mark.parametrize("path", PAGES + ["/static/app.css", "/static/js/updates.js", "/healthz",
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
    assert app.config["TRUSTED_HOST_NAMES"] == ["scorekeeper.lan", "192.168.1.20"]
    return app.test_client()


@pytest.mark.parametrize("host, status", [
    ("scorekeeper.lan", 200), ("scorekeeper.lan:5000", 200), ("192.168.1.20:5000", 200),
    ("evil.example", 400), ("evil.example:5000", 400), ("scorekeeper.lan.evil.example", 400),
])
def test_trusted_hosts(trusted, host, status):
    r = trusted.get("/", headers={"Host": host})
    assert r.status_code == status
    if status == 400:
        assert "does not answer to the name" in r.get_data(as_text=True)
        r = trusted.get("/api/games", headers={"Host": host})
        assert r.status_code == 400 and "TRUSTED_HOSTS" in r.get_json()["error"]


# --- trusted hosts by default (issue 19, item 4: DNS rebinding) ------------------------

@pytest.fixture
def own_address(monkeypatch):
    """This machine's LAN address, as netinfo reads it from the interfaces."""
    from scorekeeper import hosts
    monkeypatch.setattr(hosts, "lan_addresses", lambda: ["192.168.1.20"])
    return "192.168.1.20"


def host_app(database, **config):
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k", **config})


@pytest.mark.parametrize("host", ["localhost", "localhost:5000", "127.0.0.1:5000", "[::1]:5000",
                                  "192.168.1.20:5000", "LOCALHOST.", "club.example:8080"])
def test_this_machine_and_public_url_are_trusted_by_default(database, own_address, host):
    client = host_app(database, PUBLIC_URL="http://club.example:8080/").test_client()
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_the_machines_own_name_is_trusted(database, own_address):
    import socket
    client = host_app(database).test_client()
    name = socket.gethostname()
    for host in (name, f"{name}.local:5000"):
        assert client.get("/healthz", headers={"Host": host}).status_code == 200, host


@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "192.168.1.21:5000",
                                  "localhost.evil.example", "[::2]:5000", "127.0.0.2",
                                  "[::1]evil.example", "[::1]:5000evil.example", "[::1]:"])
def test_any_other_host_is_refused_by_default_with_how_to_add_it(database, own_address, host):
    client = host_app(database).test_client()
    r = client.get("/", headers={"Host": host})
    assert r.status_code == 400 and r.mimetype == "text/plain"
    name = host.rsplit(":", 1)[0] if not host.startswith("[") else host
    text = r.get_data(as_text=True)
    assert "does not answer to the name" in text and "TRUSTED_HOSTS" in text
    assert "SCOREKEEPER_TRUSTED_HOSTS" in text and name in text
    assert r.headers["Content-Security-Policy"] == CSP
    r = client.post("/api/games", json={"players": ["Ann", "Bob"]}, headers={"Host": host})
    assert r.status_code == 400 and "TRUSTED_HOSTS" in r.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []       # nothing stored


def test_the_owner_adds_names_to_the_defaults(database, own_address):
    client = host_app(database, TRUSTED_HOSTS=["scorekeeper.lan", ".club.lan"]).test_client()
    for host, status in [("scorekeeper.lan", 200), ("tv.club.lan:5000", 200), ("club.lan", 400),
                         ("127.0.0.1", 200), ("192.168.1.20", 200), ("evil.example", 400)]:
        assert client.get("/healthz", headers={"Host": host}).status_code == status, host


def test_a_star_answers_any_host(database, own_address, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "*")
    client = host_app(database).test_client()
    assert client.get("/", headers={"Host": "anything.example"}).status_code == 200


def test_a_new_address_of_this_machine_is_trusted_without_a_restart(database, monkeypatch):
    from scorekeeper import hosts
    addresses = ["192.168.1.20"]
    monkeypatch.setattr(hosts, "lan_addresses", lambda: list(addresses))
    monkeypatch.setattr(hosts, "REREAD", 0.0)
    client = host_app(database).test_client()
    assert client.get("/healthz", headers={"Host": "10.0.0.7"}).status_code == 400
    addresses.append("10.0.0.7")     # the laptop joined another network
    assert client.get("/healthz", headers={"Host": "10.0.0.7"}).status_code == 200


def test_the_real_server_refuses_a_foreign_host(live_server):
    import http.client
    from urllib.parse import urlsplit
    port = urlsplit(live_server).port
    for host, status in [("evil.example", 400), (f"127.0.0.1:{port}", 200),
                         (f"localhost:{port}", 200)]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/", headers={"Host": host})
        r = conn.getresponse()
        body = r.read().decode()
        conn.close()
        assert r.status == status, host
        if status == 400:
            assert "TRUSTED_HOSTS" in body and r.getheader("X-Frame-Options") == "DENY"


# --- waitress's own answers (issue 19, item 6) -----------------------------------------

def raw_answer(port: int, request: bytes) -> str:
    """What the real server answers to *request*, sent as is, a piece at a time (waitress
    answers a header too large before it is all sent, and closes)."""
    import select
    import socket
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        for i in range(0, len(request), 4096):
            try:
                s.sendall(request[i:i + 4096])
            except OSError:
                break
            if select.select([s], [], [], 0)[0]:
                break
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except ConnectionResetError:
            pass
    return data.decode("latin-1")


@pytest.mark.parametrize("request_bytes, status", [
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nA header line without a colon\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n", 431),
])
def test_the_servers_own_error_answers_carry_the_security_headers(live_server, request_bytes,
                                                                   status):
    port = int(live_server.rsplit(":", 1)[1])
    answer = raw_answer(port, request_bytes)
    head = answer.split("\r\n\r\n", 1)[0]
    assert head.split("\r\n")[0].split(" ")[1] == str(status), head
    headers = dict(line.split(": ", 1) for line in head.split("\r\n")[1:])
    assert headers["Content-Security-Policy"] == CSP
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    # The server goes on answering, each header once.
    answer = raw_answer(port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              b"Connection: close\r\n\r\n")
    assert answer.startswith("HTTP/1.1 200") and answer.endswith("ok\n")
    assert answer.count("X-Frame-Options") == 1


def test_the_app_asks_once_whether_a_hook_is_a_coroutine(app, monkeypatch):
    """web.App remembers Flask's ensure_sync answer per function (Flask asks for every hook
    and view of every request); an unhashable callable is asked about each time."""
    from flask import Flask
    asked = []
    original = Flask.ensure_sync
    monkeypatch.setattr(Flask, "ensure_sync",
                        lambda self, f: asked.append(f) or original(self, f))

    def hook():
        return None

    class Unhashable:
        __hash__ = None

        def __call__(self):
            return None

    odd = Unhashable()
    assert app.ensure_sync(hook) is hook
    assert app.ensure_sync(hook) is hook
    assert app.ensure_sync(odd) is odd
    assert app.ensure_sync(odd) is odd
    assert asked == [hook, odd, odd]
