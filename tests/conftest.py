"""Fixtures: an app on a database of its own, its client and command runner, games made
through the API, a live WSGI server and the browser.

Every test gets a new database file, copied from one migrated once per session (once per
worker under `pytest -n`): the app then finds its schema up to date at start instead of
building it.  The apps of one session also share their compiled templates: each app
compiles a template on its first use, and that was a fifth of the time of the tests
outside the browser.  Fixtures that make games go through the API, as a tablet would.

Side by side (`pytest -n`, each file whole on one worker: `--dist loadfile` in
pyproject.toml), the tests share nothing but the machine: every database, instance folder
and wheel is in the test's own tmp_path, every server in this process binds port 0, and
each worker has its own browser.
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3

import pytest
from jinja2 import FileSystemBytecodeCache
from werkzeug.routing import Rule
from werkzeug.security import generate_password_hash

from helpers import create_game
from scorekeeper import create_app, pins, storage


#: The test files that take longest, longest first (each file's total, pytest --junitxml,
#: 2026-12-02).  Under -n each file runs whole on one worker (--dist loadfile) and the files
#: are handed out in collection order (--no-loadscope-reorder, pyproject.toml), so these
#: start first and the last to start are short: the two workers end together.  (xdist's
#: own order, by number of tests, started the wheel's six slow tests last.)
SLOWEST_FILES = ["test_browser_layout.py", "test_accessibility.py", "test_browser_fit.py",
                 "test_browser_photo.py", "test_api_photo.py", "test_photo_reader.py",
                 "test_browser_pickers.py", "test_browser_chicken_foot.py",
                 "test_browser_house_scoring.py", "test_browser_offline.py", "test_wheel.py",
                 "test_pin.py", "test_security.py", "test_languages.py", "test_backup.py",
                 "test_engine_properties.py", "test_durability.py"]


def pytest_collection_modifyitems(items):
    """SLOWEST_FILES first, in that order; every other file after them, as collected."""
    rank = {name: i for i, name in enumerate(SLOWEST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(scope="session", autouse=True)
def url_rules_compiled_once():
    """Each app's URL rules share the builders the session's first app compiled.

    Werkzeug writes a small function per URL rule (and per way of building it), through
    the ast module and compile(): for the app's 80-odd rules that was nine tenths of
    create_app, and every test makes an app.  The function depends only on the rule's
    parts and its defaults, and is bound to each rule afresh, so a rule compiled once is
    the same for every app (rules with defaults are compiled as ever).
    """
    original = Rule._compile_builder
    built: dict = {}

    def compile_builder(self, append_unknown: bool = True):
        if self.defaults:
            return original(self, append_unknown)
        key = (self.rule, tuple(self._trace), append_unknown)
        if key not in built:
            built[key] = original(self, append_unknown)
        return built[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Rule, "_compile_builder", compile_builder)
        yield


#: The cost of the scrypt hash the tests store PINs with.  The app's own is Werkzeug's
#: default (scrypt, n = 2**15: a tenth of a second or more to check, on purpose, which
#: tests/test_pin.py checks); what the tests check of a PIN — the limits, the roles, what
#: is stored and shown — is the same at a cost of 2**10, which a guess checks in a
#: millisecond, so the lockout tests do not spend seconds on their twenty wrong PINs.
TEST_PIN_HASH = "scrypt:1024:8:1"


@pytest.fixture(scope="session", autouse=True)
def cheap_pin_hashes():
    """PINs stored with TEST_PIN_HASH's cost in every test (pins.hash_pin's only hash)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pins, "generate_password_hash",
                   functools.partial(generate_password_hash, method=TEST_PIN_HASH))
        yield


@pytest.fixture(scope="session")
def new_database(tmp_path_factory):
    """new_database(path) -> str: an empty, fully migrated database written at *path*.

    The template is migrated once (storage.migrate, as at every start) and its WAL folded
    into the file, so a copy of the file alone is the whole database.
    """
    template = tmp_path_factory.mktemp("template") / "migrated.db"
    storage.migrate(str(template))
    con = sqlite3.connect(template)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()   # the last connection: SQLite removes the -wal and -shm files

    # Kept in memory and written whole to each test's file: a copy never depends on the
    # template file staying as it was (one CI run found a fresh copy "not a database").
    image = template.read_bytes()
    assert image.startswith(b"SQLite format 3\x00")

    def copy(path) -> str:
        for suffix in ("-wal", "-shm"):   # a file left beside it would be read as its own
            if os.path.exists(f"{path}{suffix}"):
                os.remove(f"{path}{suffix}")
        fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(image)
        os.chmod(path, 0o600)   # as storage.protect() makes a database
        return str(path)

    return copy


@pytest.fixture(scope="session")
def new_app(tmp_path_factory):
    """new_app(config) -> create_app(config), with the templates compiled once per session.

    Jinja's bytecode cache keeps each template's compiled code, keyed by its name and
    checked against its source; every app of the tests has the same template settings
    (extensions, autoescaping), so the code is the same for all of them.
    """
    templates = FileSystemBytecodeCache(str(tmp_path_factory.mktemp("templates")))

    def make(config: dict):
        app = create_app(config)
        app.jinja_env.bytecode_cache = templates
        return app

    return make


@pytest.fixture
def database(tmp_path, new_database) -> str:
    """This test's database file (migrated, no games), in its tmp_path."""
    return new_database(tmp_path / "test.db")


@pytest.fixture
def app(new_app, database):
    """The app on this test's database, CSRF off so forms post without a token."""
    yield new_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test",
                   "WTF_CSRF_ENABLED": False})


@pytest.fixture
def client(app):
    """A device talking to the app (Flask's test client, cookies kept)."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """The app's command-line commands (app.cli): runner.invoke(args=["init-db"])."""
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(tmp_path, new_app, new_database):
    """An app with CSRF protection on, as in production."""
    return new_app({"TESTING": True, "DATABASE": new_database(tmp_path / "csrf.db"),
                    "SECRET_KEY": "test"})


# --- games ---------------------------------------------------------------------------

@pytest.fixture
def game_factory(client):
    """game_factory(players=("Ann", "Bob", "Chi"), *, scores=(), finished=False, pin=None,
    **body) -> the game's JSON: a game created through this test's client with
    POST /api/games, and a round scored per row of *scores* (see helpers.create_game).

    The defaults are the API's: a double-12 set, the official rules, 13 rounds from the
    12-12 engine down, no name, no PIN.  For a served app, call helpers.create_game with its
    base URL.
    """
    return functools.partial(create_game, client)


@pytest.fixture
def game(game_factory) -> dict:
    """The game most tests play in: "Friday", Ann, Bob and Chi, nothing scored yet (the
    JSON POST /api/games answered)."""
    return game_factory(name="Friday")


@pytest.fixture
def gid(game) -> str:
    """The id of `game`."""
    return game["id"]


#: The rounds of `played_game`: each player has gone out once.
PLAYED = [[0, 23, 9], [17, 0, 30], [4, 11, 0]]


@pytest.fixture
def played_game(game_factory) -> dict:
    """`game` three rounds in (Ann 21, Bob 34, Chi 39; the other ten rounds unplayed), for
    standings, history and printing: its JSON as GET /api/games/<id> answers it."""
    return game_factory(name="Friday", scores=PLAYED)


# --- a real server and a browser -----------------------------------------------------

@pytest.fixture
def serve():
    """Serve an app with waitress on a free loopback port: serve(app, threads) -> port."""
    from contextlib import ExitStack

    from helpers import served

    with ExitStack() as stack:
        def start(app, threads: int = 4) -> int:
            return int(stack.enter_context(served(app, threads)).rsplit(":", 1)[1])
        yield start


@pytest.fixture
def live_server(tmp_path, serve, new_app, new_database):
    """The app served by waitress on a free loopback port; yields its base URL."""
    app = new_app({"DATABASE": new_database(tmp_path / "live.db"), "SECRET_KEY": "live-test"})
    return f"http://127.0.0.1:{serve(app)}"


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (it cannot download its own browsers here);
    one per session, so one per worker under `pytest -n`."""
    sync_api = pytest.importorskip("playwright.sync_api")
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


@pytest.fixture(scope="session")
def worker_tablet(browser):
    """One tablet (a browser context, 1024×768, touch) per session, so one per worker:
    each test's `page` is a new tab in it, and what a test leaves (its tabs, cookies and
    stored data) is cleared after it."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    yield context
    context.close()


@pytest.fixture(scope="module")
def touch_tab(browser):
    """One touch screen (a browser context and its tab) for a whole test file, reused by
    each of its tests through ``helpers.at_size``: a new tab took half a second of the
    machine and a new context almost a second, more than most pages take to look at.
    For tests that only look, open dialogs and fill forms; a test that changes the
    device (its routes, init scripts, offline) makes a context of its own."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True,
                                  locale="en")
    yield context.new_page()
    context.close()


@pytest.fixture
def page(worker_tablet):
    """A tablet-size page (1024×768, touch), on a tablet with no cookies and nothing stored
    (a new tab in `worker_tablet`: a new context for each test was a second or so).  What
    a test sets on the page itself (page.route, page.add_init_script) goes with the tab; a
    test that changes the device (context.set_offline, its routes or init scripts) makes a
    context of its own, as tests/test_browser_offline.py does."""
    tablet = worker_tablet
    origins = set()

    def seen(request):
        origins.add(_origin(request.url))

    tablet.on("request", seen)   # every tab's, the test's own included
    pg = tablet.new_page()
    yield pg
    tablet.remove_listener("request", seen)
    # localStorage and the rest of each site's data, then the cookies and every tab.
    probe = pg if not pg.is_closed() else tablet.new_page()
    cdp = tablet.new_cdp_session(probe)
    for origin in origins - {None}:
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    cdp.detach()
    for tab in tablet.pages:
        tab.close()
    tablet.clear_cookies()
    tablet.clear_permissions()


def _origin(url: str) -> str | None:
    """scheme://host:port of an http(s) address, else None."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None
