"""A club night that cannot be lost: the real server killed with SIGKILL in the middle of
saves, three times, keeps every save it acknowledged, and the database stays sound.

Runs the console script exactly as run.sh does (``scorekeeper --host 127.0.0.1
--port N``) on a temporary database, streams score saves to it from two
client threads, kills it mid-stream, restarts it, and at the end compares
every acknowledged save with the history and runs ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers import create_game, free_port

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))
PLAYERS = ["Ann", "Bob", "Chi", "Dee"]
ROUNDS = 19   # a double-18 game


class Server:
    """The real server in a subprocess, on a fresh port each start."""

    def __init__(self, database: Path, tmp: Path):
        self.env = {**os.environ, "SCOREKEEPER_DATABASE": str(database),
                    "SCOREKEEPER_SECRET_KEY": "durability"}
        self.log = open(tmp / "server.log", "ab")
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def start(self) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [SCOREKEEPER, "--host", "127.0.0.1", "--port", str(self.port), "--threads", "4"],
            env=self.env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.log.close()


def request(port, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    return resp.status, json.loads(resp.read() or b"null")


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "club.db", tmp_path)
    srv.start()
    yield srv
    srv.stop()


def test_sigkill_mid_stream_loses_no_acknowledged_save(server, tmp_path):
    gid = create_game(f"http://127.0.0.1:{server.port}", PLAYERS, set=18)["id"]
    acked: list[tuple[int, int]] = []          # (round, Bob's value) answered 200
    refused: list[int] = []                    # any other answer (there must be none)
    lock = threading.Lock()
    counter = iter(range(1, 10**6))
    rng = random.Random(7)

    def stream(port: int, stop: threading.Event) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while not stop.is_set():
            with lock:
                value = next(counter)
            number = value % ROUNDS + 1
            body = json.dumps({"scores": {"Ann": 0, "Bob": value, "Chi": 1, "Dee": 2}})
            try:
                conn.request("PUT", f"/api/games/{gid}/rounds/{number}", body=body,
                             headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
            except (OSError, http.client.HTTPException):
                return                      # the server is gone: this save was never answered
            with lock:
                if resp.status == 200:
                    acked.append((number, value))
                else:
                    refused.append(resp.status)

    for _kill in range(3):
        before = len(acked)
        stop = threading.Event()
        clients = [threading.Thread(target=stream, args=(server.port, stop)) for _ in range(2)]
        for c in clients:
            c.start()
        time.sleep(rng.uniform(0.4, 0.9))   # saves in flight…
        server.kill()                        # …and the power goes (as far as the process knows)
        stop.set()
        for c in clients:
            c.join()
        assert len(acked) > before, "no save was acknowledged before the kill"
        server.start()
    assert refused == []

    status, history = request(server.port, "GET", f"/api/games/{gid}/history")
    assert status == 200
    recorded = {(c["round"], c["new"]) for c in history["changes"] if c["player"] == "Bob"}
    lost = [save for save in acked if save not in recorded]
    assert lost == [], f"{len(lost)} acknowledged saves lost"
    status, now = request(server.port, "GET", f"/api/games/{gid}")
    for number in range(1, ROUNDS + 1):
        mine = [v for n, v in acked if n == number]
        if mine:   # the stored value is the last acknowledged one, or a later unanswered save
            assert now["rounds"][number - 1]["scores"]["Bob"] >= max(mine)
    db = sqlite3.connect(tmp_path / "club.db")
    try:
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert db.execute("pragma foreign_key_check").fetchall() == []
    finally:
        db.close()
    assert len(acked) > 50
