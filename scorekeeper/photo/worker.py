"""Photos read in processes of their own, apart from the server's threads.

A read is mostly OpenCV and onnxruntime (which release Python's interpreter lock), but its
Python steps between them take the lock from the threads drawing pages; in a process of its
own, a read competes with the pages only for the cores, and its process is niced (:data:`NICE`)
so that the machine's scheduler serves the pages first.  The processes are started as the
server starts (:meth:`ReadingProcesses.start`; else at the first read) and kept, never
forked from a server full of threads: they are forked from
multiprocessing's fork server, a process of its own started once with the reader's
libraries loaded (:data:`PRELOAD`), so that a reading process lost (killed for memory, say)
is replaced in a fraction of a second, not the second or two a fresh interpreter takes to
load OpenCV and onnxruntime.

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
from contextlib import contextmanager

from .reading import Reading

#: How much nicer than the server a reading process is (0 to 19).
NICE = 10
#: What the fork server loads before it forks the reading processes: the reader's modules
#: and libraries, not its model (a session and its threads are made in each process).
PRELOAD = ["scorekeeper.photo.reader"]


class WorkerLost(Exception):
    """A reading process ended during a read (killed for memory, say); the next read
    starts a fresh one."""


def _start(server: int, threads: int = 1) -> None:
    """In each reading process: nicer than the server (process *server*), *threads*
    threads for the segmenter (one for the rest), and gone when the server is
    (:func:`_leave_with`)."""
    _leave_with(server)
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        os.nice(NICE)
    except OSError:         # a platform without nice: read at the server's priority
        pass
    from . import segment
    segment.THREADS = threads
    from . import reader
    reader.load()           # once, now: the first read takes no longer than the next


def _leave_with(server: int, every: float = 1.0) -> None:
    """End this reading process within *every* seconds of the server process *server*
    ending: a server stopped by a signal sent to it alone (``kill``, a service manager
    that stops the main process only) left its reading processes waiting for work that
    never came, 260 MB each.  The server is watched by its process id, not as this
    process's parent: the parent is the fork server, which stays while any process it
    forked does (they hold its "alive" pipe); once the readers leave, it leaves too."""
    def watch() -> None:
        while _running(server):
            time.sleep(every)
        os._exit(0)
    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def _running(pid: int) -> bool:
    """True while process *pid* runs (one that ended but is not yet reaped has ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except FileNotFoundError:
        return False
    except OSError:          # no /proc (not Linux): ask the system whether it still exists
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def _ready() -> int:
    """A task with nothing to do, for :meth:`ReadingProcesses.start` (its process's id)."""
    return os.getpid()


def _read(data: bytes, set_n: int, out_of_hand: frozenset) -> Reading:
    from .reader import read_hand
    return read_hand(data, set_n, out_of_hand)


def _context():
    """multiprocessing's fork server (its loads set before it starts), where the platform
    has one; else fresh interpreters ("spawn")."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


class ReadingProcesses:
    """*n* processes reading photos, the segmenter in each on *threads* threads;
    :meth:`read` blocks its thread (not the interpreter lock) until the photo is read."""

    def __init__(self, n: int, threads: int = 1):
        self.n, self.threads = n, threads
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.n, mp_context=_context(),
                                                 initializer=_start,
                                                 initargs=(os.getpid(), self.threads))
            return self._pool

    def start(self) -> None:
        """Start the *n* processes now, each loading the reader and its models as it
        starts (the server does, as it starts: else the first photo waits a second or more
        for them), and return once one has loaded (with n > 1 the others may still be
        loading); WorkerLost if one ended meanwhile (the next read starts a fresh one)."""
        pool = self._executor()
        with self._replaced_if_lost(pool):
            # the pool starts a process for each task sent while none is free, up to n
            for future in [pool.submit(_ready) for _ in range(self.n)]:
                future.result()

    def read(self, data: bytes, set_n: int, out_of_hand: frozenset = frozenset()) -> Reading:
        """The photo read in one of the processes (PhotoError as from read_hand)."""
        pool = self._executor()
        with self._replaced_if_lost(pool):
            return pool.submit(_read, data, set_n, out_of_hand).result()

    @contextmanager
    def _replaced_if_lost(self, pool: ProcessPoolExecutor):
        """WorkerLost, and a fresh pool for the next read, when a process of *pool* ended
        during the block."""
        try:
            yield
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
