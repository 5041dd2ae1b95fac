"""The join address shows only where the server answers (issue 26, item 1): started on
127.0.0.1 alone, no page offers a network address; the join boxes say why, and the
printed sheet's verify link is the page's own address."""

from __future__ import annotations

import pytest

from helpers import paragraphs
from scorekeeper import netinfo, views
from scorekeeper.views import printing

LAN = "192.168.1.20"
NOTICE = "The app answers on this machine only"


@pytest.fixture
def lan(monkeypatch):
    monkeypatch.setattr(netinfo, "lan_addresses", lambda: [LAN])
    monkeypatch.setattr(views, "join_urls", lambda port: [f"http://{LAN}:{port}/"])


@pytest.fixture
def pdf_links(monkeypatch):
    """The verify links the printed sheets carry."""
    links = []
    real = printing.scoresheet_pdf

    def spy(game, paper, **kwargs):
        links.append(kwargs["check"][1])
        return real(game, paper, **kwargs)
    monkeypatch.setattr(printing, "scoresheet_pdf", spy)
    return links


def test_on_all_interfaces_the_lan_address_is_offered(app, client, gid, lan, pdf_links):
    app.config["SERVER_HOST"] = "0.0.0.0"
    base = {"base_url": "http://127.0.0.1:5000"}
    html = client.get("/", **base).get_data(as_text=True)
    assert LAN in html and NOTICE not in html
    assert LAN in client.get(f"/games/{gid}", **base).get_data(as_text=True)
    client.get(f"/games/{gid}/scoresheet.pdf", **base)
    assert pdf_links[0].startswith(f"http://{LAN}:5000/games/{gid}/verify")


def test_on_this_machine_only_no_network_address_is_offered(app, client, gid, lan,
                                                           pdf_links):
    app.config["SERVER_HOST"] = "127.0.0.1"
    base = {"base_url": "http://127.0.0.1:5000"}
    home = client.get("/", **base)
    html = home.get_data(as_text=True)
    assert LAN not in html and 'class="qr"' not in html
    assert any(p.startswith(NOTICE) and "--host 0.0.0.0" in p for p in paragraphs(home))
    game = client.get(f"/games/{gid}", **base)
    assert LAN not in game.get_data(as_text=True)
    assert any(p.startswith(NOTICE) for p in paragraphs(game))
    board = client.get(f"/games/{gid}/board", **base).get_data(as_text=True)
    assert LAN not in board and "board-join" not in board
    client.get(f"/games/{gid}/scoresheet.pdf", **base)
    assert pdf_links[0].startswith(f"http://127.0.0.1:5000/games/{gid}/verify")


def test_the_console_says_so(tmp_path, monkeypatch, capsys):
    from scorekeeper import serve
    monkeypatch.setenv("SCOREKEEPER_DATABASE", str(tmp_path / "db.sqlite"))
    monkeypatch.setattr(serve, "serve", lambda *a, **k: None)
    monkeypatch.setattr(serve.sys, "setswitchinterval", lambda _interval: None)
    monkeypatch.setattr(serve, "_warm_pdf_fonts", lambda app: None)
    monkeypatch.setattr(serve, "_warm_photo_reader", lambda app: None)
    monkeypatch.setattr(serve.gc, "freeze", lambda: None)   # this test process's objects stay
    serve.main(["--host", "127.0.0.1", "--port", "5999"])
    out = capsys.readouterr().out
    assert "http://127.0.0.1:5999/" in out and "Other tablets cannot join" in out
    serve.main(["--host", "0.0.0.0", "--port", "5999"])
    assert "Other tablets cannot join" not in capsys.readouterr().out
