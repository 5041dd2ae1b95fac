"""Backups: a consistent copy with every acknowledged save, from the command line or a page."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.storage import backup

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))
PLAYERS = ["Ann", "Bob", "Chi"]


def games_in(path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
        return [r[0] for r in db.execute("select name from games order by name")]
    finally:
        db.close()


@pytest.fixture
def saved(app, game_factory):
    """Two games saved through the app; the server's connection is still open (WAL not
    checkpointed), as during a club night."""
    holder = sqlite3.connect(app.config["DATABASE"])   # keeps the WAL from being folded in
    holder.execute("select 1 from games").fetchall()
    for name in ("Friday", "Saturday"):
        game_factory(PLAYERS, name=name, scores=[[0, 4, 9]])
    yield app.config["DATABASE"]
    holder.close()


def test_backup_has_what_a_plain_copy_misses(saved, tmp_path):
    assert os.path.getsize(saved + "-wal") > 0          # acknowledged saves still in the WAL
    shutil.copy(saved, tmp_path / "plain.db")           # what `cp` used to do
    assert games_in(tmp_path / "plain.db") == []
    assert backup(saved, str(tmp_path / "safe.sqlite")) == 2
    assert games_in(tmp_path / "safe.sqlite") == ["Friday", "Saturday"]
    assert oct(os.stat(tmp_path / "safe.sqlite").st_mode)[-3:] == "600"
    assert not (tmp_path / "safe.sqlite-wal").exists()   # one self-contained file


def run(*args, database):
    env = {**os.environ, "SCOREKEEPER_DATABASE": str(database)}
    return subprocess.run([SCOREKEEPER, *args], env=env, capture_output=True, text=True,
                          timeout=60)


def test_backup_command(saved, tmp_path):
    done = run("backup", str(tmp_path / "club.sqlite"), database=saved)
    assert done.returncode == 0, done.stderr
    assert "Games in it: 2." in done.stdout
    assert games_in(tmp_path / "club.sqlite") == ["Friday", "Saturday"]


@pytest.mark.parametrize("target, words", [
    ("{db}", "another file than the database"),
    ("{tmp}/no/such/folder/x.sqlite", "does not exist"),
])
def test_backup_command_refusals(saved, tmp_path, target, words):
    done = run("backup", target.format(db=saved, tmp=tmp_path), database=saved)
    assert done.returncode == 1 and words in done.stderr
    assert games_in(saved) == ["Friday", "Saturday"]


def test_backup_command_without_a_database(tmp_path):
    done = run("backup", str(tmp_path / "x.sqlite"), database=tmp_path / "none.db")
    assert done.returncode == 1 and "nothing to back up" in done.stderr
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "x.sqlite").exists()


def test_back_up_all_games_download(client, saved, tmp_path, monkeypatch):
    import tempfile
    (tmp_path / "scratch").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "scratch"))
    assert 'href="/backup.sqlite"' in client.get("/").get_data(as_text=True)
    r = client.get("/backup.sqlite")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert r.headers["Content-Disposition"].startswith(
        "attachment; filename=scorekeeper-backup-20")
    data = r.get_data()
    assert data.startswith(b"SQLite format 3\x00")
    (tmp_path / "download.sqlite").write_bytes(data)
    assert games_in(tmp_path / "download.sqlite") == ["Friday", "Saturday"]
    assert list((tmp_path / "scratch").iterdir()) == []   # no copy left behind
