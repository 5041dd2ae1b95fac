"""Benchmark of a long-lived club: players' records and a season table over 1,000 games.

Run from the project root:  .venv/bin/python bench/club.py [--games 1000] [--requests 1200]

1. Fills a fresh database with N complete games (6 players from a club of 40,
   13 rounds each, double-12, created over a year), through the storage layer
   (create_game, the scores, and refresh_seats, as a save does), and one season
   covering the whole year (so its table sums every game).  Each game is dated in that
   year, its seats written from that date: the bench never depends on the day it runs.
2. Starts the real server as run.sh starts it (bench/server.py: the
   ``scorekeeper`` console script, waitress, its own process, 127.0.0.1).
3. From this process, 4 keep-alive client threads ask each route in turn, three
   times, a bounded number of requests: GET /healthz (the trivial baseline), the
   season standings from the API (computed on every request), the season page,
   a player's record from the API and a player's page (both computed; the pages
   are served from the page cache while nothing changed, as at a club night).
4. Prints req/s, p50 and p99 per route and each route's p99 against /healthz's
   p99 in the same run.  Target (issue 12): season standings and a player page
   within 10x of /healthz p99.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.referee import THREADS, hammer  # noqa: E402
from bench.server import pct, running_server  # noqa: E402
from scorekeeper import storage  # noqa: E402
from scorekeeper.options import RuleOptions  # noqa: E402

ROUNDS = 3
FIRST = ["An", "Bình", "Chi", "Dũng", "Γιώργος", "Ελένη", "Νίκος", "สมชาย", "สุดา", "王伟",
         "李娜", "Siti", "Ahmad", "Nurul", "Ann", "Bob", "Carla", "Dee", "Eve", "Farid"]
CLUB = [f"{name} {k}" for k in (1, 2) for name in FIRST]   # 40 members


def fill(path: str, games: int, seed: int = 2026) -> None:
    """*games* complete 6-player double-12 games, one every 8 hours, and the year's season."""
    rng = random.Random(seed)
    storage.migrate(path)
    db = storage.connect(path)
    start = datetime(2025, 12, 1, 19, 0, tzinfo=timezone.utc)
    t0 = time.perf_counter()
    for k in range(games):
        players = rng.sample(CLUB, 6)
        game = storage.create_game(db, name=f"Club night {k + 1}", players=players, set_n=12,
                                   options=RuleOptions(), start_engine=12, end_engine=0)
        when = (start + timedelta(hours=k * 8)).isoformat(timespec="seconds")
        with storage.write(db):
            db.execute("update games set created_at = ?, updated_at = ? where id = ?",
                       [when, when, game.id])
            # A game's seats take its day when first written (at create_game: today);
            # written again from the date just set, so the season below holds every game
            # whatever the day the bench is run (issue 26, item 7).
            db.execute("delete from seats where game_id = ?", [game.id])
            db["scores"].insert_all(
                {"game_id": game.id, "number": n, "player": p, "score": rng.choice(
                    [0, 0, 3, 8, 12, 15, 21, 27, 34, 45, 60]), "hand": None}
                for n in range(1, 14) for p in players)
            storage.refresh_seats(db, game.id)
    with storage.write(db):
        # The whole year: the season's sums run over every one of the games.
        db["seasons"].insert({"id": "year", "name": "Club year", "start": "2025-12-01",
                              "end": "2026-11-30", "created_at": storage.now()})
    rows = db.execute("select count(*) from scores").fetchone()[0]
    db.close()
    print(f"1. Filled: {games:,} complete games, {rows:,} scores, 40 players, "
          f"in {time.perf_counter() - t0:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=1200,
                        help="requests per route and round (bounded run)")
    args = parser.parse_args()
    with running_server(threads=8, prepare=lambda path: fill(path, args.games)) as srv:
        status, data, _resp = srv.call("GET", "/api/seasons/year/standings")
        table = json.loads(data)
        player = table["standings"][0]["name"]
        games = len(json.loads(srv.call("GET", "/api/players/" + quote(player))[1])["games"])
        print(f"   The club year ranks {len(table['standings'])} players; "
              f"{player} has {games} complete games.")
        routes = {
            "GET /healthz (trivial)": "/healthz",
            "GET /api/seasons/<id>/standings": "/api/seasons/year/standings",
            "GET /api/seasons/<id>/standings?rank_by=average":
                "/api/seasons/year/standings?rank_by=average&min_games=3",
            "GET /seasons/<id> (page)": "/seasons/year",
            "GET /api/players/<name>": "/api/players/" + quote(player),
            "GET /players/<name> (page)": "/players/" + quote(player),
            "GET /api/players": "/api/players",
        }
        for path in routes.values():   # warm up (and fill the page cache)
            hammer(srv.port, "GET", path, None, 40, 200)
        results: dict[str, tuple[list[float], float, int]] = {n: ([], 0.0, 0) for n in routes}
        for _ in range(ROUNDS):
            for name, path in routes.items():
                wall, lat = hammer(srv.port, "GET", path, None, args.requests, 200)
                lats, walls, count = results[name]
                results[name] = (lats + lat, walls + wall, count + len(lat))
    print(f"2. HTTP on the real server (waitress, 8 threads, its own process), {THREADS} "
          f"keep-alive client threads, {ROUNDS}x{args.requests} requests per route:")
    summary = {}
    for name, (lats, wall, count) in results.items():
        summary[name] = (count / wall, statistics.median(lats), pct(lats, 99))
    base = summary["GET /healthz (trivial)"][2]
    for name, (rps, p50, p99) in summary.items():
        print(f"   {name:<50} {rps:>7,.0f} req/s  p50 {p50 * 1000:>7.2f} ms  "
              f"p99 {p99 * 1000:>7.2f} ms  p99 {p99 / base:>5.2f}x /healthz")
    worst = max(summary[n][2] for n in ("GET /api/seasons/<id>/standings",
                                        "GET /seasons/<id> (page)",
                                        "GET /players/<name> (page)",
                                        "GET /api/players/<name>"))
    print(f"3. Worst of season standings and player page: p99 {worst / base:.2f}x /healthz "
          f"(target <= 10x)")


if __name__ == "__main__":
    main()
