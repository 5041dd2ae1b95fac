"""The hand as it is laid: face up, its tiles apart, each tile once (R3.3), all of one
size.  The reader's last steps (:func:`.reader._detect`) use it to leave out what a person
would not want asked: a question on part of a tile read with confidence, two sure tiles on
one place, a question about a tile already read, a question far larger than the hand's
tiles and apart from them, or a speck.  Each step takes and gives the reader's
:class:`~.seen.Seen` tiles.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .find import box_width, inside as _inside, median
from .judge import CONFIDENT, Judgement
from .seen import Seen


def asked(j: Judgement) -> Judgement:
    """*j* as a question: its candidates, in their order, no longer read with confidence."""
    return Judgement(j.candidates, CONFIDENT / 2)


#: A question whose middle lies inside a tile read with confidence, and smaller, is part of
#: that tile (:func:`_part_of`): not asked.  Measured in docs/photo-reader.md (round D):
#: questions where no tile is 125 -> 84 on the shared photos, 48 -> 33 on the held-out
#: renders (33 -> 31 with the classifier's mirrored view, also round D), no tile right lost
#: and no silent error more on either.
APART_INSIDE = True
#: Two outlines read with confidence sharing more than this share of the smaller: the one
#: the classifier is less sure of becomes a question (0: never).  Round E (docs/photo-reader.md):
#: on the shared photos by source, wrong and not flagged 10 -> 7, tiles right 376 -> 374; on
#: the held-out renders 11 -> 11 and 111 -> 110 (0.2 to 0.5 alike).
OVERLAP = 0.3
#: A question whose outline lies more than this share on one tile read with confidence is
#: about it (the same tile's outline a little larger, an outline across it and a sliver
#: beside): not asked (None: always asked).  Round F (docs/photo-reader.md): on the shared
#: photos by source questions 176 -> 174, wrong and not flagged 3 -> 3; on the held-out
#: renders 132 -> 131, 10 -> 10 (0.6 the same; 0.5: 11 on the renders).  Summed over the
#: sure tiles it asked 14 fewer, but two sure outlines too large for touching tiles
#: covered a real one between them (jd_column8, the shipped net): a tile lost.
COVERED: float | None = 0.7


def _area(box: np.ndarray) -> float:
    """The area of a 4-corner outline (the shoelace formula)."""
    x, y = box[:, 0], box[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def _part_of(question: np.ndarray, tile: np.ndarray) -> bool:
    """Whether an outline is a part of a tile's (a half read as a tile, a pip, a shadow):
    its middle inside the tile's outline, and smaller (an outline larger than the tile may
    hold another tile beside it)."""
    return _inside(question.mean(axis=0), tile) and _area(question) <= 0.75 * _area(tile)


def _shared(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex outlines share."""
    return float(cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))[0])


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex outlines share, as a share of the smaller one's."""
    return _shared(a, b) / max(1.0, min(_area(a), _area(b)))


def apart(kept: list[Seen]) -> list[Seen]:
    """A hand is laid face up, its tiles apart: a question (a tile not read with
    confidence) that is part of a tile read with confidence is not asked
    (:data:`APART_INSIDE`); of two tiles read with confidence whose outlines share more
    than :data:`OVERLAP` of the smaller, the one the classifier gives less for the tile it
    is read as is asked (no two tiles lie on one place: one outline took in part of a
    neighbour); a question whose outline lies mostly on one tile read with confidence is
    not asked (:data:`COVERED`)."""
    sure = [s for s in kept if s.judgement.confidence >= CONFIDENT]
    if sure and APART_INSIDE:
        kept = [s for s in kept if s.judgement.confidence >= CONFIDENT
                or not any(_part_of(s.box, t.box) for t in sure)]
    out = list(kept)
    placed: list[np.ndarray] = []

    def net_for(s: Seen) -> float:
        return s.guess.p_first(s.judgement.candidates) if s.guess else 0.0

    for i in sorted(range(len(out)), key=lambda i: -net_for(out[i])):
        s = out[i]
        if not OVERLAP or s.judgement.confidence < CONFIDENT:
            continue
        if any(_overlap(s.box, b) > OVERLAP for b in placed):
            out[i] = replace(s, judgement=asked(s.judgement))
        else:
            placed.append(s.box)
    if COVERED is None:
        return out
    sure_boxes = [s.box for s in out if s.judgement.confidence >= CONFIDENT]
    return [s for s in out if s.judgement.confidence >= CONFIDENT
            or _covered(s.box, sure_boxes) <= COVERED]


#: A question whose likeliest tile is one read with confidence elsewhere in the photo, and
#: which the classifier gives that tile at least this, is not asked (None: always asked):
#: each tile exists once (R3.3), so the outline is the same tile seen again or a picture of
#: one (a board printed with dominoes).  Round G (docs/photo-reader.md): on the shared photos
#: by source questions 177 -> 153, where no tile is 74 -> 55, tiles right and wrong and not
#: flagged unchanged; the held-out renders unchanged.  With no limit (0), two questions the
#: reader had all but no idea about (0.09 and 0.20) were dropped on real tiles of the renders.
TAKEN: float | None = 0.35


def taken(kept: list[Seen]) -> list[Seen]:
    """Each tile exists once (R3.3): a question whose first candidate is a tile already read
    with confidence in this photo is not asked when the classifier gives that tile at least
    :data:`TAKEN` (whatever the blob counts said, an engine among them); the other questions
    offer the tiles read elsewhere last (beyond the four shown: not at all)."""
    sure = {s.judgement.candidates[0] for s in kept if s.judgement.confidence >= CONFIDENT}
    if TAKEN is None or not sure:
        return kept
    out = []
    for s in kept:
        j = s.judgement
        if j.confidence >= CONFIDENT:
            out.append(s)
        elif (j.candidates[0] not in sure or s.guess is None
              or s.guess.p(j.candidates[0]) < TAKEN):
            free = tuple(t for t in j.candidates if t not in sure)
            later = tuple(t for t in j.candidates if t in sure)
            out.append(replace(s, judgement=Judgement(free + later, j.confidence)))
    return out


#: Questions unlike the hand in size are not asked (None: always asked), measured against
#: the median width of the tiles read with confidence (at least two; the tiles of one set
#: are of one size): one wider than LARGER times it, apart from the hand (no sure tile
#: covers :data:`TOUCHING` of it, and its middle lies outside the hull of the sure tiles),
#: is something else (a board printed with dominoes, a box); one narrower than SMALLER
#: times it and under TINY pixels wide in the decode it is read from is a speck (a
#: watermark's letter, a bit of a tile cut by the edge).  Round I (docs/photo-reader.md):
#: on the shared photos by source questions 132 -> 105 (with the slivers of
#: crops.SLIVER), where no tile is 55 -> 36, tiles right and wrong and not flagged
#: unchanged, no question dropped with a labelled tile's middle in or near it; the
#: held-out renders unchanged.  Without the hull, 3 questions on real tiles the reader had
#: missed (on the printed board) were dropped.  The hull alone does as well on both sets
#: (one question fewer); the touching test stays for a tile missed at the hand's edge,
#: whose outline may take in a sure neighbour and lie outside the hull (with neither, the
#: photos lost 2 tiles to silence and the renders 1).  Without TINY the renders lost 1 (a
#: pip-sized question, 32 px, the only mark on a tile missed).
LARGER: float | None = 1.45
TOUCHING = 0.05
SMALLER: float | None = 0.4
TINY = 20


def alike(kept: list[Seen]) -> list[Seen]:
    """*kept* less the questions unlike the tiles read with confidence in size: far larger
    and apart from the hand (:data:`LARGER`), or far smaller and a speck
    (:data:`SMALLER`)."""
    sure = [s.box for s in kept if s.judgement.confidence >= CONFIDENT]
    if len(sure) < 2:
        return kept
    width = median(np.array([box_width(b) for b in sure]))
    hand = cv2.convexHull(np.concatenate(sure).astype(np.float32)).reshape(-1, 2)

    def unlike(box: np.ndarray) -> bool:
        w = box_width(box)
        return ((LARGER is not None and w > LARGER * width
                 and not _inside(box.mean(axis=0), hand)
                 and _covered(box, sure) < TOUCHING)
                or (SMALLER is not None and w < SMALLER * width and w < TINY))

    return [s for s in kept if s.judgement.confidence >= CONFIDENT or not unlike(s.box)]


def _covered(box: np.ndarray, tiles: list[np.ndarray]) -> float:
    """The largest share of *box*'s area that one of the outlines *tiles* covers (one each:
    two sure outlines too large for touching tiles may between them cover a third one)."""
    return max((_shared(box, t) for t in tiles), default=0.0) / max(1.0, _area(box))
