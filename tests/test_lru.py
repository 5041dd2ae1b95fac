"""The one cache helper (lru.LRU): bounded, least recent out first, safe across threads."""

import sys
import threading

import pytest

from scorekeeper.lru import LRU


def test_it_holds_at_most_its_size():
    lru = LRU(3)
    for n in range(10):
        lru.put(n, str(n))
    assert len(lru) == 3
    assert [n for n in range(10) if n in lru] == [7, 8, 9]     # the three most recent
    assert lru.get(9) == "9" and lru.get(0) is None and lru.get(0, "gone") == "gone"


def test_reading_an_entry_keeps_it_longest():
    lru = LRU(3)
    for key in "abc":
        lru.put(key, key.upper())
    assert lru.get("a") == "A"      # a is now the most recent: b is the least
    lru.put("d", "D")
    assert "b" not in lru and all(k in lru for k in "acd")
    lru.put("c", "C2")              # writing again also makes it the most recent
    lru.put("e", "E")
    assert "a" not in lru and lru.get("c") == "C2" and len(lru) == 3


def test_a_missing_entry_changes_nothing():
    lru = LRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("x") is None
    lru.put("c", 3)
    assert "a" not in lru and "b" in lru and "c" in lru


def test_a_cache_holds_at_least_one_entry():
    with pytest.raises(ValueError):
        LRU(0)


@pytest.fixture
def eager_switching():
    """Threads handed the interpreter often, so that an unguarded step would be caught."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_threads_writing_and_reading_at_once_keep_it_whole(eager_switching):
    lru = LRU(5)
    errors = []
    start = threading.Barrier(8)

    def work(k: int) -> None:
        try:
            start.wait()
            for n in range(20000):
                key = (k, n % 80)
                lru.put(key, n)
                value = lru.get(key)
                assert value is None or isinstance(value, int)   # evicted by another, or kept
                assert len(lru) <= 5
        except Exception as error:  # noqa: BLE001 - reported below, with the thread's failure
            errors.append(error)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(lru) == 5
