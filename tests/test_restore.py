"""A backup that restores whole, from the home page (issue 19, item 2): the upload is
checked (integrity, schema version, what it holds) and summed up, then confirmed and
swapped in atomically, the database as it was kept as a backup of its own; never a
half-restored database."""

from __future__ import annotations

import functools
import io
import os
import re
import sqlite3
import urllib.request
from pathlib import Path

import pytest

from helpers import api, create_game, paragraphs
from scorekeeper import backups, clubpin
from scorekeeper.storage import backup, restore

DATA = Path(__file__).resolve().parent / "data"


def names(client) -> list[str]:
    return sorted(g["name"] for g in client.get("/api/games").get_json()["games"])


@pytest.fixture
def backup_file(app, client, game_factory, tmp_path):
    """A backup of a club of two finished games, one in "Recently deleted", a season and a
    protected game; then the club goes on (a third game, the season removed)."""
    game_factory(["Ann", "Bob"], name="Friday", scores=[[0, 10]], finished=True)
    game_factory(["Ann", "Cy"], name="Saturday", scores=[[4, 0]], finished=True)
    game_factory(["Dee", "Eve"], name="Locked", pin="1357")
    gone = game_factory(["Fay", "Gus"], name="Gone")["id"]
    client.delete(f"/api/games/{gone}")
    season = client.post("/api/seasons", json={"name": "Autumn", "from": "2000-01-01",
                                               "to": "2100-12-31"}).get_json()["id"]
    path = tmp_path / "club.sqlite"
    backup(app.config["DATABASE"], str(path))
    game_factory(["Hal", "Ivy"], name="Later")
    client.delete(f"/api/seasons/{season}")
    return path


def upload(client, path, name="club.sqlite"):
    data = Path(path).read_bytes() if not isinstance(path, bytes) else path
    return client.post("/backup/restore", data={"file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def staged_token(response) -> str:
    return re.search(r'name="staged" type="hidden" value="([0-9a-f]+)"',
                     response.get_data(as_text=True)).group(1)


def test_the_home_page_offers_the_restore(client):
    assert 'href="/backup/restore"' in client.get("/").get_data(as_text=True)
    text = " ".join(paragraphs(client.get("/backup/restore")))
    assert "nothing changes until you confirm" in text
    assert "kept as a backup of its own, in" in text


def test_a_backup_is_checked_and_summed_up_before_anything_changes(client, backup_file):
    r = upload(client, backup_file)
    assert r.status_code == 200, paragraphs(r)
    html = r.get_data(as_text=True)
    for line in ("3 games", "1 game in Recently deleted", "2 rounds with scores", "7 players",
                 "1 season", "1 game with a PIN"):
        assert f"<li>{line}</li>" in html, line
    assert re.search(r"<li>Games started from .+ to .+</li>", html)
    assert names(client) == ["Friday", "Later", "Locked", "Saturday"]     # nothing yet
    assert client.get("/api/seasons").get_json()["seasons"] == []


def test_confirmed_the_backup_is_swapped_in_whole_and_the_old_database_kept(app, client,
                                                                           backup_file):
    token = staged_token(upload(client, backup_file))
    r = client.post("/backup/restore/confirm", data={"staged": token})
    assert r.status_code == 302 and r.location == "/"
    assert names(client) == ["Friday", "Locked", "Saturday"]
    assert [s["name"] for s in client.get("/api/seasons").get_json()["seasons"]] == ["Autumn"]
    assert [g["name"] for g in client.get("/api/games/deleted").get_json()["games"]] == ["Gone"]
    locked = next(g for g in client.get("/api/games").get_json()["games"] if g["name"] == "Locked")
    assert client.get(f"/api/games/{locked['id']}").get_json()["protected"] is True
    assert client.get("/api/players/Ann").get_json()["games"][0]["name"] in ("Friday", "Saturday")
    # The database as it was: kept, whole, where the page said.
    flashed = " ".join(paragraphs(client.get("/")))
    kept = re.search(r"kept in (\S+\.sqlite)", flashed).group(1)
    assert Path(kept).parent == Path(app.config["DATABASE"]).parent / "backups"
    con = sqlite3.connect(kept)
    assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert sorted(r[0] for r in con.execute("select name from games where deleted_at is null")
                  ) == ["Friday", "Later", "Locked", "Saturday"]
    con.close()
    assert oct(os.stat(kept).st_mode)[-3:] == "600"
    assert os.listdir(Path(app.config["DATABASE"]).parent / "restore") == []          # staged copy gone
    # Once only.
    r = client.post("/backup/restore/confirm", data={"staged": token})
    assert r.status_code == 302 and r.location == "/backup/restore"


def test_a_failure_mid_restore_leaves_the_old_database_serving(app, client, backup_file,
                                                               monkeypatch):
    token = staged_token(upload(client, backup_file))
    seen = []

    def fail_half_way(status, remaining, total):
        seen.append(names(app.test_client()))   # readers meanwhile: the old database
        if remaining < total // 2:
            raise OSError("the disk went away")

    monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)   # as served: a 500 page
    monkeypatch.setattr(restore, "STEP_PAGES", 2)
    monkeypatch.setattr(backups, "swap_backup",
                        functools.partial(restore.swap, progress=fail_half_way))
    r = client.post("/backup/restore/confirm", data={"staged": token})
    assert r.status_code == 500 and "nothing was changed" in " ".join(paragraphs(r))
    assert len(seen) > 2 and all(s == seen[0] for s in seen)
    assert names(client) == ["Friday", "Later", "Locked", "Saturday"]
    con = sqlite3.connect(app.config["DATABASE"])
    assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
    con.close()
    # Still serving and saving, and the checked backup can still go in afterwards.
    create_game(client, ["Jo", "Kim"], name="Still here")
    monkeypatch.undo()
    assert client.post("/backup/restore/confirm", data={"staged": token}).status_code == 302
    assert names(client) == ["Friday", "Locked", "Saturday"]


def test_an_open_page_sees_the_restored_game_not_its_old_copy(client, backup_file):
    friday = next(g for g in client.get("/api/games").get_json()["games"]
                  if g["name"] == "Friday")["id"]
    etag = client.get(f"/games/{friday}").headers["ETag"]
    client.patch(f"/api/games/{friday}", json={"name": "Renamed"})
    etag = client.get(f"/games/{friday}").headers["ETag"]
    client.post("/backup/restore/confirm", data={"staged": staged_token(upload(client,
                                                                               backup_file))})
    r = client.get(f"/games/{friday}", headers={"If-None-Match": etag})
    assert r.status_code == 200 and "Friday" in r.get_data(as_text=True)


def corrupt(path: Path) -> bytes:
    data = bytearray(path.read_bytes())
    for offset in range(4096 * 2, min(len(data), 4096 * 6), 7):   # pages 3 to 6
        data[offset] ^= 0x5A
    return bytes(data)


def foreign_trigger(path: Path, tmp_path: Path) -> bytes:
    out = tmp_path / "trigger.sqlite"
    out.write_bytes(path.read_bytes())
    con = sqlite3.connect(out)
    con.execute("create trigger wipe after insert on scores begin delete from games; end")
    con.commit()
    con.close()
    return out.read_bytes()


def newer(path: Path, tmp_path: Path) -> bytes:
    out = tmp_path / "newer.sqlite"
    out.write_bytes(path.read_bytes())
    con = sqlite3.connect(out)
    con.execute("insert into _sqlite_migrations (migration_set, name, applied_at) "
                "values ('scorekeeper', 'm099_from_the_future', '2030-01-01')")
    con.commit()
    con.close()
    return out.read_bytes()


def other_database(tmp_path: Path) -> bytes:
    out = tmp_path / "other.sqlite"
    con = sqlite3.connect(out)
    con.execute("create table notes (text)")
    con.commit()
    con.close()
    return out.read_bytes()


@pytest.mark.parametrize("make, words", [
    (lambda path, tmp: b"just text, not a database", "it is not an SQLite database"),
    (lambda path, tmp: b"", "it is not an SQLite database"),
    (lambda path, tmp: corrupt(path), "damaged"),
    (lambda path, tmp: foreign_trigger(path, tmp), "are not the scorekeeper's own"),
    (lambda path, tmp: newer(path, tmp), "made by a newer version of the scorekeeper"),
    (lambda path, tmp: other_database(tmp), "has no games of this app"),
])
def test_a_backup_that_cannot_be_restored_is_refused_and_nothing_changes(app, client,
                                                                        backup_file, tmp_path,
                                                                        make, words):
    r = upload(client, make(backup_file, tmp_path))
    assert r.status_code == 400
    text = " ".join(paragraphs(r))
    assert words in text and 'id="restore-form"' in r.get_data(as_text=True)
    assert names(client) == ["Friday", "Later", "Locked", "Saturday"]
    assert os.listdir(Path(app.config["DATABASE"]).parent / "restore") == []


def test_a_missing_file_is_asked_for(client):
    r = client.post("/backup/restore", data={}, content_type="multipart/form-data")
    assert r.status_code == 400 and "Choose the backup file (.sqlite) to restore." in paragraphs(r)


def test_a_backup_made_by_an_earlier_version_is_brought_up_to_date(client, tmp_path):
    old = tmp_path / "old.sqlite"
    con = sqlite3.connect(old)
    con.executescript((DATA / "club-before-m011-2f9d82d.sql").read_text())
    # The dump's games were written straight to storage with a double-2 set, which no page
    # or import takes; a restore checks every game as an import does (issue 26, item 8).
    con.execute("update games set set_n = 6")
    con.commit()
    con.close()
    r = upload(client, old)
    assert r.status_code == 200, paragraphs(r)
    assert "brought up to date as it is restored" in " ".join(paragraphs(r))
    client.post("/backup/restore/confirm", data={"staged": staged_token(r)})
    assert names(client) == ["", "Friday"]
    assert client.get("/api/players/Ann").get_json()["wins"] == 1        # the seats filled in


def test_with_a_club_pin_the_restore_needs_it_and_the_club_pin_stays(app, client,
                                                                      backup_file):
    client.put("/api/club/pin", json={"pin": "246810"})
    other = app.test_client()
    assert other.get("/backup/restore").status_code == 403
    r = upload(other, backup_file)
    assert r.status_code == 403 and 'name="file"' in r.get_data(as_text=True)
    assert other.post("/backup/restore/confirm", data={"staged": "0" * 16}).status_code == 403
    client.post("/club/pin", data={"club_pin": "246810"})
    client.post("/backup/restore/confirm", data={"staged": staged_token(upload(client,
                                                                               backup_file))})
    assert names(client) == ["Friday", "Locked", "Saturday"]
    # The backup was made without a club PIN: the club PIN set since stays.
    assert client.get("/api/club").get_json() == {"protected": True}
    assert client.post("/api/seasons", json={}).status_code == 403


def test_the_lockouts_stay_through_a_restore(app, client, backup_file):
    from scorekeeper import pins
    locked = next(g for g in client.get("/api/games").get_json()["games"]
                  if g["name"] == "Locked")["id"]
    for _ in range(pins.MAX_WRONG):
        client.put(f"/api/games/{locked}/rounds/1", json={"scores": {"Dee": 0, "Eve": 1}},
                   headers={pins.HEADER: "0000"})
    client.post("/backup/restore/confirm", data={"staged": staged_token(upload(client,
                                                                               backup_file))})
    r = client.put(f"/api/games/{locked}/rounds/1", json={"scores": {"Dee": 0, "Eve": 1}},
                   headers={pins.HEADER: "1357"})
    assert r.status_code == 429


def test_a_large_upload_is_taken_for_a_restore_only(app, client):
    big = b"SQLite format 3\x00" + b"\x00" * (2 * 1024 * 1024)
    r = upload(client, big)
    assert r.status_code == 400 and "damaged or cannot be read" in " ".join(paragraphs(r))
    r = client.post("/games/import", data={"file": (io.BytesIO(big), "g.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 413


def test_restoring_through_the_real_server(live_server, tmp_path):
    """The upload and the confirmation as a browser sends them, to waitress."""
    for name in ("Friday", "Saturday"):
        create_game(live_server, ["Ann", "Bob"], name=name, scores=[[0, 3]])
    with urllib.request.urlopen(live_server + "/backup.sqlite") as r:
        data = r.read()
    create_game(live_server, ["Cy", "Dee"], name="Later")
    boundary = "----restore"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"b.sqlite\"\r\nContent-Type: application/vnd.sqlite3\r\n\r\n").encode() \
        + data + f"\r\n--{boundary}--\r\n".encode()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    page = opener.open(live_server + "/backup/restore").read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n"
            f"{token}\r\n").encode() + body
    req = urllib.request.Request(live_server + "/backup/restore", data=body, method="POST",
                                 headers={"Content-Type": f"multipart/form-data; "
                                                          f"boundary={boundary}"})
    summary = opener.open(req).read().decode()
    assert "<li>2 games</li>" in summary
    staged = re.search(r'name="staged" type="hidden" value="([0-9a-f]+)"', summary).group(1)
    req = urllib.request.Request(live_server + "/backup/restore/confirm", method="POST",
                                 data=f"csrf_token={token}&staged={staged}".encode(),
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert "The backup is restored." in opener.open(req).read().decode()
    assert sorted(g["name"] for g in api(live_server, "GET", "/api/games")["games"]) == [
        "Friday", "Saturday"]
    assert clubpin.HEADER == "X-Club-PIN"


# --- rows the app could not read (issue 26, item 8) ----------------------------------

def edited(path: Path, tmp: Path, *statements: str) -> bytes:
    """The backup with *statements* run on a copy of it (foreign keys left as they are)."""
    copy = tmp / "edited.sqlite"
    copy.write_bytes(path.read_bytes())
    con = sqlite3.connect(copy)
    with con:
        for statement in statements:
            con.execute(statement)
    con.close()
    return copy.read_bytes()


SATURDAY = "(select id from games where name = 'Saturday')"


@pytest.mark.parametrize("statements, words", [
    (["update scores set score = 'abc'"],
     "the column score holds 'abc', which is not what that column keeps (INTEGER)"),
    (["update games set set_n = 'abc'"], "the column set_n holds 'abc'"),
    (["update games set set_n = 7"], "A game in this backup cannot be read"),
    (["update scores set score = -5"], "A game in this backup cannot be read"),
    ([f"update games set colours = '[\"#ff00zz\", \"red\"]' where id = {SATURDAY}"],
     "A game in this backup cannot be read"),
    ([f"update games set players = '[\"Ann\", \"Ann\"]' where id = {SATURDAY}"],
     "A game in this backup cannot be read"),
    (["update seasons set start = '2000-13-45'"],
     "the column start holds '2000-13-45', which is not a date"),
    (["update seasons set start = '2100-01-01', [end] = '2000-01-01'"],
     "its season 'Autumn' ends before it starts"),
    (["update games set deleted_at = 'never' where deleted_at is not null"],
     "the column deleted_at holds 'never', which is not a date"),
    (["update games set name = x'00ff' where name = 'Friday'"],
     "the column name holds b'\\x00\\xff', which is not what that column keeps (TEXT)"),
    (["update seats set person = 'nobody' where live = 1"],
     "'nobody' names a player the backup does not hold"),
    (["update rounds set engine = 99"], "A game in this backup cannot be read"),
])
def test_a_backup_whose_rows_the_app_could_not_read_is_refused(app, client, backup_file,
                                                               tmp_path, statements, words):
    r = upload(client, edited(backup_file, tmp_path, *statements))
    assert r.status_code == 400
    text = " ".join(paragraphs(r))
    assert words in text and "othing was changed" in text, text
    assert names(client) == ["Friday", "Later", "Locked", "Saturday"]
    assert os.listdir(Path(app.config["DATABASE"]).parent / "restore") == []
    assert client.get("/").status_code == 200
