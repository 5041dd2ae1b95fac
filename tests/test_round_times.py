"""Round times (timing.py): a round runs from its start — the first save of the round
before it (the game's creation for round 1), or later its live table's first action, or
later a "Start round" tap — to its first save; shown on the pages, in the API, the
export and the PDF; never written by a page view; none for games stored before."""

from __future__ import annotations

import re
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper import storage
from scorekeeper.timing import average_seconds, format_duration, seconds_between, total_seconds

T0 = datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc)


class Clock:
    """The server's clock, set by the test: minutes after 19:00 UTC on 30 Nov 2026."""

    def __init__(self):
        self.minutes = 0.0

    def at(self, minutes: float) -> None:
        self.minutes = minutes

    def __call__(self) -> str:
        return (T0 + timedelta(minutes=self.minutes)).isoformat(timespec="seconds")


def iso(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat(timespec="seconds")


@pytest.fixture
def clock(monkeypatch):
    """Every write's time comes from this clock (storage reads now() where it writes)."""
    fake = Clock()
    for module in (storage.games, storage.rounds, storage.moves):
        monkeypatch.setattr(module, "now", fake)
    return fake


def rounds(client, gid) -> list[dict]:
    return client.get(f"/api/games/{gid}").get_json()["rounds"]


def save(client, gid, number, row=(0, 5, 9)):
    r = client.put(f"/api/games/{gid}/rounds/{number}",
                   json={"scores": dict(zip(["Ann", "Bob", "Chi"], row))})
    assert r.status_code == 200, r.get_json()


# --- the pure figures ------------------------------------------------------------------

def test_seconds_between_two_times():
    assert seconds_between(iso(0), iso(23.5)) == 1410
    assert seconds_between(iso(5), iso(0)) is None          # never backwards
    assert seconds_between(None, iso(3)) is None and seconds_between(iso(3), None) is None
    assert seconds_between("2026-11-30T20:00:00+01:00", iso(1)) == 60   # zones compared


def test_a_total_needs_every_round_and_an_average_every_game():
    assert total_seconds([60, 120]) == 180
    assert total_seconds([60, None]) is None and total_seconds([]) is None
    assert average_seconds([3600, 5400]) == 4500 and average_seconds([]) is None


@pytest.mark.parametrize("seconds, said", [
    (0, "0 s"), (59, "59 s"), (60, "1 min"), (23 * 60 + 59, "23 min"), (3600, "1 h 00 min"),
    (2 * 3600 + 14 * 60, "2 h 14 min"),
])
def test_a_duration_in_words(seconds, said):
    assert format_duration(seconds) == said


# --- when a round starts and ends --------------------------------------------------------

def test_round_one_starts_with_the_game_and_each_round_at_the_first_save_before_it(
        client, clock, game_factory):
    gid = game_factory()["id"]
    clock.at(23)
    save(client, gid, 1)
    clock.at(30)
    save(client, gid, 1, (0, 7, 9))     # a correction: neither round's time moves
    clock.at(61)
    save(client, gid, 2)
    first, second, third = rounds(client, gid)[:3]
    assert (first["started_at"], first["saved_at"], first["seconds"]) == (iso(0), iso(23), 1380)
    assert (second["started_at"], second["saved_at"], second["seconds"]) == (iso(23), iso(61),
                                                                           38 * 60)
    assert (third["started_at"], third["saved_at"], third["seconds"]) == (iso(61), None, None)


def test_a_later_live_table_or_start_tap_moves_the_start_and_an_earlier_one_does_not(
        client, clock, game_factory):
    gid = game_factory()["id"]
    clock.at(10)
    save(client, gid, 1)
    clock.at(25)   # a break; the live table of round 2 starts: its time starts now
    live = f"/games/{gid}/rounds/2/live"
    client.post(live + "/start", data={"starter": "0", "tiles_each": "12", "active": "0"})
    clock.at(26)   # a later live action is not the first: no change
    client.post(live + "/action", data={"kind": "draw", "active": "1"})
    assert rounds(client, gid)[1]["started_at"] == iso(25)
    clock.at(27)
    r = client.post(f"/api/games/{gid}/rounds/2/start", json={})
    assert r.status_code == 200 and r.get_json()["started_at"] == iso(27)
    # Every round object carries the house-scoring fields too (docs/api.md), null unscored.
    assert r.get_json() == {"number": 2, "engine": 11, "scores": None, "revision": 0,
                            "hand_scores": None, "went_out": None, "markers": None,
                            "started_at": iso(27), "saved_at": None, "seconds": None}
    # Round 4 started at its table before round 3 was saved: round 3's save is later.
    clock.at(30)
    client.post(f"/games/{gid}/rounds/4/start")
    clock.at(40)
    save(client, gid, 2)
    clock.at(50)
    save(client, gid, 3)
    assert [r["started_at"] for r in rounds(client, gid)[:4]] == [iso(0), iso(27), iso(40),
                                                                  iso(50)]


def test_a_recorded_round_cannot_be_started_again_and_nothing_changes(client, clock,
                                                                      game_factory):
    gid = game_factory()["id"]
    clock.at(12)
    save(client, gid, 1)
    before = client.get(f"/api/games/{gid}").get_json()
    clock.at(20)
    r = client.post(f"/api/games/{gid}/rounds/1/start", json={})
    assert r.status_code == 400 and r.get_json() == {
        "error": "Round 1 is already recorded: its time ended when it was first saved.",
        "field": "number"}
    assert client.post(f"/api/games/{gid}/rounds/1/start", json={"at": 5}).get_json() == {
        "error": "“at” is not a field of a round's start: send {} (no fields).",
        "field": "at"}
    assert client.post(f"/api/games/{gid}/rounds/99/start", json={}).status_code == 400
    assert client.post(f"/api/games/{gid}/rounds/2/start", data="{}").status_code == 415
    assert client.post("/api/games/nope/rounds/2/start", json={}).status_code == 404
    assert client.get(f"/api/games/{gid}").get_json() == before


def test_an_undo_keeps_a_rounds_first_save(client, clock, game_factory):
    gid = game_factory()["id"]
    clock.at(12)
    save(client, gid, 1)
    clock.at(15)
    client.post(f"/games/{gid}/undo")
    clock.at(18)
    save(client, gid, 1)
    first, second = rounds(client, gid)[:2]
    assert (first["saved_at"], second["started_at"]) == (iso(12), iso(12))


def test_a_protected_games_start_needs_the_pin(client, game_factory):
    gid = game_factory(pin="2468")["id"]
    r = client.post(f"/api/games/{gid}/rounds/2/start", json={})
    assert r.status_code == 403 and r.get_json()["field"] == "pin"
    ok = client.post(f"/api/games/{gid}/rounds/2/start", json={}, headers={"X-Game-PIN": "2468"})
    assert ok.status_code == 200


def test_page_views_never_write(app, client, game_factory):
    game = game_factory(pin="2468", scores=[[0, 5, 9]])
    gid = game["id"]
    viewer = app.test_client()
    for path in ("/games/{gid}", "/games/{gid}/rounds/2", "/games/{gid}/board",
                 "/games/{gid}/rounds/2/live", "/games/{gid}/rounds/2/referee",
                 "/games/{gid}/standings", "/games/{gid}/verify"):
        assert viewer.get(path.format(gid=gid)).status_code == 200
    assert client.get(f"/api/games/{gid}").get_json() == game
    # A viewer's tap is refused: only the scorekeeper starts a round.
    assert viewer.post(f"/games/{gid}/rounds/2/start").status_code == 403
    assert client.get(f"/api/games/{gid}").get_json() == game


# --- where the times are shown ----------------------------------------------------------

@pytest.fixture
def timed(client, clock, game_factory):
    """Ann, Bob and Chi: round 1 took 23 min, round 2 38 min; round 3 running since 19:61."""
    gid = game_factory()["id"]
    clock.at(23)
    save(client, gid, 1)
    clock.at(61)
    save(client, gid, 2)
    return gid


def test_the_round_page_says_when_the_round_started_and_runs_its_time(client, timed):
    html = client.get(f"/games/{timed}/rounds/3").get_data(as_text=True)
    # Babel writes a narrow no-break space before PM.
    assert re.search(f'Started at <time datetime="{re.escape(iso(61))}" data-local="time">'
                     r"8:01:00\sPM UTC</time>", html)
    assert f'data-since="{iso(61)}" data-running="Playing for {{time}}" hidden' in html
    assert 'id="start-round"' in html and "Start round 3 now" in html
    done = client.get(f"/games/{timed}/rounds/2").get_data(as_text=True)
    assert "Round time: 38 min" in done and "data-since" not in done and "start-round" not in done


def test_a_viewer_sees_the_time_but_no_start_button(app, client, clock, game_factory):
    gid = game_factory(pin="2468")["id"]
    html = app.test_client().get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert "data-since" in html and "start-round" not in html


def test_the_start_tap_from_the_round_page(client, clock, timed):
    clock.at(70)
    r = client.post(f"/games/{timed}/rounds/3/start")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/games/{timed}/rounds/3")
    page = client.get(f"/games/{timed}/rounds/3").get_data(as_text=True)
    assert "Round 3 started: its time counts from now." in page
    assert rounds(client, timed)[2]["started_at"] == iso(70)
    r = client.post(f"/games/{timed}/rounds/1/start", follow_redirects=True)
    assert "Round 1 is already recorded" in r.get_data(as_text=True)


def test_the_tv_board_runs_the_current_rounds_time(client, timed):
    html = client.get(f"/games/{timed}/board").get_data(as_text=True)
    assert f'data-since="{iso(61)}"' in html and "start-round" not in html


def test_the_scores_page_shows_each_recorded_rounds_time_and_the_total(client, timed):
    html = client.get(f"/games/{timed}").get_data(as_text=True)
    cells = re.findall(r'<td class="num time-col">([^<]*)</td>', html)
    assert cells[:3] == ["23 min", "38 min", ""] and cells[-1] == "1 h 01 min"


def test_the_standings_say_the_games_time(client, timed):
    html = client.get(f"/games/{timed}/standings").get_data(as_text=True)
    assert "Time so far: 1 h 01 min" in html


def test_the_export_carries_the_times_and_an_import_keeps_them(client, timed):
    doc = client.get(f"/api/games/{timed}/export").get_json()
    assert [(r["started_at"], r["saved_at"], r["seconds"]) for r in doc["rounds"][:3]] == [
        (iso(0), iso(23), 1380), (iso(23), iso(61), 2280), (iso(61), None, None)]
    copy = client.post("/api/games/import", json=doc).get_json()
    assert [r["seconds"] for r in copy["rounds"][:2]] == [1380, 2280]
    # Times written in another zone are stored in UTC, as the app writes them.
    doc["rounds"][2]["started_at"] = "2026-11-30T21:01:00+01:00"
    shifted = client.post("/api/games/import", json=doc).get_json()
    assert shifted["rounds"][2]["started_at"] == iso(61)
    doc["rounds"][0]["saved_at"] = iso(-5)
    r = client.post("/api/games/import", json=doc)
    assert r.status_code == 400 and r.get_json() == {
        "error": "A round cannot be saved before its play started.",
        "field": "rounds.0.saved_at"}
    doc["rounds"][0]["saved_at"] = "yesterday"
    assert client.post("/api/games/import", json=doc).get_json()["field"] == "rounds.0.saved_at"


def test_an_old_export_imports_with_no_times(client, timed):
    doc = client.get(f"/api/games/{timed}/export").get_json()
    for r in doc["rounds"]:
        for key in ("started_at", "saved_at", "seconds"):
            del r[key]
    gid = client.post("/api/games/import", json=doc).get_json()["id"]
    assert {(r["started_at"], r["saved_at"], r["seconds"]) for r in rounds(client, gid)} == {
        (None, None, None)}
    assert client.post(f"/api/games/{gid}/rounds/5/start", json={}).get_json() == {
        "error": "This game was stored before round times were kept, so its rounds are not "
                 "timed.", "field": "number"}
    for path in ("/games/{gid}", "/games/{gid}/rounds/3", "/games/{gid}/standings",
                 "/games/{gid}/board"):
        html = client.get(path.format(gid=gid)).get_data(as_text=True)
        assert "round-clock" not in html and "time-col" not in html and "Time so far" not in html


def test_a_game_stored_before_round_times_stays_untimed(app, client, clock, game_factory):
    gid = game_factory()["id"]
    db = storage.connect(app.config["DATABASE"])
    db.execute("update rounds set started_at = null, saved_at = null")   # as m015 left it
    db.conn.commit()
    clock.at(20)
    save(client, gid, 1)
    assert {(r["started_at"], r["saved_at"]) for r in rounds(client, gid)} == {(None, None)}


def test_the_scoresheet_prints_the_games_time(client, timed):
    data = client.get(f"/games/{timed}/scoresheet.pdf").data
    text = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True).stdout
    assert "Time so far: 1 h 01 min" in text.decode()


def test_a_players_page_gives_their_average_game_length(client, clock, game_factory):
    for k, minutes in enumerate((30, 50)):
        clock.at(1000 * k)
        gid = game_factory(start_engine=1, end_engine=0)["id"]
        clock.at(1000 * k + minutes / 2)
        save(client, gid, 1)
        clock.at(1000 * k + minutes)
        save(client, gid, 2)
    html = client.get("/players/Ann").get_data(as_text=True)
    assert re.search(r"Average game length</dt><dd>40 min\s*</dd>", html)


# --- the running time, in the browser ------------------------------------------------------

@pytest.mark.browser
def test_the_running_time_ticks_and_follows_the_servers_clock(live_server, page):
    from helpers import create_game
    from playwright.sync_api import expect
    gid = create_game(live_server)["id"]
    # This device's clock is an hour fast: the live updates' Date corrects it.
    page.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 3600e3; })()")
    page.goto(f"{live_server}/games/{gid}/rounds/1")
    running = page.locator(".running")
    assert re.fullmatch(r"Playing for 1:00:0\d", running.inner_text())   # before any update
    expect(running).to_have_text(re.compile(r"Playing for 0:0\d"), timeout=8000)
    first = running.inner_text()
    expect(running).not_to_have_text(first, timeout=3000)   # it ticks (each second)
    board = page.context.new_page()
    board.goto(f"{live_server}/games/{gid}/board")
    expect(board.locator(".running")).to_have_text(re.compile(r"Playing for \d+:\d\d"))
