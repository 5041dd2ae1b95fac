"""POST /api/hand-photo (API.md "hand-photo"): the answer, every refusal, nothing stored, the
20 MB limit, and reads taking turns on the real server."""

from __future__ import annotations

import io
import json
import os
import struct
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import photos as bench_photos  # noqa: E402  (the bench reads through the API too)
from bench.photos import multipart  # noqa: E402
from scorekeeper.api import photo as photo_api
from scorekeeper.photo import reader
from scorekeeper.photo.checks import problems
from scorekeeper.photo.reading import Found, Reading, Unsure
from scorekeeper.scoring import hand_score
from scorekeeper.tiles import Tile
from helpers import served
from test_migrations import contents  # every table and row of a database, as SQL

PHOTOS = Path(__file__).resolve().parent / "photos"
ONE_TILE = (PHOTOS / "tk_img0359.jpg").read_bytes()      # one ivory 0-5, double-six
BOX = ((10.0, 10.0), (50.0, 10.0), (50.0, 30.0), (10.0, 30.0))


def post(client, photo=ONE_TILE, filename="hand.jpg", headers=None, **fields):
    """The route as a tablet calls it: a multipart form with the photo as a file."""
    data = {k: v for k, v in fields.items() if v is not None}
    if photo is not None:
        data["photo"] = (io.BytesIO(photo), filename)
    return client.post("/api/hand-photo", data=data, content_type="multipart/form-data",
                       headers=headers or {})


def jpeg(img: np.ndarray, **kw) -> bytes:
    out = io.BytesIO()
    Image.fromarray(img).save(out, "JPEG", quality=90, **kw)
    return out.getvalue()


@pytest.fixture
def read_as(monkeypatch):
    """read_as(*tiles, unsure=()) -> the reader reads those tiles (each with its own box)
    from any photo, so the route's checks and score are tested alone."""
    def fake(*tiles, unsure=()):
        reading = Reading(tuple(Found(Tile.of(*t), BOX, 0.97) for t in tiles),
                          tuple(Unsure(BOX, tuple(Tile.of(*c) for c in cands))
                                for cands in unsure), 640, 480)
        monkeypatch.setattr(reader, "read_hand", lambda data, set_n, out_of_hand=frozenset(): reading)
        return reading
    return fake


# ---------------------------------------------------------------- the answer

def test_answer_is_the_readers_reading_checked_and_scored(client):
    r = post(client, set="6")
    assert r.status_code == 200
    body = r.get_json()
    assert set(body) == {"tiles", "unsure", "problems", "score", "width", "height"}
    reading = reader.read_hand(ONE_TILE, 6)
    assert {k: body[k] for k in ("tiles", "unsure", "width", "height")} == reading.to_json()
    assert body["problems"] == [{"code": p.code, "tile": p.tile.to_json(), "message": p.message}
                                for p in problems(reading, 6, None, set())]
    assert body["score"] == hand_score(f.tile for f in reading.tiles)
    assert (body["width"], body["height"]) == (640, 640)
    for t in body["tiles"]:
        assert len(t["box"]) == 4 and all(len(p) == 2 for p in t["box"])
        assert 0 <= t["confidence"] <= 1


def test_score_is_r7_3_of_the_tiles_read_alone(client, read_as):
    read_as((0, 0), (3, 4), unsure=[((5, 6), (5, 5))])
    assert post(client).get_json()["score"] == 57                     # 0-0 counts 50 (R7.3)
    assert post(client, rules='{"double_blank": 0}').get_json()["score"] == 7


def test_a_game_gives_its_set_rules_engine_and_other_hands(client, game_factory, read_as):
    game = game_factory(set=9, rules={"double_blank": 25})
    gid = game["id"]
    client.put(f"/api/games/{gid}/rounds/2",
               json={"hands": {"Ann": [[1, 2]], "Bob": [[2, 7], [0, 3]], "Chi": []}})
    read_as((0, 0), (8, 8), (2, 7), (1, 2), (9, 11), (4, 5), (4, 5))
    body = post(client, game=gid, round="2", player="Ann").get_json()
    assert [(p["code"], p["tile"]) for p in body["problems"]] == [
        ("engine", [8, 8]),                   # round 2 of a double-9 game: the 8-8 engine
        ("already_counted", [2, 7]),          # in Bob's stored hand (R3.3)
        ("not_in_set", [9, 11]),
        ("twice", [4, 5])]
    assert body["problems"][1]["message"] == (
        "2-7 is already counted in another hand this round; each tile exists once (R3.3).")
    assert body["score"] == 25 + 16 + 9 + 3 + 20 + 9 + 9            # the game's double_blank
    # Without the player, Ann's own stored 1-2 is another hand's too.
    body = post(client, game=gid, round="2").get_json()
    assert ("already_counted", [1, 2]) in [(p["code"], p["tile"]) for p in body["problems"]]


def test_the_reader_is_told_what_cannot_be_in_the_hand(client, game_factory, monkeypatch):
    """R3.3: the round's engine and the tiles counted in its other hands go to the reader,
    which offers none of them; a set and rules sent alone tell it nothing more."""
    told = []

    def read(data, set_n, out_of_hand=frozenset()):
        told.append((set_n, out_of_hand))
        return Reading((), (), 640, 480)
    monkeypatch.setattr(reader, "read_hand", read)
    gid = game_factory(set=9)["id"]
    client.put(f"/api/games/{gid}/rounds/2",
               json={"hands": {"Ann": [[1, 2]], "Bob": [[2, 7], [0, 3]], "Chi": []}})
    assert post(client, game=gid, round="2", player="Ann").status_code == 200
    assert told[-1] == (9, {Tile.of(8, 8), Tile.of(2, 7), Tile.of(0, 3)})
    assert post(client, set="9").status_code == 200
    assert told[-1] == (9, frozenset())


def test_sentences_follow_accept_language(client, read_as):
    read_as((7, 7))
    r = post(client, set="6", headers={"Accept-Language": "el"})
    assert r.get_json()["problems"][0]["message"] == (
        "Το 7-7 δεν υπάρχει σε σετ διπλό-6: ελέγξτε αυτό το ντόμινο (R3.3).")


def test_refusals_follow_accept_language(client):
    r = post(client, photo=b"", headers={"Accept-Language": "th"})
    assert r.get_json()["error"] == "รูปว่างเปล่า ถ่ายรูปใหม่อีกครั้ง"
    r = post(client, set="5", headers={"Accept-Language": "vi"})
    assert r.get_json()["error"] == "Bộ quân là một số nguyên từ 6 đến 18: từ bộ đôi 6 đến bộ đôi 18."


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_is_shown_as_the_photo_is(client, orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = jpeg(np.full((60, 100, 3), 200, np.uint8), exif=exif.tobytes())
    r = post(client, photo=data)
    assert r.status_code == 200
    turned = orientation in (5, 6, 7, 8)
    assert (r.get_json()["width"], r.get_json()["height"]) == ((60, 100) if turned else (100, 60))


def test_png_webp_and_heic_are_read(client):
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    img = Image.fromarray(np.full((48, 64, 3), 90, np.uint8))
    for fmt in ("PNG", "WEBP", "HEIF"):
        out = io.BytesIO()
        try:
            img.save(out, fmt)
        except (KeyError, OSError, ValueError) as exc:      # a build that cannot encode HEIF
            pytest.skip(f"cannot write {fmt} here: {exc}")
        r = post(client, photo=out.getvalue(), filename="hand." + fmt.lower())
        assert r.status_code == 200, (fmt, r.get_json())
        assert (r.get_json()["width"], r.get_json()["height"]) == (64, 48)


# ---------------------------------------------------------------- the dialog, fetched

def test_the_round_page_carries_only_the_photo_placeholder(client, gid):
    """The photo part's buttons and sentences are fetched when the dialog opens (issue 26:
    the round page grew from 11.6 KB to 20.3 KB, mostly them)."""
    page = client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert 'id="photo-reader"' in page and "/api/hand-photo/dialog" in page
    for sentence in ("Take a photo", "Reading the photo", "Which tile is this?",
                     "First answer each tile marked"):
        assert sentence not in page


def test_the_dialog_fragment_has_its_sentences_in_the_request_language(client):
    r = client.get("/api/hand-photo/dialog")
    assert r.status_code == 200 and r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    assert 'id="photo-take"' in html and "Reading the photo" in html
    assert "<script" not in html and " style=" not in html        # strict CSP: markup only
    greek = client.get("/api/hand-photo/dialog", headers={"Accept-Language": "el"})
    assert "Reading the photo" not in greek.get_data(as_text=True)
    assert 'id="photo-take"' in greek.get_data(as_text=True)


# ---------------------------------------------------------------- refusals

def _bomb_png(width: int, height: int) -> bytes:
    """A PNG claiming width x height pixels in a few kilobytes."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    raw = zlib.compress(b"\x00" * (width + 1) * 64, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0,
                                                              0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


REFUSED_PHOTOS = [
    # (what was sent, the sentence's start)
    (b"", "The photo is empty"),
    (b"Round 3: Ann 12, Bob 40\n", "This file is not a photo"),
    (ONE_TILE[: len(ONE_TILE) // 2], "The photo is cut short"),
    (_bomb_png(10_000, 6_000), "The photo has 60 megapixels; at most 25 are read."),
    # a bomb of 400 megapixels: its real size, not "0 megapixels"
    (_bomb_png(20_000, 20_000), "The photo has 400 megapixels; at most 25 are read."),
    (_bomb_png(100_000, 100_000), "The photo has 10000 megapixels; at most 25 are read."),
    (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "This file is not a photo"),
    (b"\x00\x00\x00\x18ftypheic" + b"\x00" * 200, "This file is not a photo"),   # a broken HEIC
]


@pytest.mark.parametrize("data, sentence", REFUSED_PHOTOS)
def test_photos_it_cannot_read_are_400_with_a_sentence(client, data, sentence):
    r = post(client, photo=data)
    assert r.status_code == 400
    assert r.get_json()["field"] == "photo"
    assert r.get_json()["error"].startswith(sentence)


def test_random_bytes_are_never_a_500(client):
    rng = np.random.default_rng(17)
    starts = [b"", b"\xff\xd8\xff\xe0", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x00\x00\x00WEBP",
              b"\x00\x00\x00\x18ftypheic", b"GIF89a"]
    for i in range(24):
        data = starts[i % len(starts)] + rng.bytes(int(rng.integers(0, 3000)))
        r = post(client, photo=data)
        assert r.status_code in (200, 400), (i, r.status_code)
        if r.status_code == 400:
            assert r.get_json()["field"] == "photo" and r.get_json()["error"].endswith(".")


SET_6_TO_18 = "The set is a whole number from 6 to 18: double-6 to double-18."
GAME_AND_ROUND = "Give both the game and the round (its number in that game)."


@pytest.mark.parametrize("fields, field, sentence", [
    ({"set": "5"}, "set", SET_6_TO_18),
    ({"set": "19"}, "set", SET_6_TO_18),
    ({"set": "twelve"}, "set", SET_6_TO_18),
    ({"set": ""}, "set", SET_6_TO_18),
    ({"rules": "{"}, "rules", 'The rules must be JSON text of rule options, like '
                              '{"double_blank": 50}.'),
    ({"rules": "[50]"}, "rules", "The rules must be an object of rule options."),
    ({"rules": '{"double_blank": 7}'}, "rules.double_blank", "double_blank must be"),
    ({"rules": '{"blank": 0}'}, "rules.blank", "blank is not a rule option"),
    ({"round": "1"}, "game", GAME_AND_ROUND),
    ({"player": "Ann"}, "game", GAME_AND_ROUND),
    ({"colour": "red"}, "colour", "“colour” is not a field of a hand's photo. Its fields are "
                                  "photo, set, rules, game, round, and player."),
    ({"photos": "x"}, "photos", "“photos” is not a field of a hand's photo. Did you mean photo?"),
])
def test_bad_fields_are_400_naming_them(client, fields, field, sentence):
    r = post(client, **fields)
    assert r.status_code == 400
    assert r.get_json()["field"] == field
    assert r.get_json()["error"].startswith(sentence)


@pytest.mark.parametrize("fields, field, sentence", [
    ({}, "round", GAME_AND_ROUND),
    ({"round": "0"}, "round", "This game has no round 0; its rounds are 1 to 13."),
    ({"round": "14"}, "round", "This game has no round 14; its rounds are 1 to 13."),
    ({"round": "two"}, "round", "This game has no round two; its rounds are 1 to 13."),
    ({"round": "1", "player": "Zed"}, "player", "Zed is not a player in this game."),
    ({"round": "1", "set": "12"}, "set", "A game plays with its own set and rules: give the "
                                         "game and round, or the set and rules, not both."),
    ({"round": "1", "rules": "{}"}, "rules", "A game plays with its own set and rules"),
])
def test_bad_game_fields_are_400_naming_them(client, gid, fields, field, sentence):
    r = post(client, game=gid, **fields)
    assert r.status_code == 400
    assert (r.get_json()["field"], r.get_json()["error"][:len(sentence)]) == (field, sentence)


def test_an_unknown_or_deleted_game_is_404(client, gid):
    r = post(client, game="nope", round="1")
    assert (r.status_code, r.get_json()["field"]) == (404, "id")
    client.delete(f"/api/games/{gid}")
    assert post(client, game=gid, round="1").status_code == 404


@pytest.mark.parametrize("send", [
    lambda c: c.post("/api/hand-photo", json={"photo": "…"}),
    lambda c: c.post("/api/hand-photo", data=ONE_TILE, content_type="image/jpeg"),
    lambda c: c.post("/api/hand-photo", data={"photo": "not a file"},
                     content_type="multipart/form-data"),
    lambda c: c.post("/api/hand-photo", data={"set": "6"}, content_type="multipart/form-data"),
    lambda c: c.post("/api/hand-photo", data=b"--x\r\nbroken", content_type="multipart/form-data"),
])
def test_no_photo_is_400(client, send):
    r = send(client)
    assert r.status_code == 400
    assert r.get_json() == {"error": "Send the photo as a file in the field photo of a "
                                     "multipart/form-data request.", "field": "photo"}


def test_one_photo_at_a_time(client):
    r = client.post("/api/hand-photo", content_type="multipart/form-data", data={
        "photo": [(io.BytesIO(ONE_TILE), "a.jpg"), (io.BytesIO(ONE_TILE), "b.jpg")]})
    assert (r.status_code, r.get_json()["error"]) == (400, "Send one photo at a time.")


def test_over_20_mb_is_413_and_other_routes_keep_1_mb(client):
    big = b"\xff\xd8" + b"\x00" * (20 * 1024 * 1024)
    r = post(client, photo=big)
    assert r.status_code == 413
    assert r.get_json() == {"error": "The photo is over 20 MB, the most that is accepted: "
                                     "send a smaller picture.", "field": "photo"}
    # a photo of 1.5 MB is taken here, and a 1.5 MB body anywhere else is still 413
    exif_padding = jpeg(np.full((40, 40, 3), 128, np.uint8)) + b"\x00" * 1_500_000
    assert post(client, photo=exif_padding).status_code == 200
    r = client.post("/api/hand-score", data=b"[" + b"0," * 800_000 + b"0]",
                    content_type="application/json")
    assert r.status_code == 413
    assert "at most 1 MB" in r.get_json()["error"]


# ---------------------------------------------------------------- nothing stored

def _no_temporary_files(monkeypatch):
    """Every way Werkzeug, waitress or anyone could make a temporary file fails the test."""
    import werkzeug.formparser

    def refuse(*args, **kwargs):
        raise AssertionError("a temporary file was made")
    for name in ("TemporaryFile", "SpooledTemporaryFile", "NamedTemporaryFile", "mkstemp",
                 "mkdtemp"):
        monkeypatch.setattr(tempfile, name, refuse)
    monkeypatch.setattr(werkzeug.formparser, "SpooledTemporaryFile", refuse)


def _files(*folders) -> set[str]:
    return {os.path.join(d, f) for folder in folders for d, _, fs in os.walk(folder) for f in fs}


def test_nothing_is_written_to_disk_or_the_database(app, client, gid, monkeypatch, tmp_path):
    photo = jpeg((np.random.default_rng(3).random((900, 1200, 3)) * 255).astype(np.uint8))
    assert len(photo) > 600_000                     # over Werkzeug's 500 kB spooling size
    database = app.config["DATABASE"]
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    os.mkdir(tempfile.gettempdir())
    folders = (app.instance_path, tempfile.gettempdir(), os.path.dirname(database))
    before = contents(database), _files(*folders)
    _no_temporary_files(monkeypatch)
    for fields in ({}, {"game": gid, "round": "1", "player": "Ann"}):
        assert post(client, photo=photo, **fields).status_code == 200
    assert post(client, photo=photo[:300_000]).status_code == 400          # refused too
    after = contents(database), _files(*folders)
    assert after == before


# ---------------------------------------------------------------- taking turns

def test_a_read_that_waits_too_long_is_503(new_app, database):
    app = new_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t",
                   "PHOTO_READS": 1, "PHOTO_WAIT": 0.05})
    slots = app.extensions["scorekeeper.photo_reads"]
    assert slots.n == 1
    with slots.turn():                      # another read holds the only slot
        r = post(app.test_client())
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert r.get_json() == {"error": "Other photos are being read: send this one again in a "
                                     "few seconds.", "field": ""}
    assert post(app.test_client()).status_code == 200          # free again


def test_a_photo_finding_the_queue_full_is_503_at_once(new_app, database):
    """A waiting photo held a server thread for up to PHOTO_WAIT seconds: now at most
    PHOTO_QUEUE wait, and the next one is refused at once, its form not even parsed."""
    app = new_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t",
                   "PHOTO_READS": 1, "PHOTO_QUEUE": 1, "PHOTO_WAIT": 30})
    slots = app.extensions["scorekeeper.photo_reads"]
    with slots.place(), slots.place():          # one reading, one waiting
        t = time.perf_counter()
        r = post(app.test_client(), photo=b"not even a photo")
        took = time.perf_counter() - t
    assert took < 1.0
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert r.get_json()["error"] == ("Other photos are being read: send this one again in a "
                                     "few seconds.")
    fr = post(app.test_client(), headers={"Accept-Language": "fr"})   # free again
    assert fr.status_code == 200


def test_the_queue_full_sentence_is_translated(new_app, database):
    app = new_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t",
                   "PHOTO_READS": 1, "PHOTO_QUEUE": 0})
    slots = app.extensions["scorekeeper.photo_reads"]
    with slots.place():
        r = post(app.test_client(), headers={"Accept-Language": "el"})
    assert r.status_code == 503
    assert r.get_json()["error"] != ("Other photos are being read: send this one again in a "
                                     "few seconds.")


def test_reads_run_in_a_process_of_their_own_with_the_same_answer(new_app, database):
    """A served app reads in a reading process (its Python steps never take the interpreter
    lock from the pages); the answer is the one read in the thread, and a refusal made in
    the process arrives in the request's language."""
    app = new_app({"DATABASE": database, "SECRET_KEY": "t"})
    slots = app.extensions["scorekeeper.photo_reads"]
    assert slots.processes is not None
    try:
        r = post(app.test_client(), set="6")
        assert r.status_code == 200
        assert r.get_json()["tiles"] == reader.read_hand(ONE_TILE, 6).to_json()["tiles"]
        english = post(app.test_client(), photo=b"GIF89a").get_json()["error"]
        greek = post(app.test_client(), photo=b"GIF89a",
                     headers={"Accept-Language": "el"}).get_json()["error"]
        assert english.startswith("This file is not a photo") and greek != english
    finally:
        slots.processes.close()


def test_a_reading_process_lost_is_503_and_the_next_read_works(new_app, database,
                                                               monkeypatch):
    from scorekeeper.photo import worker
    app = new_app({"DATABASE": database, "SECRET_KEY": "t"})
    slots = app.extensions["scorekeeper.photo_reads"]
    real = worker._read
    try:
        monkeypatch.setattr(worker, "_read", _die)
        r = post(app.test_client(), set="6")
        assert r.status_code == 503 and r.headers["Retry-After"] == "2"
        monkeypatch.setattr(worker, "_read", real)
        assert post(app.test_client(), set="6").status_code == 200
    finally:
        slots.processes.close()


def _die(data, set_n, out_of_hand=frozenset()):
    os._exit(1)          # a reading process killed (for memory, say) mid-read


def test_the_server_starts_its_reading_processes_with_the_models_loaded(new_app, database):
    """The first photo of the night is read as fast as the next: the server starts its
    reading processes as it starts, each with the reader and both models loaded."""
    from scorekeeper import serve
    app = new_app({"DATABASE": database, "SECRET_KEY": "t"})
    slots = app.extensions["scorekeeper.photo_reads"]
    assert slots.processes is not None
    try:
        serve._warm_photo_reader(app)
        pool = slots.processes._pool
        assert pool is not None and len(pool._processes) == slots.n
        assert pool.submit(_models_loaded).result(timeout=60) == (True, True)
        assert post(app.test_client(), set="6").status_code == 200
        assert slots.processes._pool is pool            # the same processes read it
    finally:
        slots.processes.close()


def test_a_server_reading_in_its_own_process_loads_both_models_as_it_starts(
        new_app, database, monkeypatch):
    from scorekeeper import serve
    from scorekeeper.photo import segment, tilenet
    app = new_app({"DATABASE": database, "SECRET_KEY": "t", "PHOTO_PROCESSES": False})
    assert app.extensions["scorekeeper.photo_reads"].processes is None
    monkeypatch.setattr(segment, "_session", None)
    monkeypatch.setattr(tilenet, "_sessions", {})
    serve._warm_photo_reader(app)
    assert _models_loaded() == (True, True)


def _models_loaded() -> tuple[bool, bool]:
    from scorekeeper.photo import segment, tilenet
    return segment._session is not None, tilenet.MODEL in tilenet._sessions


def test_a_reading_process_lost_as_the_server_starts_is_started_again_by_a_photo(
        new_app, database, monkeypatch):
    from scorekeeper import serve
    from scorekeeper.photo import worker
    app = new_app({"DATABASE": database, "SECRET_KEY": "t"})
    slots = app.extensions["scorekeeper.photo_reads"]
    assert slots.processes is not None
    try:
        monkeypatch.setattr(worker, "_ready", _die_at_once)
        serve._warm_photo_reader(app)                   # no error: the server starts
        assert slots.processes._pool is None
        assert post(app.test_client(), set="6").status_code == 200
    finally:
        slots.processes.close()


def _die_at_once():
    os._exit(1)


def test_photos_hold_at_most_four_server_threads_by_default(app):
    slots = app.extensions["scorekeeper.photo_reads"]
    assert slots.n + slots.queue <= 4


def test_slots_default_to_the_cores_but_one(app, monkeypatch):
    assert app.extensions["scorekeeper.photo_reads"].n == max(1, min(2, (os.cpu_count() or 1) - 1))
    for cores, reads in [(None, 1), (1, 1), (2, 1), (3, 2), (8, 2)]:
        monkeypatch.setattr(os, "cpu_count", lambda: cores)
        assert photo_api.default_reads() == reads


def test_a_reading_process_shares_the_cores_among_the_reads(monkeypatch):
    for cores, reads, threads in [(None, 1, 1), (2, 1, 2), (4, 2, 2), (3, 2, 1), (16, 2, 4)]:
        monkeypatch.setattr(os, "cpu_count", lambda: cores)
        assert photo_api.default_threads(reads) == threads
    # the reading process's segmenter takes the threads it is given
    from scorekeeper.photo import worker
    pool = worker.ReadingProcesses(1, threads=3)
    try:
        assert pool._executor().submit(_segmenter_threads).result(timeout=60) == 3
    finally:
        pool.close()


def _segmenter_threads() -> int:
    from scorekeeper.photo import segment
    return segment.net().get_session_options().intra_op_num_threads


def _send(base: str, photo: bytes, **fields) -> tuple[int, dict]:
    body, kind = multipart(photo, **fields)
    req = urllib.request.Request(base + "/api/hand-photo", data=body, method="POST",
                                 headers={"Content-Type": kind})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_reads_take_turns_on_the_real_server(new_app, database, monkeypatch):
    """Six photos at once on waitress: two read at a time, the rest wait their turn, and the
    server answers /healthz meanwhile."""
    app = new_app({"DATABASE": database, "SECRET_KEY": "t", "PHOTO_READS": 2,
                   "PHOTO_PROCESSES": False, "PHOTO_QUEUE": 4, "PHOTO_WAIT": 30})
    real = reader.read_hand
    reading_now, most = [0], [0]
    lock = threading.Lock()

    def counted(data, set_n, out_of_hand=frozenset()):
        with lock:
            reading_now[0] += 1
            most[0] = max(most[0], reading_now[0])
        try:
            time.sleep(0.3)
            return real(data, set_n)
        finally:
            with lock:
                reading_now[0] -= 1
    monkeypatch.setattr(reader, "read_hand", counted)
    with served(app, threads=8) as base, ThreadPoolExecutor(6) as pool:
        answers = pool.map(lambda _: _send(base, ONE_TILE, set="6"), range(6))
        t = time.perf_counter()
        with urllib.request.urlopen(base + "/healthz", timeout=30) as r:
            assert r.read() == b"ok\n"
        healthz = time.perf_counter() - t
        answers = list(answers)
    assert [status for status, _ in answers] == [200] * 6
    assert all(body == answers[0][1] for _, body in answers)
    assert most[0] == 2
    assert healthz < 2.0


def test_four_real_reads_at_once_agree_and_store_nothing(new_app, database, monkeypatch):
    app = new_app({"DATABASE": database, "SECRET_KEY": "t", "PHOTO_WAIT": 120,
                   "PHOTO_QUEUE": 4})
    photo = jpeg((np.random.default_rng(4).random((900, 1200, 3)) * 255).astype(np.uint8))
    with served(app, threads=8) as base:
        try:
            alone = _send(base, ONE_TILE, set="6")
            _no_temporary_files(monkeypatch)             # waitress buffers in memory too
            with ThreadPoolExecutor(4) as pool:
                together = list(pool.map(lambda _: _send(base, ONE_TILE, set="6"), range(4)))
            assert _send(base, photo)[0] == 200
            status, body = _announce_too_large(base, 21 * 1024 * 1024)
        finally:
            monkeypatch.undo()
    assert alone[0] == 200 and together == [alone] * 4
    assert (status, body["field"]) == (413, "photo")


def _announce_too_large(base: str, size: int) -> tuple[int, dict]:
    """A photo's request whose Content-Length says *size*: the server answers 413 from the
    headers (serve.LimitedParser), the body never sent."""
    import http.client
    from urllib.parse import urlsplit
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        conn.putrequest("POST", "/api/hand-photo")
        conn.putheader("Content-Type", "multipart/form-data; boundary=x")
        conn.putheader("Content-Length", str(size))
        conn.endheaders()
        r = conn.getresponse()
        return r.status, json.load(r)
    finally:
        conn.close()


def test_the_upload_parser_keeps_files_in_memory():
    stream = photo_api.in_memory(50_000_000, "image/jpeg", "hand.jpg")
    assert isinstance(stream, io.BytesIO)
    parser = photo_api.InMemoryFormParser(max_content_length=10)
    assert parser.stream_factory is photo_api.in_memory and parser.max_content_length == 10


def test_the_bench_scores_the_same_through_the_server(new_app, database, capsys, tmp_path):
    """bench/photos.py --url: each photo read by the server, with its labels' set, scored
    as read in this process.  The two one-tile photos (the others take seconds each, and
    tests/test_photo_reader.py scores them in this process)."""
    labels = json.loads((PHOTOS / "labels.json").read_text())
    chosen = {name: labels[name] for name in ("tk_img0354.jpg", "tk_img0359.jpg")}
    (tmp_path / "labels.json").write_text(json.dumps(chosen))
    for name in chosen:
        (tmp_path / name).write_bytes((PHOTOS / name).read_bytes())
    app = new_app({"DATABASE": database, "SECRET_KEY": "t", "PHOTO_WAIT": 120,
                   "PHOTO_QUEUE": 4})
    with served(app, threads=8) as base:
        assert bench_photos.main([str(tmp_path), "--json", "--url", base]) == 0
    through = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert bench_photos.main([str(tmp_path), "--json"]) == 0
    here = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    timings = ("p50_ms", "p99_ms")
    assert {k: v for k, v in through.items() if k not in timings} == \
        {k: v for k, v in here.items() if k not in timings}
    assert through["tiles"] == 2 and through["photos"] == 2


def _alive(pid: int) -> bool:
    """True while process *pid* runs (a zombie waiting to be reaped has ended)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return not any(line.startswith("State:") and "Z" in line for line in f)
    except FileNotFoundError:
        return False


def test_a_reading_process_ends_with_its_server():
    """A server killed by a signal sent to it alone took none of its reading processes
    with it: each waited, 260 MB, for work that never came.  They now leave with it."""
    import subprocess
    code = ("import time\n"
            "from scorekeeper.photo.worker import ReadingProcesses\n"
            "pool = ReadingProcesses(1)._executor()\n"
            "pool.submit(int).result()\n"
            "print(*pool._processes, flush=True)\n"
            "time.sleep(60)\n")
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              cwd=ROOT)
    try:
        readers = [int(pid) for pid in server.stdout.readline().split()]
    finally:
        server.kill()
        server.wait()
    assert readers
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(pid) for pid in readers):
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in readers)
