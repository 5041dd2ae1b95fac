"""Photos read in processes of their own, apart from the server's threads.

A read is mostly OpenCV and onnxruntime (which release Python's interpreter lock), but its
Python steps between them take the lock from the threads drawing pages; in a process of its
own, a read competes with the pages only for the cores, and its process is niced (:data:`NICE`)
so that the machine's scheduler serves the pages first.  The processes are started
("spawn", never forked from a server full of threads) at the first read and kept.

What comes back is a :class:`~.reading.Reading`; a :class:`~.decode.PhotoError` comes back
as itself, translated again where it arrives (the request's language).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .reading import Reading

#: How much nicer than the server a reading process is (0 to 19).
NICE = 10


class WorkerLost(Exception):
    """A reading process ended during a read (killed for memory, say); the next read
    starts a fresh one."""


def _start() -> None:
    """In each reading process: nicer than the server, one thread for each library, and
    gone when the server is (:func:`_leave_with`)."""
    _leave_with(os.getppid())
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        os.nice(NICE)
    except OSError:         # a platform without nice: read at the server's priority
        pass
    from . import reader     # loaded once, now: the first read takes no longer than the next
    reader.read_array(__import__("numpy").zeros((64, 64, 3), "uint8"))


def _leave_with(server: int, every: float = 1.0) -> None:
    """End this reading process within *every* seconds of the server process *server*
    ending: a server stopped by a signal sent to it alone (``kill``, a service manager
    that stops the main process only) left its reading processes waiting for work that
    never came, 260 MB each.  When the server ends, this process is handed to another
    parent, which a watch on the parent's id sees."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(every)
        os._exit(0)
    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def _read(data: bytes, set_n: int) -> Reading:
    from .reader import read_hand
    return read_hand(data, set_n)


class ReadingProcesses:
    """*n* processes reading photos; :meth:`read` blocks its thread (not the interpreter
    lock) until the photo is read."""

    def __init__(self, n: int):
        self.n = n
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.n, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start)
            return self._pool

    def read(self, data: bytes, set_n: int) -> Reading:
        """The photo read in one of the processes (PhotoError as from read_hand)."""
        pool = self._executor()
        try:
            return pool.submit(_read, data, set_n).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise WorkerLost() from None

    def close(self) -> None:
        """Stop the processes (a test's app, or the server stopping)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
