"""Tablets saving at once through a real WSGI server: no 500, nothing lost, conflicts as 409.

Waitress on loopback with 8 threads; client threads on keep-alive connections.
Six clients fight over round 1 (each reads the revision, then saves with it),
six others save their own rounds without a revision (simple clients).
"""

from __future__ import annotations

import http.client
import json
import threading
from collections import Counter

import pytest

from helpers import create_game

PLAYERS = ["Ann", "Bob", "Chi", "Dee", "Eve", "Fay"]
SAVES = 12   # per client


@pytest.fixture
def server(database, serve, new_app):
    """The app on waitress with 8 threads (the server's default); yields the port."""
    return serve(new_app({"DATABASE": database, "SECRET_KEY": "busy"}), threads=8)


def call(conn, method, path, body=None):
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    return resp.status, json.loads(resp.read() or b"null")


def scores(value: int) -> dict:
    return {p: (0 if p == "Ann" else value if p == "Bob" else 5) for p in PLAYERS}


def test_concurrent_saves_wait_their_turn(server):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    gid = create_game(f"http://127.0.0.1:{server}", PLAYERS)["id"]
    statuses: Counter = Counter()
    acked: dict[int, list[tuple[int, int]]] = {}   # round -> [(revision, Bob's value)]
    lock = threading.Lock()

    def fight_over_round_one(client: int) -> None:
        c = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
        for k in range(SAVES):
            value = 100 + client * SAVES + k          # unique per save
            _, now = call(c, "GET", f"/api/games/{gid}")
            revision = now["rounds"][0]["revision"]
            status, body = call(c, "PUT", f"/api/games/{gid}/rounds/1",
                                {"scores": scores(value), "revision": revision})
            with lock:
                statuses[status] += 1
                if status == 200:
                    assert body["revision"] == revision + 1
                    acked.setdefault(1, []).append((body["revision"], value))
                elif status == 409:
                    assert body["round"]["revision"] > revision and "error" in body

    def own_round(client: int) -> None:
        c = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
        number = 2 + client
        for k in range(SAVES):
            value = 300 + client * SAVES + k
            status, body = call(c, "PUT", f"/api/games/{gid}/rounds/{number}",
                                {"scores": scores(value)})
            with lock:
                statuses[status] += 1
                if status == 200:
                    acked.setdefault(number, []).append((body["revision"], value))

    failures: list[BaseException] = []

    def run(target, i):
        try:
            target(i)
        except BaseException as error:   # reported below, not lost in the thread
            failures.append(error)

    threads = ([threading.Thread(target=run, args=(fight_over_round_one, i)) for i in range(6)]
               + [threading.Thread(target=run, args=(own_round, i)) for i in range(6)])
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert not failures, failures[0]
    assert set(statuses) <= {200, 409}, statuses          # never 500, never 503
    assert statuses[200] >= 6 * SAVES                      # every simple save went through
    _, game = call(conn, "GET", f"/api/games/{gid}")
    _, hist = call(conn, "GET", f"/api/games/{gid}/history")
    for number, saves in acked.items():
        stored = game["rounds"][number - 1]
        # Each accepted save made exactly one new revision: none lost, none twice.
        assert sorted(r for r, _ in saves) == list(range(1, len(saves) + 1)), number
        assert stored["revision"] == len(saves)
        assert stored["scores"]["Bob"] == max(saves)[1]
        in_history = [c["new"] for c in hist["changes"]
                      if c["round"] == number and c["player"] == "Bob"]
        assert in_history == [v for _, v in sorted(saves)]
    assert len(acked) == 7
