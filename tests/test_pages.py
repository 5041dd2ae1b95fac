"""Every page through the Flask client: forms, refusals, conflicts, history, undo."""

import re

import pytest

from helpers import create_game, paragraphs
from scorekeeper import _instance_secret, create_app

OFFICIAL = {"set": "12", "deal": "A", "starter": "engine_holder", "first_turn": "train",
            "first_turn_stuck": "marker", "double_owner_satisfies": "false", "double_blank": "50"}


def new_game_form(names, **extra):
    data = dict(OFFICIAL)
    for i, n in enumerate(names):
        data[f"players-{i}"] = n
    data.update(extra)
    return data


def scores_form(values, revision=0, **extra):
    data = {"revision": str(revision)}
    data.update({f"score-{i}": str(v) for i, v in enumerate(values)})
    data.update(extra)
    return data


def api_scores(client, gid, n):
    return client.get(f"/api/games/{gid}").get_json()["rounds"][n - 1]["scores"]


def test_home_lists_games_and_shows_join_qr(client, gid):
    html = client.get("/").get_data(as_text=True)
    assert "Friday" in html and "New game" in html
    assert "<svg" in html and "segno" in html          # the QR code, as SVG
    # The address to type (breaks allowed after its slashes).
    assert re.search(r"http://[0-9.]+(:\d+)?/", html.replace("<wbr>", ""))


def test_home_orders_in_progress_before_finished(client, game_factory):
    game_factory(["A", "B"], name="Done", set=6, scores=[[0, 3]], finished=True)
    game_factory(["A", "B"], name="Playing")
    html = client.get("/").get_data(as_text=True)
    assert html.index("Playing") < html.index("Done")
    assert "Won by <bdi>A</bdi>" in html


def test_new_game_form_creates_and_opens_round_one(client):
    assert client.get("/games/new").status_code == 200
    r = client.post("/games/new", data=new_game_form(["Ann", "Bob", "", "Dan"], name="Club"))
    assert r.status_code == 302 and r.location.endswith("/rounds/1")
    game = client.get("/api/games").get_json()["games"][0]
    assert game["players"] == ["Ann", "Bob", "Dan"] and game["name"] == "Club"


def test_new_game_shortened_and_options(client):
    r = client.post("/games/new", data=new_game_form(["Ann", "Bob"], shortened="y", start_engine="5",
                                                     end_engine="2", double_blank="25",
                                                     first_turn="single"))
    assert r.status_code == 302
    gid = r.location.split("/")[2]
    game = client.get(f"/api/games/{gid}").get_json()
    assert [x["engine"] for x in game["rounds"]] == [5, 4, 3, 2]
    assert game["rules"]["double_blank"] == 25 and game["rules"]["first_turn"] == "single"


@pytest.mark.parametrize("names, extra, message", [
    (["Ann"], {}, "2 to 14 players"),
    (["Ann", "ANN"], {}, "names must differ"),
    (["Ann", "B" * 41], {}, "at most 40 characters"),
    (["Ann", "Bob"], {"shortened": "y", "start_engine": "3", "end_engine": "7"}, "count down"),
    (["Ann", "Bob"], {"shortened": "y", "start_engine": "15", "end_engine": "0"}, "0 to 12"),
])
def test_new_game_refused_stores_nothing(client, names, extra, message):
    r = client.post("/games/new", data=new_game_form(names, **extra))
    assert r.status_code == 400          # refused (issue 19, item 6), with what was typed
    assert message in r.get_data(as_text=True)
    assert client.get("/api/games").get_json()["games"] == []


def test_game_page_shows_grid_and_zero_marks(client, gid):
    client.put(f"/api/games/{gid}/rounds/1", json={"scores": {"Ann": 0, "Bob": 7, "Chi": 3}})
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'class="num zero">0<' in html
    assert "Round 2: enter scores" in html
    assert html.count("<svg class=\"domino\"") >= 13  # an engine domino per round


def test_round_screen_shows_engine_deal_and_reminder(client, gid):
    html = client.get(f"/games/{gid}/rounds/4").get_data(as_text=True)
    assert "Round 4 of 13" in html
    assert 'aria-label="Engine: double-9"' in html      # the engine as an SVG domino
    assert "Next round: double-8" in html
    assert "R2.2" in html and "Whoever holds the 9-9" in html
    # R1.3 has no double-12 row for 3 players: the nearest row's 15 each, said to be a suggestion.
    assert "15 tiles each; 46 stay face down" in html and "outside the deal table" in html
    assert 'inputmode="numeric"' in html
    # The pip counter is drawn by script from the set and the engine (9-9 not pickable).
    assert 'id="pip-picker"' in html and 'data-set="12" data-engine="9"' in html


def test_round_screen_r2_3_reminder_when_highest_draw(client, game_factory):
    gid = game_factory(["A", "B"], rules={"starter": "highest_draw"})["id"]
    assert "R2.3" in client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)


def test_save_round_redirects_to_next(client, gid):
    r = client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 12, 5]))
    assert r.status_code == 302 and r.location.endswith("/rounds/2")
    assert api_scores(client, gid, 1) == {"Ann": 0, "Bob": 12, "Chi": 5}


@pytest.mark.parametrize("values, message", [
    (["", 3, 4], "Ann&#39;s score is missing"),
    (["x", 3, 4], "Ann&#39;s score must be a whole number from 0 to 1118"),
    ([0, -3, 4], "Bob&#39;s score must be a whole number"),
    ([0, 2000, 4], "A score of 2000 for Bob is impossible"),
])
def test_save_round_refused(client, gid, values, message):
    r = client.post(f"/games/{gid}/rounds/1", data=scores_form(values))
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert message in html
    assert 'value="%s"' % values[1] in html  # what was typed is kept
    assert api_scores(client, gid, 1) is None


def test_unusual_round_asks_then_keeps(client, gid):
    r = client.post(f"/games/{gid}/rounds/1", data=scores_form([4, 12, 5]))
    assert r.status_code == 200 and "Nobody scored 0" in r.get_data(as_text=True)
    assert api_scores(client, gid, 1) is None
    r = client.post(f"/games/{gid}/rounds/1", data=scores_form([4, 12, 5], confirm="1"))
    assert r.status_code == 302
    assert api_scores(client, gid, 1) == {"Ann": 4, "Bob": 12, "Chi": 5}


def test_pip_counter_hands_are_scored_and_checked(client, gid):
    form = scores_form([0, 57, 9], **{"hand-1": "3-4 0-0", "hand-2": "4-5"})
    assert client.post(f"/games/{gid}/rounds/1", data=form).status_code == 302
    assert api_scores(client, gid, 1) == {"Ann": 0, "Bob": 57, "Chi": 9}
    # A tile in two hands (R3.3) and a mismatch between the score and the tiles are refused.
    form = scores_form([0, 57, 7], revision=1, **{"hand-1": "3-4 0-0", "hand-2": "4-3"})
    r = client.post(f"/games/{gid}/rounds/1", data=form)
    assert r.status_code == 400 and "in two hands" in r.get_data(as_text=True)
    form = scores_form([0, 50, 9], revision=1, **{"hand-1": "3-4 0-0"})
    r = client.post(f"/games/{gid}/rounds/1", data=form)
    assert r.status_code == 400 and "does not match the tiles picked (57)" in r.get_data(as_text=True)
    form = scores_form([0, 24, 9], revision=1, **{"hand-1": "12-12"})
    r = client.post(f"/games/{gid}/rounds/1", data=form)
    assert r.status_code == 400 and "engine" in r.get_data(as_text=True)
    # The picked tiles come back on the page for the picker to disable them.
    html = client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert 'value="3-4 0-0"' in html


def marked_seats(html: str) -> list[str]:
    """The seats whose score box the round page marks as wrong."""
    return re.findall(r'class="score-row has-error" data-seat="([0-9]+)"', html)


def test_a_name_with_a_dot_gets_its_refusal_not_a_500(client, game_factory):
    # The seat travels on the error (BadInput.seat): "J. Smith" is never split on its dot.
    gid = game_factory(["Ann", "J. Smith", "Chi"])["id"]
    url = f"/games/{gid}/rounds/1"
    r = client.post(url, data=scores_form([0, 24, 9], **{"hand-1": "12-12"}))   # the engine
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "12-12 is this round&#39;s engine; it cannot be in a hand" in html
    assert marked_seats(html) == ["1"]
    r = client.post(url, data=scores_form([7, 7, 9], **{"hand-0": "3-4", "hand-1": "4-3"}))
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "3-4 is in two hands (Ann and J. Smith)" in html and marked_seats(html) == ["1"]
    # A typed score that is not a number is marked on J. Smith's box, and only there.
    r = client.post(url, data=scores_form([0, "x", 9]))
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "J. Smith&#39;s score must be a whole number from 0 to 1118" in html
    assert marked_seats(html) == ["1"]
    assert api_scores(client, gid, 1) is None


def page_fields(html: str) -> dict[str, str]:
    """What the page's form would send as it is: text and hidden inputs, checked radios."""
    fields = {}
    for tag in re.findall(r"<input\b[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name is None or ('type="radio"' in tag and "checked" not in tag):
            continue
        fields[name.group(1)] = value.group(1) if value else ""
    return fields


def open_round(client, gid, n):
    return page_fields(client.get(f"/games/{gid}/rounds/{n}").get_data(as_text=True))


def test_second_tablet_is_told_what_changed(client, gid):
    # Both tablets open round 1 at revision 0; the first saves.
    first, second = open_round(client, gid, 1), open_round(client, gid, 1)
    client.post(f"/games/{gid}/rounds/1", data={**first, "score-0": "0", "score-1": "12",
                                                "score-2": "5"})
    r = client.post(f"/games/{gid}/rounds/1", data={**second, "score-0": "0", "score-1": "15",
                                                    "score-2": "5"})
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert "Another tablet saved this round" in html
    assert "<bdi>Bob</bdi>: — → 12" in html
    assert "Yours: 15" in html and "Other tablet: 12" in html
    assert api_scores(client, gid, 1)["Bob"] == 12  # not silently overwritten
    # The second tablet decides to keep its own value for Bob.
    fields = page_fields(html)
    assert fields["revision"] == "1" and "pick-1" not in fields
    r = client.post(f"/games/{gid}/rounds/1", data={**fields, "pick-1": "mine"})
    assert r.status_code == 302
    assert api_scores(client, gid, 1) == {"Ann": 0, "Bob": 15, "Chi": 5}


def saved_round(client, gid, values):
    client.put(f"/api/games/{gid}/rounds/1", json={"scores": dict(zip(["Ann", "Bob", "Chi"], values))})


def test_different_players_changed_on_two_tablets_are_both_kept(client, gid):
    """The issue's case: A corrects Ann, B corrects only Chi; B's save keeps Ann's correction."""
    saved_round(client, gid, [5, 0, 9])
    tablet_a, tablet_b = open_round(client, gid, 1), open_round(client, gid, 1)
    assert client.post(f"/games/{gid}/rounds/1", data={**tablet_a, "score-0": "3"}).status_code == 302
    r = client.post(f"/games/{gid}/rounds/1", data={**tablet_b, "score-2": "8"})
    assert r.status_code == 302                                   # merged without asking
    assert api_scores(client, gid, 1) == {"Ann": 3, "Bob": 0, "Chi": 8}
    html = client.get(r.location).get_data(as_text=True)
    assert "its changes for Ann were kept too" in html
    changes = client.get(f"/api/games/{gid}/history").get_json()["changes"]
    assert [(c["player"], c["old"], c["new"]) for c in changes[3:]] == [("Ann", 5, 3), ("Chi", 9, 8)]
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["revision"] == 3


@pytest.mark.parametrize("pick, bob", [("mine", 21), ("theirs", 15)])
def test_only_the_player_both_changed_is_asked(client, gid, pick, bob):
    saved_round(client, gid, [5, 12, 9])
    tablet_a, tablet_b = open_round(client, gid, 1), open_round(client, gid, 1)
    client.post(f"/games/{gid}/rounds/1", data={**tablet_a, "score-0": "0", "score-1": "15"})
    r = client.post(f"/games/{gid}/rounds/1", data={**tablet_b, "score-1": "21", "score-2": "8",
                                                    "confirm": "1"})   # nobody at 0 on B: confirmed
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    fields = page_fields(html)
    # Bob is asked; Ann (theirs) and Chi (mine) are already merged in the form.
    assert "Yours: 21" in html and "Other tablet: 15" in html
    assert fields["score-0"] == "0" and fields["score-2"] == "8" and "score-1" not in fields
    assert api_scores(client, gid, 1) == {"Ann": 0, "Bob": 15, "Chi": 9}   # nothing of B yet
    # Saving without choosing is refused with a sentence, the choice still offered.
    r = client.post(f"/games/{gid}/rounds/1", data=fields)
    assert r.status_code == 400
    assert "Choose the score to keep for Bob" in r.get_data(as_text=True)
    assert "Other tablet: 15" in r.get_data(as_text=True)
    r = client.post(f"/games/{gid}/rounds/1", data={**fields, "pick-1": pick})
    assert r.status_code == 302
    assert api_scores(client, gid, 1) == {"Ann": 0, "Bob": bob, "Chi": 8}


def test_correction_history_and_undo(client, gid):
    client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 12, 5], revision=0))
    client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 21, 5], revision=1))
    client.post(f"/games/{gid}/rounds/2", data=scores_form([3, 0, 8], revision=0))
    html = client.get(f"/games/{gid}/history").get_data(as_text=True)
    assert "corrected" in html and "Undo the last change (round 2)" in html
    client.post(f"/games/{gid}/undo")
    assert api_scores(client, gid, 2) is None          # undoing a first recording
    client.post(f"/games/{gid}/undo")
    assert api_scores(client, gid, 1)["Bob"] == 12     # the correction is undone
    changes = client.get(f"/api/games/{gid}/history").get_json()["changes"]
    assert (changes[-1]["player"], changes[-1]["old"], changes[-1]["new"]) == ("Bob", 21, 12)
    html = client.get(f"/games/{gid}/history").get_data(as_text=True)
    assert "undone" in html and "Undo the last change (round 1)" in html
    client.post(f"/games/{gid}/undo")
    client.post(f"/games/{gid}/undo")  # nothing left: said, not an error
    assert api_scores(client, gid, 1) is None
    r = client.post(f"/games/{gid}/undo", follow_redirects=True)
    assert "There is nothing to undo." in r.get_data(as_text=True)


def test_history_is_one_entry_per_save_with_undo_and_redo_on_it(client, gid):
    client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 12, 5], revision=0))
    client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 21, 7], revision=1))
    html = client.get(f"/games/{gid}/history").get_data(as_text=True)
    rows = re.findall(r'<tr class="entry[^"]*" id="entry-(\d+)">(.*?)</tr>', html, re.S)
    assert [n for n, _ in rows] == ["2", "1"]               # newest first, one per save
    words = [re.sub(r"<[^>]+>", " ", re.sub(r'<td class="time">.*?</td>', "", row)).split()
             for _, row in rows]
    assert words[0] == ["1", "Bob", "Old", "12", "→", "New", "21", "Chi", "Old", "5", "→",
                            "New", "7", "corrected", "Undo", "the", "last", "change", "(round",
                            "1)…"]
    assert words[1] == ["1", "Ann", "New", "0", "Bob", "New", "12", "Chi", "New", "5", "recorded"]
    assert 'id="undo"' in rows[0][1] and 'id="undo"' not in rows[1][1]
    client.post(f"/games/{gid}/undo")
    html = client.get(f"/games/{gid}/history").get_data(as_text=True)
    rows = re.findall(r'<tr class="(entry[^"]*)" id="entry-(\d+)">(.*?)</tr>', html, re.S)
    assert [(c, n) for c, n, _ in rows] == [("entry", "3"), ("entry undone", "2"), ("entry", "1")]
    assert 'id="redo"' in rows[0][2] and 'id="undo"' in rows[2][2]
    changes = client.get(f"/api/games/{gid}/history").get_json()["changes"]
    assert [(c["entry"], c["player"]) for c in changes] == [
        (1, "Ann"), (1, "Bob"), (1, "Chi"), (2, "Bob"), (2, "Chi"), (3, "Bob"), (3, "Chi")]


def test_standings_page_chart_tiebreaks_and_winner(client, game_factory):
    gid = game_factory(["Ann", "Bob"], set=6, scores=[[0, 10], [10, 0]], finished=True)["id"]
    html = client.get(f"/games/{gid}/standings").get_data(as_text=True)
    assert "Shared win: <bdi>Ann</bdi> and <bdi>Bob</bdi>" in html
    assert "share place 1" in html and "(shared)" in html
    assert '<svg class="chart"' in html and "<polyline" in html


def test_rename_and_delete_with_confirmation(client, gid):
    r = client.post(f"/games/{gid}/rename", data={"name": "Saturday"})
    assert r.status_code == 302
    assert client.get(f"/api/games/{gid}").get_json()["name"] == "Saturday"
    r = client.post(f"/games/{gid}/rename", data={"name": "x" * 61})
    assert r.status_code == 400 and client.get(f"/api/games/{gid}").get_json()["name"] == "Saturday"
    html = client.get(f"/games/{gid}/delete").get_data(as_text=True)
    assert "Delete <bdi>Saturday</bdi>?" in html
    assert "<bdi>Ann</bdi>, <bdi>Bob</bdi>, <bdi>Chi</bdi>" in html
    assert "goes to “Recently deleted” for 30 days" in html
    assert client.get(f"/api/games/{gid}").status_code == 200  # GET deletes nothing
    r = client.post(f"/games/{gid}/delete")
    assert r.status_code == 302
    assert "moved to Recently deleted" in client.get("/").get_data(as_text=True)
    assert client.get(f"/api/games/{gid}").status_code == 404
    assert client.get(f"/games/{gid}").status_code == 404


def test_recently_deleted_page_restores_a_game_whole(client, gid):
    client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 12, 5]))
    client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 14, 5], revision=1))
    before = client.get(f"/api/games/{gid}").get_json()
    history = client.get(f"/api/games/{gid}/history").get_json()
    assert 'href="/deleted"' in client.get("/").get_data(as_text=True)
    assert "Nothing was deleted in the last 30 days." in client.get("/deleted").get_data(as_text=True)
    client.post(f"/games/{gid}/delete")
    home = client.get("/").get_data(as_text=True)
    assert "Friday was moved to Recently deleted" in home and f"/games/{gid}" not in home
    html = client.get("/deleted").get_data(as_text=True)
    assert "Friday" in html and "restorable until" in html
    r = client.post(f"/games/{gid}/restore")
    assert r.status_code == 302 and r.location == f"/games/{gid}"
    assert client.get(f"/api/games/{gid}").get_json() == before
    assert client.get(f"/api/games/{gid}/history").get_json() == history
    assert "Friday" in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/games/nope", "/games/nope/rounds/1", "/games/nope/standings",
                                  "/games/nope/history", "/games/nope/rename", "/nowhere"])
def test_unknown_pages_404(client, path):
    r = client.get(path)
    assert r.status_code == 404 and "Back to the games" in r.get_data(as_text=True)


def test_unknown_round_404(client, gid):
    assert client.get(f"/games/{gid}/rounds/99").status_code == 404


def test_names_are_text_everywhere(client, game_factory):
    evil = "<script>alert(1)</script>"
    gid = game_factory([evil, "Bob"], name=evil, scores=[[0, 3]])["id"]
    for path in ("/", f"/games/{gid}", f"/games/{gid}/rounds/1", f"/games/{gid}/standings",
                 f"/games/{gid}/history", f"/games/{gid}/delete", f"/games/{gid}/rename"):
        html = client.get(path).get_data(as_text=True)
        assert "<script>alert" not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


def test_forms_need_csrf_token(csrf_app):
    client = csrf_app.test_client()
    r = client.post("/games/new", data=new_game_form(["Ann", "Bob"]))
    # Refused, but what was typed comes back with a sentence: nothing is lost.
    assert r.status_code == 400 and 'value="Ann"' in r.get_data(as_text=True)
    assert "The form expired" in r.get_data(as_text=True)
    assert client.get("/api/games").get_json()["games"] == []
    html = client.get("/games/new").get_data(as_text=True)
    assert 'name="csrf_token"' in html
    gid = create_game(client, ["Ann", "Bob"])["id"]
    r = client.post(f"/games/{gid}/rounds/1", data=scores_form([0, 4]))
    assert r.status_code == 400 and "The form expired" in r.get_data(as_text=True)
    r = client.post(f"/games/{gid}/delete")
    assert r.status_code == 400 and "The page expired" in r.get_data(as_text=True)
    assert client.get(f"/api/games/{gid}").status_code == 200
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      client.get(f"/games/{gid}/delete").get_data(as_text=True)).group(1)
    assert client.post(f"/games/{gid}/delete", data={"csrf_token": token}).status_code == 302


def test_restart_loses_nothing(database):
    config = {"TESTING": True, "DATABASE": database, "SECRET_KEY": "k"}
    first = create_app(config).test_client()
    gid = create_game(first, ["Ann", "Bob"], scores=[[0, 9]])["id"]
    again = create_app(config).test_client()  # a new process opening the same file
    assert again.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] == {"Ann": 0, "Bob": 9}
    assert len(again.get(f"/api/games/{gid}/history").get_json()["changes"]) == 2


def test_secret_key_is_generated_once_and_kept(tmp_path):
    key = _instance_secret(tmp_path)
    assert len(key) == 64 and _instance_secret(tmp_path) == key
    assert oct((tmp_path / "secret_key").stat().st_mode)[-3:] == "600"


def test_database_is_wal_and_migrated(app):
    from scorekeeper.storage import connect
    db = connect(app.config["DATABASE"])
    assert db.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert {"games", "rounds", "scores", "edits", "changes", "moves"} <= set(db.table_names())
    db.close()
def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.get_data(as_text=True) == "ok\n"
    assert "Set-Cookie" not in r.headers


def test_merge_keeps_the_tiles_counted_on_the_other_tablet(client, gid):
    saved_round(client, gid, [0, 7, 9])
    tablet_a, tablet_b = open_round(client, gid, 1), open_round(client, gid, 1)
    client.post(f"/games/{gid}/rounds/1", data={**tablet_a, "hand-1": "3-4"})   # Bob counted
    assert client.post(f"/games/{gid}/rounds/1", data={**tablet_b, "score-2": "8"}).status_code == 302
    fields = open_round(client, gid, 1)
    assert (fields["score-1"], fields["hand-1"], fields["score-2"]) == ("7", "3-4", "8")


def test_every_wrong_score_is_marked_at_once(client, game_factory):
    gid = game_factory(["Ann", "Bob", "Chi", "Dee"])["id"]
    r = client.post(f"/games/{gid}/rounds/1", data={"score-0": "abc", "score-1": "5000",
                                                    "score-2": "-3", "score-3": "0",
                                                    "revision": "0"})
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    marked = re.findall(r'id="score-(\d)"[^>]*aria-invalid="true"', html)
    assert marked == ["0", "1", "2"]                     # Dee's 0 is fine
    assert html.count('class="seat-error"') == 3
    assert client.get(f"/api/games/{gid}").get_json()["rounds"][0]["scores"] is None
    # The box above the form lists every one of them, in seating order, not the first only.
    box = re.search(r'<div class="form-error" role="alert" id="round-problems">(.*?)</div>',
                    html, re.S).group(1)
    assert paragraphs(box) == [
        "Ann's score must be a whole number from 0 to 1118.",
        "A score of 5000 for Bob is impossible: a round score is from 0 to 1118, the largest "
        "possible hand in this round (R7.4).",
        "Chi's score must be a whole number from 0 to 1118."]


@pytest.mark.parametrize("names, refused, marked", [
    # The same person twice, any case or spacing: both boxes are marked, not neither.
    (["Bob", "Ann", "bob "], "bob is in the game twice: names must differ (ignoring case).",
     [0, 2]),
    (["Ann", "", "ANN", "Chi"], "ANN is in the game twice: names must differ (ignoring case).",
     [0, 2]),
    # Too long: refused with the limit, never cut to 40 characters unseen.
    (["Ann", "María José Fernández de la Peña y Gutiérrez López"],
     "María José Fernández de la Peña y Gutiér… is too long: a name has at most 40 characters.", [1]),
])
def test_a_refused_name_marks_its_boxes(client, names, refused, marked):
    r = client.post("/games/new", data=new_game_form(names))
    html = r.get_data(as_text=True)
    assert refused in paragraphs(html)
    assert [int(n) for n in re.findall(
        r'id="players-(\d+)"[^>]*aria-invalid="true" aria-describedby="players-error"',
        html)] == marked
    assert 'id="players-error"' in html and "maxlength" not in html.split('id="players-0"')[1][:300]
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("form_path, field", [
    ("/games/new", "name"), ("/seasons", "name")])
def test_no_name_box_cuts_what_is_typed(client, form_path, field):
    html = client.get(form_path).get_data(as_text=True)
    box = re.search(r'<input[^>]*name="%s"[^>]*>' % field, html).group(0)
    assert "maxlength" not in box


def test_a_game_name_too_long_is_refused_once_with_its_limit(client, gid):
    name = "Friday night at the club, the long table by the window, 2026!"   # 61
    r = client.post("/games/new", data=new_game_form(["Ann", "Bob"], name=name))
    sentences = [p for p in paragraphs(r) if "60" in p]
    assert sentences == ["The game name is too long: at most 60 characters."]
    r = client.post(f"/games/{gid}/rename", data={"name": name})
    assert [p for p in paragraphs(r) if "60" in p] == [
        "The game name is too long: at most 60 characters."]
    assert client.get(f"/api/games/{gid}").get_json()["name"] == "Friday"


def test_new_game_cites_r2_3_for_the_highest_draw(client):
    # Issue 25: the starter option follows R2.2 (the engine's holder) and R2.3 (highest draw),
    # as R9's table says; both are cited and linked.
    html = client.get("/games/new").get_data(as_text=True)
    start = html.index("Who starts a round")
    legend = html[start:html.index("</legend>", start)]
    assert ">R2.2</a>, <a" in legend and ">R2.3</a>" in legend and 'href="/rules#R2.3"' in legend
