"""Photos of 12 megapixels sent at once: does the server keep answering everyone else?

Run from the project root:

    .venv/bin/python bench/photo_load.py [--seconds 10] [--rounds 3] [--photos 4]

1. Starts the real server as run.sh does (bench/server.py: waitress, 8 threads, 127.0.0.1).
2. Renders --photos hands of 12 tiles (photolab/render.py), each made a 4000x3000
   JPEG: a phone's 12 MP photo.
3. In turns, --rounds times: measures /healthz on the idle server for --seconds (a probe
   every 20 ms from a process of its own, as bench/live.py does), then while --photos
   clients each send their photo to POST /api/hand-photo again and again for --seconds
   (so that that many reads are always asked at once), until their last read is answered.
   A client answered 503 waits the Retry-After it was given, as a person sending again
   would, then sends again.
4. Prints the reads (how many, their time p50/p99, the 503s "send it again", and how
   long a 503 took to come) and /healthz p99 under the reads beside the idle server's, as
   a ratio (target: at most 3x, and no answer but 200 or 503).

Bounded: at most 10 rounds of two windows of at most 60 s; the clients stop at the end
of theirs.
"""

from __future__ import annotations

import argparse
import http.client
import io
import os
import sys
import threading
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live import Probe  # noqa: E402  (bench/live.py: /healthz from a process of its own)
from photos import multipart  # noqa: E402  (bench/photos.py: a photo as a phone sends it)
from server import pct, running_server  # noqa: E402

SIZE = (3000, 4000)          # height, width: 12 megapixels


def twelve_megapixel_photos(count: int) -> list[bytes]:
    """*count* JPEGs of 4000x3000 pixels, each a render of a hand of 12 tiles."""
    import cv2
    import numpy as np
    from PIL import Image

    from photolab.render import render_scene
    out = []
    for seed in range(count):
        scene = render_scene(np.random.default_rng(100 + seed), 750, 1000, n_tiles=12,
                             set_n=12, allow_partial=False)
        big = cv2.resize(scene.image, (SIZE[1], SIZE[0]), interpolation=cv2.INTER_CUBIC)
        buf = io.BytesIO()
        Image.fromarray(big).save(buf, "JPEG", quality=90)
        out.append(buf.getvalue())
    return out


class Reader(threading.Thread):
    """One phone sending its photo again and again until told to stop."""

    def __init__(self, port: int, photo: bytes, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.body, self.kind = multipart(photo)
        self.times: list[float] = []
        self.busy: list[float] = []          # how long each 503 took to come
        self.statuses: Counter = Counter()

    def run(self) -> None:
        while not self.stop.is_set():
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            t = time.perf_counter()
            try:
                conn.request("POST", "/api/hand-photo", body=self.body,
                             headers={"Content-Type": self.kind})
                resp = conn.getresponse()
                resp.read()
                self.statuses[resp.status] += 1
                if resp.status == 200:
                    self.times.append(time.perf_counter() - t)
                elif resp.status == 503:
                    self.busy.append(time.perf_counter() - t)
                    self.stop.wait(float(resp.getheader("Retry-After") or 2))
            except OSError as exc:
                self.statuses[type(exc).__name__] += 1
            finally:
                conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=10, help="each window's length (10)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="idle and reading windows, taken in turns (3 of each)")
    parser.add_argument("--photos", type=int, default=4, help="photos read at once (4)")
    args = parser.parse_args()
    seconds = min(max(args.seconds, 5), 60)
    rounds = min(max(args.rounds, 1), 10)
    photos = twelve_megapixel_photos(max(1, min(args.photos, 16)))
    print(f"{len(photos)} photos of {SIZE[1]}x{SIZE[0]} px, "
          f"{sum(map(len, photos)) / len(photos) / 1e6:.1f} MB each; {os.cpu_count()} cores",
          flush=True)
    with running_server(threads=8) as server:
        # the server loads the reader as it starts: one read first, so that is done
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        body, kind = multipart(photos[0])
        conn.request("POST", "/api/hand-photo", body=body, headers={"Content-Type": kind})
        first = conn.getresponse()
        first.read()
        conn.close()
        assert first.status == 200, first.status

        # idle and reading windows taken in turns, so that a change in what else the
        # machine runs weighs on both alike
        idle: list[float] = []
        busy: list[float] = []
        readers: list[Reader] = []
        elapsed = 0.0
        for _round in range(rounds):
            probe = Probe(server.port)
            time.sleep(seconds)
            idle += probe.finish()
            stop = threading.Event()
            these = [Reader(server.port, p, stop) for p in photos]
            probe = Probe(server.port)
            t0 = time.monotonic()
            for r in these:
                r.start()
            time.sleep(seconds)
            stop.set()
            for r in these:                # the reads under way are finished while probed
                r.join(timeout=150)
            busy += probe.finish()
            elapsed += time.monotonic() - t0
            readers += these
        cpu = server.cpu_seconds()

    times = [t for r in readers for t in r.times]
    statuses = sum((r.statuses for r in readers), Counter())
    print(f"\n{len(photos)} clients reading photos for {elapsed:.0f} s in {rounds} windows: "
          f"{len(times)} reads "
          f"({len(times) / elapsed:.2f}/s), answers " +
          ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str)))
    if times:
        print(f"read (upload, wait for a turn, read, answer): p50 {pct(times, 50):.2f} s, "
              f"p99 {pct(times, 99):.2f} s, max {max(times):.2f} s")
    busy_answers = [t for r in readers for t in r.busy]
    if busy_answers:
        print(f"503 (send it again) came in p50 {pct(busy_answers, 50) * 1000:.0f} ms, "
              f"p99 {pct(busy_answers, 99) * 1000:.0f} ms")
    print(f"server CPU over the whole run: {cpu:.1f} s")
    print("/healthz idle p50/p90/p99/max ms:",
          " ".join(f"{pct(idle, q) * 1000:.1f}" for q in (50, 90, 99, 100)),
          f"({len(idle)} probes); reading:",
          " ".join(f"{pct(busy, q) * 1000:.1f}" for q in (50, 90, 99, 100)), f"({len(busy)})")
    ratio = pct(busy, 99) / pct(idle, 99)
    print(f"/healthz p99: idle {pct(idle, 99) * 1000:.1f} ms, while {len(photos)} photos are "
          f"read {pct(busy, 99) * 1000:.1f} ms — {ratio:.2f}x (target: at most 3x)")
    met = (ratio <= 3 and statuses.get(200, 0) > 0
           and statuses.get(200, 0) + statuses.get(503, 0) == sum(statuses.values()))
    print("target:", "met" if met else "NOT met")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
