"""The games API exactly as docs/api.md writes it, including every refusal."""

import re

import pytest

PLAYERS = ["Ann", "Bob", "Chi"]


def count_rows(app, table):
    from scorekeeper.storage import connect
    db = connect(app.config["DATABASE"])
    try:
        return db[table].count
    finally:
        db.close()


def test_create_defaults(client, game):
    assert game["players"] == PLAYERS and game["set"] == 12 and game["name"] == "Friday"
    assert game["rules"] == {"deal": "A", "starter": "engine_holder", "first_turn": "train",
                             "first_turn_stuck": "marker", "double_owner_satisfies": False,
                             "double_blank": 50, "went_out_bonus": 0, "marker_penalty": 0}
    assert [r["engine"] for r in game["rounds"]] == list(range(12, -1, -1))
    first, last = game["rounds"][0], game["rounds"][-1]
    # Round 1's play starts with the game (API.md); the others when the one before is saved.
    assert first.pop("started_at") is not None
    assert first == {"number": 1, "engine": 12, "scores": None, "revision": 0,
                     "saved_at": None, "seconds": None, "hand_scores": None, "went_out": None,
                     "markers": None}
    assert last == {"number": 13, "engine": 0, "scores": None, "revision": 0,
                    "started_at": None, "saved_at": None, "seconds": None, "hand_scores": None,
                    "went_out": None, "markers": None}
    assert game["colours"] == ["#0072b2", "#d55e00", "#009e73"]


def test_create_shortened_with_options(client):
    r = client.post("/api/games", json={"players": ["Ann", "Bob"], "set": 9, "start_engine": 6,
                                        "end_engine": 3, "rules": {"double_blank": 25}})
    assert r.status_code == 201
    body = r.get_json()
    assert [x["engine"] for x in body["rounds"]] == [6, 5, 4, 3]
    assert body["rules"]["double_blank"] == 25


def test_names_are_nfc_trimmed_any_script(client):
    decomposed = "Nguye\u0302\u0303n"  # NFD
    r = client.post("/api/games", json={"players": ["  " + decomposed + " ", "王小明", "สมชาย",
                                                    "Γιώργος"]})
    assert r.status_code == 201
    assert r.get_json()["players"][0] == "Nguyễn"


INVISIBLE_IN_NAME = ("The name of player %s contains an invisible or direction-changing "
                     "character (such as a zero-width space or a right-to-left override); "
                     "type it again without it.")
INVISIBLE_IN_GAME_NAME = ("The game name contains an invisible, direction-changing or control "
                          "character; type it again without it.")
BAD_SET = "The set must be double-6, 9, 12, 15 or 18."


@pytest.mark.parametrize("body, field, sentence", [
    ({}, "players", "Give the players' names in seating order."),
    ({"players": ["Ann"]}, "players", "A game has 2 to 14 players; 1 was given (R1.1)."),
    ({"players": [f"P{i}" for i in range(15)]}, "players",
     "A game has 2 to 14 players; 15 were given (R1.1)."),
    ({"players": ["Ann", "ann"]}, "players.1",
     "ann is in the game twice: names must differ (ignoring case)."),
    ({"players": ["Ann", "   "]}, "players.1", "Player 2 needs a name."),
    ({"players": ["Ann", "x" * 41]}, "players.1",
     "x" * 40 + "… is too long: a name has at most 40 characters."),
    ({"players": ["Ann", 7]}, "players.1", "The name of player 2 must be text."),
    ({"players": "Ann, Bob"}, "players", "Players must be a list of names in seating order."),
    ({"players": PLAYERS, "set": 10}, "set", BAD_SET),
    ({"players": PLAYERS, "set": "12"}, "set", BAD_SET),
    ({"players": PLAYERS, "rules": {"double_blank": 40}}, "rules.double_blank",
     "double_blank must be 50, 25, or 0."),
    ({"players": PLAYERS, "rules": {"chicken": True}}, "rules.chicken",
     "chicken is not a rule option; the options are deal, starter, first_turn, "
     "first_turn_stuck, double_owner_satisfies, double_blank, went_out_bonus, and "
     "marker_penalty."),
    ({"players": PLAYERS, "start_engine": 13}, "start_engine",
     "The start engine must be a double from 0 to 12."),
    ({"players": PLAYERS, "start_engine": 3, "end_engine": 5}, "end_engine",
     "Engines count down: the end engine cannot be above the start engine."),
    ({"players": PLAYERS, "name": "n" * 61}, "name",
     "The game name is too long: at most 60 characters."),
    # Invisible and direction-changing characters (Unicode Cf) could disguise or reorder a name.
    ({"players": ["Ann", "\u200b"]}, "players.1", INVISIBLE_IN_NAME % 2),
    ({"players": ["Ann", "B\u200bob"]}, "players.1", INVISIBLE_IN_NAME % 2),
    ({"players": ["\u202eAnn", "Bob"]}, "players.0", INVISIBLE_IN_NAME % 1),
    ({"players": ["Ann", "Bob\u2066"]}, "players.1", INVISIBLE_IN_NAME % 2),
    ({"players": ["Ann", "Bob\u00ad"]}, "players.1", INVISIBLE_IN_NAME % 2),
    ({"players": PLAYERS, "name": "Fri\u202eday"}, "name", INVISIBLE_IN_GAME_NAME),
    ({"players": PLAYERS, "name": "Fri\nday"}, "name", INVISIBLE_IN_GAME_NAME),
])
def test_create_refused(app, client, body, field, sentence):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}
    assert count_rows(app, "games") == 0  # a refused request stores nothing


def test_non_json_is_415(client):
    r = client.post("/api/games", data="players=Ann", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415
    assert r.get_json()["error"] == "Send the body as JSON (Content-Type: application/json)."


def test_broken_json_is_400(client):
    r = client.post("/api/games", data="{not json", content_type="application/json")
    assert r.status_code == 400


def test_unknown_game_404(client):
    for url in ("/api/games/nope", "/api/games/nope/standings", "/api/games/nope/history"):
        assert client.get(url).status_code == 404
    r = client.put("/api/games/nope/rounds/1", json={"scores": {}})
    assert r.status_code == 404 and r.get_json()["field"] == "id"


def test_put_scores_then_history_and_standings(client, game):
    gid = game["id"]
    r = client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 23, "Chi": 9}})
    assert r.status_code == 200
    assert r.get_json() == {"number": 1, "engine": 12, "scores": {"Ann": 0, "Bob": 23, "Chi": 9},
                            "hand_scores": {"Ann": 0, "Bob": 23, "Chi": 9}, "went_out": None,
                            "markers": None, "revision": 1, "warnings": []}
    # The same request again with another value replaces it; the old stays in history.
    r = client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 25, "Chi": 9}})
    assert r.get_json()["scores"]["Bob"] == 25
    changes = client.get(f"/api/games/{gid}/history").get_json()["changes"]
    assert [(c["round"], c["player"], c["old"], c["new"]) for c in changes] == [
        (1, "Ann", None, 0), (1, "Bob", None, 23), (1, "Chi", None, 9), (1, "Bob", 23, 25)]
    assert all("T" in c["at"] for c in changes)
    standings = client.get(f"/api/games/{gid}/standings").get_json()
    assert standings == {"complete": False, "standings": [
        {"player": "Ann", "place": 1, "total": 0, "zero_rounds": 1, "lowest_nonzero": None},
        {"player": "Chi", "place": 2, "total": 9, "zero_rounds": 0, "lowest_nonzero": 9},
        {"player": "Bob", "place": 3, "total": 25, "zero_rounds": 0, "lowest_nonzero": 25}]}
    full = client.get(f"/api/games/{gid}").get_json()
    assert full["standings"] == standings
    assert full["rounds"][0]["scores"] == {"Ann": 0, "Bob": 25, "Chi": 9}


def test_put_hands_scores_by_r7_3(client, game):
    gid = game["id"]
    r = client.put(f"/api/games/{gid}/rounds/2",
                   json={"hands": {"Ann": [], "Bob": [[3, 4], [0, 0]], "Chi": [[4, 5]]}})
    assert r.status_code == 200
    assert r.get_json()["scores"] == {"Ann": 0, "Bob": 57, "Chi": 9}
    assert r.get_json()["engine"] == 11


CHI_MISSING = "The score of Chi is missing: every player needs one."


@pytest.mark.parametrize("body, field, sentence", [
    ({"scores": {"Ann": 0, "Bob": 5}}, "scores.Chi", CHI_MISSING),
    ({"scores": {"Ann": 0, "Bob": 5, "Chi": 1, "Dan": 2}}, "scores.Dan",
     "Dan is not a player in this game."),
    ({"scores": {"Ann": 0, "Bob": -5, "Chi": 1}}, "scores.Bob",
     "A score of -5 for Bob is impossible: a round score is from 0 to 1118, the largest "
     "possible hand in this round (R7.4)."),
    ({"scores": {"Ann": 0, "Bob": 99999, "Chi": 1}}, "scores.Bob",
     "A score of 99999 for Bob is impossible: a round score is from 0 to 1118, the largest "
     "possible hand in this round (R7.4)."),
    ({"scores": {"Ann": 0, "Bob": 1.5, "Chi": 1}}, "scores.Bob",
     "The score of Bob must be a whole number from 0 to 1118."),
    ({"hands": {"Ann": [], "Bob": [[12, 12]], "Chi": []}}, "hands.Bob.0",
     "12-12 is this round's engine; it cannot be in a hand (R3.3)."),
    ({"hands": {"Ann": [], "Bob": [[13, 1]], "Chi": []}}, "hands.Bob.0",
     "1-13 is not in a double-12 set (R3.3)."),
    ({"hands": {"Ann": [[1, 2]], "Bob": [[2, 1]], "Chi": []}}, "hands.Bob.0",
     "1-2 is in two hands (Ann and Bob); each tile exists once (R3.3)."),
    ({"hands": {"Ann": [], "Bob": []}}, "hands.Chi", CHI_MISSING),
    ({}, "scores", "Give the round's scores (or the tiles left in each hand)."),
])
def test_put_refused_stores_nothing(app, client, game, body, field, sentence):
    r = client.put(f"/api/games/{game['id']}/rounds/1", json=body)
    assert r.status_code == 400
    assert r.get_json() == {"error": sentence, "field": field}
    assert count_rows(app, "scores") == 0 and count_rows(app, "changes") == 0


def test_put_unknown_round(client, game):
    r = client.put(f"/api/games/{game['id']}/rounds/14", json={"scores": {}})
    assert r.status_code == 400 and r.get_json()["field"] == "number"


def test_put_warnings_r7_4(client, game):
    r = client.put(f"/api/games/{game['id']}/rounds/1", json={"scores": {"Ann": 1, "Bob": 2, "Chi": 3}})
    assert r.status_code == 200
    assert r.get_json()["warnings"][0]["code"] == "no_zero"
    assert r.get_json()["warnings"][0]["rule"] == "R7.4"
    r = client.put(f"/api/games/{game['id']}/rounds/2", json={"scores": {"Ann": 0, "Bob": 0, "Chi": 3}})
    assert [w["code"] for w in r.get_json()["warnings"]] == ["several_zeros"]


def test_put_warning_r7_4_under_double_blank_0(client, game_factory):
    # R7.4: with double_blank 0 a hand of the 0-0 alone scores 0, and the warning says so.
    gid = game_factory(["Ann", "Bob", "Chi"], rules={"double_blank": 0})["id"]
    r = client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 0, "Chi": 3}})
    assert r.get_json()["warnings"] == [{
        "code": "several_zeros", "rule": "R7.4",
        "message": "2 players scored 0 (Ann and Bob): only possible when several went out "
                   "during the first turn (R4.4), or when a player's only tile left is the "
                   "0-0, which counts 0 in this game (R7.3)."}]


def test_complete_game(client, game_factory):
    gid = game_factory(["Ann", "Bob"], set=6, scores=[[0, 4], [6, 0]], finished=True)["id"]
    s = client.get(f"/api/games/{gid}/standings").get_json()
    assert s["complete"] is True
    assert [r["player"] for r in s["standings"]] == ["Bob", "Ann"]


@pytest.mark.parametrize("body, score", [
    ({"tiles": [[0, 0], [3, 4]], "rules": {"double_blank": 50}}, 57),
    ({"tiles": [[0, 0], [3, 4]]}, 57),
    ({"tiles": [[0, 0]], "rules": {"double_blank": 0}}, 0),
    ({"tiles": [[4, 3], [12, 12]], "rules": {"double_blank": 25}}, 31),
    ({"tiles": []}, 0),
])
def test_hand_score(client, body, score):
    r = client.post("/api/hand-score", json=body)
    assert r.status_code == 200 and r.get_json() == {"score": score}


@pytest.mark.parametrize("body, field", [
    ({}, "tiles"),
    ({"tiles": [[1]]}, "tiles.0"),
    ({"tiles": [[1, 2], [2, 1]]}, "tiles.1"),
    ({"tiles": [[-1, 2]]}, "tiles.0"),
    ({"tiles": [[19, 2]]}, "tiles.0"),
    ({"tiles": "0-0"}, "tiles"),
    ({"tiles": [], "rules": {"double_blank": 10}}, "rules.double_blank"),
])
def test_hand_score_refused(client, body, field):
    r = client.post("/api/hand-score", json=body)
    assert r.status_code == 400 and r.get_json()["field"] == field


def test_api_ignores_csrf(csrf_app):
    # The API is exempt from the forms' CSRF token (API.md).
    r = csrf_app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]})
    assert r.status_code == 201


def test_revisions_refuse_a_stale_save_and_store_nothing(client, game):
    """API.md "Revisions and conflicts": a save based on an old revision is 409."""
    url = f"/api/games/{game['id']}/rounds/1"
    first = {"Ann": 0, "Bob": 12, "Chi": 5}
    r = client.put(url, json={"scores": first, "revision": 0})
    assert r.status_code == 200 and r.get_json()["revision"] == 1
    # A second client read revision 0 too: refused, told what is stored now.
    r = client.put(url, json={"scores": {"Ann": 0, "Bob": 15, "Chi": 5}, "revision": 0})
    assert r.status_code == 409
    body = r.get_json()
    assert body["round"] == {"number": 1, "engine": 12, "scores": first, "hand_scores": first,
                             "went_out": None, "markers": None, "revision": 1}
    assert body["error"] == ("Round 1 changed since revision 0: it is at revision 1 now. Nothing "
                             "was stored; read the round again and resend with its revision.")
    assert len(client.get(f"/api/games/{game['id']}/history").get_json()["changes"]) == 3
    # Resent with the current revision: accepted, one revision more.
    r = client.put(url, json={"scores": {"Ann": 0, "Bob": 15, "Chi": 5}, "revision": 1})
    assert r.status_code == 200 and r.get_json()["revision"] == 2
    # Without a revision the save simply replaces (simple clients).
    r = client.put(url, json={"scores": {"Ann": 0, "Bob": 16, "Chi": 5}})
    assert r.status_code == 200 and r.get_json()["revision"] == 3
    # A save that changes nothing makes no new revision and no history.
    r = client.put(url, json={"scores": {"Ann": 0, "Bob": 16, "Chi": 5}, "revision": 3})
    assert r.status_code == 200 and r.get_json()["revision"] == 3
    full = client.get(f"/api/games/{game['id']}").get_json()
    assert [x["revision"] for x in full["rounds"][:2]] == [3, 0]
    assert len(client.get(f"/api/games/{game['id']}/history").get_json()["changes"]) == 5


def test_counted_hands_count_as_a_change(client, game):
    url = f"/api/games/{game['id']}/rounds/1"
    client.put(url, json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}})
    r = client.put(url, json={"hands": {"Ann": [], "Bob": [[3, 4]], "Chi": [[4, 5]]}})
    assert r.get_json()["revision"] == 2          # same scores, now backed by tiles
    r = client.put(url, json={"hands": {"Ann": [], "Bob": [[4, 3]], "Chi": [[5, 4]]}})
    assert r.get_json()["revision"] == 2          # the very same tiles again


@pytest.mark.parametrize("revision", ["1", -1, True, 1.5, [0]])
def test_bad_revision_is_400(app, client, game, revision):
    r = client.put(f"/api/games/{game['id']}/rounds/1",
                   json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "revision": revision})
    assert r.status_code == 400 and r.get_json()["field"] == "revision"
    assert count_rows(app, "changes") == 0


def test_delete_moves_to_trash_and_restore_brings_it_back_whole(app, client, game):
    gid = game["id"]
    client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 12, "Chi": 5}})
    client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 14, "Chi": 5}})
    client.post(f"/games/{gid}/rounds/2/live/start", data={"starter": "0", "tiles_each": "12"})
    before = client.get(f"/api/games/{gid}").get_json()
    history = client.get(f"/api/games/{gid}/history").get_json()
    def live_log():
        # The page as shown, less the game's version (a delete and a restore are changes).
        html = client.get(f"/games/{gid}/rounds/2/live/log").get_data(as_text=True)
        return re.sub(r' data-(version|updates-etag)="[^"]*"', "", html)

    log = live_log()
    r = client.delete(f"/api/games/{gid}")
    assert r.status_code == 200
    body = r.get_json()
    assert body["id"] == gid and body["deleted_at"] < body["kept_until"]
    assert client.get("/api/games").get_json()["games"] == []
    for url in (f"/api/games/{gid}", f"/api/games/{gid}/history", f"/api/games/{gid}/standings"):
        assert client.get(url).status_code == 404
    r = client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 1, "Chi": 5}})
    assert r.status_code == 404                                   # no writes to a deleted game
    assert client.delete(f"/api/games/{gid}").status_code == 404  # already deleted
    listed = client.get("/api/games/deleted").get_json()["games"]
    assert [(g["id"], g["name"]) for g in listed] == [(gid, "Friday")]
    r = client.post(f"/api/games/{gid}/restore", json={})
    assert r.status_code == 200 and r.get_json() == before
    assert client.get(f"/api/games/{gid}/history").get_json() == history
    assert live_log() == log
    assert client.get("/api/games/deleted").get_json()["games"] == []
    assert client.post("/api/games/nope/restore", json={}).status_code == 404


def test_games_deleted_over_30_days_ago_are_purged(app, client, game_factory):
    from datetime import datetime, timedelta, timezone

    from scorekeeper.storage import connect, purge_deleted
    old = game_factory(scores=[[0, 12, 5]])["id"]
    recent = game_factory()["id"]
    client.delete(f"/api/games/{old}")
    client.delete(f"/api/games/{recent}")
    db = connect(app.config["DATABASE"])
    later = datetime.now(timezone.utc) + timedelta(days=30, hours=1)
    db.execute("update games set deleted_at = ? where id = ?",
               [(datetime.now(timezone.utc) - timedelta(days=31)).isoformat(timespec="seconds"), old])
    assert purge_deleted(db, at=datetime.now(timezone.utc)) == 1
    assert [g["id"] for g in client.get("/api/games/deleted").get_json()["games"]] == [recent]
    for table in ("games", "rounds", "scores", "edits", "changes"):
        assert db.execute(f"select count(*) from {table} where "
                          f"{'id' if table == 'games' else 'game_id'} = ?", [old]).fetchone()[0] == 0
    assert client.post(f"/api/games/{old}/restore", json={}).status_code == 404
    assert purge_deleted(db, at=later) == 1   # the other one, 30 days on
    db.close()
