"""Benchmark of a restore from the home page: a club of 1,000 games put back from its backup.

Run from the project root:  .venv/bin/python bench/restore.py [--games 1000] [--runs 3]

1. Fills a database with N complete 6-player games (bench/club.py's club) and makes its
   backup file with the online backup API, as "Back up all games" does.
2. Starts the real server as run.sh starts it (bench/server.py) on a copy of that club.
3. As a browser does, N times: uploads the backup to "Restore a backup" (the check: the
   integrity check, the schema, every game loaded, the summary; staged beside the
   database) and confirms it (the swap: the database as it is kept as a backup of its
   own, then the staged copy put in place in one transaction).  Meanwhile a second
   client reads a game from the API without pause: every answer must be 200, and the
   slowest says how long readers wait during a swap.
4. Prints each step's median beside the baselines of the same run: GET /healthz, and a
   plain copy of the backup file (shutil.copyfile) and an online-backup copy of it.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.club import fill  # noqa: E402
from bench.server import multipart, pct, running_server  # noqa: E402
from scorekeeper import storage  # noqa: E402


class Browser:
    """One device: a session cookie and the page's form token, over keep-alive."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> tuple[int, str]:
        headers = {**(headers or {}), **({"Cookie": self.cookie} if self.cookie else {})}
        self.conn.request(method, path, body=body, headers=headers)
        r = self.conn.getresponse()
        data = r.read().decode(errors="replace")
        cookie = r.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return r.status, data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="scorekeeper-restore-")
    club = os.path.join(tmp, "club.db")
    fill(club, args.games)
    backup_file = os.path.join(tmp, "club-backup.sqlite")
    storage.backup(club, backup_file)
    data = Path(backup_file).read_bytes()
    print(f"   The backup: {len(data) / 1e6:.1f} MB")

    copies = []
    for _ in range(args.runs):
        t = time.perf_counter()
        shutil.copyfile(backup_file, os.path.join(tmp, "plain.sqlite"))
        copies.append(time.perf_counter() - t)
    online = []
    for _ in range(args.runs):
        t = time.perf_counter()
        storage.backup(backup_file, os.path.join(tmp, "online.sqlite"))
        online.append(time.perf_counter() - t)

    def prepare(path: str) -> None:
        shutil.copyfile(club, path)

    checks, swaps, healthz, reads, statuses = [], [], [], [], []
    with running_server(threads=8, prepare=prepare) as srv:
        device = Browser(srv.port)
        for _ in range(50):
            t = time.perf_counter()
            srv.call("GET", "/healthz")
            healthz.append(time.perf_counter() - t)
        status, games = srv.call("GET", "/api/games")[:2]
        game_id = re.search(rb'"id":\s*"([0-9a-f]+)"', games).group(1).decode()
        stop = threading.Event()

        def reader() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=60)
            while not stop.is_set():
                t = time.perf_counter()
                conn.request("GET", f"/api/games/{game_id}")
                r = conn.getresponse()
                r.read()
                reads.append(time.perf_counter() - t)
                statuses.append(r.status)

        for run in range(args.runs):
            status, page = device.request("GET", "/backup/restore")
            token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
            body, content_type = multipart({"csrf_token": token}, "file", data, "club.sqlite",
                                              "application/vnd.sqlite3")
            t = time.perf_counter()
            status, summary = device.request("POST", "/backup/restore", body,
                                             {"Content-Type": content_type})
            checks.append(time.perf_counter() - t)
            assert status == 200 and "<li>" in summary, summary[:500]
            staged = re.search(r'name="staged" type="hidden" value="([0-9a-f]+)"',
                               summary).group(1)
            thread = threading.Thread(target=reader)
            thread.start()
            time.sleep(0.2)
            t = time.perf_counter()
            status, _done = device.request(
                "POST", "/backup/restore/confirm",
                f"csrf_token={token}&staged={staged}".encode(),
                {"Content-Type": "application/x-www-form-urlencoded"})
            swaps.append(time.perf_counter() - t)
            time.sleep(0.2)
            stop.set()
            thread.join()
            stop.clear()
            assert status == 302, status
            print(f"   run {run + 1}: check {checks[-1]:.2f} s, swap {swaps[-1]:.2f} s")
    shutil.rmtree(tmp, ignore_errors=True)

    ms = 1000
    print(f"\n{args.games:,} games, the backup {len(data) / 1e6:.1f} MB, {args.runs} runs "
          f"(medians):")
    print(f"  upload and check (to the summary page)   {statistics.median(checks):6.2f} s")
    print(f"  confirm: keep the old, swap the new in   {statistics.median(swaps):6.2f} s")
    print(f"  baseline: cp of the backup file          {statistics.median(copies):6.2f} s")
    print(f"  baseline: online backup of the file      {statistics.median(online):6.2f} s")
    print(f"  baseline: GET /healthz p50               {pct(healthz, 50) * ms:6.1f} ms")
    others = [s for s in statuses if s != 200]
    print(f"  a game read during the swaps: {len(reads)} reads, "
          f"{len(others)} not 200, p50 {pct(reads, 50) * ms:.1f} ms, "
          f"slowest {max(reads) * ms:.0f} ms")


if __name__ == "__main__":
    main()
