"""Fixtures: an app on a temporary database, its client and command runner, and a live WSGI
server."""

from __future__ import annotations

import pytest

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.db"),
                      "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    """The app's command-line commands (app.cli): runner.invoke(args=["init-db"])."""
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(tmp_path):
    """An app with CSRF protection on, as in production."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"),
                       "SECRET_KEY": "test"})


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
def live_server(tmp_path, serve):
    """The app served by waitress on a free loopback port; yields its base URL."""
    app = create_app({"DATABASE": str(tmp_path / "live.db"), "SECRET_KEY": "live-test"})
    return f"http://127.0.0.1:{serve(app)}"


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (it cannot download its own browsers here)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    import shutil
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A tablet-size page (1024×768, touch)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    pg = context.new_page()
    yield pg
    context.close()
