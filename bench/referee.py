"""Benchmark of the referee: rulings in-process, /api/rulings over HTTP, the train planner.

Run from the project root:  .venv/bin/python bench/referee.py
Side by side with an older commit:  git worktree add /tmp/ref444 444e519, compile its
catalogues, then  .venv/bin/python bench/referee.py --versus /tmp/ref444

1. check() per second on a realistic mid-round table (a mix of legal and
   illegal plays), and the same with the table parsed from JSON each time.
2. POST /api/rulings on the real WSGI server (waitress, in this process, on a
   free loopback port, temporary database) against two baselines in the same
   run: GET /healthz (the trivial route: a fixed "ok"), GET /static/icon.svg
   (a static file) and POST /api/hand-score (a
   tiny JSON route); N client threads on keep-alive http.client connections,
   a bounded number of requests.  Requests/s, p50 and p99 latency, and ratios.
3. plan_train(): p50/p99/max over 1,000 random 15-tile double-12 hands and
   200 random 25-tile hands of double-12 and of double-15.

Targets: >= 50,000 rulings/s; /api/rulings p99 within 2x the trivial route;
planner p99 < 50 ms at 15 tiles.  Loopback only; the whole run is bounded
(well under two minutes).
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scorekeeper.referee import Play, Table, check, plan_train  # noqa: E402
from scorekeeper.tiles import Tile, full_set  # noqa: E402
from server import running_checkout  # noqa: E402

THREADS = 4
REQUESTS = 1500          # per route and round, split over the threads
ROUNDS = 3               # routes measured in turn, ROUNDS times, to share the noise

TABLE = {
    "set": 12, "engine": 12,
    "players": ["Ann", "Bob", "Chi", "Dee"],
    "current": "Bob", "first_turn": False,
    "trains": {"Ann": [[12, 5], [5, 7], [7, 7]],
               "Bob": [[12, 3], [3, 8], [8, 11]],
               "Chi": [[12, 1], [1, 9], [9, 4]],
               "Dee": [[12, 10], [10, 0]]},
    "markers": ["Chi"], "mexican": [[12, 6], [6, 2], [2, 2], [2, 9]],
    "turn": [], "drawn": None, "rules": {},
}
#: The same table under chicken foot (R10): Ann's 7-7 a foot with one toe (it binds, as the
#: open 7-7 does above), the Mexican 2-2 a full foot with three toes.
TABLE_FOOT = {
    **TABLE,
    "trains": {**TABLE["trains"],
               "Ann": [[12, 5], [5, 7], {"double": [7, 7], "toes": [[[7, 3]]]}]},
    "mexican": [[12, 6], [6, 2], {"double": [2, 2], "toes": [[[2, 9]], [[2, 5]], [[2, 10]]]}],
    "rules": {"chicken_foot": True},
}
HAND = [[7, 2], [11, 4], [4, 6], [0, 3], [9, 9], [7, 1], [5, 6], [10, 3], [2, 4], [0, 0],
        [6, 6], [8, 1]]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


def bench_rulings() -> None:
    """check() per second, plain rules and chicken foot measured in turn (best of 5 runs of
    each, CPU time of this process: the rest of the machine weighs on both alike)."""
    cases = {}
    for label, data in (("plain rules", TABLE), ("chicken foot", TABLE_FOOT)):
        table = Table.from_json(data)
        names = list(data["players"]) + [None]
        # every tile of the hand on every train, at each of its open ends (R10.5)
        ats = {n: ([end.at for end in table.facts.open_ends[n]] if table.options.chicken_foot
                   else [None]) for n in names}
        plays = [Play(Tile.of(*t), n, at) for t in HAND for n in names for at in ats[n]]
        legal = sum(1 for p in plays if not check(table, p))
        print(f"1. Rulings in-process, {label}: {len(plays)} plays ({legal} legal, "
              f"{len(plays) - legal} illegal) on a 4-player double-12 mid-round table with "
              f"an open double")
        cases[label] = (data, table, plays)

    def rate(fn, n: int) -> float:
        t0 = time.process_time()
        for i in range(n):
            fn(i)
        return n / (time.process_time() - t0)

    best = {}
    for _ in range(5):
        for label, (data, table, plays) in cases.items():
            parsed = rate(lambda i: check(table, plays[i % len(plays)]), 40_000)
            each = rate(lambda i: check(Table.from_json(data), plays[i % len(plays)]), 4_000)
            old = best.get(label, (0, 0))
            best[label] = (max(old[0], parsed), max(old[1], each))
    for label, (parsed, each) in best.items():
        print(f"   {label:<13} check() on a parsed table: {parsed:>10,.0f} rulings/s  "
              f"(target >= 50,000);  Table.from_json + check() each: {each:>8,.0f} rulings/s")
    print(f"   chicken foot / plain rules, parsed each time: "
          f"{best['chicken foot'][1] / best['plain rules'][1]:.2f}  (target >= 0.80)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def hammer(port: int, method: str, path: str, body: bytes | None, count: int,
           expect: int) -> tuple[float, list[float]]:
    """count requests over THREADS keep-alive connections: (wall seconds, latencies)."""
    latencies: list[float] = []
    lock = threading.Lock()
    headers = {"Content-Type": "application/json"} if body is not None else {}
    errors: list[str] = []

    def worker(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        try:
            for _ in range(k):
                t0 = time.perf_counter()
                conn.request(method, path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                mine.append(time.perf_counter() - t0)
                if resp.status != expect:
                    errors.append(f"{path}: {resp.status}")
                    return
        finally:
            conn.close()
            with lock:
                latencies.extend(mine)

    per = count // THREADS
    threads = [threading.Thread(target=worker, args=(per,)) for _ in range(THREADS)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    if errors:
        raise SystemExit(f"unexpected answer: {errors[0]}")
    return wall, latencies


def bench_http() -> None:
    from waitress.server import create_server

    from scorekeeper import create_app

    logging.getLogger("waitress").setLevel(logging.ERROR)  # no "task queue depth" chatter
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.db"), "SECRET_KEY": "bench"})
        port = free_port()
        server = create_server(app, host="127.0.0.1", port=port, threads=THREADS)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            ruling = json.dumps({"table": TABLE, "play": {"tile": [7, 2], "train": "Ann"}}).encode()
            foot = json.dumps({"table": TABLE_FOOT, "play": {"tile": [7, 2], "train": "Ann",
                                                              "at": [7, 7]}}).encode()
            score = json.dumps({"tiles": [[0, 0], [3, 4]]}).encode()
            routes = {
                "GET /healthz (trivial)": ("GET", "/healthz", None, 200),
                "GET /static/icon.svg (static file)": ("GET", "/static/icon.svg", None, 200),
                "POST /api/hand-score (tiny JSON)": ("POST", "/api/hand-score", score, 200),
                "POST /api/rulings": ("POST", "/api/rulings", ruling, 200),
                "POST /api/rulings (chicken foot)": ("POST", "/api/rulings", foot, 200),
            }
            for method, path, body, expect in routes.values():  # warm up
                hammer(port, method, path, body, 200, expect)
            results = {name: ([], 0.0, 0) for name in routes}
            for _ in range(ROUNDS):
                for name, (method, path, body, expect) in routes.items():
                    wall, lat = hammer(port, method, path, body, REQUESTS, expect)
                    lats, walls, count = results[name]
                    lats.extend(lat)
                    results[name] = (lats, walls + wall, count + len(lat))
        finally:
            server.task_dispatcher.shutdown()
            server.close()
    print(f"2. HTTP on waitress (threads={THREADS}), {THREADS} keep-alive client threads, "
          f"{ROUNDS}x{REQUESTS} requests per route, loopback:")
    summary = {}
    for name, (lats, wall, count) in results.items():
        summary[name] = (count / wall, statistics.median(lats), pct(lats, 99))
        rps, p50, p99 = summary[name]
        print(f"   {name:<34} {rps:>8,.0f} req/s   p50 {ms(p50):>9}   p99 {ms(p99):>9}")
    trivial = summary["GET /healthz (trivial)"]
    tiny = summary["POST /api/hand-score (tiny JSON)"]
    rulings = summary["POST /api/rulings"]
    print(f"   /api/rulings p99 / trivial route p99:    {rulings[2] / trivial[2]:.2f}x  "
          f"(target <= 2x)")
    print(f"   /api/rulings p99 / tiny JSON route p99:  {rulings[2] / tiny[2]:.2f}x")
    print(f"   /api/rulings req/s / trivial route req/s: {rulings[0] / trivial[0]:.2f}")
    feet = summary["POST /api/rulings (chicken foot)"]
    print(f"   /api/rulings chicken foot / plain req/s:  {feet[0] / rulings[0]:.2f}  "
          "(target >= 0.80)")


def bench_planner() -> None:
    rng = random.Random(2024)

    def run(n: int, size: int, count: int) -> str:
        times = []
        for _ in range(count):
            engine = rng.randint(0, n)
            pool = [t for t in full_set(n) if t != Tile.double(engine)]
            hand = rng.sample(pool, size)
            t0 = time.perf_counter()
            plan_train(n, engine, hand)
            times.append(time.perf_counter() - t0)
        return (f"p50 {ms(statistics.median(times)):>9}   p99 {ms(pct(times, 99)):>9}   "
                f"max {ms(max(times)):>9}")

    print("3. plan_train (exact best opening train):")
    print(f"   1,000 hands of 15, double-12:  {run(12, 15, 1000)}   (target p99 < 50 ms)")
    print(f"     200 hands of 25, double-12:  {run(12, 25, 200)}")
    print(f"     200 hands of 25, double-15:  {run(15, 25, 200)}")


def bench_versus(other: str) -> None:
    """POST /api/rulings on this checkout and on *other* (a worktree of an older commit),
    both served as run.sh serves them, at once, measured in turn ROUNDS times: requests a
    second, latency, and the server process's CPU time per request (what an answer costs,
    whatever else the machine is doing)."""
    from contextlib import ExitStack
    ruling = json.dumps({"table": TABLE, "play": {"tile": [7, 2], "train": "Ann"}}).encode()
    roots = {"this checkout": ROOT, other: Path(other)}
    results = {name: (0, 0.0, [], 0.0) for name in roots}
    with ExitStack() as stack:
        servers = {name: stack.enter_context(running_checkout(root, THREADS))
                   for name, root in roots.items()}
        for srv in servers.values():   # warm up
            hammer(srv.port, "POST", "/api/rulings", ruling, 300, 200)
        for turn in range(ROUNDS):
            order = list(servers.items())
            for name, srv in (order if turn % 2 == 0 else order[::-1]):   # each first in turn
                cpu = srv.cpu_seconds()
                wall, lat = hammer(srv.port, "POST", "/api/rulings", ruling, REQUESTS, 200)
                count, walls, lats, cpus = results[name]
                results[name] = (count + len(lat), walls + wall, lats + lat,
                                 cpus + srv.cpu_seconds() - cpu)
    print(f"POST /api/rulings side by side ({THREADS} threads each, {ROUNDS}x{REQUESTS} "
          "requests, in turn):")
    rates = {}
    for name, (count, wall, lats, cpu) in results.items():
        rates[name] = count / wall
        print(f"   {name:<34} {count / wall:>8,.0f} req/s   p50 {ms(statistics.median(lats)):>9}"
              f"   p99 {ms(pct(lats, 99)):>9}   server CPU {cpu / count * 1e6:>5,.0f} µs/request")
    print(f"   this checkout / {other}: {rates['this checkout'] / rates[other]:.2f}")


def main() -> None:
    if sys.argv[1:2] == ["--versus"]:
        bench_versus(sys.argv[2])
        return
    t0 = time.perf_counter()
    bench_rulings()
    bench_http()
    bench_planner()
    print(f"(whole run: {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
