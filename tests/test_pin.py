"""One scorekeeper, many viewers: the game PIN on every write route (pages and API),
guessing slowed, the live-update check, and the TV board."""

import re
from html import unescape
from urllib.parse import parse_qs

from werkzeug.datastructures import MultiDict

import pytest

from helpers import create_game, paragraphs
from scorekeeper import pins

PLAYERS = ["Ann", "Bob", "Chi"]
PIN = "2468"
PROTECTED = ("This game is protected by a PIN: only its scorekeeper can change it. Enter the "
             "PIN to keep score on this device.")
NOT_THE_PIN = "That is not this game's PIN."
TOO_MANY = ("Too many wrong PINs for this game from this network address (every device on it "
            "counts together): try again in 10 min.")


@pytest.fixture
def game(game_factory):
    """conftest's game, protected by PIN: the test's client is its scorekeeper."""
    return game_factory(name="Friday", pin=PIN)


def scores(a=0, b=5, c=9):
    return {"scores": dict(zip(PLAYERS, (a, b, c)))}


# --- the API -----------------------------------------------------------------

@pytest.mark.parametrize("pin", ["12", "123456789", "12a4", "", "１２３４", 1234, True, []])
def test_a_pin_is_four_to_eight_digits(client, pin):
    r = client.post("/api/games", json={"players": PLAYERS, "pin": pin})
    assert r.status_code == 400
    assert r.get_json() == {"error": "A PIN is 4 to 8 digits (0-9).", "field": "pin"}
    assert client.get("/api/games").get_json()["games"] == []      # nothing stored


def test_the_pin_is_never_shown(client, game, game_factory):
    assert game["protected"] is True
    for url in (f"/api/games/{game['id']}", f"/api/games/{game['id']}/export", "/api/games"):
        body = client.get(url).get_data(as_text=True)
        assert PIN not in body and "pin_hash" not in body and "scrypt" not in body
    open_game = game_factory()
    assert open_game["protected"] is False


def test_a_pin_is_stored_as_a_hash_slow_to_check(monkeypatch):
    """The app's own hash: Werkzeug's scrypt at a cost of at least 2**15, slow to check on
    purpose (the other tests store PINs at a lower cost: conftest.TEST_PIN_HASH)."""
    from werkzeug.security import check_password_hash, generate_password_hash
    monkeypatch.setattr(pins, "generate_password_hash", generate_password_hash)
    stored = pins.hash_pin(PIN)
    method, n, _r, _p = stored.split("$")[0].split(":")
    assert method == "scrypt" and int(n) >= 2 ** 15 and PIN not in stored
    assert check_password_hash(stored, PIN) and not check_password_hash(stored, "2469")


def write_requests(gid):
    """Every API write to a game: (method, path, body)."""
    return [
        ("PUT", f"/api/games/{gid}/rounds/1", scores()),
        ("PATCH", f"/api/games/{gid}", {"name": "Saturday"}),
        ("PUT", f"/api/games/{gid}/pin", {"pin": "1357"}),
        ("DELETE", f"/api/games/{gid}", None),
    ]


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("header", [None, "1111", "246"])
def test_api_writes_need_the_pin(client, game, index, header):
    method, path, body = write_requests(game["id"])[index]
    headers = {pins.HEADER: header} if header is not None else {}
    r = client.open(path, method=method, json=body, headers=headers)
    assert r.status_code == 403
    assert r.get_json() == {"error": PROTECTED if header is None else NOT_THE_PIN, "field": "pin"}
    stored = client.get(f"/api/games/{game['id']}").get_json()
    assert stored["name"] == "Friday" and stored["rounds"][0]["scores"] is None
    assert stored["protected"] is True


@pytest.mark.parametrize("index", range(4))
def test_api_writes_with_the_pin(client, game, index):
    method, path, body = write_requests(game["id"])[index]
    r = client.open(path, method=method, json=body, headers={pins.HEADER: PIN})
    assert r.status_code == 200, r.get_json()


def test_restore_needs_the_pin(client, game):
    gid = game["id"]
    assert client.delete(f"/api/games/{gid}", headers={pins.HEADER: PIN}).status_code == 200
    r = client.post(f"/api/games/{gid}/restore", json={})
    assert r.status_code == 403 and r.get_json() == {"error": PROTECTED, "field": "pin"}
    r = client.post(f"/api/games/{gid}/restore", json={}, headers={pins.HEADER: PIN})
    assert r.status_code == 200 and r.get_json()["protected"] is True


def test_reads_need_no_pin(client, game):
    gid = game["id"]
    client.put(f"/api/games/{gid}/rounds/1", json=scores(), headers={pins.HEADER: PIN})
    for url in (f"/api/games/{gid}", f"/api/games/{gid}/standings", f"/api/games/{gid}/history",
                f"/api/games/{gid}/export", f"/games/{gid}/scoresheet.pdf", f"/games/{gid}",
                f"/games/{gid}/board", f"/games/{gid}/rounds/1/referee"):
        assert client.get(url).status_code == 200, url


def test_changing_and_removing_the_pin(client, game):
    gid = game["id"]
    r = client.put(f"/api/games/{gid}/pin", json={"pin": "13579"}, headers={pins.HEADER: PIN})
    assert r.status_code == 200 and r.get_json()["protected"] is True
    assert client.put(f"/api/games/{gid}/rounds/1", json=scores(),
                      headers={pins.HEADER: PIN}).status_code == 403          # the old one
    r = client.put(f"/api/games/{gid}/pin", json={"pin": None}, headers={pins.HEADER: "13579"})
    assert r.get_json()["protected"] is False
    assert client.put(f"/api/games/{gid}/rounds/1", json=scores()).status_code == 200


def test_guessing_is_slowed_per_client_and_game(client, game, app, game_factory):
    gid = game["id"]
    other = game_factory(pin=PIN)["id"]
    url = f"/api/games/{gid}/rounds/1"
    for _ in range(pins.MAX_WRONG):
        assert client.put(url, json=scores(), headers={pins.HEADER: "0000"}).status_code == 403
    # The sixth try is refused even with the right PIN, with the time to wait.
    r = client.put(url, json=scores(), headers={pins.HEADER: PIN})
    assert r.status_code == 429 and r.get_json() == {"error": TOO_MANY, "field": "pin"}
    assert 0 < int(r.headers["Retry-After"]) <= 600
    # Another game, and another client, are not affected.
    assert client.put(f"/api/games/{other}/rounds/1", json=scores(),
                      headers={pins.HEADER: PIN}).status_code == 200
    other_client = app.test_client()
    assert other_client.put(url, json=scores(), headers={pins.HEADER: PIN},
                            environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200


def test_guesses_are_forgotten_after_ten_minutes(database):
    from scorekeeper.storage import connect
    db = connect(database)
    g = pins.Guesses(lambda: db)
    for t in range(5):
        assert g.count("1.2.3.4", "g", now=100.0 + t)[0] is not None
    assert g.wait("1.2.3.4", "g", now=110.0) == 591
    assert g.count("1.2.3.4", "g", now=110.0) == (None, 591, False)      # nothing counted
    assert g.wait("1.2.3.4", "g", now=100.0 + pins.WINDOW + 0.5) == 0
    db.close()


# --- the pages ---------------------------------------------------------------

def page_text(response):
    html = re.sub(r"</?(a|bdi)\b[^>]*>", "", response.get_data(as_text=True))
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


WRITE_CONTROLS = ['id="save-round"', 'id="undo"', 'id="redo"', ">Rename<", ">Delete<",
                  'id="start-live"', 'id="record-play"', 'id="undo-live"', 'id="pin-link"']


@pytest.mark.parametrize("path", ["/games/{gid}", "/games/{gid}/rounds/1", "/games/{gid}/history",
                                  "/games/{gid}/rounds/1/live", "/", "/games/{gid}/standings"])
def test_a_viewer_sees_no_write_controls(client, game, path):
    client.put(f"/api/games/{game['id']}/rounds/1", json=scores(), headers={pins.HEADER: PIN})
    html = client.get(path.format(gid=game["id"])).get_data(as_text=True)
    for control in WRITE_CONTROLS:
        assert control not in html, control
    if path != "/":
        assert "Scorekeeper? Enter the PIN" in html


def page_writes(gid):
    return [
        ("post", f"/games/{gid}/rounds/1", {"score-0": "0", "score-1": "5", "score-2": "9",
                                            "revision": "0"}),
        ("get", f"/games/{gid}/undo", None),
        ("post", f"/games/{gid}/undo", {}),
        ("post", f"/games/{gid}/redo", {}),
        ("get", f"/games/{gid}/rename", None),
        ("post", f"/games/{gid}/rename", {"name": "Saturday"}),
        ("get", f"/games/{gid}/delete", None),
        ("post", f"/games/{gid}/delete", {}),
        ("post", f"/games/{gid}/rounds/1/live/start", {"starter": "0", "tiles_each": "5"}),
        ("post", f"/games/{gid}/rounds/1/live/action", {"kind": "pass"}),
        ("post", f"/games/{gid}/rounds/1/live/undo", {}),
    ]


@pytest.mark.parametrize("index", range(11))
def test_page_writes_without_the_pin_are_refused_and_store_nothing(client, game, index):
    gid = game["id"]
    method, path, data = page_writes(gid)[index]
    r = getattr(client, method)(path, data=data)
    assert r.status_code == 403
    assert PROTECTED in paragraphs(r)
    stored = client.get(f"/api/games/{gid}").get_json()
    assert stored["name"] == "Friday" and stored["rounds"][0]["scores"] is None
    assert client.get(f"/games/{gid}/rounds/1/live/log").status_code == 200
    assert "No live table" in page_text(client.get(f"/games/{gid}/rounds/1/live/log"))


#: Every form of a protected game's pages, as a device sends it: (path, fields).
GAME_FORMS = [
    ("rounds/1", {"score-0": "0", "score-1": "5", "score-2": "9", "hand-0": "", "hand-1": "",
                  "hand-2": "", "base-0": "", "base-1": "", "base-2": "", "revision": "0",
                  "confirm": ""}),
    ("rename?next=/", {"name": "Saturday"}),
    ("delete", {}),
    ("undo", {"next": "/"}),
    ("redo", {}),
    ("restore", {}),
    ("rounds/1/live/start", {"starter": "0", "tiles_each": "5", "active": "0"}),
    ("rounds/1/live/action", {"kind": "pass", "active": "1"}),
    ("rounds/1/live/undo", {"active": "1"}),
]
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
KEPT = "Not saved yet: what you sent is kept on this page. Enter the PIN and it is sent again."


def hidden_fields(html: str) -> list[tuple[str, str]]:
    """The hidden inputs of a page, (name, value), in order."""
    fields = []
    for tag in re.findall(r"<input\b[^>]*>", html):
        if 'type="hidden"' in tag:
            name = re.search(r'name="([^"]*)"', tag).group(1)
            fields.append((name, unescape(re.search(r'value="([^"]*)"', tag).group(1))))
    return fields


def send_with_the_pin(client, gid, form, pin):
    """Post the PIN page's form with *pin*, and follow its answer as a browser does: a 307
    sends the same body again to its Location (Werkzeug's client would send it empty)."""
    data = MultiDict([*form, ("pin", pin)])
    first = client.post(f"/games/{gid}/pin", data=data)
    if first.status_code != 307:
        return first
    r = client.post(first.headers["Location"], data=data, follow_redirects=True)
    r.history = (first, *r.history)
    return r


def stored_as_created(client, gid):
    """True while the game is as created: named Friday, no round scored, no live table,
    not deleted."""
    stored = client.get(f"/api/games/{gid}").get_json()
    log = page_text(client.get(f"/games/{gid}/rounds/1/live/log"))
    return (stored["name"] == "Friday" and stored["rounds"][0]["scores"] is None
            and "No live table" in log)


@pytest.mark.parametrize("path, data", GAME_FORMS, ids=[p for p, _d in GAME_FORMS])
@pytest.mark.parametrize("token", [None, "stale"])
def test_a_form_from_a_device_that_is_not_the_scorekeeper_is_the_pin_page(
        csrf_app, path, data, token):
    # CSRF on, as served: the token is missing (the cookie was cleared) or from another
    # session (the secret key changed).  The answer is the PIN page, never a 500; what was
    # sent rides in its form, and nothing is stored.
    client = csrf_app.test_client()
    gid = create_game(client, name="Friday", pin=PIN)["id"]
    sent = {**data, **({"csrf_token": token} if token else {})}
    r = client.post(f"/games/{gid}/{path}", data=sent)
    assert r.status_code == 403 and PROTECTED in paragraphs(r) and KEPT in paragraphs(r)
    carried = dict(hidden_fields(r.get_data(as_text=True)))
    assert carried.pop("resend") == f"/games/{gid}/{path}"
    assert carried.pop("csrf_token") != token
    assert carried == data
    assert stored_as_created(client, gid)


def test_the_pin_page_shows_the_typed_scores_and_saves_them_once_the_pin_is_right(csrf_app):
    client = csrf_app.test_client()
    gid = create_game(client, name="Friday", pin=PIN)["id"]
    path, data = GAME_FORMS[0]
    r = client.post(f"/games/{gid}/{path}", data=data)
    html = r.get_data(as_text=True)
    assert ["Ann: 0", "Bob: 5", "Chi: 9"] == re.findall(
        r"<li>(\w+: \d+)</li>", re.sub(r"</?bdi>", "", html))
    form = hidden_fields(html)
    # A wrong PIN keeps it all; the right one sends the round again (307: method and body).
    r = client.post(f"/games/{gid}/pin", data=MultiDict([*form, ("pin", "0000")]))
    assert r.status_code == 403 and NOT_THE_PIN in paragraphs(r)
    form = hidden_fields(r.get_data(as_text=True))
    assert dict(form)["score-1"] == "5" and KEPT in paragraphs(r)
    r = send_with_the_pin(client, gid, form, PIN)
    assert r.history[0].status_code == 307 and "Round 1 saved." in paragraphs(r)
    stored = client.get(f"/api/games/{gid}").get_json()["rounds"][0]
    assert stored["scores"] == dict(zip(PLAYERS, (0, 5, 9))) and stored["revision"] == 1
    assert len(client.get(f"/api/games/{gid}/history").get_json()["changes"]) == 3


def test_a_rename_refused_for_the_pin_goes_where_it_was_going_once_the_pin_is_right(csrf_app):
    client = csrf_app.test_client()
    gid = create_game(client, name="Friday", pin=PIN)["id"]
    r = client.post(f"/games/{gid}/rename?next=/", data={"name": "Saturday"})
    html = r.get_data(as_text=True)
    assert "Game name: Saturday" in re.sub(r"</?bdi>", "", html)
    r = send_with_the_pin(client, gid, hidden_fields(html), PIN)
    assert r.request.path == "/" and "Game renamed." in paragraphs(r)
    assert client.get(f"/api/games/{gid}").get_json()["name"] == "Saturday"


def test_a_save_after_the_pin_changed_elsewhere_comes_back_with_what_was_typed(csrf_app):
    keeper = csrf_app.test_client()
    gid = create_game(keeper, name="Friday", pin=PIN)["id"]
    token = TOKEN.search(keeper.get(f"/games/{gid}/pin").get_data(as_text=True)).group(1)
    keeper.post(f"/games/{gid}/pin", data={"csrf_token": token, "pin": PIN})
    page = keeper.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert 'id="save-round"' in page
    # Another device changes the PIN while this one is typing.
    assert keeper.put(f"/api/games/{gid}/pin", json={"pin": "8642"},
                      headers={pins.HEADER: PIN}).status_code == 200
    typed = {**GAME_FORMS[0][1], "csrf_token": TOKEN.search(page).group(1)}
    r = keeper.post(f"/games/{gid}/rounds/1", data=typed)
    assert r.status_code == 403 and KEPT in paragraphs(r)
    r = send_with_the_pin(keeper, gid, hidden_fields(r.get_data(as_text=True)), "8642")
    assert "Round 1 saved." in paragraphs(r)
    assert keeper.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] == dict(
        zip(PLAYERS, (0, 5, 9)))


@pytest.mark.parametrize("resend", ["https://evil.example/", "//evil.example/games/x",
                                    "/games/OTHER/rename", "/games/{gid}/pin",
                                    "/games/{gid}/pin/change", "/games/{gid}/rename\\x"])
def test_the_pin_form_sends_again_only_to_the_games_own_forms(client, game, resend):
    gid = game["id"]
    r = client.post(f"/games/{gid}/pin", data={"pin": PIN, "name": "Saturday",
                                              "resend": resend.format(gid=gid)})
    assert r.status_code == 302 and r.headers["Location"] == f"/games/{gid}"
    assert client.get(f"/api/games/{gid}").get_json()["name"] == "Friday"


@pytest.mark.parametrize("origin", ["http://evil.example", "null"])
def test_a_form_another_site_sent_is_not_carried(csrf_app, origin):
    # A page elsewhere posting scores to the game: the PIN page asks for the PIN, but what
    # that page sent is not carried, so entering the PIN could never save it.
    client = csrf_app.test_client()
    gid = create_game(client, name="Friday", pin=PIN)["id"]
    r = client.post(f"/games/{gid}/rounds/1", data=GAME_FORMS[0][1],
                    headers={"Origin": origin})
    assert r.status_code == 403 and PROTECTED in paragraphs(r) and KEPT not in paragraphs(r)
    assert dict(hidden_fields(r.get_data(as_text=True))).keys() == {"csrf_token", "resend"}
    r = client.post(f"/games/{gid}/rounds/1", data=GAME_FORMS[0][1],
                    headers={"Origin": "http://localhost"})
    assert KEPT in paragraphs(r)


@pytest.mark.parametrize("path", ["/games/{gid}/rounds/1", "/games/{gid}",
                                  "/games/{gid}/rounds/1?lang=en"])
def test_the_pin_links_lead_back_without_a_stray_question_mark(client, game, path):
    gid = game["id"]
    page = path.format(gid=gid)
    html = client.get(page).get_data(as_text=True)
    link = unescape(re.search(r'id="enter-pin" href="([^"]+)"', html).group(1))
    where, query = link.split("?", 1)
    assert where == f"/games/{gid}/pin" and parse_qs(query) == {"next": [page]}
    # A viewer opening a form's page gets the PIN page, its "Just watch" leading back there.
    html = client.get(f"/games/{gid}/rename").get_data(as_text=True)
    assert unescape(re.search(r'<a class="button big" href="([^"]+)"', html).group(1)) == \
        f"/games/{gid}/rename"


def test_entering_the_pin_makes_this_device_the_scorekeeper(client, app, game):
    gid = game["id"]
    r = client.post(f"/games/{gid}/pin?next=/games/{gid}/rounds/1", data={"pin": "9999"})
    assert r.status_code == 403 and NOT_THE_PIN in paragraphs(r)
    r = client.post(f"/games/{gid}/pin?next=/games/{gid}/rounds/1", data={"pin": PIN})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/games/{gid}/rounds/1")
    html = client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert 'id="save-round"' in html and "Enter the PIN" not in html
    r = client.post(f"/games/{gid}/rounds/1", data={"score-0": "0", "score-1": "5",
                                                   "score-2": "9", "revision": "0"})
    assert r.status_code == 302
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] == dict(
        zip(PLAYERS, (0, 5, 9)))
    # Another device is still a viewer.
    assert 'id="save-round"' not in app.test_client().get(f"/games/{gid}/rounds/2").get_data(
        as_text=True)


def test_a_new_pin_must_be_entered_again(client, app, game):
    gid = game["id"]
    keeper_b = app.test_client()
    keeper_b.post(f"/games/{gid}/pin", data={"pin": PIN})
    client.post(f"/games/{gid}/pin", data={"pin": PIN})
    r = client.post(f"/games/{gid}/pin/change", data={"current": PIN, "new": "8642",
                                                      "action": "set"})
    assert r.status_code == 302
    assert 'id="pin-link"' in client.get(f"/games/{gid}").get_data(as_text=True)   # still keeper
    assert 'id="pin-link"' not in keeper_b.get(f"/games/{gid}").get_data(as_text=True)
    r = client.post(f"/games/{gid}/pin/change", data={"current": "0000", "action": "remove"})
    assert r.status_code == 403 and NOT_THE_PIN in paragraphs(r)
    r = client.post(f"/games/{gid}/pin/change", data={"current": "8642", "action": "remove"})
    assert r.status_code == 302
    assert client.get(f"/api/games/{gid}").get_json()["protected"] is False


def test_the_pin_page_says_when_to_try_again(client, game):
    gid = game["id"]
    for _ in range(pins.MAX_WRONG):
        client.post(f"/games/{gid}/pin", data={"pin": "0000"})
    r = client.post(f"/games/{gid}/pin", data={"pin": PIN})
    assert r.status_code == 429 and r.headers["Retry-After"]
    assert TOO_MANY in paragraphs(r)


def test_new_game_page_sets_a_pin(client):
    data = {f"players-{i}": n for i, n in enumerate(PLAYERS)}
    r = client.post("/games/new", data={**data, "set": "12", "pin": "12"})
    assert r.status_code == 400 and "A PIN is 4 to 8 digits (0-9)." in paragraphs(r)
    r = client.post("/games/new", data={**data, "set": "12", "pin": "4321", "deal": "A",
                                        "starter": "engine_holder", "first_turn": "train",
                                        "first_turn_stuck": "marker",
                                        "double_owner_satisfies": "false", "double_blank": "50"})
    assert r.status_code == 302
    gid = r.headers["Location"].split("/")[2]
    assert client.get(f"/api/games/{gid}").get_json()["protected"] is True
    # The device that set the PIN keeps score.
    assert 'id="save-round"' in client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)


# --- live updates and the board -------------------------------------------------

def test_an_open_page_gets_304_until_the_game_changes(client, app, game):
    """What static/js/updates.js does every 1.5 s: ask for the page again with its ETag."""
    gid = game["id"]
    first = client.get(f"/games/{gid}")
    etag = first.headers["ETag"]
    assert f'data-updates-etag="{etag.strip(chr(34))}"' in first.get_data(as_text=True)
    r = client.get(f"/games/{gid}", headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.data == b""
    client.put(f"/api/games/{gid}/rounds/2", json=scores(), headers={pins.HEADER: PIN})
    r = client.get(f"/games/{gid}", headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.headers["ETag"] != etag
    assert 'data-saved-round="2"' in r.get_data(as_text=True)
    # The same page is another page for the scorekeeper, and in another language.
    keeper = app.test_client()
    keeper.post(f"/games/{gid}/pin", data={"pin": PIN})
    assert keeper.get(f"/games/{gid}", headers={"If-None-Match": r.headers["ETag"]}).status_code == 200
    assert client.get(f"/games/{gid}?lang=el",
                      headers={"If-None-Match": r.headers["ETag"]}).status_code == 200
    client.delete(f"/api/games/{gid}", headers={pins.HEADER: PIN})
    assert client.get(f"/games/{gid}", headers={"If-None-Match": r.headers["ETag"]}).status_code == 404


def test_a_reload_after_a_compressed_first_page_is_a_304(client, game):
    """A page rendered for the first time is compressed on its way out, and its ETag gets
    the encoding ("…:br"); the browser's own revalidation with that tag is a 304 too, from
    the first time (the page is the same in any encoding)."""
    path = f"/games/{game['id']}/standings"
    first = client.get(path, headers={"Accept-Encoding": "br"})
    assert first.headers["Content-Encoding"] == "br" and first.headers["ETag"].endswith(':br"')
    again = client.get(path, headers={"If-None-Match": first.headers["ETag"],
                                      "Accept-Encoding": "br"})
    assert again.status_code == 304
    other = first.headers["ETag"].replace("-en", "-el")         # another language's page
    assert client.get(path, headers={"If-None-Match": other}).status_code == 200


@pytest.mark.parametrize("path", ["/games/{gid}", "/games/{gid}/rounds/1", "/games/{gid}/standings",
                                  "/games/{gid}/history", "/games/{gid}/rounds/1/live",
                                  "/games/{gid}/rounds/1/live/log", "/games/{gid}/board"])
def test_game_pages_follow_the_game(client, game, path):
    r = client.get(path.format(gid=game["id"]))
    assert r.headers["ETag"] and "data-updates-etag=" in r.get_data(as_text=True)
    assert "data-updates>" in r.get_data(as_text=True)
    assert client.get(path.format(gid=game["id"]),
                      headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


def test_a_viewers_pages_are_the_same_bytes_for_every_device(app, game):
    """Without a form there is no token in a viewer's page: it is compressed once."""
    a, b = app.test_client(), app.test_client()
    path = f"/games/{game['id']}/standings"
    a.get(path)
    first = a.get(path, headers={"Accept-Encoding": "br"})
    second = b.get(path, headers={"Accept-Encoding": "br"})
    assert first.headers["Content-Encoding"] == "br" and second.headers["X-Page-Cache"] == "hit"
    assert first.data == second.data


def test_the_board(client, game):
    gid = game["id"]
    for n, row in ((1, (0, 5, 9)), (2, (7, 0, 5))):
        client.put(f"/api/games/{gid}/rounds/{n}", json=scores(*row), headers={pins.HEADER: PIN})
    r = client.get(f"/games/{gid}/board")
    text = page_text(r)
    assert "Round 3 of 13" in text and "Engine: double-10" in text
    assert "1 Bob 1 zero round 5 2 Ann 1 zero round 7 3 Chi 14" in text
    assert "<svg" in r.get_data(as_text=True) and "Scan to follow this game" in text
    # Equal totals (Ann 11, Bob 11): the tiebreak sentence says what decided it (R8.3).
    client.put(f"/api/games/{gid}/rounds/3", json=scores(4, 6, 0), headers={pins.HEADER: PIN})
    text = page_text(client.get(f"/games/{gid}/board"))
    assert "1 Ann" in text and "2 Bob" in text
    assert "Ann ahead of Bob: lower lowest non-zero round, 4 to 5 (R8.3)." in text


# --- guessing from many addresses, and across a restart (issue 19, item 3) -------------

EVERYONE = ("Too many wrong PINs were tried for this game in the last hour, from every device "
            "together: entering its PIN waits {} min. A device that already keeps score goes "
            "on keeping it. A device that holds the club PIN is let through this wait; on the "
            "server machine, the command “scorekeeper unlock” lifts every wait at once.")


def guess_from_many(app, gid, wrong: int, first: int = 1):
    """*wrong* wrong PINs for the game through the API, 4 from each address (under the
    per-address limit): what k devices on a LAN can do."""
    for i in range(wrong):
        r = app.test_client().put(f"/api/games/{gid}/rounds/1", json=scores(),
                                  headers={pins.HEADER: "0000"},
                                  environ_base={"REMOTE_ADDR": f"10.0.{first + i // 4}.1"})
        assert r.status_code == 403, (i, r.get_json())


def test_twenty_wrong_pins_an_hour_from_everyone_stop_pin_entry_for_that_game(app, game,
                                                                             game_factory):
    gid = game["id"]
    other = game_factory(pin=PIN)["id"]
    guess_from_many(app, gid, pins.MAX_WRONG_ALL)
    # A new device, the right PIN: 429 with the time to wait, through the API and the page.
    stranger = app.test_client()
    env = {"REMOTE_ADDR": "10.9.9.9"}
    r = stranger.put(f"/api/games/{gid}/rounds/1", json=scores(), headers={pins.HEADER: PIN},
                     environ_base=env)
    assert r.status_code == 429 and r.get_json()["field"] == "pin"
    assert 3500 < int(r.headers["Retry-After"]) <= 3600
    assert r.get_json()["error"] == EVERYONE.format(60)
    r = stranger.post(f"/games/{gid}/pin", data={"pin": PIN}, environ_base=env)
    assert r.status_code == 429 and EVERYONE.format(60) in paragraphs(r)
    assert 'id="save-round"' not in stranger.get(f"/games/{gid}/rounds/1",
                                                 environ_base=env).get_data(as_text=True)
    # Other games are not affected, nor is anything stored.
    assert stranger.put(f"/api/games/{other}/rounds/1", json=scores(),
                        headers={pins.HEADER: PIN}, environ_base=env).status_code == 200
    assert app.test_client().get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] is None


def test_a_scorekeeper_device_keeps_its_role_through_a_lockout(app, client, game):
    """`client` entered the PIN (it keeps score); the lockout comes from other devices,
    one of them sharing its address."""
    gid = game["id"]
    assert client.post(f"/games/{gid}/pin", data={"pin": PIN}).status_code == 302
    guess_from_many(app, gid, pins.MAX_WRONG_ALL)
    app.test_client().put(f"/api/games/{gid}/rounds/1", json=scores(),
                          headers={pins.HEADER: "0000"})   # from the keeper's own address
    form = {"score-0": "0", "score-1": "5", "score-2": "9", "revision": "0"}
    r = client.post(f"/games/{gid}/rounds/1", data=form)
    assert r.status_code == 302
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] == dict(
        zip(PLAYERS, (0, 5, 9)))
    assert 'id="save-round"' in client.get(f"/games/{gid}/rounds/2").get_data(as_text=True)
    # It may even change the PIN (what one does under attack): the lockout of all is
    # others' guessing, not its own.
    r = client.post(f"/games/{gid}/pin/change", data={"current": PIN, "new": "86420135",
                                                      "action": "set"})
    assert r.status_code == 302


def test_the_limits_survive_a_restart(app, game, new_app):
    gid = game["id"]
    url = f"/api/games/{gid}/rounds/1"
    for _ in range(pins.MAX_WRONG):
        app.test_client().put(url, json=scores(), headers={pins.HEADER: "0000"})
    guess_from_many(app, gid, pins.MAX_WRONG_ALL - pins.MAX_WRONG)
    restarted = new_app({"TESTING": True, "DATABASE": app.config["DATABASE"],
                         "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}).test_client()
    r = restarted.put(url, json=scores(), headers={pins.HEADER: PIN})
    assert r.status_code == 429 and r.get_json()["error"] == TOO_MANY
    r = restarted.put(url, json=scores(), headers={pins.HEADER: PIN},
                      environ_base={"REMOTE_ADDR": "10.7.7.7"})
    assert r.status_code == 429 and r.get_json()["error"] == EVERYONE.format(60)


def test_the_limit_of_all_is_an_hour_and_old_guesses_are_forgotten(database):
    from scorekeeper.storage import connect
    db = connect(database)
    g = pins.Guesses(lambda: db)
    for t in range(pins.MAX_WRONG_ALL):
        assert g.count(f"10.0.{t}.1", "g", now=1000.0 + t)[0] is not None
    assert g.wait_all("g", now=1100.0) == 3600 - 100 + 1
    assert g.wait_all("other", now=1100.0) == 0
    assert g.wait_all("g", now=1000.0 + pins.WINDOW_ALL + 0.5) == 0       # the first expired
    assert g.wait("10.0.0.1", "g", now=1100.0) == 0                      # 1 from that address
    assert g.count("10.9.9.9", "g", now=1100.0) == (None, 3501, True)    # nothing counted
    assert g.count("10.9.9.9", "g", everyone=False, now=1100.0)[0] is not None  # the role
    g.count("10.1.1.1", "g", now=1000.0 + 2 * pins.WINDOW_ALL)           # forgets the old
    assert db.execute("select count(*) from pin_guesses").fetchone()[0] == 1
    db.close()


def test_guessing_through_the_real_server_from_many_addresses(tmp_path, serve, new_app,
                                                              new_database):
    """Loopback addresses 127.0.0.x stand in for devices on the LAN."""
    import http.client
    import json as json_module
    app = new_app({"DATABASE": new_database(tmp_path / "g.db"), "SECRET_KEY": "k"})
    port = serve(app)
    gid = create_game(f"http://127.0.0.1:{port}", pin=PIN)["id"]
    statuses = []
    for i in range(pins.MAX_WRONG_ALL + 4):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                          source_address=(f"127.0.0.{2 + i // 4}", 0))
        conn.request("PUT", f"/api/games/{gid}/rounds/1", body=json_module.dumps(scores()),
                     headers={"Content-Type": "application/json", pins.HEADER: "1111"})
        statuses.append(conn.getresponse().status)
        conn.close()
    assert statuses == [403] * pins.MAX_WRONG_ALL + [429] * 4
