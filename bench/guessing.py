"""Benchmark of PIN guessing from a LAN: how many wrong PINs the real server checks.

Run from the project root:  .venv/bin/python bench/guessing.py [--addresses 40] [--seconds 30]

1. Starts the real server as run.sh starts it (bench/server.py) and creates a game with a
   4-digit PIN.
2. From K loopback addresses at once (127.0.0.2, 127.0.0.3 …: as many devices on a
   LAN), each a thread sending wrong PINs to the round route as fast as the server
   answers, for S seconds.
3. Prints how many guesses the server checked (403: a wrong PIN) and how many it refused
   unchecked (429), the requests per second, and what a new device with the right PIN
   gets afterwards; beside the baseline of main before issue 19 for the same K
   addresses (5 per 10 minutes per address, nothing per game: 30·K an hour).
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.server import running_server  # noqa: E402

PIN = "4821"
BODY = json.dumps({"scores": {"Ann": 0, "Bob": 5}})


def guess(port: int, game: str, source: str, pin: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("PUT", f"/api/games/{game}/rounds/1", body=BODY,
                     headers={"Content-Type": "application/json", "X-Game-PIN": pin})
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()

    with running_server(threads=8) as srv:
        game = srv.new_game(["Ann", "Bob"], pin=PIN)
        statuses: Counter = Counter()
        lock = threading.Lock()
        deadline = time.monotonic() + args.seconds

        def device(k: int) -> None:
            source = f"127.0.{k // 250}.{2 + k % 250}"
            n = 0
            while time.monotonic() < deadline:
                wrong = f"{(k * 997 + n) % 10000:04d}"
                n += 1
                if wrong == PIN:
                    continue
                status = guess(srv.port, game, source, wrong)
                with lock:
                    statuses[status] += 1

        started = time.monotonic()
        threads = [threading.Thread(target=device, args=(k,)) for k in range(args.addresses)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.monotonic() - started
        right = guess(srv.port, game, "127.0.9.9", PIN)

    total = sum(statuses.values())
    print(f"\n{args.addresses} addresses, {took:.0f} s, {total:,} requests "
          f"({total / took:.0f}/s):")
    print(f"  checked, wrong (403)                     {statuses[403]:6,}")
    print(f"  refused unchecked (429)                  {statuses[429]:6,}")
    others = {s: c for s, c in statuses.items() if s not in (403, 429)}
    print(f"  other answers                            {others or 0}")
    print(f"  a new device with the right PIN then     {right}")
    print(f"  wrong PINs checked an hour, at most      {20:6,}  (per game, from everyone)")
    print(f"  baseline, main before issue 19           {30 * args.addresses:6,}  "
          f"(5 per 10 min from each of {args.addresses} addresses)")


if __name__ == "__main__":
    main()
