"""Export a game as JSON and import it back: equal rounds, standings, history and logs;
a document that is not such an export, or that a new game would refuse, is 400."""

from __future__ import annotations

import copy
import io
import json

import pytest

PLAYERS = ["Ann", "Bob", "Chi"]


@pytest.fixture
def played(client, game_factory):
    """A game with saves, a correction, counted tiles, an undo and a live table."""
    gid = game_factory(PLAYERS, name="Friday", rules={"double_blank": 25})["id"]
    put = lambda n, body: client.put(f"/api/games/{gid}/rounds/{n}", json=body)  # noqa: E731
    put(1, {"scores": {"Ann": 0, "Bob": 12, "Chi": 5}})
    put(1, {"scores": {"Ann": 0, "Bob": 14, "Chi": 5}})
    put(2, {"hands": {"Ann": [], "Bob": [[3, 4], [0, 0]], "Chi": [[4, 5]]}})
    put(3, {"scores": {"Ann": 9, "Bob": 0, "Chi": 2}})
    client.post(f"/games/{gid}/undo")                        # round 3 unplayed again
    live = f"/games/{gid}/rounds/4/live"
    client.post(live + "/start", data={"starter": "0", "tiles_each": "12", "active": "0"})
    client.post(live + "/action", data={"kind": "play", "tile": "9-4", "train": "0", "active": "1"})
    client.post(live + "/action", data={"kind": "pass", "active": "2"})
    client.post(live + "/undo", data={"active": "3"})
    return gid


def snapshot(client, gid):
    """Everything a person can see of a game, without its id."""
    game = client.get(f"/api/games/{gid}").get_json()
    del game["id"]
    page = client.get(f"/games/{gid}/rounds/4/live/log").get_data(as_text=True)
    log = page[page.index('<ol class="move-log">'):page.index("</ol>")]
    return game, client.get(f"/api/games/{gid}/history").get_json(), log


def test_export_then_import_gives_an_equal_game(client, played):
    r = client.get(f"/api/games/{played}/export")
    assert r.status_code == 200
    doc = r.get_json()
    assert doc["format"] == "mexican-train-scorekeeper" and doc["version"] == 1
    assert doc["rounds"][0]["revision"] == 2 and doc["rounds"][1]["hands"]["Bob"] == [[3, 4], [0, 0]]
    assert doc["history"][-1]["undo_of"] == doc["history"][-2]["edit"]
    assert [len(x["moves"]) for x in doc["live"]] == [3]
    r = client.post("/api/games/import", json=doc)
    assert r.status_code == 201
    copy_id = r.get_json()["id"]
    assert copy_id != played
    assert snapshot(client, copy_id) == snapshot(client, played)
    again = client.get(f"/api/games/{copy_id}/export").get_json()
    for d in (doc, again):
        for key in ("id", "updated_at"):
            del d["game"][key]
        del d["exported_at"]
    assert again == doc
    # The imported history is live: undo works on it as on the original.
    client.post(f"/games/{copy_id}/undo")
    assert client.get(f"/api/games/{copy_id}").get_json()["rounds"][1]["scores"] is None


def mutate(path: str, value):
    """Set a dotted path of the document (a missing key is removed when value is ...)."""
    def apply(doc):
        *parents, last = path.split(".")
        node = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            last = int(last)
        if value is ...:
            del node[last]
        else:
            node[last] = value
        return doc
    return apply


@pytest.mark.parametrize("change, field, words", [
    (lambda d: [d], "", "JSON object"),
    (mutate("format", "something-else"), "format", "not an export of Mexican Train Scorekeeper"),
    (mutate("format", ...), "format", "not an export"),
    (mutate("version", 2), "version", "version 2; this app reads version 1"),
    (mutate("game", ...), "game", "JSON object"),
    (mutate("game.players", ["Ann", "ann", "Chi"]), "game.players.1", "names must differ"),
    (mutate("game.players", ["Ann"]), "game.players", "2 to 14 players"),
    (mutate("game.players.0", "A\u200bnn"), "game.players.0", "invisible"),
    (mutate("game.name", "n" * 61), "game.name", "too long"),
    (mutate("game.set", 7), "game.set", "double-6, 9, 12, 15 or 18"),
    (mutate("game.rules.double_blank", 40), "game.rules.double_blank", "50, 25, or 0"),
    (mutate("game.rules.chicken", True), "game.rules.chicken", "not a rule option"),
    (mutate("game.start_engine", 13), "game.start_engine", "0 to 12"),
    (mutate("game.created_at", "yesterday"), "game.created_at", "ISO 8601"),
    (lambda d: d["rounds"].pop() and d, "rounds", "Rounds in this game (double-12 down to double-0): 13."),
    (mutate("rounds.0.engine", 11), "rounds.0.engine", "double-12 engine"),
    (mutate("rounds.0.number", 2), "rounds.0.number", "numbered"),
    (mutate("rounds.0.revision", -1), "rounds.0.revision", "whole number from 0"),
    (mutate("rounds.0.scores.Bob", 99999), "rounds.0.scores.Bob", "impossible"),
    (mutate("rounds.0.scores.Bob", "14"), "rounds.0.scores.Bob", "whole number"),
    (mutate("rounds.0.scores.Bob", 15), "history", "does not add up to the scores of round 1"),
    (mutate("rounds.2.scores", {"Ann": 0, "Bob": 1, "Chi": 2}), "history", "round 3"),
    (mutate("rounds.1.hands.Bob", [[11, 11], [3, 4]]), "rounds.1.hands.Bob.0", "engine"),
    (mutate("rounds.1.hands.Chi", [[3, 4]]), "rounds.1.hands.Chi.0", "two hands"),
    (mutate("rounds.1.hands.Chi", [[4, 4]]), "rounds.1.hands.Chi", "do not make the score"),
    (mutate("history.0.changes.0.player", "Dan"), "history.0.changes.0.player", "not a player"),
    (mutate("history.0.changes.0.new", -3), "history.0.changes.0.new", "0 to"),
    (mutate("history.0.round", 20), "history.0.round", "rounds 1 to 13"),
    (mutate("history.1.undo_of", 5), "history.1.undo_of", "earlier save"),
    (mutate("history.0.at", 5), "history.0.at", "ISO 8601"),
    (mutate("live.0.round", 99), "live.0.round", "1 to 13"),
    (mutate("live.0.moves.1.data.type", "jump"), "live.0.moves.1.data.type", "play, draw or pass"),
    (mutate("live.0.moves.0.data.start", "now"), "live.0.moves.0.data.start", "object"),
    (mutate("live.0.moves.1.seq", 0), "live.0.moves.1.seq", "numbered upwards"),
    # Every object inside the document is checked whole, like every body of the API.
    (mutate("game.colour", []), "game.colour", "of an export's game. Did you mean colours?"),
    (mutate("rounds.0.started", None), "rounds.0.started",
     "“started” is not a field of an export's round. Did you mean started_at?"),
    (mutate("history.0.by", "Ann"), "history.0.by", "of a save in an export's history."),
    (mutate("history.0.changes.0.was", 3), "history.0.changes.0.was",
     "of a score change in an export's history. Its fields are player, old, and new."),
    (mutate("live.0.move", []), "live.0.move", "of an export's live-table log. Did you mean"),
    (mutate("live.0.moves.0.undone", None), "live.0.moves.0.undone",
     "of a move in an export's live-table log. Did you mean undone_at?"),
])
def test_import_refused_names_the_field_and_stores_nothing(client, played, change, field, words):
    doc = change(copy.deepcopy(client.get(f"/api/games/{played}/export").get_json()))
    r = client.post("/api/games/import", json=doc)
    assert r.status_code == 400, r.get_json()
    body = r.get_json()
    assert body["field"] == field and words in body["error"], body
    assert body["error"].endswith((".", "?"))   # a whole sentence
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == [played]


def test_export_of_an_unknown_or_deleted_game_is_404(client, played):
    assert client.get("/api/games/nope/export").status_code == 404
    client.delete(f"/api/games/{played}")
    assert client.get(f"/api/games/{played}/export").status_code == 404


def test_pages_download_and_import(client, played):
    html = client.get(f"/games/{played}").get_data(as_text=True)
    assert f'href="/games/{played}/export.json"' in html and "Download (JSON)" in html
    r = client.get(f"/games/{played}/export.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.headers["Content-Disposition"].startswith('attachment; filename="game-Friday-')
    doc = r.get_data()
    assert 'href="/games/import"' in client.get("/").get_data(as_text=True)
    assert 'type="file"' in client.get("/games/import").get_data(as_text=True)
    r = client.post("/games/import", data={"file": (io.BytesIO(doc), "friday.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 302
    new_id = r.location.rsplit("/", 1)[1]
    assert new_id != played and snapshot(client, new_id) == snapshot(client, played)


@pytest.mark.parametrize("content, words", [
    (None, "Choose the export file"),
    (b"not json at all", "an export is JSON text, saved with"),
    (b"", "This file is empty. Choose the file saved with"),
    (b"\n \n", "This file is empty."),
    (b"\xff\xfe\x00n\x00o", "an export is JSON text"),
    (b"SQLite format 3\x00" + b"\x00" * 200, "a backup of the whole app (.sqlite)"),
    (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    (json.dumps({"format": "something"}).encode(), "not an export of Mexican Train Scorekeeper"),
    (json.dumps({"format": "mexican-train-scorekeeper", "version": 1, "game": {
        "players": ["Ann", "Bob"], "set": 7}}).encode(), "double-6, 9, 12, 15 or 18"),
    (b"x" * (1024 * 1024 + 10), "at most 1 MB"),
])
def test_import_page_refusals_reshow_the_form(client, played, content, words):
    data = {} if content is None else {"file": (io.BytesIO(content), "game.json")}
    r = client.post("/games/import", data=data, content_type="multipart/form-data")
    html = r.get_data(as_text=True)
    assert r.status_code in (400, 413) and words in html and 'type="file"' in html
    assert "The body is not valid JSON" not in html
    assert ('href="/backup/restore"' in html) == ("backup" in words)
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == [played]
