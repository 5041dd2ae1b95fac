"""Helpers shared by the tests: serving an app, calling its API, reading a page's sentences."""

from __future__ import annotations

import json
import re
import socket
import threading
import urllib.request
from contextlib import contextmanager
from html import unescape


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


def paragraphs(page) -> list[str]:
    """The text of each paragraph (<p>) of a page or response, as a person reads it: tags
    dropped, entities decoded, white space collapsed. A refusal is asserted as one whole
    paragraph of it: `sentence in paragraphs(r)`."""
    html = page if isinstance(page, str) else page.get_data(as_text=True)
    return [unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", p))).strip()
            for p in re.findall(r"<p\b[^>]*>(.*?)</p>", html, re.S)]
