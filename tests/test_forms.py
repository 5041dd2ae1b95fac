"""The forms own the parsing of what a page sends: where a refusal lands on a form
(forms.attach), and a refused save that shows its form again (an expired token, a busy
database)."""

from __future__ import annotations

import sqlite3

import pytest

from helpers import paragraphs
from scorekeeper.errors import BadInput
from scorekeeper.forms import NewGameForm, SeasonForm, attach

PLAYERS = ["Ann", "Bob", "Chi"]
BUSY = ("The database stayed busy with other saves for several seconds; nothing was saved. "
        "Try again in a moment.")


@pytest.fixture
def gid(client):
    return client.post("/api/games", json={"players": PLAYERS}).get_json()["id"]


# --- where a refusal lands: forms.attach -------------------------------------

@pytest.mark.parametrize("form_class, error, where", [
    # A game's name and its engines are fields of the new-game form.
    (NewGameForm, BadInput("No.", "name"), "name"),
    (NewGameForm, BadInput("No.", "end_engine"), "end_engine"),
    # "players.2" is the third name: the players' list (a name may hold a dot).
    (NewGameForm, BadInput("No.", "players.2"), "players"),
    # check_season names the days as the API takes them.
    (SeasonForm, BadInput("No.", "from"), "start"),
    (SeasonForm, BadInput("No.", "to"), "end"),
    # No field of the form: above it.
    (NewGameForm, BadInput("No.", "table.trains"), None),
    (NewGameForm, BadInput("No.", ""), None),
])
def test_a_refusal_lands_on_its_field_or_above_the_form(app, form_class, error, where):
    with app.test_request_context("/", method="POST", data={}):
        form = form_class()
        attach(form, error)
        assert {name: f.errors for name, f in form._fields.items() if f.errors} == (
            {where: ["No."]} if where else {})
        assert form.refusal == (None if where else "No.")


def test_a_players_refusal_is_shown_in_the_players_box(client):
    # Two spellings joined as one player cannot both sit (the engines' box is hidden then).
    for players in (["Nguyễn Văn An", "Bob"], ["Nguyen Van An", "Cy"]):
        gid = client.post("/api/games", json={"players": players, "start_engine": 0}).get_json()["id"]
        client.put(f"/api/games/{gid}/rounds/1", json={"scores": dict(zip(players, (0, 10)))})
    client.post("/api/players/aliases", json={"alias": "Nguyen Van An", "of": "Nguyễn Văn An"})
    r = client.post("/games/new", data={"players-0": "Nguyễn Văn An", "players-1": "Nguyen Van An",
                                        "set": "12", "deal": "A", "starter": "engine_holder",
                                        "first_turn": "train", "first_turn_stuck": "marker",
                                        "double_owner_satisfies": "false", "double_blank": "50"})
    html = r.get_data(as_text=True)
    sentence = ("Nguyen Van An and Nguyễn Văn An are joined as one player; separate them on the "
                "Players page first, or type another name.")
    assert r.status_code == 200 and sentence in paragraphs(html)
    assert html.index('class="players-box"') < html.index("are joined as one player") \
        < html.index('id="player-inputs"')


# --- a save refused before it could be stored: the form comes back -----------

@pytest.fixture
def locked(app):
    """Another writer holds the database; the app gives up after 0.2 s."""
    app.config["BUSY_TIMEOUT"] = 0.2
    holder = sqlite3.connect(app.config["DATABASE"])
    holder.execute("BEGIN IMMEDIATE")
    yield
    holder.rollback()
    holder.close()


BUSY_FORMS = [
    # path, what is sent, what comes back of it
    ("/games/{gid}/rename", {"name": "Saturday"}, 'value="Saturday"'),
    ("/seasons", {"name": "Autumn", "start": "2026-09-01", "end": "2026-11-30"}, 'value="Autumn"'),
    ("/games/{gid}/pin/change", {"current": "", "new": "2468", "action": "set"}, "New PIN"),
    ("/games/{gid}/rounds/1/live/start", {"starter": "1", "tiles_each": "12"}, "Start the live"),
]


@pytest.mark.parametrize("path, data, kept", BUSY_FORMS)
def test_a_busy_database_shows_the_form_again_with_what_was_typed(app, client, gid, locked,
                                                                   path, data, kept):
    r = client.post(path.format(gid=gid), data=data)
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert BUSY in paragraphs(html) and kept in html


def test_a_busy_database_keeps_the_live_tables_pick(app, client, gid):
    client.post(f"/games/{gid}/rounds/1/live/start", data={"starter": "1", "tiles_each": "12"})
    app.config["BUSY_TIMEOUT"] = 0.2
    holder = sqlite3.connect(app.config["DATABASE"])
    holder.execute("BEGIN IMMEDIATE")
    try:
        r = client.post(f"/games/{gid}/rounds/1/live/action",
                        data={"kind": "play", "tile": "12-4", "train": "1"})
    finally:
        holder.rollback()
        holder.close()
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and BUSY in paragraphs(html)
    assert 'name="tile" value="4-12" checked' in html


@pytest.mark.parametrize("path, data", [
    ("/players/aliases", {"alias": "Ann", "of": "Bob"}),
    ("/seasons/nope/delete", {}),
])
def test_a_busy_database_without_a_form_to_show_is_the_busy_page(client, gid, locked, path,
                                                                 data):
    r = client.post(path, data=data)
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert BUSY in paragraphs(r)


def test_an_expired_import_form_says_so_on_the_import_page(csrf_app):
    r = csrf_app.test_client().post("/games/import", data={})
    assert r.status_code == 400
    assert "The page expired; choose the file again and import it." in paragraphs(r)
    assert 'id="import-form"' in r.get_data(as_text=True)
