"""One small cache for the app's three: a bounded map, least recently used out first.

The kept pages (:mod:`.updates`), the checked session cookies (:mod:`.sessions`) and
the checked PINs (:mod:`.pins`) each hold one, made per app in ``app.extensions`` (or
on the app's session interface), so two apps — two tests — never share what they keep.
Thread-safe: waitress answers from several threads at once.

Decision: this class rather than ``cachetools.LRUCache``: that one needs a lock around
every call all the same, and would be a dependency for twenty lines.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most *size* entries; reading or writing one makes it the most recent, and a new
    entry past the bound drops the least recent.  Every call holds one lock."""

    def __init__(self, size: int):
        if size < 1:
            raise ValueError("an LRU holds at least one entry")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, default: V | None = None) -> V | None:
        """The entry for *key* (now the most recent), or *default*."""
        with self._lock:
            try:
                self._entries.move_to_end(key)
            except KeyError:
                return default
            return self._entries[key]

    def put(self, key: K, value: V) -> None:
        """Keep *value* for *key* as the most recent entry, dropping the least recent past
        the bound."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __repr__(self) -> str:
        return f"<LRU {len(self)}/{self.size}>"
