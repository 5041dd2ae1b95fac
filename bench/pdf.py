"""Benchmark: time to draw the largest filled scoresheet, against reportlab's fixed cost.

The sheet: 14 players on a double-18 set, all 19 rounds scored, multilingual
names (so Thai shaping and the CJK font take part).  The baseline: a one-cell
reportlab PDF (one rectangle, one "0" in Helvetica) made in the same run.
Font registration happens once per process and is reported separately.
The same sheet is also timed as the route prints it (its check code worked out
and its QR code drawn), and the check of a code the game never had, the worst
case of the verification page: every past state replayed from a history of the
19 rounds' first saves (266 scores) and 200 corrections.

    .venv/bin/python bench/pdf.py [runs]        # default 30 runs; target: median < 150 ms
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from io import BytesIO
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.checkcode import game_code, shown, verify  # noqa: E402
from scorekeeper.game import Game, Round  # noqa: E402
from scorekeeper.options import RuleOptions, round_engines  # noqa: E402
from scorekeeper.pdf import fonts, scoresheet_pdf  # noqa: E402

TARGET_MS = 150.0
PLAYERS = ("Ann", "Bob", "Chiara", "Dmitri", "Nguyễn Thị Hương", "Γιώργος", "สมชาย",
           "王小明", "Siti Nurhaliza", "ศักดิ์ชัย", "Kwame", "Lena", "Mateus", "Noor")


def big_game() -> Game:
    """14 players, double-18, every one of the 19 rounds scored (one zero a round)."""
    rnd = random.Random(18)
    rounds = []
    for k, engine in enumerate(round_engines(18), 1):
        scores = {p: rnd.randint(1, 150) for p in PLAYERS}
        scores[rnd.choice(PLAYERS)] = 0
        rounds.append(Round(k, engine, scores))
    return Game("bench", "Benchmark night", PLAYERS, 18, RuleOptions(), tuple(rounds),
                "2024-05-03T19:00:00+00:00")


def big_history(game: Game) -> list[dict]:
    """The history of *game*: each round's first save (one edit per round), then 200
    corrections of one score each, as storage.history answers it."""
    rnd = random.Random(19)
    rows, edit = [], 0
    for r in game.rounds:
        edit += 1
        rows += [{"edit_id": edit, "round": r.number, "player": p, "new": r.scores[p],
                  "at": "2024-05-03T20:00:00+00:00"} for p in game.players]
    for _ in range(200):
        edit += 1
        rows.append({"edit_id": edit, "round": rnd.randint(1, len(game.rounds)),
                     "player": rnd.choice(game.players), "new": rnd.randint(0, 150),
                     "at": "2024-05-03T21:00:00+00:00"})
    return rows


def printed_pdf(game: Game) -> bytes:
    """The sheet as the route prints it: its check code and the QR code of its page."""
    code = game_code(game, "bench-secret")
    return scoresheet_pdf(game, check=(shown(code), "http://192.168.1.20:5000/games/"
                                       f"{game.id}/verify?code={code}"))


def minimal_pdf() -> bytes:
    """A one-cell reportlab PDF on A4: the baseline, reportlab's fixed cost for one page."""
    buf = BytesIO()
    c = Canvas(buf, pagesize=A4, pageCompression=1)
    c.rect(100, 700, 60, 20)
    c.setFont("Helvetica", 10)
    c.drawString(105, 706, "0")
    c.showPage()
    c.save()
    return buf.getvalue()


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(runs: int = 30) -> int:
    start = time.perf_counter()
    fonts()
    register_ms = (time.perf_counter() - start) * 1000
    game = big_game()
    size = len(scoresheet_pdf(game))          # warm-up: first shaping, subsetting caches
    minimal_pdf()
    printed_pdf(game)
    # The sheet with and without its code taken in turns, so a busy machine slows both.
    sheet, printed = [], []
    for _ in range(runs):
        sheet += timed(lambda: scoresheet_pdf(game), 1)
        printed += timed(lambda: printed_pdf(game), 1)
    history = big_history(game)
    unknown = timed(lambda: verify(game, history, "bench-secret", "ZZZZZZZZZZ"), runs)
    base = timed(minimal_pdf, runs)
    med_s, med_b = statistics.median(sheet), statistics.median(base)
    print(f"font registration (once per process): {register_ms:.1f} ms")
    print(f"14 players x 19 rounds sheet ({size} bytes), {runs} runs: "
          f"median {med_s:.1f} ms, p95 {p95(sheet):.1f} ms")
    print(f"the same sheet with its check code and QR code, {runs} runs: "
          f"median {statistics.median(printed):.1f} ms, p95 {p95(printed):.1f} ms")
    print(f"an unknown code checked against {len(history)} history rows, {runs} runs: "
          f"median {statistics.median(unknown):.1f} ms, p95 {p95(unknown):.1f} ms")
    print(f"one-cell reportlab baseline, {runs} runs: median {med_b:.2f} ms, p95 {p95(base):.2f} ms")
    print(f"ratio (median sheet / median baseline): {med_s / med_b:.1f}x")
    ok = med_s < TARGET_MS
    print(f"target median < {TARGET_MS:.0f} ms: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 30))
