"""Players across games and seasons (issue 12): records, aliases, season orders, refusals.

The expected figures are worked by hand in the comments; the season orders cite the
tie rules of docs/api.md "A season's standings".
"""

from __future__ import annotations

import io
import subprocess
import unicodedata
from datetime import date
from decimal import Decimal
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import create_game
from scorekeeper import storage
from scorekeeper.errors import BadInput
from scorekeeper.game import person_key
from scorekeeper.records import Record, Season, average, rank

SEASON = Season("s1", "Autumn 2026", date(2026, 9, 1), date(2026, 11, 30))


def rec(name, games, wins, rounds, points, zeros, lowest=None):
    return Record(name, person_key(name), games, wins, rounds, points, zeros, lowest)


# A: 2 wins, 390/39 = 10.00; B: 2 wins, 351/39 = 9.00; C and D: 1 win, 234/26 = 9.00,
# 6 zero rounds each; E: 0 wins, 100/13 = 7.69 (7.6923…).
CLUB = [rec("A", 3, 2, 39, 390, 5), rec("B", 3, 2, 39, 351, 4), rec("C", 2, 1, 26, 234, 6),
        rec("D", 2, 1, 26, 234, 6), rec("E", 1, 0, 13, 100, 2)]


def test_by_wins_then_lower_average_then_shared_place():
    table = rank(SEASON, CLUB, "wins")
    assert [(r.name, r.place) for r in table.rows] == [
        ("B", 1), ("A", 2), ("C", 3), ("D", 3), ("E", 5)]   # 1, 2, 3, 3, 5: the next skipped
    assert table.notes == (
        "B ahead of A: the same number of wins (2), a lower average per round, 9.00 to 10.00.",
        "C and D share place 3: the same wins, average per round and zero rounds.")


def test_by_average_then_more_wins_then_shared_place():
    table = rank(SEASON, CLUB, "average")
    assert [(r.name, r.place) for r in table.rows] == [
        ("E", 1), ("B", 2), ("C", 3), ("D", 3), ("A", 5)]
    assert table.notes == (
        "B ahead of C: the same average per round (9.00), more wins, 2 to 1.",
        "C and D share place 3: the same average per round, wins and zero rounds.")


def test_more_zero_rounds_breaks_the_last_tie():
    table = rank(SEASON, [rec("X", 2, 1, 26, 234, 3), rec("Y", 2, 1, 26, 234, 7)], "wins")
    assert [(r.name, r.place) for r in table.rows] == [("Y", 1), ("X", 2)]
    assert table.notes == ("Y ahead of X: the same wins and average per round, more zero "
                           "rounds, 7 to 3.",)
    table = rank(SEASON, [rec("X", 2, 1, 26, 234, 3), rec("Y", 2, 1, 26, 234, 7)], "average")
    assert table.notes == ("Y ahead of X: the same average per round and wins, more zero "
                           "rounds, 7 to 3.",)


def test_minimum_games_lists_the_others_unranked_by_name():
    table = rank(SEASON, CLUB, "average", min_games=2)
    assert [r.name for r in table.rows] == ["B", "C", "D", "A"]
    assert [r.place for r in table.rows] == [1, 2, 2, 4]
    assert [r.name for r in table.unranked] == ["E"]
    assert table.to_json()["unranked"][0] == {
        "name": "E", "games": 1, "wins": 0, "rounds": 13, "points": 100,
        "average_per_round": 7.69, "zero_rounds": 2, "lowest_game": None}


def test_averages_round_half_up_and_compare_as_shown():
    assert average(1, 8) == Decimal("0.13")          # 0.125 → 0.13, not 0.12
    assert average(5, 3) == Decimal("1.67")
    assert average(0, 0) is None
    # 1000/117 = 8.547 and 1001/117 = 8.555… → 8.55 and 8.56; 2000/234 = 8.547 → 8.55:
    # the first and the last are equal as shown, so wins decide.
    table = rank(SEASON, [rec("P", 9, 1, 117, 1000, 0), rec("Q", 18, 2, 234, 2000, 0)],
                 "average")
    assert [r.name for r in table.rows] == ["Q", "P"]
    assert table.notes[0].startswith("Q ahead of P: the same average per round (8.55)")


def test_a_person_is_a_name_in_any_case_and_normal_form():
    decomposed = unicodedata.normalize("NFD", "Nguyễn Văn An")
    assert person_key(decomposed) == person_key("nguyễn văn an") == person_key(" NGUYỄN  Văn An ")
    assert person_key("Nguyen Van An") != person_key("Nguyễn Văn An")   # an alias joins these
    assert person_key("Γιώργος") == person_key("ΓΙΏΡΓΟΣ".lower())


def test_an_unknown_order_is_refused():
    with pytest.raises(BadInput) as refused:
        rank(SEASON, CLUB, "points")
    assert refused.value.message == "Rank a season by “wins” or by “average”."
    assert refused.value.field == "rank_by"


# --- through the API ----------------------------------------------------------

def play(client, players, rounds, name=None):
    """A game with one round per row of scores (engines from len(rounds) - 1 down to 0;
    None leaves a round unplayed): its id."""
    return create_game(client, players, scores=rounds, finished=True, name=name)["id"]


def record(client, name):
    r = client.get(f"/api/players/{name}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_a_record_counts_complete_games_only(client):
    # Game 1 (complete): Ann 0+5 = 5, Bob 10+0 = 10, Chi 3+3 = 6 → Ann 1st, Chi 2nd, Bob 3rd.
    play(client, ["Ann", "Bob", "Chi"], [[0, 10, 3], [5, 0, 3]], name="First")
    # Game 2 (complete), "ann" in lower case: ann 7+0+2 = 9, Bob 0+1+1 = 2 → Bob wins.
    play(client, ["ann", "Bob"], [[7, 0], [0, 1], [2, 1]], name="Second")
    # Game 3 (in progress): does not count, but it is the most recent, so its spelling
    # names the player.
    play(client, ["Ann", "Bob"], [[50, 0], None])
    assert record(client, "ANN") == {
        "name": "Ann", "games": [
            {"id": record(client, "ann")["games"][0]["id"], "name": "Second", "total": 9,
             "place": 2, "players": 2},
            {"id": record(client, "ann")["games"][1]["id"], "name": "First", "total": 5,
             "place": 1, "players": 3}],
        "wins": 1, "rounds": 5, "points": 14, "average_per_round": 2.8, "zero_rounds": 2,
        "lowest_game": 5}
    everyone = client.get("/api/players").get_json()["players"]
    assert [p["name"] for p in everyone] == ["Ann", "Bob", "Chi"]
    assert everyone[1] == {"name": "Bob", "games": 2, "wins": 1, "rounds": 5, "points": 12,
                           "average_per_round": 2.4, "zero_rounds": 2, "lowest_game": 2}


def test_a_player_with_no_finished_game_is_listed_with_zeros(client):
    play(client, ["Ann", "Dee"], [[5, 0], None])
    assert record(client, "Dee") == {"name": "Dee", "games": [], "wins": 0, "rounds": 0,
                                     "points": 0, "average_per_round": None, "zero_rounds": 0,
                                     "lowest_game": None}


def test_a_shared_first_place_is_a_win_for_each(client):
    # Ann 0+4 = 4 and Bob 4+0 = 4, one zero round each, lowest non-zero 4 each: shared 1st.
    play(client, ["Ann", "Bob", "Chi"], [[0, 4, 9], [4, 0, 9]])
    assert record(client, "Ann")["wins"] == record(client, "Bob")["wins"] == 1
    assert record(client, "Chi")["games"][0]["place"] == 3


def test_a_correction_changes_the_record_at_once(client):
    gid = play(client, ["Ann", "Bob"], [[0, 10], [5, 0]])
    assert record(client, "Ann")["points"] == 5 and record(client, "Ann")["wins"] == 1
    client.put(f"/api/games/{gid}/rounds/2", json={"scores": {"Ann": 25, "Bob": 0}})
    assert record(client, "Ann")["points"] == 25 and record(client, "Ann")["wins"] == 0
    assert record(client, "Bob")["wins"] == 1


def test_a_deleted_game_leaves_the_records_and_a_restore_brings_it_back(client):
    play(client, ["Ann", "Bob"], [[0, 10]])
    gid = play(client, ["Ann", "Bob"], [[3, 0]])
    assert record(client, "Ann")["games"].__len__() == 2
    client.delete(f"/api/games/{gid}")
    assert len(record(client, "Ann")["games"]) == 1
    assert record(client, "Bob")["wins"] == 0
    client.post(f"/api/games/{gid}/restore", json={})
    assert len(record(client, "Ann")["games"]) == 2
    assert record(client, "Bob")["wins"] == 1


def test_an_unknown_player_is_404(client):
    r = client.get("/api/players/Nobody")
    assert r.status_code == 404
    assert r.get_json() == {"error": "No game has a player called Nobody.", "field": "name"}


def test_an_alias_joins_two_spellings_and_the_games_keep_theirs(client):
    g1 = play(client, ["Nguyễn Văn An", "Bob"], [[0, 10]])      # An wins, 0
    play(client, ["Nguyen Van An", "Bob"], [[20, 5]])           # Bob wins, An 20
    r = client.post("/api/players/aliases", json={"alias": "Nguyen Van An", "of": "Nguyễn Văn An"})
    assert r.status_code == 200
    joined = r.get_json()
    assert (joined["games"], joined["wins"], joined["points"]) == (2, 1, 20)
    # Either spelling finds the person; their most recent game's spelling names them.
    assert record(client, "nguyen van an")["points"] == record(client, "Nguyễn Văn An")["points"]
    assert record(client, "Nguyễn Văn An")["name"] == "Nguyen Van An"
    assert [p["name"] for p in client.get("/api/players").get_json()["players"]] == [
        "Bob", "Nguyen Van An"]
    assert client.get(f"/api/games/{g1}").get_json()["players"] == ["Nguyễn Văn An", "Bob"]
    # Separated again: two people.
    r = client.delete("/api/players/aliases/Nguyen Van An")
    assert r.status_code == 200 and r.get_json()["games"] == 1
    assert record(client, "Nguyễn Văn An")["games"] and record(client, "Nguyễn Văn An")["points"] == 0


@pytest.mark.parametrize("body, field, sentence", [
    ({"alias": "Zed", "of": "Ann"}, "alias", "No game has a player called Zed."),
    ({"alias": "Ann", "of": "Zed"}, "of", "No game has a player called Zed."),
    ({"alias": "Ann", "of": "Bob"}, "alias",
     "Ann and Bob sat at the same game, so they are two different players."),
    ({"alias": "ANN", "of": "ann"}, "alias", "ANN and ann are already the same player."),
    ({"alias": "", "of": "Ann"}, "alias", "Give the name to join to another player."),
    ({"alias": "Ann"}, "of", "Give the name of the player that Ann is another spelling of."),
])
def test_aliases_refused(client, body, field, sentence):
    play(client, ["Ann", "Bob"], [[0, 10]])
    before = client.get("/api/players").get_json()
    r = client.post("/api/players/aliases", json=body)
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}
    assert client.get("/api/players").get_json() == before      # nothing stored


def test_two_people_who_sat_together_in_a_deleted_game_stay_two(client):
    gid = play(client, ["Ann", "Bob"], [[0, 10]])
    play(client, ["Ann", "Cy"], [[0, 10]])
    play(client, ["Bob", "Cy"], [[0, 10]])
    client.delete(f"/api/games/{gid}")
    r = client.post("/api/players/aliases", json={"alias": "Ann", "of": "Bob"})
    assert r.status_code == 400 and r.get_json()["field"] == "alias"


def test_separating_a_name_that_is_not_an_alias_is_refused(client):
    play(client, ["Ann", "Bob"], [[0, 10]])
    r = client.delete("/api/players/aliases/Ann")
    assert r.status_code == 400
    assert r.get_json() == {"error": "Ann is not joined to another player.", "field": "alias"}


# --- seasons -------------------------------------------------------------------

def season(client, name="Autumn 2026", start="2026-09-01", end="2026-11-30"):
    r = client.post("/api/seasons", json={"name": name, "from": start, "to": end})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def created_on(app, gid, when):
    """Move a game's creation to *when* (ISO), as if it had been played then."""
    from scorekeeper.db import get_db
    with app.app_context():
        db = get_db()
        with storage.write(db):
            db.execute("update games set created_at = ? where id = ?", [when, gid])
            db.execute("delete from seats where game_id = ?", [gid])   # its day is set once
            storage.refresh_seats(db, gid)


def test_a_season_holds_the_complete_games_created_within_its_dates(app, client):
    s = season(client)
    assert set(s) == {"id", "name", "from", "to"}
    assert (s["name"], s["from"], s["to"]) == ("Autumn 2026", "2026-09-01", "2026-11-30")
    inside_first = play(client, ["Ann", "Bob"], [[0, 10]])       # Ann wins
    inside_last = play(client, ["Ann", "Bob"], [[10, 0]])        # Bob wins
    before = play(client, ["Ann", "Bob"], [[0, 10]])             # Ann wins, August
    after = play(client, ["Ann", "Cy"], [[0, 10]])               # December
    created_on(app, inside_first, "2026-09-01T10:00:00")
    created_on(app, inside_last, "2026-11-30T20:00:00")
    created_on(app, before, "2026-08-31T20:00:00")
    created_on(app, after, "2026-12-01T09:00:00")
    got = client.get(f"/api/seasons/{s['id']}/standings").get_json()
    assert got["season"] == s and got["rank_by"] == "wins" and got["unranked"] == []
    # Ann and Bob: 1 win each; Ann 10/2 = 5.00, Bob 10/2 = 5.00; one zero round each:
    # a shared first place.
    assert [(r["name"], r["place"], r["wins"], r["average_per_round"])
            for r in got["standings"]] == [("Ann", 1, 1, 5.0), ("Bob", 1, 1, 5.0)]


def test_season_standings_by_average_with_a_minimum(client):
    s = season(client, start="2000-01-01", end="2100-12-31")
    play(client, ["Ann", "Bob", "Cy"], [[0, 10, 4], [6, 0, 4]])   # Ann 6, Bob 10, Cy 8
    play(client, ["Ann", "Bob"], [[5, 0], [5, 0]])                 # Ann 10, Bob 0
    got = client.get(f"/api/seasons/{s['id']}/standings?rank_by=average&min_games=2").get_json()
    # Bob 10/4 = 2.50, Ann 16/4 = 4.00; Cy (one game) is not ranked.
    assert [(r["name"], r["place"], r["average_per_round"]) for r in got["standings"]] == [
        ("Bob", 1, 2.5), ("Ann", 2, 4.0)]
    assert [r["name"] for r in got["unranked"]] == ["Cy"]
    assert got["min_games"] == 2


@pytest.mark.parametrize("body, field, sentence", [
    ({"name": "X", "from": "2026-09-31", "to": "2026-11-30"}, "from",
     "“2026-09-31” is not a date: give it as year-month-day, for example 2026-09-01."),
    ({"name": "X", "from": "1/9/2026", "to": "2026-11-30"}, "from",
     "“1/9/2026” is not a date: give it as year-month-day, for example 2026-09-01."),
    ({"name": "X", "from": "2026-09-01"}, "to",
     "Give the date as year-month-day, for example 2026-09-01."),
    ({"name": "X", "from": "2026-12-01", "to": "2026-11-30"}, "to",
     "The season ends before it starts: “to” (2026-11-30) must be on or after “from” "
     "(2026-12-01)."),
    ({"name": " ", "from": "2026-09-01", "to": "2026-11-30"}, "name",
     "Give the season a name, for example “Autumn 2026”."),
    ({"name": "x" * 61, "from": "2026-09-01", "to": "2026-11-30"}, "name",
     "A season's name can be at most 60 characters."),
    ({"name": "Autumn\u202e", "from": "2026-09-01", "to": "2026-11-30"}, "name",
     "The season's name contains an invisible, direction-changing or control character; "
     "type it again without it."),
])
def test_seasons_refused(client, body, field, sentence):
    r = client.post("/api/seasons", json=body)
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}
    assert client.get("/api/seasons").get_json() == {"seasons": []}


@pytest.mark.parametrize("query, field, sentence", [
    ("rank_by=points", "rank_by", "Rank a season by “wins” or by “average”."),
    ("min_games=two", "min_games",
     "The minimum number of games must be a whole number from 0 to 1000."),
    ("min_games=-1", "min_games",
     "The minimum number of games must be a whole number from 0 to 1000."),
])
def test_season_standings_refused(client, query, field, sentence):
    s = season(client)
    r = client.get(f"/api/seasons/{s['id']}/standings?{query}")
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}


def test_unknown_seasons_are_404_and_a_season_can_be_removed(client):
    assert client.get("/api/seasons/nope/standings").status_code == 404
    assert client.get("/api/seasons/nope").get_json() == {
        "error": "There is no season with that id.", "field": "id"}
    s = season(client)
    assert client.get("/api/seasons").get_json() == {"seasons": [s]}
    assert client.get(f"/api/seasons/{s['id']}").get_json() == s
    assert client.delete(f"/api/seasons/{s['id']}").get_json() == {"id": s["id"], "deleted": True}
    assert client.delete(f"/api/seasons/{s['id']}").status_code == 404


# --- the seats table stays in step with every write -------------------------------

def recomputed(db) -> list[tuple]:
    rows = []
    for (gid,) in db.execute("select id from games").fetchall():
        game = storage.load_game(db, gid, deleted=True)
        table = game.standings()
        places = {r.player: r for r in table.rows}
        for seat, name in enumerate(game.players):
            rows.append((gid, seat, name, places[name].total, places[name].zero_rounds,
                         places[name].place if table.complete else None, int(table.complete),
                         int(game.deleted_at is None)))
    return sorted(rows)


def stored(db) -> list[tuple]:
    return sorted(db.execute("select game_id, seat, name, total, zero_rounds, place, complete, "
                             "live from seats").fetchall())


ACTIONS = st.lists(st.tuples(st.sampled_from(["save", "undo", "redo", "delete", "restore",
                                              "import"]),
                             st.integers(0, 2), st.integers(1, 2),
                             st.lists(st.integers(0, 30), min_size=3, max_size=3)),
                   min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_seats_match_the_games_after_any_writes(tmp_path_factory, new_database, actions):
    from scorekeeper.archive import parse_document
    from scorekeeper.options import RuleOptions
    db = storage.connect(new_database(tmp_path_factory.mktemp("seats") / "s.db"))
    games = [storage.create_game(db, name="", players=["Ann", "Bob", "Cy"], set_n=6,
                                 options=RuleOptions(), start_engine=1, end_engine=0).id
             for _ in range(3)]
    for kind, k, number, scores in actions:
        gid = games[k % len(games)]
        game = storage.load_game(db, gid, deleted=True)
        if kind == "save" and game.deleted_at is None:
            storage.record_round(db, game, number, dict(zip(game.players, scores)))
        elif kind == "undo" and game.deleted_at is None:
            storage.undo_last(db, game)
        elif kind == "redo" and game.deleted_at is None:
            storage.redo_last(db, game)
        elif kind == "delete" and game.deleted_at is None:
            storage.delete_game(db, gid)
        elif kind == "restore":
            storage.restore_game(db, gid)
        elif kind == "import" and game.deleted_at is None:
            games.append(storage.import_game(db, parse_document(storage.export_game(db, gid))).id)
        assert stored(db) == recomputed(db)
    names = dict(db.execute("select person, name from persons").fetchall())
    live = {r[0] for r in db.execute("select person from seats where live = 1")}
    assert set(names) == live
    db.close()


# --- pages -----------------------------------------------------------------------

def test_the_players_pages(client):
    play(client, ["Ann", "王小明"], [[0, 12], [3, 0]], name="Friday")
    html = client.get("/players").get_data(as_text=True)
    assert "<bdi>Ann</bdi>" in html and "<bdi>王小明</bdi>" in html
    assert "data-updates-etag" in html
    page = client.get("/players/Ann").get_data(as_text=True)
    assert "<h1><bdi>Ann</bdi></h1>" in page
    assert '<svg class="chart"' in page and "Friday" in page
    assert "1 of 2" in page    # place 1 of 2 players
    missing = client.get("/players/Nobody")
    assert missing.status_code == 404
    assert "No game has a player called Nobody." in missing.get_data(as_text=True)


def test_joining_and_separating_spellings_from_the_player_page(client):
    play(client, ["Nguyễn Văn An", "Bob"], [[0, 10]])
    play(client, ["Nguyen Van An", "Bob"], [[20, 5]])
    r = client.post("/players/aliases", data={"alias": "Nguyen Van An", "of": "Nguyễn Văn An"},
                    follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "Nguyen Van An is now counted as Nguyen Van An." in html or \
        "is now counted as" in html
    assert record(client, "Nguyễn Văn An")["points"] == 20
    refused = client.post("/players/aliases", data={"alias": "Nguyen Van An", "of": "Bob"},
                          follow_redirects=True).get_data(as_text=True)
    assert "Nguyen Van An is already joined to Nguyễn Văn An; separate it first." in refused
    refused = client.post("/players/aliases", data={"alias": "Bob", "of": "Nguyen Van An"},
                          follow_redirects=True).get_data(as_text=True)
    assert "Bob and Nguyen Van An sat at the same game, so they are two different players." \
        in refused
    client.post("/players/aliases/remove", data={"alias": "Nguyen Van An",
                                                  "player": "Nguyễn Văn An"})
    assert record(client, "Nguyễn Văn An")["points"] == 0


def test_the_seasons_pages(client):
    play(client, ["Ann", "Bob"], [[0, 10]])
    r = client.post("/seasons", data={"name": "Everything", "start": "2000-01-01",
                                      "end": "2100-12-31"})
    assert r.status_code == 302
    sid = r.location.rsplit("/", 1)[1]
    html = client.get(r.location).get_data(as_text=True)
    assert "<h1><bdi>Everything</bdi></h1>" in html
    assert 'aria-current="page" class="active">By wins' in html
    assert client.get(f"/seasons/{sid}?rank_by=average").status_code == 200
    bad = client.get(f"/seasons/{sid}?min_games=x")
    assert bad.status_code == 400
    assert "The minimum number of games must be a whole number from 0 to 1000." in \
        bad.get_data(as_text=True)
    board = client.get(f"/seasons/{sid}/board").get_data(as_text=True)
    assert "board-page" in board and "<bdi>Ann</bdi>" in board
    assert "Everything" in client.get("/seasons").get_data(as_text=True)
    assert client.get("/seasons/nope").status_code == 404
    client.post(f"/seasons/{sid}/delete")
    assert client.get(f"/seasons/{sid}").status_code == 404


def test_a_refused_season_form_keeps_what_was_typed_and_stores_nothing(client):
    r = client.post("/seasons", data={"name": "Spring", "start": "2026-03-01",
                                      "end": "2026-02-01"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "The season ends before it starts" in html and 'value="Spring"' in html
    assert client.get("/api/seasons").get_json() == {"seasons": []}


def test_season_pages_answer_304_until_something_changes(client):
    s = season(client, start="2000-01-01", end="2100-12-31")
    first = client.get(f"/seasons/{s['id']}")
    etag = first.headers["ETag"].strip('"')
    assert client.get(f"/seasons/{s['id']}", headers={"If-None-Match": f'"{etag}"'}).status_code == 304
    play(client, ["Ann", "Bob"], [[0, 10]])
    again = client.get(f"/seasons/{s['id']}", headers={"If-None-Match": f'"{etag}"'})
    assert again.status_code == 200 and "<bdi>Ann</bdi>" in again.get_data(as_text=True)


@pytest.mark.parametrize("name, ascii_name", [
    # Words outside the Latin letters: the season's dates, never "season-Winter-2026-".
    ("Winter 2026 冬季", "season-2026-12-01-to-2027-02-28"),
    ("Χειμώνας 2026", "season-2026-12-01-to-2027-02-28"),
    ("ฤดูหนาว", "season-2026-12-01-to-2027-02-28"),
    # Latin letters with accents keep every word, written without them.
    ("Mùa đông 2026", "season-Mua-dong-2026"),
    ("Winter – Straße", "season-Winter-Strasse"),
])
def test_the_season_files_are_named_readably_in_ascii_and_exactly_in_utf8(client, name,
                                                                          ascii_name):
    s = season(client, name=name, start="2026-12-01", end="2027-02-28")
    for ext in ("csv", "pdf"):
        disposition = client.get(f"/seasons/{s['id']}.{ext}").headers["Content-Disposition"]
        plain, utf8 = disposition.split("; filename*=UTF-8''")
        assert plain.endswith(f'filename="{ascii_name}.{ext}"')
        assert unquote(utf8) == f"season-{name.replace(' ', '-')}.{ext}"
        disposition.encode("ascii")                       # the header itself is ASCII


def test_the_season_csv(client):
    s = season(client, start="2000-01-01", end="2100-12-31")
    play(client, ["Ann", "Bob", "Cy"], [[0, 10, 4], [6, 0, 4]])   # Ann 6, Bob 10, Cy 8
    r = client.get(f"/seasons/{s['id']}.csv?min_games=1")
    assert r.mimetype == "text/csv"
    assert r.headers["Content-Disposition"].startswith('attachment; filename="season-Autumn-2026.csv"')
    assert r.get_data(as_text=True) == (
        "\ufeffplace,name,games,wins,rounds,points,average_per_round,zero_rounds,lowest_game\r\n"
        "1,Ann,1,1,2,6,3.00,1,6\r\n"
        "2,Cy,1,0,2,8,4.00,0,8\r\n"
        "3,Bob,1,0,2,10,5.00,1,10\r\n")


def test_the_season_pdf_is_one_page_for_thirty_players(client):
    from pypdf import PdfReader
    s = season(client, name="Mùa thu · 秋季 · Φθινόπωρο", start="2000-01-01", end="2100-12-31")
    names = [f"Người chơi {k}" if k % 3 == 0 else f"Παίκτης {k}" if k % 3 == 1 else f"ผู้เล่น {k}"
             for k in range(30)]
    for k in range(0, 30, 10):
        play(client, names[k:k + 10], [[(j * 7 + k) % 23 for j in range(10)]])
    r = client.get(f"/seasons/{s['id']}.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    pdf = PdfReader(io.BytesIO(r.data))
    assert len(pdf.pages) == 1
    text = pdf.pages[0].extract_text()
    for name in ("Người chơi 0", "Παίκτης 1", "Player", "Φθινόπωρο", "秋季"):
        assert name in text
    # Thai is shaped; poppler reads it back through /ActualText.
    poppler = subprocess.run(["pdftotext", "-", "-"], input=r.data, capture_output=True,
                             check=True).stdout.decode()
    assert all(f"ผู้เล่น {k}" in poppler for k in range(2, 30, 3))


def test_the_new_game_page_suggests_players_and_the_last_table(client):
    play(client, ["Ann", "สมชาย", "Bob"], [[0, 1, 2]])
    html = client.get("/games/new").get_data(as_text=True)
    assert '<option value="สมชาย">' in html and 'list="known-players"' in html
    assert "Same table as last time" in html
    again = client.get("/games/new?same=last").get_data(as_text=True)
    assert 'value="Ann"' in again and 'value="สมชาย"' in again and 'value="Bob"' in again


# --- one person is one seat, and aliases that chain ---------------------------------

def test_a_game_cannot_seat_one_person_twice(client):
    r = client.post("/api/games", json={"players": ["Ann Lee", "Ann  Lee", "Bob"]})
    assert r.status_code == 400
    assert r.get_json() == {"error": "Ann  Lee is in the game twice: names must differ "
                                     "(ignoring case).", "field": "players.1"}
    play(client, ["Nguyễn Văn An", "Bob"], [[0, 10]])
    play(client, ["Nguyen Van An", "Cy"], [[0, 10]])
    client.post("/api/players/aliases", json={"alias": "Nguyen Van An", "of": "Nguyễn Văn An"})
    before = client.get("/api/games").get_json()
    r = client.post("/api/games", json={"players": ["Nguyễn Văn An", "Bob", "Nguyen Van An"]})
    assert r.status_code == 400
    assert r.get_json() == {
        "error": "Nguyen Van An and Nguyễn Văn An are joined as one player; separate them on "
                 "the Players page first, or type another name.", "field": "players.2"}
    assert client.get("/api/games").get_json() == before


def test_a_joined_spelling_cannot_be_joined_again(client):
    play(client, ["A", "X"], [[0, 10]])
    play(client, ["B", "X"], [[0, 10]])
    play(client, ["C", "X"], [[0, 10]])
    assert client.post("/api/players/aliases", json={"alias": "A", "of": "B"}).status_code == 200
    r = client.post("/api/players/aliases", json={"alias": "A", "of": "C"})
    assert r.get_json() == {"error": "A is already joined to B; separate it first.",
                            "field": "alias"}


def test_separating_a_name_brings_back_the_names_joined_to_it(client):
    for name in ("A", "B", "C"):
        play(client, [name, "X"], [[0, 10]])
    client.post("/api/players/aliases", json={"alias": "A", "of": "B"})   # A is B
    client.post("/api/players/aliases", json={"alias": "B", "of": "C"})   # B (and A) are C
    assert record(client, "C")["games"].__len__() == 3
    r = client.delete("/api/players/aliases/B")
    assert r.status_code == 200 and r.get_json()["games"] == 2        # B, with A
    assert len(record(client, "A")["games"]) == 2
    assert len(record(client, "C")["games"]) == 1


def test_a_name_only_in_deleted_games_is_unknown_to_aliases(client):
    play(client, ["Kim", "Bob"], [[0, 10]])
    gone = play(client, ["kimmy", "Lee"], [[0, 10]])
    client.delete(f"/api/games/{gone}")
    r = client.post("/api/players/aliases", json={"alias": "kimmy", "of": "Kim"})
    assert r.get_json() == {"error": "No game has a player called kimmy.", "field": "alias"}


def test_a_save_in_a_game_being_played_keeps_the_club_pages(client):
    play(client, ["Ann", "Bob"], [[0, 10]])
    gid = play(client, ["Ann", "Bob"], [[5, 0], None])
    etag = client.get("/players").headers["ETag"]
    client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 7, "Bob": 0}})
    assert client.get("/players", headers={"If-None-Match": etag}).status_code == 304
    client.put(f"/api/games/{gid}/rounds/2", json={"scores": {"Ann": 0, "Bob": 3}})   # finished
    assert client.get("/players", headers={"If-None-Match": etag}).status_code == 200


def test_a_name_a_path_cannot_carry_has_its_page_by_query(client):
    play(client, ["..", "/x", "Bob"], [[0, 5, 10]])
    html = client.get("/players").get_data(as_text=True)
    assert 'href="/players?name=..">' in html and 'href="/players?name=/x">' in html
    page = client.get("/players?name=/x").get_data(as_text=True)
    assert "<h1><bdi>/x</bdi></h1>" in page


def test_the_csv_keeps_a_name_from_becoming_a_formula(client):
    s = season(client, start="2000-01-01", end="2100-12-31")
    play(client, ["=HYPERLINK(1)", "Bob"], [[0, 10]])
    assert ",'=HYPERLINK(1)," in client.get(f"/seasons/{s['id']}.csv").get_data(as_text=True)


@pytest.mark.parametrize("name", ["＝HYPERLINK(1)", "＋1", "－1", "＠SUM(1)", "﹦1", "⁼1", "⁺1"])
def test_the_csv_neutralises_what_folds_into_a_formula(client, name):
    # A spreadsheet may read a fullwidth (or small, superscript) sign as the ASCII one (NFKC).
    s = season(client, start="2000-01-01", end="2100-12-31")
    play(client, [name, "Bob"], [[0, 10]])
    assert f",'{name}," in client.get(f"/seasons/{s['id']}.csv").get_data(as_text=True)


def test_the_csv_leaves_other_fullwidth_names_alone(client):
    s = season(client, start="2000-01-01", end="2100-12-31")
    play(client, ["Ｈｏａ", "Bob"], [[0, 10]])
    csv_text = client.get(f"/seasons/{s['id']}.csv").get_data(as_text=True)
    assert ",Ｈｏａ," in csv_text and "'Ｈｏａ" not in csv_text


def test_the_same_table_keeps_the_house_rules(client, game_factory):
    game_factory(["Ann", "Bob"], rules={"double_owner_satisfies": True, "double_blank": 25,
                                        "deal": "B"})
    html = client.get("/games/new?same=last").get_data(as_text=True)
    for name, value in (("double_owner_satisfies", "true"), ("double_blank", "25"),
                        ("deal", "B")):
        assert f'name="{name}" value="{value}" checked' in html
