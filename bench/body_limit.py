"""A 300 MB POST to /healthz on the real server: how much of it the server reads, how
much memory and temporary file it takes (issue 26, item 8).

Run from the project root:  .venv/bin/python bench/body_limit.py [--mb 300]

Starts the server (``python -m scorekeeper.serve``, waitress, its own process, 127.0.0.1,
a fresh database and its own temporary folder), waits for it to warm up, then sends the
headers of a POST /healthz with ``Content-Length`` of N MB and its body in 1 MB pieces
until the server answers or stops reading.  Meanwhile it samples, every 20 ms, the
server's resident memory and the size of every open file of the server under its
temporary folder (waitress spools a large body to an unlinked temporary file, which only
/proc shows).  Bounded: at most N MB are sent, and the server is stopped at the end.
Linux only (/proc).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=300, help="the body's size (MB)")
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = Path(tempfile.mkdtemp())
    tmp = folder / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), SCOREKEEPER_DATABASE=str(folder / "db.sqlite"))
    server = subprocess.Popen([sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1",
                               "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL)
    try:
        run(server.pid, port, str(tmp), args.mb)
    finally:
        server.terminate()
        server.wait()


def rss_mb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) // 1024


def spooled(pid: int, tmp: str) -> int:
    """Bytes in the server's open files under *tmp* (unlinked ones included)."""
    total = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith(tmp):
                total += os.stat(f"/proc/{pid}/fd/{fd}").st_size
        except OSError:
            continue
    return total


def run(pid: int, port: int, tmp: str, mb: int) -> None:
    for _ in range(300):   # until it answers /healthz, then a few seconds to warm up
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(8)
    before = rss_mb(pid)
    peak = {"rss": before, "spooled": 0}
    done = threading.Event()

    def watch():
        while not done.is_set():
            try:
                peak["rss"] = max(peak["rss"], rss_mb(pid))
                peak["spooled"] = max(peak["spooled"], spooled(pid, tmp))
            except OSError:
                pass
            time.sleep(0.02)

    threading.Thread(target=watch, daemon=True).start()
    start = time.monotonic()
    sent, answer = 0, b""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(f"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                  f"{mb * 2 ** 20}\r\n\r\n".encode())
        block = b"x" * 2 ** 20
        try:
            for _ in range(mb):
                s.sendall(block)
                sent += 1
        except OSError:
            pass   # the server answered and closed: the rest is never read
        s.settimeout(10)
        try:
            answer = s.recv(200).split(b"\r\n")[0]
        except OSError as error:
            answer = repr(error).encode()
    seconds = time.monotonic() - start
    time.sleep(0.5)
    done.set()
    print(f"POST /healthz, Content-Length {mb} MB: {answer.decode('latin-1')}")
    print(f"   sent before the server stopped reading: {sent} MB of {mb}, in {seconds:.2f} s")
    print(f"   server memory: {before} MB before, {peak['rss']} MB at most "
          f"(+{peak['rss'] - before} MB)")
    print(f"   temporary files of the server: {peak['spooled'] / 2 ** 20:.1f} MB at most")


if __name__ == "__main__":
    main()
