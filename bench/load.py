"""Load test of a club night: 50 tablets on one server, page loads, saves and rulings at once.

Run from the project root:

    .venv/bin/python bench/load.py [--seconds 20] [--clients 50] [--max-requests 100000]

1. Starts the real server as run.sh does (the ``scorekeeper`` console script,
   waitress, 8 threads) on 127.0.0.1, a free port and a temporary database,
   and seeds it with a 6-player double-12 game through the API.
2. From this process (not the server's), N client threads on keep-alive
   http.client connections loop for a bounded time (and a bounded number of
   requests) over a mix of: page loads (game, round, standings), score saves
   through the API (PUT with the revision last seen: some answer 409, which is
   the contract, not an error), score saves through the round form (its page
   first, for the CSRF token, revision and base; a stale save merges or
   answers the 409 choice page), rulings (POST /api/rulings) and GET /healthz,
   the trivial baseline, in the same run.
3. Prints requests/s, p50 and p99 latency and the errors (any status but
   2xx, 3xx and 409; connection failures) per route, and the ratio of the
   score saves' p99 to /healthz's p99.

Targets: 0 errors; score-save p99 within 3x of /healthz p99.  The whole run is
bounded (--seconds plus a few seconds to start and stop); the server is
stopped at the end, and the temporary database removed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from urllib.parse import urlencode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import pct, running_server  # noqa: E402  (bench/server.py, beside this file)

PLAYERS = ["Ann", "Bob", "Chi", "Dee", "Eve", "Fay"]
ROUNDS = 13                    # double-12: engines 12 down to 0

RULING = json.dumps({
    "table": {"set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi", "Dee"],
              "current": "Bob", "first_turn": False,
              "trains": {"Ann": [[12, 5], [5, 7], [7, 7]], "Bob": [[12, 3], [3, 8], [8, 11]],
                         "Chi": [[12, 1], [1, 9], [9, 4]], "Dee": [[12, 10], [10, 0]]},
              "markers": ["Chi"], "mexican": [[12, 6], [6, 2], [2, 2], [2, 9]],
              "turn": [], "drawn": None, "rules": {}},
    "play": {"tile": [7, 2], "train": "Ann"}}).encode()

#: (route label, weight): what a tablet does, roughly, during a busy club night.
MIX = [("GET /healthz", 20), ("GET game page", 14), ("GET round page", 14),
       ("GET standings page", 10), ("PUT score (API)", 16), ("POST round form", 10),
       ("POST /api/rulings", 16)]
SAVES = ("PUT score (API)", "POST round form")
OK = {409}                     # a conflict is an answer of the contract, not an error


class Stats:
    """Latencies and answers per route, shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.requests = 0

    def add(self, route: str, seconds: float, status) -> None:
        with self.lock:
            self.latencies[route].append(seconds)
            self.statuses[route][status] += 1
            self.requests += 1


class Tablet:
    """One client: a keep-alive connection, a session cookie, the revisions it has seen."""

    def __init__(self, port: int, gid: str, stats: Stats, seed: int):
        self.port, self.gid, self.stats = port, gid, stats
        self.rng = random.Random(seed)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        self.revisions = {n: 0 for n in range(1, ROUNDS + 1)}

    def call(self, route: str, method: str, path: str, body: bytes | None = None,
             content_type: str | None = None) -> tuple[int, bytes]:
        headers = {}
        if content_type:
            headers["Content-Type"] = content_type
        if self.cookie:
            headers["Cookie"] = self.cookie
        t0 = time.perf_counter()
        try:
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
            data = resp.read()
        except (OSError, http.client.HTTPException) as error:
            self.stats.add(route, time.perf_counter() - t0, type(error).__name__)
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            return 0, b""
        self.stats.add(route, time.perf_counter() - t0, resp.status)
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return resp.status, data

    def scores(self) -> dict[str, int]:
        """A plausible round: one player went out, the others hold 1 to 90 points."""
        values = {p: self.rng.randint(1, 90) for p in PLAYERS}
        values[self.rng.choice(PLAYERS)] = 0
        return values

    def step(self, route: str) -> None:
        gid, number = self.gid, self.rng.randint(1, ROUNDS)
        if route == "GET /healthz":
            self.call(route, "GET", "/healthz")
        elif route == "GET game page":
            self.call(route, "GET", f"/games/{gid}")
        elif route == "GET round page":
            self.call(route, "GET", f"/games/{gid}/rounds/{number}")
        elif route == "GET standings page":
            self.call(route, "GET", f"/games/{gid}/standings")
        elif route == "POST /api/rulings":
            self.call(route, "POST", "/api/rulings", RULING, "application/json")
        elif route == "PUT score (API)":
            # As a careful client does: save with the revision last seen; on 409, take the
            # round's revision from the answer and send once more.
            scores = self.scores()
            for _attempt in range(2):
                body = json.dumps({"scores": scores, "revision": self.revisions[number]})
                status, data = self.call(route, "PUT", f"/api/games/{gid}/rounds/{number}",
                                         body.encode(), "application/json")
                if status not in (200, 409):
                    break
                answer = json.loads(data)
                self.revisions[number] = (answer if status == 200 else answer["round"])["revision"]
                if status == 200:
                    break
        elif route == "POST round form":
            self.save_with_the_form(number)

    def save_with_the_form(self, number: int) -> None:
        """What a tablet does: open the round page, type the scores, save."""
        path = f"/games/{self.gid}/rounds/{number}"
        status, page = self.call("GET round page", "GET", path)
        if status != 200:
            return
        fields = dict(re.findall(r'<input[^>]*?name="(csrf_token|revision|base-\d+)"'
                                 r'[^>]*?value="([^"]*)"', page.decode()))
        fields.update({f"score-{i}": str(v) for i, v in enumerate(self.scores().values())})
        self.call("POST round form", "POST", path, urlencode(fields).encode(),
                  "application/x-www-form-urlencoded")


def drive(port: int, gid: str, clients: int, seconds: float, max_requests: int) -> Stats:
    """N tablets for *seconds* (or until *max_requests*), all routes mixed; answers the stats."""
    stats = Stats()
    stop = threading.Event()
    routes = [r for r, _w in MIX]
    weights = [w for _r, w in MIX]

    def tablet(k: int) -> None:
        t = Tablet(port, gid, stats, seed=k)
        while not stop.is_set() and stats.requests < max_requests:
            t.step(t.rng.choices(routes, weights)[0])
        t.conn.close()

    threads = [threading.Thread(target=tablet, args=(k,), daemon=True) for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    while time.perf_counter() - t0 < seconds and stats.requests < max_requests:
        time.sleep(0.1)
    stop.set()
    for t in threads:
        t.join(timeout=35)
    stats.wall = time.perf_counter() - t0
    return stats


def report(stats: Stats, args) -> bool:
    """Print the table; answers whether the targets were met."""
    print(f"\n{args.clients} clients, {stats.wall:.1f} s, {stats.requests:,} requests "
          f"({stats.requests / stats.wall:,.0f} req/s in all); server: waitress, "
          f"{args.threads} threads, its own process\n")
    head = f"{'route':<22} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}  answers"
    print(head)
    print("-" * len(head))
    errors = Counter()
    for route, _w in MIX:
        lats = stats.latencies.get(route, [])
        if not lats:
            continue
        answers = stats.statuses[route]
        bad = {s: n for s, n in answers.items()
               if not (isinstance(s, int) and (200 <= s < 400 or s in OK))}
        errors.update(bad)
        shown = ", ".join(f"{s}: {n}" for s, n in sorted(answers.items(), key=str))
        print(f"{route:<22} {len(lats):>9,} {len(lats) / stats.wall:>8.1f} "
              f"{pct(lats, 50) * 1000:>8.1f} {pct(lats, 99) * 1000:>8.1f}  {shown}")
    health = pct(stats.latencies["GET /healthz"], 99)
    saves = [x for r in SAVES for x in stats.latencies.get(r, [])]
    print()
    for label, lats in [(r, stats.latencies.get(r, [])) for r in SAVES] + [("all score saves", saves)]:
        if lats:
            print(f"p99 {label} / p99 GET /healthz: {pct(lats, 99) / health:5.2f}x")
    ratio = pct(saves, 99) / health if saves else float("inf")
    print(f"errors (not 2xx/3xx/409): {sum(errors.values())}"
          + (f" {dict(errors)}" if errors else ""))
    met = not errors and ratio <= 3
    print(f"targets (0 errors, score-save p99 <= 3x /healthz p99): {'met' if met else 'NOT met'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=20, help="how long to drive (20)")
    parser.add_argument("--clients", type=int, default=50, help="client connections (50)")
    parser.add_argument("--max-requests", type=int, default=100_000,
                        help="stop earlier after this many requests (100000)")
    parser.add_argument("--threads", type=int, default=8, help="server threads (8, as run.sh)")
    args = parser.parse_args()
    args.seconds = min(max(args.seconds, 1), 600)
    with running_server(args.threads) as server:
        gid = server.new_game(PLAYERS, name="Load test")
        print(f"seeded a {len(PLAYERS)}-player double-12 game ({gid}); driving for "
              f"{args.seconds:g} s …", flush=True)
        stats = drive(server.port, gid, args.clients, args.seconds, args.max_requests)
    sys.exit(0 if report(stats, args) else 1)


if __name__ == "__main__":
    main()
