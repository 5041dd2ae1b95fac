"""Every route refuses a body over its limit before reading it (issue 26, item 8): only a
backup being restored may be large.  The real server (waitress) must not spool a large
body to a temporary file for a route that takes 1 MB; the app answers the 413."""

from __future__ import annotations

import socket
import time

import pytest

from scorekeeper.bodylimits import limit_for

MB = 1024 * 1024


def head_answer(port: int, head: bytes, body_chunks, pause: float = 0.0) -> tuple[str, int]:
    """Send *head*, then the body's chunks until the server answers; answers the status
    line and how many body bytes were sent before the answer came."""
    import select
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        for chunk in body_chunks:
            if select.select([s], [], [], pause)[0]:
                break
            try:
                s.sendall(chunk)
            except OSError:
                break
            sent += len(chunk)
        data = b""
        try:
            while b"\r\n" not in data and (more := s.recv(65536)):
                data += more
        except (ConnectionResetError, socket.timeout):
            pass
    return data.split(b"\r\n", 1)[0].decode("latin-1"), sent


def test_each_route_has_its_limit(app):
    assert limit_for(app, "POST", "/healthz") == MB
    assert limit_for(app, "POST", "/games/new") == MB
    assert limit_for(app, "POST", "/nowhere") == MB
    assert limit_for(app, "POST", "/backup/restore") == app.config["BACKUP_MAX_SIZE"]
    assert limit_for(app, "POST", "/api/hand-photo") == 20 * MB


@pytest.mark.parametrize("path", ["/healthz", "/games/new", "/api/games", "/club"])
def test_a_declared_300_mb_body_is_refused_at_the_headers(live_server, path):
    """The answer comes before the body is sent: the server reads none of it."""
    port = int(live_server.rsplit(":", 1)[1])
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
            f"application/x-www-form-urlencoded\r\nContent-Length: {300 * MB}\r\n\r\n").encode()
    start = time.monotonic()
    status, sent = head_answer(port, head, (b"x" * 65536 for _ in range(300 * 16)), pause=0.05)
    assert status.split(" ")[1] == "413", status
    assert sent < 5 * MB and time.monotonic() - start < 5


def test_a_chunked_body_is_cut_at_the_routes_limit(live_server):
    port = int(live_server.rsplit(":", 1)[1])
    head = (b"POST /games/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
            b"application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"10000\r\n" + b"x" * 65536 + b"\r\n"
    status, sent = head_answer(port, head, (chunk for _ in range(300 * 16)), pause=0.05)
    assert status.split(" ")[1] == "413", status
    assert sent < 5 * MB


def test_the_server_goes_on_answering_after_a_refusal(live_server):
    import urllib.request
    port = int(live_server.rsplit(":", 1)[1])
    head_answer(port, f"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                      f"{300 * MB}\r\n\r\n".encode(), [])
    assert urllib.request.urlopen(f"{live_server}/healthz").read() == b"ok\n"


def test_the_app_refuses_a_declared_large_body_before_reading_it(client):
    """The app's own check (the test client has no waitress): a Content-Length over the
    route's limit is a 413 with its sentence, whatever reads the body."""
    r = client.post("/api/games", data=b"{}", content_type="application/json",
                    environ_overrides={"CONTENT_LENGTH": str(2 * MB)})
    assert r.status_code == 413 and "1 MB" in r.get_json()["error"]


def test_a_restore_upload_may_still_be_large(app):
    assert limit_for(app, "POST", "/backup/restore") > 100 * MB
