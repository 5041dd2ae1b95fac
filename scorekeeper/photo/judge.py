"""Deciding a tile from its views: candidates best first, and a confidence.

Thresholds set on renders of the training styles; see docs/photo-reader.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..tiles import Tile
from .crops import View

#: Below this confidence, a tile comes back unsure; the penalties of a doubtful count.
CONFIDENT = 0.8
#: (calibrated on renders of the training styles: merged blobs and slivers summed over all
#: views' halves, the largest spread of pip sizes in a half, the weakest pip's probability)
MERGED, SLIVERS, SPREAD, STRENGTH = 12, 3, 0.15, 0.9
#: A tile whose divider no view shows is never read with confidence (a face with pips but no
#: divider may be something else, or a tile seen badly): at most this, below CONFIDENT.
NO_DIVIDER = 0.4


@dataclass(frozen=True)
class Judgement:
    """A tile decided: its candidates, best first, and how sure (0..1)."""

    candidates: tuple[Tile, ...]
    confidence: float


def _candidates(votes: list[tuple[int, int]], set_n: int) -> list[Tile]:
    """Tiles from the views' votes for (left, right), most votes first; counts above the set
    go last."""
    tally = Counter(Tile.of(a, b) for a, b in votes)
    ranked = sorted(tally, key=lambda t: (-tally[t], not t.in_set(set_n), t))
    return ranked


def judge(views: list[View], set_n: int) -> Judgement:
    """Candidates and a confidence from the views of one tile.

    Confidence starts from how many of the four views read the same tile (and how many views
    saw a tile at all), and drops for every sign that a count may be off: many pip blobs
    that had to be split (touching pips), slivers (bits cut at the outline, or beside a
    pip), pips of unequal size, a weak pip, a half above the set.  The thresholds were set
    on renders of the training styles; see docs/photo-reader.md.
    """
    votes = [(v.halves[0].count, v.halves[1].count) for v in views]
    cands = _candidates(votes, set_n)
    best = cands[0]
    agree = sum(Tile.of(*v) == best for v in votes)
    if agree == len(views):     # all four views, or three, or two of them agree
        conf = {4: 1.0, 3: 0.9, 2: 0.75}.get(len(views), 0.5)
    else:
        conf = 0.6 * agree / len(views)
    halves = [h for v in views for h in v.halves]
    if sum(h.merged for h in halves) > MERGED:
        conf *= 0.6             # many blobs had to be split: touching pips
    if sum(h.slivers for h in halves) >= SLIVERS:
        conf *= 0.6             # bits at the outline or beside pips: outline or count off
    if max(h.spread for h in halves) > SPREAD:
        conf *= 0.7             # pips of unequal size in a half
    if min(h.strength for h in halves) < STRENGTH:
        conf *= 0.8             # a pip the model is not sure of
    if not best.in_set(set_n):
        conf *= 0.5
    # near misses become candidates too: one pip more or fewer on a half
    extra = []
    for da, db in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        a, b = best.low + da, best.high + db
        if 0 <= a and 0 <= b and max(a, b) <= max(set_n, 6):
            t = Tile.of(a, b)
            if t not in cands and t not in extra:
                extra.append(t)
    return Judgement(tuple(cands + extra[:2]), float(conf))
