"""Read which tiles a photo of a hand shows.

Two passes of one small segmenter (:mod:`.segment`: ``model.onnx``, trained on renders by
photolab/train.py), which labels every pixel background, tile face, a face's edge band,
divider or pip (:mod:`.classes`):

1. *Find the tiles* (:mod:`.find`).  The photo at 1024 px on its longer side: every divider is a tile (its
   middle the tile's, its direction the tile's across), measured by rays over the label map
   that stop at an edge band (touching tiles) or at the background; a face standing alone in
   a domino's shape gives its outline directly.
2. *Read each tile* (:mod:`.crops`).  The tile is cut out of the sharper decode, square to
   the frame: first wider, to find its own outline, then in four views (64 and 80 px wide,
   each as is and turned half a turn; a close-up at 80 and 112, see :data:`CLOSE_UP`).  A
   view must look like a domino; each half's pips are counted from the pip blobs (a blob
   bigger than a pip counts as several).  A tile found twice (at both sizes)
   is looked at once when its first reading is sure.

A tile is read with confidence (:mod:`.judge`) only when the four views agree and nothing looks doubtful
(blobs that had to be split, faint blobs, slivers at the outline, pips of unequal size);
otherwise it comes back ``unsure``, its candidates ranked by the views' votes.  A face of a
domino's shape with pips on it but no divider in any view comes back ``unsure`` too, never
dropped: a tile left out is an error nothing on the screen would show.  The work is
done by OpenCV and onnxruntime, one thread each, both releasing the GIL.  The steps pass
small frozen values: outlines (4 corners), :class:`~.crops.View`, :class:`~.judge.Judgement`,
:class:`~.seen.Seen`.

3. *Decide with the classifier* (:mod:`.tilenet`, :mod:`.choose`).  A small net trained on
   real photos and renders reads each tile's halves from its straightened crop; where it
   agrees with the blob counts, or is very sure alone, the tile is read with confidence; where
   it all but rules out the blob counts' tile, that tile becomes a question; and each tile
   exists once (R3.3): of a tile read twice, the reading the classifier is less sure of
   goes, and the tiles the round says cannot be in this hand (its engine, tiles counted in
   other hands) are never offered.  A tile read with confidence on an outline that does
   not sit centred on its divider is asked, unless the classifier is sure of it; such a
   tile is looked at again on its outline moved to centre the divider.  A hand (:mod:`.hand`)
   is laid face up with its tiles apart: a question on part of a tile read with confidence
   (a half read as a tile, a pip) is not asked, nor is a question the classifier reads as
   a tile already read with confidence in the photo (each tile exists once), nor one far
   larger than the tiles read with confidence and apart from the hand, or a speck far
   smaller.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .decode import decode
from .find import box_width, find_tiles
from .judge import CONFIDENT, NO_DIVIDER, Judgement, judge
from .reading import Box, Found, Reading, Unsure
from .segment import segment
from .crops import View, read_view, rectify, refined
from .choose import choose, consistent
from .hand import alike, apart, asked, taken
from .seen import Seen
from .tilenet import Guess, classify, session
from ..tiles import Tile

#: Detection works on the photo scaled to this longer side (and to half of it); tiles are
#: cut out of a decode at least READ_SIDE long (a 12 MP JPEG is decoded at half size).
DETECT_SIDE = 1024
READ_SIDE = 1600
#: A tile is first cut out at this width (its short side), then read at these widths.
CROP_W = 56
VIEW_WIDTHS = (64, 80)
#: A tile at least this wide in the decode it is cut out of (its short side, in pixels: a
#: JPEG is decoded READ_SIDE to twice that long, other formats whole, so this is "sharp
#: enough for a 112 px view", not a share of the frame) is a close-up: it is read at
#: CLOSE_WIDTHS instead, where the pips of its 10 to 12 come apart, and at VIEW_WIDTHS only
#: when no view at those sizes is a tile at all (a close-up double blank at 112 px can be
#: none); a close-up that is a question there stays one.
CLOSE_UP = 110
CLOSE_WIDTHS = (80, 112)
#: A tile must look like one in this many views to be read at all.
MIN_VIEWS = 1


def read_hand(data: bytes, set_n: int = 12,
              out_of_hand: frozenset[Tile] = frozenset()) -> Reading:
    """Read the tiles of the photo in *data* (JPEG, PNG, WebP, HEIC) of a hand laid face up;
    *set_n* is the set in play (double-*set_n*); *out_of_hand*, the tiles the round says
    cannot be in this hand (its engine, tiles counted in other hands: R3.3), which the
    reader never offers (a tile its pip counts read as one of them is asked about).  Raises PhotoError for a
    photo it cannot decode."""
    dec = decode(data, long_side=READ_SIDE)
    return read_array(dec.rgb, set_n, dec.width, dec.height, out_of_hand)


def load() -> None:
    """Load the reader's libraries and both models now (a server starting, a reading
    process starting), so that the first photo takes no longer than the next."""
    read_array(np.zeros((64, 64, 3), np.uint8))
    session()


def read_array(rgb: np.ndarray, set_n: int = 12, width: int | None = None,
               height: int | None = None,
               out_of_hand: frozenset[Tile] = frozenset()) -> Reading:
    """Read the tiles of an RGB array (the photo, maybe reduced from *width* x *height*)."""
    h, w = rgb.shape[:2]
    width, height = width or w, height or h
    to_photo = width / w
    found: list[Found] = []
    unsure: list[Unsure] = []
    for seen in _detect(rgb, set_n, out_of_hand):
        box: Box = tuple((float(x * to_photo), float(y * to_photo))  # type: ignore[assignment]
                         for x, y in seen.box)
        j = seen.judgement
        if j.confidence >= CONFIDENT:
            found.append(Found(j.candidates[0], box, round(j.confidence, 3)))
        else:
            unsure.append(Unsure(box, tuple(j.candidates[:4])))
    return Reading(tuple(found), tuple(unsure), width, height)


def _boxes(small: np.ndarray) -> list[np.ndarray]:
    """Tile outlines found in *small* (the photo scaled for detection), in its pixels."""
    classes, _ = segment(small[None], pips=False)
    return find_tiles(classes[0])


def _first_look(rgb: np.ndarray, boxes: list[np.ndarray]) -> list[np.ndarray | None]:
    """Each box looked at closely (cut out 1.3 times wider): the tile's own outline there
    (its divider showing, or failing that a face shaped like a tile with pips on it); None
    where no face-up tile is centred."""
    if not boxes:
        return []
    w0 = CROP_W
    first = [rectify(rgb, b, w0, grow=1.3) for b in boxes]
    classes, pips = segment(np.stack([c for c, _ in first]))
    out = []
    for (crop, M), cl, pp in zip(first, classes, pips):
        view = read_view(cl, pp, w0, within=1.15 / 1.3)
        if view is None or view.short < 0.4 * w0:
            out.append(None)
        elif view.divider >= 0.3 or view.shaped_like_a_tile():
            out.append(refined(view, M))
        else:
            out.append(None)        # no divider and no pips: face down, or not a tile
    return out


def _outlines(rgb: np.ndarray) -> list[np.ndarray]:
    """Step 1: the outlines of the tiles in *rgb* (array pixels), each looked at closely."""
    # at two sizes: tiles of a close-up are too big for the model at the first
    h, w = rgb.shape[:2]
    k = DETECT_SIDE / max(h, w)
    small = cv2.resize(rgb, (max(8, round(w * k)), max(8, round(h * k))),
                       interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    half = cv2.resize(small, (max(8, small.shape[1] // 2), max(8, small.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    found = _boxes(small)
    found += [b * (small.shape[1] / half.shape[1]) for b in _boxes(half)]
    return [look for look in _first_look(rgb, [b / k for b in found]) if look is not None]


def _decide(views: list[View], set_n: int) -> tuple[Judgement, tuple[View, ...]] | None:
    """Step 2 for one tile: decided from the views that look like a tile; failing that, a
    face with pips but no divider to be seen is a tile it cannot read for sure (a missed
    tile is a silent error; an unsure one is flagged); None if not a tile at all."""
    tiled = [v for v in views if v.looks_like_a_tile()]
    if len(tiled) >= MIN_VIEWS:
        return judge(tiled, set_n), tuple(tiled)
    tiled = [v for v in views if v.shaped_like_a_tile()]
    if not tiled:
        return None             # not a tile (or one too hidden to be sure it is one)
    j = judge(tiled, set_n)
    return Judgement(j.candidates, min(j.confidence, NO_DIVIDER)), tuple(tiled)


def _detect(rgb: np.ndarray, set_n: int,
            out_of_hand: frozenset[Tile] = frozenset()) -> list[Seen]:
    """Every tile seen in *rgb*, each once: the surer reading of one found twice, and the
    hand consistent with the set and the round."""
    judged = _judged_once(rgb, _outlines(rgb), set_n)
    if RECENTRE:
        judged += [s and replace(s, moved=True)
                   for s in _judged(rgb, _recentred(judged), set_n)]
    return alike(taken(apart(_consistent(_once(_classified(rgb, judged, set_n,
                                                           out_of_hand))))))


#: A tile whose views put its divider off its outline's middle (:data:`OFF_MIDDLE`: the
#: outline took in part of a touching neighbour, or missed part of the tile) is looked at
#: again on its outline moved along its length so that the divider is its middle; of the
#: two, the surer reading stays (:func:`_once`; a sure one still off its divider is asked,
#: :func:`_centred`), and of a tile read twice the moved outline's reading goes first
#: (:func:`_consistent`: a gap between two tiles end to end may pass for a divider).
#: Round J (docs/photo-reader.md): on the shared photos by source tiles right 415 -> 423,
#: wrong and not flagged 3 -> 2; on the held-out renders 115 -> 117, 10 -> 10 (the moved
#: outline also made twice as long as wide: 422 and 3, 117 and 11, before the moved
#: readings went first in :func:`_consistent`).
RECENTRE = True


#: Two outlines are of one place when their middles lie closer than this share of the
#: narrower one's width (:func:`_judged_once`, :func:`_once`).
SAME_PLACE = 0.4


def _judged_once(rgb: np.ndarray, tiles: list[np.ndarray], set_n: int) -> list[Seen | None]:
    """Step 2, a place found twice looked at once where once is enough: the first outline
    of each place (in the order step 1 found them) is judged; the others there are judged
    only when it was not read with confidence, and otherwise take its judgement on their own
    outline (the classifier still reads each outline's crop, and :func:`_once` keeps the
    surer).  A tile found at both sizes costs one tile's views instead of two."""
    centres = np.array([t.mean(axis=0) for t in tiles]).reshape(-1, 2)
    widths = np.array([box_width(t) for t in tiles])
    first: list[int] = []
    lead = []
    for i in range(len(tiles)):
        near = (np.hypot(*(centres[first] - centres[i]).T)
                < SAME_PLACE * np.minimum(widths[first], widths[i])) if first else []
        k = first[int(np.argmax(near))] if np.any(near) else i
        lead.append(k)
        if k == i:
            first.append(i)
    out: list[Seen | None] = [None] * len(tiles)
    for i, s in zip(first, _judged(rgb, [tiles[i] for i in first], set_n)):
        out[i] = s
    again = []
    for i, k in enumerate(lead):
        if k == i:
            continue
        if out[k] is None or out[k].judgement.confidence < CONFIDENT:
            again.append(i)
        else:
            out[i] = Seen(tiles[i], out[k].judgement, out[k].views)
    if again:
        for i, s in zip(again, _judged(rgb, [tiles[i] for i in again], set_n)):
            out[i] = s
    return out


def _classified(rgb: np.ndarray, judged: list[Seen | None], set_n: int,
                out_of_hand: frozenset[Tile] = frozenset()) -> list[Seen]:
    """Step 3: each tile decided again with the classifier's guess on its crop
    (:mod:`.choose`), tiles *out_of_hand* left out; an outline most likely no tile, that
    nothing read with confidence, goes."""
    seen = [s for s in judged if s is not None]
    out = []
    for s, g in zip(seen, classify(rgb, [s.box for s in seen], set_n, out_of_hand)):
        j = choose(s.judgement, g, out_of_hand=out_of_hand)
        if j is not None:
            out.append(replace(s, judgement=_centred(j, s.views, g), guess=g))
    return out


#: A tile read with confidence whose divider lies further than this share of its length
#: from its outline's middle (the mean over its views), and whose crop the classifier gives
#: less than OFF_MIDDLE_SURE for that very tile, is asked (None: never).  A tile's divider
#: is its middle: an outline off it took in part of a touching neighbour.  An outline
#: judged as its place's first outline (:func:`_judged_once`) is measured by that one's
#: views.  Round F (docs/photo-reader.md): on the shared photos by source wrong and not
#: flagged 7 -> 2, tiles right unchanged; on the held-out renders 11 -> 10, right unchanged.
OFF_MIDDLE: float | None = 0.07
OFF_MIDDLE_SURE = 0.8


def _centred(j: Judgement, views: tuple[View, ...], g: Guess) -> Judgement:
    """*j*, or a question of it (its candidates kept) when it was read with confidence, its
    views put the divider off the outline's middle (:data:`OFF_MIDDLE`), and the classifier
    gives its tile less than :data:`OFF_MIDDLE_SURE`."""
    if (j.confidence < CONFIDENT or g.p(j.candidates[0]) >= OFF_MIDDLE_SURE
            or not _off_middle(views)):
        return j
    return asked(j)


def _off_middle(views: tuple[View, ...]) -> bool:
    """Whether the views put the divider off the outline's middle (:data:`OFF_MIDDLE`)."""
    return (OFF_MIDDLE is not None and bool(views)
            and float(np.mean([v.offset for v in views])) > OFF_MIDDLE)


def _consistent(kept: list[Seen]) -> list[Seen]:
    """Each tile exists once (R3.3): of a tile read twice, the reading on an outline off
    its divider, or moved to centre it (:data:`RECENTRE`), goes, else the one the
    classifier is less sure of (:func:`.choose.consistent`).  Round J
    (docs/photo-reader.md): an outline across two tiles, read as one of them, no longer
    pushes out that tile's own outline (shared photos by source 414 -> 415 right; the
    held-out renders unchanged); an outline across the halves of two tiles end to end,
    moved to centre the gap between them, no longer pushes out a tile it reads (421 ->
    423; putting the moved outlines last where two sure outlines overlap too,
    :func:`.hand.apart`, gave 419 and 4 silent: not kept)."""
    decided = consistent([(s.judgement, s.guess) for s in kept],
                         doubtful=[s.moved or _off_middle(s.views) for s in kept])
    return [replace(s, judgement=j) for s, j in zip(kept, decided) if j is not None]


def _judged(rgb: np.ndarray, tiles: list[np.ndarray], set_n: int) -> list[Seen | None]:
    """Step 2 for each outline of step 1: what it is (None: not a tile); close-ups
    (:data:`CLOSE_UP`) read at :data:`CLOSE_WIDTHS`, the others and the close-ups no view
    of which looked like a tile at :data:`VIEW_WIDTHS`."""
    close = [i for i, b in enumerate(tiles) if box_width(b) >= CLOSE_UP]
    out: list[Seen | None] = [None] * len(tiles)
    for i, s in zip(close, _judged_at(rgb, [tiles[i] for i in close], set_n, CLOSE_WIDTHS)):
        out[i] = s
    rest = [i for i in range(len(tiles)) if out[i] is None]
    for i, s in zip(rest, _judged_at(rgb, [tiles[i] for i in rest], set_n, VIEW_WIDTHS)):
        out[i] = s
    return out


def _judged_at(rgb: np.ndarray, tiles: list[np.ndarray], set_n: int,
               view_widths: tuple[int, ...]) -> list[Seen | None]:
    """What each outline is, from its views at *view_widths*, each as is and turned half a
    turn (None: not a tile)."""
    if not tiles:
        return []
    seen = {}
    for vw in view_widths:
        batch = [rectify(rgb, b, vw)[0] for b in tiles]
        seen[vw] = segment(np.stack(batch + [c[::-1, ::-1] for c in batch]))
    out: list[Seen | None] = []
    n = len(tiles)
    for i, b in enumerate(tiles):
        views = [_turned(read_view(seen[vw][0][j * n + i], seen[vw][1][j * n + i], vw), j)
                 for vw in view_widths for j in (0, 1)]
        decided = _decide([v for v in views if v is not None], set_n)
        out.append(None if decided is None else Seen(b, *decided))
    return out


def _turned(view: View | None, turned: int) -> View | None:
    """*view*, its divider's shift measured along its outline (p0 -> p1) whichever way round
    the view was cut."""
    if view is None or not turned:
        return view
    return replace(view, shift=-view.shift)


def _recentred(judged: list[Seen | None]) -> list[np.ndarray]:
    """The outline of each tile whose views put its divider off the middle
    (:data:`OFF_MIDDLE`), moved along its length (p0 -> p1) by the divider's mean shift so
    that the divider is its middle; one per place."""
    out: list[np.ndarray] = []
    looked: set[int] = set()
    for s in judged:
        if s is None or not _off_middle(s.views) or id(s.views) in looked:
            continue        # (a place's second outline judged by its first's views: once)
        looked.add(id(s.views))
        box = s.box + float(np.mean([v.shift for v in s.views])) * (s.box[1] - s.box[0])
        if all(np.linalg.norm(box.mean(axis=0) - o.mean(axis=0)) >= SAME_PLACE * box_width(o)
               for o in out):
            out.append(box)
    return out


def _once(judged: list[Seen | None]) -> list[Seen]:
    """Each tile once: of a tile found twice (at both sizes, or from its divider and its
    face), the surer reading."""
    order = sorted((t for t in judged if t is not None), key=lambda t: -t.judgement.confidence)
    centres = [t.box.mean(axis=0) for t in order]      # each outline's measured once
    widths = [box_width(t.box) for t in order]
    kept: list[int] = []
    for i in range(len(order)):
        if all(np.linalg.norm(centres[i] - centres[k]) >= SAME_PLACE * min(widths[k], widths[i])
               for k in kept):
            kept.append(i)
    return [order[i] for i in kept]
