"""Fifty devices following one game live while the scorekeeper saves a round every 2 s.

Run from the project root:

    .venv/bin/python bench/live.py [--devices 50] [--seconds 30] [--every 2]

1. Starts the real server as run.sh does (bench/server.py, waitress, 8 threads)
   and seeds a protected 6-player game.
2. Measures /healthz on the idle server (a probe every 20 ms, up to 15 s).
3. From this process (not the server's), N devices each open the game page and
   then do what the page's script does: every 2 s ask for the page again with
   If-None-Match (304 while nothing changed, the page when it did).
   A scorekeeper saves a round through the API (with the PIN) every --every
   seconds; the same /healthz probe runs all along.
4. Prints the time from each save's answer to each device's page showing it
   (p50, p99, max: target within 3 s), the requests/s the devices cost the
   server (304s, 200s, page fetches), and /healthz p99 under this load beside
   the idle server's (target: within 1.5x).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import random
import re
import sys
import threading
import time
from collections import Counter


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import pct, running_server  # noqa: E402  (bench/server.py, beside this file)

PLAYERS = ["Ann", "Bob", "Chi", "Dee", "Eve", "Fay"]
PIN = "2468"
POLL = 2.0           # seconds between "anything new?" checks, as static/js/updates.js


class Device(threading.Thread):
    """One phone with the game page open, following it like the page's script."""

    def __init__(self, port: int, gid: str, stop: threading.Event, counts: Counter,
                 lock: threading.Lock, seed: int):
        super().__init__(daemon=True)
        self.port, self.gid, self.stop = port, gid, stop
        self.shown: list[tuple[int, float]] = []   # (game version on the page, when it came)
        self.counts, self.lock = counts, lock
        self.rng = random.Random(seed)
        self.etag = None
        self.cookie = ""

    def get(self, conn, path: str, headers: dict) -> tuple[int, bytes, object]:
        if self.cookie:
            headers = {**headers, "Cookie": self.cookie}
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return resp.status, data, resp

    def page(self, conn, etag: str | None) -> None:
        """Ask for the game page (with If-None-Match, as the page's script); note which
        version of the game it shows when it comes (its body is read, as a phone would)."""
        headers = {"Accept-Encoding": "br, gzip"}
        if etag:
            headers["If-None-Match"] = etag
        status, data, resp = self.get(conn, f"/games/{self.gid}", headers)
        with self.lock:
            self.counts[f"page {status}"] += 1
        if status != 200:
            return
        # The page's ETag starts with the game's version it shows ("42-v-en"): read there,
        # so this machine does not spend its time unpacking pages a phone would unpack.
        self.etag = resp.getheader("ETag")
        self.shown.append((int(self.etag.strip('W/"').split("-")[0]), time.monotonic()))

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.page(conn, None)
        time.sleep(self.rng.uniform(0, POLL))   # devices opened their pages at different times
        while not self.stop.is_set():
            self.page(conn, self.etag)
            self.stop.wait(POLL)
        conn.close()


def _probe(port: int, stop, pipe) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    out = []
    while not stop.is_set():
        t0 = time.perf_counter()
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        out.append(time.perf_counter() - t0)
        stop.wait(0.02)
    conn.close()
    pipe.send(out)


class Probe:
    """/healthz every 20 ms, from a process of its own (the 50 device threads' GIL would
    otherwise be in its timings): the server's responsiveness to everything else."""

    def __init__(self, port: int):
        self.stop = multiprocessing.Event()
        self.mine, theirs = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=_probe, args=(port, self.stop, theirs))
        self.process.start()

    def finish(self) -> list[float]:
        self.stop.set()
        out = self.mine.recv()
        self.process.join()
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--devices", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30, help="how long to save (30)")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between saves (2)")
    args = parser.parse_args()
    args.seconds = min(max(args.seconds, 5), 300)
    with running_server(threads=8) as server:
        gid = server.new_game(PLAYERS, name="Live", pin=PIN)
        probe = Probe(server.port)
        time.sleep(min(args.seconds, 15))   # as many probes as the busy part, near enough
        idle = probe.finish()

        stop = threading.Event()
        lock = threading.Lock()
        counts: Counter = Counter()
        devices = [Device(server.port, gid, stop, counts, lock, k)
                   for k in range(args.devices)]
        for d in devices:
            d.start()
        time.sleep(POLL + 0.5)
        probe = Probe(server.port)
        saves: dict[int, float] = {}        # version after the save -> when it was answered
        t0 = time.monotonic()
        rng = random.Random(1)
        number = 0
        while time.monotonic() - t0 < args.seconds:
            number = number % 13 + 1
            body = {"scores": {p: rng.randint(1, 60) for p in PLAYERS}}
            body["scores"][rng.choice(PLAYERS)] = 0
            status, data, _r = server.call("PUT", f"/api/games/{gid}/rounds/{number}", body,
                                           {"X-Game-PIN": PIN})
            assert status == 200, data
            answered = time.monotonic()
            _s, page, _r = server.call("GET", f"/games/{gid}")
            saves[int(re.search(rb'data-version="(\d+)"', page)[1])] = answered
            time.sleep(max(0.0, args.every - (time.monotonic() - answered)))
        time.sleep(POLL + 1.5)              # the last save has time to arrive everywhere
        busy = probe.finish()
        stop.set()
        for d in devices:
            d.join(timeout=10)
        elapsed = time.monotonic() - t0

    delays, missing = [], 0
    for version, when in saves.items():
        for d in devices:
            # This device's first page showing this save (or a later one).
            first = min((at for v, at in d.shown if v >= version), default=None)
            if first is None:
                missing += 1
            else:
                delays.append(max(0.0, first - when))
    print(f"\n{args.devices} devices following one game, {len(saves)} saves "
          f"(one every {args.every:g} s) over {elapsed:.0f} s")
    print(f"save → shown on a device: p50 {pct(delays, 50):.2f} s, p99 {pct(delays, 99):.2f} s, "
          f"max {max(delays):.2f} s (target: within 3 s); not shown: {missing}")
    total = sum(counts.values())
    print(f"device requests (the server's work for them): {total / elapsed:.1f}/s in all — "
          + ", ".join(f"{k}: {v / elapsed:.1f}/s" for k, v in sorted(counts.items())))
    print("/healthz idle p50/p90/p99/max ms:", " ".join(f"{pct(idle, q) * 1000:.1f}" for q in (50, 90, 99, 100)),
          f"({len(idle)} probes); busy:", " ".join(f"{pct(busy, q) * 1000:.1f}" for q in (50, 90, 99, 100)), f"({len(busy)})")
    ratio = pct(busy, 99) / pct(idle, 99)
    print(f"/healthz p99: idle {pct(idle, 99) * 1000:.1f} ms, with the devices "
          f"{pct(busy, 99) * 1000:.1f} ms — {ratio:.2f}x (target: within 1.5x)")
    met = not missing and pct(delays, 99) <= 3 and ratio <= 1.5
    print("targets:", "met" if met else "NOT met")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
