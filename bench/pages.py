"""How heavy the pages are: bytes sent for each, and pages/s beside /healthz in one run.

Run from the project root (needs ``wrk``, Debian's package of the same name):

    .venv/bin/python bench/pages.py [--seconds 8] [--connections 32]

1. Starts the real server as run.sh does (bench/server.py), seeds a 6-player
   double-12 game three rounds in, with names in five scripts.
2. Prints each page's size as sent to a browser (brotli or gzip, as the browser
   asks) and uncompressed, against the targets (round and standings pages at
   most 30 KB sent, referee pages 40 KB, home 20 KB).
3. Loads each page with wrk — another process, C, so the load generator is not
   what is measured — for a bounded time on 127.0.0.1, as a tablet that has
   been there before (its session cookie, Accept-Encoding: br, gzip), /healthz
   first and last as the baseline, and prints requests/s, p50, p99 and the
   ratio to /healthz (target: the round page at least 1/5 of /healthz).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import running_server  # noqa: E402  (bench/server.py, beside this file)

PLAYERS = ["Nguyễn Thị Hương", "Γιώργος", "สมชาย", "王小明", "Siti", "Ann"]
LIMITS = {"round": 30_000, "standings": 30_000, "ruling": 40_000, "my plays": 40_000,
          "home": 20_000}


def pages(gid: str) -> dict[str, str]:
    return {
        "home": "/",
        "game": f"/games/{gid}",
        "round": f"/games/{gid}/rounds/4",
        "standings": f"/games/{gid}/standings",
        "history": f"/games/{gid}/history",
        "ruling": f"/games/{gid}/rounds/4/referee?current=1&last-0=9-5&mark-2=1&tile=5-3&train=0",
        "my plays": f"/games/{gid}/rounds/4/referee/plays?go=1&hand=9-2&hand=0-0&hand=5-5",
        "board": f"/games/{gid}/board",
    }


def wrk(base: str, path: str, seconds: float, connections: int, cookie: str) -> dict:
    """requests/s and latency percentiles of one path, from wrk's report."""
    out = subprocess.run(
        ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds:g}s", "--latency",
         "-H", "Accept-Encoding: br, gzip", "-H", f"Cookie: {cookie}", base + path],
        capture_output=True, text=True, timeout=seconds + 30, check=True).stdout

    def ms(label: str) -> float:
        m = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\b", out, re.M)
        value, unit = float(m[1]), m[2]
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),
            "p50": ms("50"), "p99": ms("99"), "errors": int(errors[1]) if errors else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=8, help="per page (8)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (32)")
    args = parser.parse_args()
    args.seconds = min(max(args.seconds, 1), 60)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: sudo apt-get install wrk")
    with running_server(threads=8) as server:
        gid = server.new_game(PLAYERS, name="Friday club")
        for n, row in enumerate([[0, 23, 9, 41, 12, 5], [17, 0, 30, 8, 2, 22],
                                 [4, 11, 0, 19, 27, 3]], 1):
            server.call("PUT", f"/api/games/{gid}/rounds/{n}",
                        {"scores": dict(zip(PLAYERS, row))})
        _s, _d, resp = server.call("GET", "/", headers={"Accept-Encoding": "br, gzip"})
        cookie = resp.getheader("Set-Cookie").split(";", 1)[0]

        print(f"\n{'page':<11} {'sent':>9} {'whole':>9}  limit")
        ok = True
        for name, path in pages(gid).items():
            _s, sent, _r = server.call("GET", path, headers={"Accept-Encoding": "br, gzip",
                                                              "Cookie": cookie})
            _s, whole, _r = server.call("GET", path, headers={"Cookie": cookie})
            limit = LIMITS.get(name)
            verdict = "" if limit is None else (f"≤ {limit // 1000} KB: "
                                                + ("met" if len(sent) <= limit else "NOT met"))
            ok &= limit is None or len(sent) <= limit
            print(f"{name:<11} {len(sent):>8,}B {len(whole):>8,}B  {verdict}")

        print(f"\nwrk, {args.connections} connections, {args.seconds:g} s each, "
              "a returning tablet (session cookie, br/gzip)")
        print(f"{'path':<11} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}  vs /healthz")
        first = wrk(server.base, "/healthz", args.seconds, args.connections, cookie)
        results = {}
        for name, path in pages(gid).items():
            results[name] = wrk(server.base, path, args.seconds, args.connections, cookie)
        last = wrk(server.base, "/healthz", args.seconds, args.connections, cookie)
        health = (first["rps"] + last["rps"]) / 2
        for name, r in [("/healthz", first)] + list(results.items()) + [("/healthz", last)]:
            print(f"{name:<11} {r['rps']:>9,.0f} {r['p50']:>8.2f} {r['p99']:>8.2f} "
                  f"{r['errors']:>7}  1/{health / r['rps']:.1f}")
        ratio = health / results["round"]["rps"]
        ok &= ratio <= 5 and not any(r["errors"] for r in results.values())
        print(f"\nround page: 1/{ratio:.1f} of /healthz (target: at least 1/5) — "
              + ("met" if ratio <= 5 else "NOT met"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
