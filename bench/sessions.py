"""Does the signed-cookie cache (scorekeeper/sessions.py) earn its place? A phone's poll
with the cache on and off, side by side in one run.

Run from the project root:

    .venv/bin/python bench/sessions.py [--seconds 15] [--clients 4] [--max-requests 20000]

1. Starts two real servers as run.sh does (waitress, 8 threads, 127.0.0.1, each its
   own process and temporary database): one as it is, the cookie cache on; one
   whose sessions are Flask's own (the cache off: the baseline), started by this
   file's --serve-plain, which changes nothing else.  Each gets the same
   6-player game.
2. --clients processes (not threads of this one, so the load generator is not
   what is measured), each a phone with, on each server, its own session cookie
   and the game page's ETag, ask "anything new?" as static/js/updates.js does (GET the
   game page with If-None-Match: a 304, the smallest request a page makes) as
   fast as they are answered: each request to one server, then the same to the
   other, so both see the same machine at the same moment (these 2 cores are
   shared).  Then the same with GET /healthz without a cookie (no session to
   open: the two servers should be alike, a check of the method).  Each route
   runs --seconds, or --max-requests per client, whichever ends first.
3. Prints what each request cost each server in CPU time (its process's, from
   /proc: the same whatever else the machine runs) and its latencies, and the
   ratios off ÷ on (the figure in docs/development.md and docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import sys
import time
from contextlib import ExitStack

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import pct, running_server  # noqa: E402  (bench/server.py, beside this file)

PLAYERS = ["Ann", "Bob", "Chi", "Dee", "Eve", "Fay"]


def serve_plain(argv: list[str]) -> None:
    """The scorekeeper server with Flask's own signed-cookie sessions (no cache)."""
    from flask.sessions import SecureCookieSessionInterface

    from scorekeeper import serve, sessions

    # Whatever the wiring calls it, the cookie is checked as Flask checks it, every time.
    sessions.CheckedCookieSessions.open_session = SecureCookieSessionInterface.open_session
    serve.main(argv)


def phone(targets: dict[str, tuple[int, str]], with_cookie: bool, seconds: float, limit: int,
          pipe) -> None:
    """One device on both servers: on each its own session cookie and the page's ETag; then
    the same request to one server and the other in turn.  Sends each server's latencies."""
    conns, headers = {}, {}
    for name, (port, path) in targets.items():
        conns[name] = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers[name] = {"Accept-Encoding": "br, gzip"}
        # The page sets the cookie; the kept page's ETag is the one a phone polls with.
        for _ in range(2 if with_cookie else 0):
            conns[name].request("GET", path, headers=headers[name])
            resp = conns[name].getresponse()
            resp.read()
            cookie = resp.getheader("Set-Cookie")
            if cookie:
                headers[name]["Cookie"] = cookie.split(";", 1)[0]
            headers[name]["If-None-Match"] = resp.getheader("ETag")
    out = {name: [] for name in targets}
    statuses = set()
    deadline = time.perf_counter() + seconds
    while len(out["on"]) < limit and time.perf_counter() < deadline:
        for name, (_port, path) in targets.items():
            t0 = time.perf_counter()
            conns[name].request("GET", path, headers=headers[name])
            resp = conns[name].getresponse()
            resp.read()
            out[name].append(time.perf_counter() - t0)
            statuses.add(resp.status)
    for conn in conns.values():
        conn.close()
    pipe.send((out, statuses))


def drive(targets: dict[str, tuple[int, str]], with_cookie: bool, args):
    """--clients phones at once, each on both servers in turn; each server's latencies and
    the statuses seen."""
    pipes, procs = [], []
    for _ in range(args.clients):
        mine, theirs = multiprocessing.Pipe()
        procs.append(multiprocessing.Process(
            target=phone, args=(targets, with_cookie, args.seconds, args.max_requests, theirs)))
        pipes.append(mine)
    for p in procs:
        p.start()
    latencies = {name: [] for name in targets}
    statuses = set()
    for mine in pipes:
        out, seen = mine.recv()
        for name, values in out.items():
            latencies[name] += values
        statuses |= seen
    for p in procs:
        p.join()
    return latencies, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=15, help="per route (15)")
    parser.add_argument("--clients", type=int, default=4, help="polling processes (4)")
    parser.add_argument("--max-requests", type=int, default=20_000,
                        help="per client, server and route at most (20000)")
    args = parser.parse_args()
    args.seconds = min(max(args.seconds, 1), 120)
    args.clients = min(max(args.clients, 1), 16)
    with ExitStack() as stack:
        servers = {
            "on": stack.enter_context(running_server(threads=8)),
            "off": stack.enter_context(running_server(
                threads=8, program=[sys.executable, os.path.abspath(__file__),
                                    "--serve-plain"])),
        }
        games = {name: f"/games/{srv.new_game(PLAYERS, name='Polling')}"
                 for name, srv in servers.items()}
        results = {}
        for route, cookie, want in (("poll", True, {304}), ("healthz", False, {200})):
            targets = {name: (srv.port, games[name] if route == "poll" else "/healthz")
                       for name, srv in servers.items()}
            before = {name: srv.cpu_seconds() for name, srv in servers.items()}
            latencies, statuses = drive(targets, cookie, args)
            cpu = {name: srv.cpu_seconds() - before[name] for name, srv in servers.items()}
            if statuses != want:
                raise SystemExit(f"{route}: answered {sorted(statuses)}, not {sorted(want)}")
            results[route] = latencies, cpu

    print(f"\n{args.clients} client processes, {args.seconds:g} s a route, each request sent "
          "to one server and then the other (waitress, 8 threads, each its own process)\n")
    head = (f"{'server':<20} {'route':<38} {'requests':>9} {'CPU ms/req':>10} {'p50 ms':>7} "
            f"{'p99 ms':>7}")
    print(head)
    print("-" * len(head))
    cost = {}
    for route, what in (("poll", "poll: game page, If-None-Match → 304"),
                        ("healthz", "GET /healthz, no cookie")):
        latencies, cpu = results[route]
        for name, label in (("on", "cookie cache on"), ("off", "off (Flask's own)")):
            lat = latencies[name]
            cost[route, name] = cpu[name] / len(lat)
            print(f"{label:<20} {what:<38} {len(lat):>9,} {cost[route, name] * 1000:>10.3f} "
                  f"{pct(lat, 50) * 1000:>7.2f} {pct(lat, 99) * 1000:>7.2f}")
    print()
    for route, what in (("poll", "a poll"), ("healthz", "/healthz (no session: ~1.00x)")):
        (lat_on, lat_off), (on, off) = (results[route][0]["on"], results[route][0]["off"]), \
            (cost[route, "on"], cost[route, "off"])
        print(f"{what}: off ÷ on, server CPU {off / on:.2f}x, p50 "
              f"{pct(lat_off, 50) / pct(lat_on, 50):.2f}x")
    saved = cost["poll", "off"] - cost["poll", "on"]
    print(f"the cookie cache saves {saved * 1e6:.0f} µs of server CPU a poll "
          f"({saved / cost['poll', 'off']:.0%} of its cost)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve-plain"]:
        serve_plain(sys.argv[2:])
    else:
        main()
