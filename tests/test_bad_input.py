"""Every bad input is refused with a sentence, never a 500, and nothing is stored.

One table for pages and API: route, input, expected status, and the sentence, whole
(on a page, one paragraph of it; in the API, the "error").  "²" is a digit to str.isdigit() but not to int() (it used to crash 7
routes); "١٢" is twelve to both (Arabic-Indic digits) but not something a
scorekeeper types; the rest are crafted forms and bodies.
"""

from __future__ import annotations

import pytest

from helpers import create_game, paragraphs
from scorekeeper.storage import connect

PLAYERS = ["Ann", "Bob", "Chi"]
SUP2 = "\u00b2"
ARABIC_12 = "\u0661\u0662"
OFFICIAL = {"set": "12", "deal": "A", "starter": "engine_holder", "first_turn": "train",
            "first_turn_stuck": "marker", "double_owner_satisfies": "false", "double_blank": "50"}


def new_game(*names, **extra):
    return {**OFFICIAL, **{f"players-{i}": n for i, n in enumerate(names)}, **extra}


def scores(*values, **extra):
    return {"revision": "0", **{f"score-{i}": v for i, v in enumerate(values)}, **extra}


ROUND = "/games/{gid}/rounds/1"
LIVE = "/games/{gid}/rounds/1/live"
REF = "/games/{gid}/rounds/1/referee"

BOB_SCORE = "Bob's score must be a whole number from 0 to 1118."
OUT_OF_DATE = "This page is out of date: open the round again."
INVISIBLE_IN_NAME = ("The name of player %s contains an invisible or direction-changing "
                     "character (such as a zero-width space or a right-to-left override); "
                     "type it again without it.")
INVISIBLE_IN_GAME_NAME = ("The game name contains an invisible, direction-changing or control "
                          "character; type it again without it.")

CASES = [
    # --- the round form ----------------------------------------------------
    ("POST", ROUND, scores("0", SUP2, "4"), 400, BOB_SCORE),
    ("POST", ROUND, scores("0", ARABIC_12, "4"), 400, BOB_SCORE),
    ("POST", ROUND, scores("0", "1" * 5000, "4"), 400, BOB_SCORE),
    ("POST", ROUND, scores("0", "-3", "4"), 400, BOB_SCORE),
    ("POST", ROUND, scores("0", "7", "4", **{"hand-1": f"{SUP2}-5"}), 400,
     "The tiles picked for this hand could not be read; pick them again."),
    ("POST", ROUND, scores("0", "7", "4", revision=SUP2), 400, OUT_OF_DATE),
    ("POST", ROUND, scores("0", "7", "4", revision=""), 400, OUT_OF_DATE),
    # --- the referee pages (GET forms: the answer is the page with the sentence) -
    ("GET", REF, {"tile": f"{SUP2}-3", "train": "0", "current": "0"}, 200, "Pick a tile."),
    ("GET", REF, {"tile": "3-4", "train": SUP2, "current": "0"}, 200, "Pick a train."),
    ("GET", REF, {"tile": "3-4", "train": "0", "current": SUP2}, 200, "Pick a train."),
    ("GET", REF, {"tile": "3-4", "train": "0", "current": "0", "played": f"1-{SUP2}"}, 200,
     "Pick a tile."),
    ("GET", REF + "/plays", {"go": "1", "hand": f"{SUP2}-1"}, 200, "Pick a tile."),
    ("GET", REF + "/plan", {"go": "1", "hand": f"{ARABIC_12}-1"}, 200, "Pick a tile."),
    ("GET", "/referee/plays", {"set": "7", "engine": ARABIC_12, "go": "1"}, 200,
     "Tap the tiles in the hand first."),
    # --- the live table ------------------------------------------------------
    ("POST", LIVE + "/start", {"starter": "0", "tiles_each": SUP2}, 400,
     "Tiles each must be a whole number, 1 or more."),
    ("POST", LIVE + "/start", {"starter": SUP2, "tiles_each": "12"}, 400, "Pick a train."),
    ("POST", LIVE + "/start", {"starter": "0", "tiles_each": "12", "draws-1": SUP2}, 400,
     "Tiles drawn before the engine turned up are whole numbers (R2.2)."),
    ("POST", LIVE + "/action", {"kind": "play", "tile": f"{SUP2}-3", "train": "0"}, 400,
     "Pick a tile."),
    ("POST", LIVE + "/action", {"kind": "draw", "drawn": f"1-{SUP2}"}, 400, "Pick a tile."),
    ("POST", LIVE + "/action", {"kind": "pass", "active": SUP2}, 400,
     "This page is out of date: open the live table again."),
    ("POST", LIVE + "/action", {"kind": "jump"}, 400, "Choose play, draw or pass."),
    # --- a crafted new-game form --------------------------------------------
    ("POST", "/games/new", new_game(*[f"P{i}" for i in range(15)]), 400,
     "A game has 2 to 14 players; 15 were given (R1.1)."),
    ("POST", "/games/new", new_game(*[f"P{i}" for i in range(1000)]), 400,
     "A game has 2 to 14 players; 1000 were given (R1.1)."),
    ("POST", "/games/new", {**new_game(*[f"P{i}" for i in range(14)]), "players-40": "Zed"}, 400,
     "A game has 2 to 14 players; 15 were given (R1.1)."),
    ("POST", "/games/new", new_game("Ann", "Bob", set="7"), 400,
     "Choose one of the listed values for “Set”."),
    ("POST", "/games/new", new_game("Ann", "Bob", set="abc"), 400,
     "Choose one of the listed values for “Set”."),
    ("POST", "/games/new", new_game("Ann", "Bob", deal="Z"), 400,
     "Choose one of the listed values for “Deal table”."),
    ("POST", "/games/new", new_game("Ann", "Bob", double_blank="40"), 400,
     "Choose one of the listed values for “Double-blank (0-0) counts”."),
    ("POST", "/games/new", new_game("Ann", "Bob", double_owner_satisfies="maybe"), 400,
     "Choose one of the listed values for “Tile owed after a double”."),
    ("POST", "/games/new", new_game("Ann", "Bob", shortened="y", start_engine=SUP2), 400,
     "Start engine must be a whole number, written with the digits 0 to 9."),
    ("POST", "/games/new", new_game("Ann", "Bob", shortened="y", end_engine=ARABIC_12), 400,
     "End engine must be a whole number, written with the digits 0 to 9."),
    ("POST", "/games/new", new_game("Ann", "\u200b"), 400, INVISIBLE_IN_NAME % 2),
    ("POST", "/games/new", new_game("\u202eAnn", "Bob"), 400, INVISIBLE_IN_NAME % 1),
    ("POST", "/games/new", new_game("Ann", "Bob", name="Fri\u2066day"), 400,
     INVISIBLE_IN_GAME_NAME),
    # --- rename --------------------------------------------------------------
    ("POST", "/games/{gid}/rename", {"name": "\u200b\u200b"}, 400, INVISIBLE_IN_GAME_NAME),
    # --- the API -------------------------------------------------------------
    ("PUT", "/api/games/{gid}/rounds/1", {"scores": {"Ann": 0, "Bob": SUP2, "Chi": 4}}, 400,
     "The score of Bob must be a whole number from 0 to 1118."),
    ("PUT", "/api/games/{gid}/rounds/1", {"scores": {"Ann": 0, "Bob": 4, "Chi": 4},
                                          "revision": SUP2}, 400,
     "The revision must be a whole number from 0: the revision of the round as last read."),
    ("POST", "/api/games", {"players": ["Ann", "\u200b"]}, 400, INVISIBLE_IN_NAME % 2),
    ("POST", "/api/games", {"players": ["Ann", "Bob"], "name": "\u202e"}, 400,
     INVISIBLE_IN_GAME_NAME),
    ("POST", "/api/games", {"players": [f"P{i}" for i in range(1000)]}, 400,
     "A game has 2 to 14 players; 1000 were given (R1.1)."),
    ("POST", "/api/rulings", {"table": {"set": 12, "engine": 12, "players": PLAYERS,
                                        "current": "Ann"}, "play": {"tile": [SUP2, 1],
                                                                    "train": "Ann"}}, 400,
     "A tile is two whole numbers, like [5, 12]."),
    ("POST", "/api/hand-score", {"tiles": [[1, 2]], "rules": {"double_blank": SUP2}}, 400,
     "double_blank must be 50, 25, or 0."),
    ("POST", "/api/games/import", {"format": "mexican-train-scorekeeper", "version": 1,
                                   "game": {"players": ["Ann", "Bob"], "set": SUP2}}, 400,
     "The set must be double-6, 9, 12, 15 or 18."),
]

#: Odd digits where a referee page has a sensible default: the page answers with it.
FALLBACKS = [
    (REF, {"tile": "12-3", "train": "0", "current": "0", "end-0": SUP2}, "LEGAL"),
    ("/referee", {"set": SUP2, "engine": SUP2}, "Engine: double-12"),
]


def stored(app) -> dict:
    """Everything a refused request must leave as it was."""
    db = connect(app.config["DATABASE"])
    try:
        return {
            "games": db.execute("select id, name from games order by id").fetchall(),
            "rounds": db.execute("select sum(revision) from rounds").fetchone(),
            **{t: db[t].count for t in ("scores", "edits", "changes", "moves")},
        }
    finally:
        db.close()


def live_started(client, gid):
    """Live-table actions need a started table; the start is stored before the case."""
    client.post(f"/games/{gid}/rounds/1/live/start", data={"starter": "0", "tiles_each": "12"})


@pytest.mark.parametrize("method, path, data, status, sentence", CASES,
                         ids=[f"{c[0]} {c[1]} {i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_with_a_sentence(app, client, gid, method, path, data, status,
                                              sentence):
    if "/live/action" in path:
        live_started(client, gid)
    before = stored(app)
    url = path.format(gid=gid)
    if path.startswith("/api/"):
        r = client.open(url, method=method, json=data)
        body = r.get_json()
        assert r.status_code == status, body
        assert body["error"] == sentence and body["field"] is not None
    else:
        if method == "GET":
            r = client.get(url, query_string=data)
        else:
            r = client.open(url, method=method, data=data)
        said = paragraphs(r)
        assert r.status_code == status, said
        assert sentence in said
    assert stored(app) == before


@pytest.mark.parametrize("path, query, shown", FALLBACKS)
def test_odd_digits_on_a_referee_page_fall_back_to_the_default(client, gid, path, query,
                                                               shown):
    r = client.get(path.format(gid=gid), query_string=query)
    assert r.status_code == 200 and shown in r.get_data(as_text=True)


def test_rename_with_an_expired_token_keeps_the_name_with_a_sentence(csrf_app):
    client = csrf_app.test_client()
    gid = create_game(client, name="Friday")["id"]
    r = client.post(f"/games/{gid}/rename", data={"name": "Saturday"})
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert ("The page expired; the name you typed is still here. Press “Save name” again."
            in paragraphs(html))
    assert 'value="Saturday"' in html
    assert client.get(f"/api/games/{gid}").get_json()["name"] == "Friday"
