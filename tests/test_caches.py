"""The app's caches are its own: kept pages and checked PINs are per app (two apps on one
database share none of them), and a kept page is compressed exactly as Flask-Compress
compresses a page it sends.  The wrong-PIN counts are no cache: they live in the database
(issue 19), so two apps on one database — two servers, or one restarted — share them."""

import gzip

import pytest

from helpers import create_game
from scorekeeper import create_app, updates, pins

PLAYERS = ["Ann", "Bob", "Chi"]
PIN = "2468"


def make_app(database, **config):
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test",
                       "WTF_CSRF_ENABLED": False, **config})


@pytest.fixture
def two_apps(database):
    """Two apps on one database (as two servers would be), and a protected game in it."""
    first, second = make_app(database), make_app(database)
    return first, second, create_game(first.test_client(), PLAYERS, pin=PIN)["id"]


@pytest.mark.parametrize("path", ["/games/{gid}", "/games/{gid}/standings", "/players",
                                  "/players/Ann"])
def test_two_apps_do_not_share_kept_pages(two_apps, path):
    first, second, gid = two_apps
    path = path.format(gid=gid)
    assert "X-Page-Cache" not in first.test_client().get(path).headers      # rendered, kept
    assert first.test_client().get(path).headers["X-Page-Cache"] == "hit"
    # The other app has kept nothing yet: it renders the page itself.
    assert "X-Page-Cache" not in second.test_client().get(path).headers
    assert second.test_client().get(path).headers["X-Page-Cache"] == "hit"


def test_two_apps_on_one_database_share_the_wrong_pins(two_apps, tmp_path, new_database):
    first, second, gid = two_apps
    url = f"/api/games/{gid}/rounds/1"
    scores = {"scores": dict(zip(PLAYERS, (0, 5, 9)))}
    for _ in range(pins.MAX_WRONG):
        r = first.test_client().put(url, json=scores, headers={pins.HEADER: "0000"})
        assert r.status_code == 403
    assert first.test_client().put(url, json=scores, headers={pins.HEADER: PIN}).status_code == 429
    # The same device, the same game, another app on the database: slowed all the same.
    assert second.test_client().put(url, json=scores, headers={pins.HEADER: PIN}).status_code == 429
    # An app on another database (another test) counts nothing of them.
    other = make_app(new_database(tmp_path / "other.db"))
    gid = create_game(other.test_client(), PLAYERS, pin=PIN)["id"]
    assert other.test_client().put(f"/api/games/{gid}/rounds/1", json=scores,
                                   headers={pins.HEADER: PIN}).status_code == 200


def test_two_apps_do_not_share_checked_pins(two_apps):
    first, second, gid = two_apps
    url = f"/api/games/{gid}/rounds/1"
    scores = {"scores": dict(zip(PLAYERS, (0, 5, 9)))}
    assert first.test_client().put(url, json=scores, headers={pins.HEADER: PIN}).status_code == 200
    assert len(first.extensions[pins.CHECKED]) == 1      # checked once, then remembered
    assert len(second.extensions[pins.CHECKED]) == 0
    # A PIN checked by one app is checked again by the other (and the wrong one still fails).
    assert second.test_client().put(url, json=scores,
                                    headers={pins.HEADER: "1111"}).status_code == 403
    assert len(second.extensions[pins.CHECKED]) == 0


@pytest.mark.parametrize("levels", [{}, {"COMPRESS_BR_LEVEL": 11, "COMPRESS_LEVEL": 1},
                                    {"COMPRESS_BR_LEVEL": 1, "COMPRESS_LEVEL": 9}])
def test_a_kept_page_is_compressed_as_flask_compress_would(database, levels):
    app = make_app(database, **levels)
    gid = create_game(app.test_client(), PLAYERS, pin=PIN)["id"]
    path = f"/games/{gid}/standings"       # a viewer's page: no form token, compressed once
    for encoding in ("br", "gzip"):
        updates.init_app(app)         # nothing kept: the first answer is rendered
        sent = app.test_client().get(path, headers={"Accept-Encoding": encoding})
        kept = app.test_client().get(path, headers={"Accept-Encoding": encoding})
        assert "X-Page-Cache" not in sent.headers and kept.headers["X-Page-Cache"] == "hit"
        assert sent.headers["Content-Encoding"] == kept.headers["Content-Encoding"] == encoding
        if encoding == "gzip":
            # The same bytes but for the time in the gzip header (bytes 4-7).
            assert gzip.decompress(sent.data) == gzip.decompress(kept.data)
            assert sent.data[:4] + sent.data[8:] == kept.data[:4] + kept.data[8:]
        else:
            assert sent.data == kept.data
