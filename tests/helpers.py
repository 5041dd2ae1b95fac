"""Helpers shared by the tests that drive a served app: serving it, calling its API."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(app, threads: int = 4):
    """The app served by waitress on a free loopback port; yields its base URL."""
    from waitress.server import create_server

    port = free_port()
    server = create_server(app, host="127.0.0.1", port=port, threads=threads)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.close()


def api(base: str, method: str, path: str, body=None, pin: str | None = None):
    """Call the JSON API of a served app; answers the decoded JSON."""
    headers = {"Content-Type": "application/json"}
    if pin:
        headers["X-Game-PIN"] = pin
    req = urllib.request.Request(base + path, method=method, headers=headers,
                                 data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(req) as r:
        return json.load(r)
