"""Flask's signed-cookie sessions, with each cookie's signature checked once.

Every request opens the session from its cookie: Flask (itsdangerous) derives
the key and checks the HMAC each time.  A cookie is the same string until the
session changes, so a cookie checked once is remembered (with its timestamp, so
that it still expires), and the check is skipped when the same string comes
again.  Forged or changed cookies are never remembered: only one whose
signature was valid.  The cookies are kept in the one cache helper
(:class:`~.lru.LRU`), on the app's own session interface (one per app).

Kept because it still earns its place: the commonest request of all, a phone's
"anything new?" (a 304), costs the server about 0.1 ms less with it, a median 12%
of that request (5–15% over five runs of ``bench/sessions.py``, 2026-12-01;
docs/benchmarks.md).
"""

from __future__ import annotations

import copy
import time

from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from .lru import LRU


class CheckedCookieSessions(SecureCookieSessionInterface):
    """SecureCookieSessionInterface that remembers the cookies it has already verified."""

    size = 2048

    def __init__(self):
        self._known: LRU[str, tuple[dict, float]] = LRU(self.size)

    def open_session(self, app, request):
        if not app.secret_key:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = app.permanent_session_lifetime.total_seconds()
        known = self._known.get(value)
        if known is not None and time.time() - known[1] <= max_age:
            return self.session_class(copy.deepcopy(known[0]))   # never share its lists
        serializer = self.get_signing_serializer(app)
        try:
            data, signed_at = serializer.loads(value, max_age=int(max_age), return_timestamp=True)
        except BadSignature:
            return self.session_class()
        self._known.put(value, (copy.deepcopy(data), signed_at.timestamp()))
        return self.session_class(data)
