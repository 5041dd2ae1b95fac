"""The real server for a benchmark: started as run.sh starts it, in its own process.

    with running_server(threads=8) as srv:
        gid = srv.new_game(["Ann", "Bob"], pin="2468")
        ...

The ``scorekeeper`` console script (waitress) on 127.0.0.1, a free port and a
temporary database; stopped (SIGINT, then killed if need be) and the database
removed when the block ends.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scorekeeper_script() -> str:
    beside = Path(sys.executable).with_name("scorekeeper")
    return str(beside if beside.exists() else ROOT / ".venv" / "bin" / "scorekeeper")


class Server:
    """A started server: its port, its process id and a few calls to set it up."""

    def __init__(self, port: int, pid: int | None = None):
        self.port = port
        self.pid = pid
        self.base = f"http://127.0.0.1:{port}"

    def cpu_seconds(self) -> float:
        """The CPU time the server's process has used so far, every thread (Linux's
        /proc/<pid>/stat, user + system): what its answers cost, whatever else runs."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def call(self, method: str, path: str, body=None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            all_headers = {"Content-Type": "application/json", **(headers or {})}
            conn.request(method, path, body=None if body is None else json.dumps(body),
                         headers=all_headers)
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, data, resp
        finally:
            conn.close()

    def new_game(self, players: list[str], **fields) -> str:
        status, data, _resp = self.call("POST", "/api/games", {"players": players, **fields})
        assert status == 201, data
        return json.loads(data)["id"]


@contextmanager
def running_server(threads: int = 8, prepare=None, program: list[str] | None = None):
    """Start the server (as run.sh does) and yield a Server; stop it and clean up after.

    *prepare*, when given, is called with the database's path before the server starts
    (to fill it with a club's history, say).  *program* replaces the ``scorekeeper``
    console script (a benchmark's own variant of it); the same arguments follow.
    """
    tmp = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    port = free_port()
    if prepare is not None:
        prepare(os.path.join(tmp, "bench.db"))
    # This checkout's code first: a console script of another checkout's venv (a git
    # worktree sharing one) would otherwise serve that checkout's package.
    env = {**os.environ, "SCOREKEEPER_DATABASE": os.path.join(tmp, "bench.db"),
           "SCOREKEEPER_SECRET_KEY": "bench",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                       os.environ.get("PYTHONPATH")]))}
    log = open(os.path.join(tmp, "server.log"), "wb")
    command = (program or [scorekeeper_script()]) + ["--host", "127.0.0.1", "--port", str(port),
                                                     "--threads", str(threads)]
    print("server:", " ".join([os.path.relpath(command[0], ROOT)] + command[1:]), flush=True)
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit(f"the server did not start; see {log.name}")
                time.sleep(0.1)
        yield Server(port, process.pid)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def multipart(fields: dict, file_field: str, file_bytes: bytes, filename: str = "file",
              content_type: str = "application/octet-stream") -> tuple[bytes, str]:
    """A multipart/form-data body of *fields* and one file, and its Content-Type."""
    boundary = "----bench-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
             .encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; '
                 f'filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n'
                 .encode() + file_bytes + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), \
        f"multipart/form-data; boundary={boundary}"


def pct(values: list[float], p: float) -> float:
    """The p-th percentile of *values* (nearest rank)."""
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def running_checkout(root, threads: int = 8):
    """running_server() serving the scorekeeper package of the checkout at *root* (this one,
    or an older commit's worktree), whatever the venv's console script would import: its
    folder goes first on sys.path, before the PYTHONPATH running_server() sets."""
    code = (f"import sys; sys.path.insert(0, {str(root)!r}); "
            "from scorekeeper.serve import main; main(sys.argv[1:])")
    return running_server(threads=threads, program=[sys.executable, "-c", code])

