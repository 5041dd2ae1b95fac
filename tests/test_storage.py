"""storage.write(): one transaction per user action, and writers that wait their turn."""

from __future__ import annotations

import threading
import time

import pytest

from scorekeeper.storage import Busy, connect, write


@pytest.fixture
def path(database):
    db = connect(database)
    db["games"].insert({"id": "g", "name": "", "set_n": 12, "players": "[]", "rules": "{}",
                        "created_at": "", "updated_at": ""})
    db.close()
    return database


def read_then_write(path: str, name: str, hold: float, started: threading.Event | None = None):
    """Read the game's name, wait, then append to it: the pattern that used to fail."""
    db = connect(path)
    try:
        with write(db):
            if started:
                started.set()
            old = db.execute("select name from games where id = 'g'").fetchone()[0]
            time.sleep(hold)
            db.execute("update games set name = ? where id = 'g'", [old + name])
    finally:
        db.close()


def test_a_second_writer_waits_instead_of_failing(path):
    started = threading.Event()
    first = threading.Thread(target=read_then_write, args=(path, "A", 0.3, started))
    first.start()
    started.wait()
    read_then_write(path, "B", 0)      # waits for A's commit, then reads A's name
    first.join()
    assert connect(path).execute("select name from games").fetchone()[0] == "AB"


def test_still_locked_after_the_timeout_is_busy_and_stores_nothing(path):
    holder = connect(path)
    holder.conn.execute("BEGIN IMMEDIATE")
    db = connect(path, busy_timeout=0.1)
    t0 = time.monotonic()
    with pytest.raises(Busy) as busy:
        with write(db):
            db.execute("update games set name = 'lost' where id = 'g'")
    assert 0.1 <= time.monotonic() - t0 < 2
    assert "busy" in busy.value.message and busy.value.message.endswith(".")
    holder.conn.execute("ROLLBACK")
    assert connect(path).execute("select name from games").fetchone()[0] == ""


def test_an_error_inside_rolls_everything_back(path):
    db = connect(path)
    with pytest.raises(ZeroDivisionError):
        with write(db):
            db.execute("update games set name = 'half' where id = 'g'")
            db["rounds"].insert({"game_id": "g", "number": 1, "engine": 12, "revision": 0,
                                 "updated_at": ""})
            1 / 0
    assert not db.conn.in_transaction
    assert db.execute("select name from games").fetchone()[0] == ""
    assert db["rounds"].count == 0


def test_writes_do_not_nest(path):
    db = connect(path)
    with write(db):
        with pytest.raises(RuntimeError):
            with write(db):
                pass


def test_a_thread_of_this_process_holding_the_write_makes_others_busy_after_the_timeout(path):
    holding, release = threading.Event(), threading.Event()

    def hold():
        db = connect(path)
        with write(db):
            holding.set()
            release.wait(5)
        db.close()

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait()
    t0 = time.monotonic()
    with pytest.raises(Busy):
        with write(connect(path, busy_timeout=0.2)):
            pass
    assert 0.2 <= time.monotonic() - t0 < 2
    release.set()
    holder.join()
    with write(connect(path, busy_timeout=0.2)):   # free again
        pass
