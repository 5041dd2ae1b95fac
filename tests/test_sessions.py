"""Sessions whose cookie signatures are checked once: still signed, still expiring."""


from scorekeeper import sessions


def test_a_cookie_is_remembered_only_once_its_signature_is_good(client, app):
    client.get("/games/new")                          # a session with a CSRF token
    client.get("/games/new")                          # ... read back once: checked, kept
    cookie = client.get_cookie("session").value
    interface = app.session_interface
    assert isinstance(interface, sessions.CheckedCookieSessions)
    assert cookie in interface._known
    forged = cookie[:-4] + ("AAAA" if not cookie.endswith("AAAA") else "BBBB")
    other = app.test_client()
    other.set_cookie("session", forged)
    other.get("/games/new")
    assert forged not in interface._known               # a bad signature is never kept
    # The forged cookie opened an empty session: the server gave it a new one.
    assert other.get_cookie("session").value != forged


def test_a_remembered_cookie_still_expires(client, app, monkeypatch):
    client.get("/games/new")
    client.get("/games/new")
    cookie = client.get_cookie("session").value
    data, signed_at = app.session_interface._known.get(cookie)
    year = app.permanent_session_lifetime.total_seconds()
    monkeypatch.setattr(sessions.time, "time", lambda: signed_at + year + 1)
    with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
        from flask import session
        assert "csrf_token" not in session               # expired: an empty session


def test_sessions_do_not_share_what_they_hold(client, app):
    client.get("/games/new")
    cookie = client.get_cookie("session").value
    with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
        from flask import session
        session.setdefault("_flashes", []).append(("message", "x"))
    with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
        from flask import session
        assert "_flashes" not in session
