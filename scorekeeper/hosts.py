"""The host names the app answers to, so that a page on another site cannot reach it by
pointing a name of its own at this machine (DNS rebinding): ``Host: evil.example`` gets
a 400 saying how to add a name, and the join address never shows a name nobody chose.

Trusted by default: this machine's own addresses (:func:`netinfo.lan_addresses`, read
again when an unknown address arrives, since a laptop's address changes with the
network), its host name (and ``<name>.local``), ``localhost``, ``127.0.0.1``, ``::1``
and the host of ``PUBLIC_URL``.  ``TRUSTED_HOSTS`` adds names (one starting with "."
admits every name under it); ``"*"`` among them answers to any host, as before.

Decision: the app checks the ``Host`` itself rather than through Flask's
``TRUSTED_HOSTS`` (which :func:`scorekeeper.configured_app` turns off), because
Werkzeug's check can never match an IPv6 address such as ``[::1]``.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from flask_babel import gettext
from werkzeug.exceptions import SecurityError

from .netinfo import lan_addresses

EXTENSION = "scorekeeper.hosts"
#: How often (seconds) an unknown address may make the app read its own addresses again.
REREAD = 30.0


class UntrustedHost(SecurityError):
    """A request for a host name the app does not answer to (400, with how to add it)."""

    def __init__(self, host: str):
        super().__init__()
        self.host = host

    def sentence(self) -> str:
        """What the refusal says, in the device's language: the name, and how to add it."""
        shown = self.host if len(self.host) <= 60 else self.host[:60] + "…"
        return gettext("This scorekeeper does not answer to the name %(host)s. To open it by "
                       "that name, add the name to TRUSTED_HOSTS in the instance folder's "
                       "config.py (or to the SCOREKEEPER_TRUSTED_HOSTS variable) and start "
                       "it again.", host=shown)


def split_host(host: str) -> str:
    """The name or address of a ``Host`` header, without its port, in lower case: "[::1]:5000"
    is "::1", "Scorekeeper.LAN.:5000" is "scorekeeper.lan"."""
    host = host.strip().lower()
    if host.startswith("["):
        # "[::1]" or "[::1]:5000"; anything else after the bracket ("[::1]evil.example")
        # is the name as a whole, which no trusted name is.
        inside, bracket, after = host[1:].partition("]")
        if bracket and (not after or (after[0] == ":" and after[1:].isdigit())):
            return inside
        return host
    name, colon, port = host.rpartition(":")
    if colon and port.isdigit() and ":" not in name:
        host = name
    return host.rstrip(".")


class TrustedHosts:
    """The names and addresses one app answers to; :meth:`allows` is all the app asks."""

    def __init__(self, added: list[str] | None = None, public_url: str | None = None):
        added = [split_host(h) for h in (added or []) if h.strip()]
        self.anything = "*" in added
        names = {"localhost", "127.0.0.1", "::1"}
        try:
            hostname = socket.gethostname().lower()
        except OSError:   # pragma: no cover (no host name at all)
            hostname = ""
        if hostname:
            names |= {hostname, f"{hostname}.local"}
        if public_url:
            public = urlsplit(public_url if "//" in public_url else f"//{public_url}").hostname
            if public:
                names.add(public.lower().rstrip("."))
        self.suffixes = tuple(h for h in added if h.startswith(".") and len(h) > 1)
        self.names = names | {h for h in added if not h.startswith(".") and h != "*"}
        self._own: set[str] = set()
        self._read_at = float("-inf")
        self._lock = threading.Lock()
        self._read_own()

    def _read_own(self) -> None:
        with self._lock:
            self._own = {a.lower() for a in lan_addresses()}
            self._read_at = time.monotonic()

    def allows(self, host: str) -> bool:
        """True when a request with this ``Host`` header is answered."""
        if self.anything:
            return True
        name = split_host(host)
        if name in self.names or name in self._own:
            return True
        if any(name.endswith(suffix) for suffix in self.suffixes):
            return True
        if _is_address(name) and time.monotonic() - self._read_at >= REREAD:
            self._read_own()   # the machine may have a new address since the start
            return name in self._own
        return False


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def init_app(app: Flask) -> None:
    """Give *app* its trusted hosts (from TRUSTED_HOSTS and PUBLIC_URL) and check every
    request's ``Host`` before anything else runs (a form's token, the page)."""
    app.extensions[EXTENSION] = TrustedHosts(app.config.get("TRUSTED_HOST_NAMES"),
                                             app.config.get("PUBLIC_URL"))
    app.before_request_funcs.setdefault(None, []).insert(0, check_host)


def check_host() -> None:
    """Refuse a request whose ``Host`` is not trusted (UntrustedHost, a 400).  A request
    without one (HTTP/1.0) names nothing to rebind and is answered."""
    host = request.environ.get("HTTP_HOST")
    if host is not None and not current_app.extensions[EXTENSION].allows(host):
        raise UntrustedHost(host)
