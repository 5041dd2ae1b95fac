"""The tile classifier: each tile's two halves read from its straightened crop.

A small convolutional net (``tilenet.onnx``, trained by ``photolab/train_crops.py`` on the
reader's own crops of real photos and renders; its provenance in ``tilenet.json`` beside
it) answers, for a crop of a tile (:func:`crop_of`), how many pips each half shows (0 to
:data:`TOP`) and how likely the crop shows no face-up tile at all.  Its outputs are
defined here, in one place.  Run by onnxruntime on one thread, telemetry off.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

import numpy as np

from ..tiles import Tile
from .crops import rectify

MODEL = Path(__file__).resolve().parent / "tilenet.onnx"
#: A tile is cut out this wide (its short side; twice as long), with the crops' margin.
CLS_W = 32
#: The most pips a half can show (a double-18 set).
TOP = 18
#: The net's outputs, in order: the left half's logits over 0..TOP pips, the right half's,
#: then one logit that the crop shows no face-up tile.
LEFT = slice(0, TOP + 1)
RIGHT = slice(TOP + 1, 2 * (TOP + 1))
NOT_A_TILE = 2 * (TOP + 1)
OUTPUTS = NOT_A_TILE + 1

#: The tiles a guess offers (candidates of a question, the net's alternatives).
OFFERED = 6

_sessions: dict[Path, object] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Guess:
    """What the classifier makes of one crop: the tiles it offers by probability (best
    first, halves at most the set's top: :data:`OFFERED` of them), the probability that it
    is a tile at all, and the set's other tiles by probability (what :meth:`p` says of a
    tile not offered)."""

    tiles: tuple[tuple[Tile, float], ...]
    tile: float
    others: tuple[tuple[Tile, float], ...] = ()

    @property
    def best(self) -> Tile:
        """The likeliest tile (a Guess offers at least one unless every tile of the set is
        out of the hand)."""
        return self.tiles[0][0]

    def p(self, tile: Tile) -> float:
        """The net's probability for *tile*, offered or not (0 for one out of the hand or
        above the set's top)."""
        return next((q for t, q in chain(self.tiles, self.others) if t == tile), 0.0)

    def p_first(self, candidates: tuple[Tile, ...]) -> float:
        """The probability of the first of *candidates*, the tile a reading says (0 with
        none): what ranks two readings of one place or one tile."""
        return self.p(candidates[0]) if candidates else 0.0


def crop_of(rgb: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The classifier's input for the tile in *box*: (CLS_W + 16, 2 CLS_W + 16, 3) uint8."""
    return rectify(rgb, box, CLS_W)[0]


def session(model: Path | None = None):
    """The classifier's onnxruntime session, made once per model file (one thread)."""
    model = model or MODEL
    if model not in _sessions:
        with _lock:
            if model not in _sessions:
                import onnxruntime as ort
                ort.disable_telemetry_events()
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = 1
                opts.inter_op_num_threads = 1
                opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
                _sessions[model] = ort.InferenceSession(str(model), opts,
                                                        providers=["CPUExecutionProvider"])
    return _sessions[model]


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _pairs(o: np.ndarray, top: int) -> np.ndarray:
    """P(a-b) = pL(a) pR(b) + pL(b) pR(a) for a <= b (upper triangle), from one output row."""
    pl, pr = _softmax(o[LEFT])[:top + 1], _softmax(o[RIGHT])[:top + 1]
    joint = np.outer(pl, pr)
    pair = np.triu(joint + joint.T)
    pair[np.diag_indices(top + 1)] /= 2            # a double counted once
    return pair / max(float(pair.sum()), 1e-12)


def guesses(outputs: np.ndarray, set_n: int,
            out_of_hand: frozenset[Tile] = frozenset()) -> list[Guess]:
    """The net's *outputs* (N, OUTPUTS), or (N, V, OUTPUTS) for V views of each crop, as
    tiles of a double-*set_n* set by probability: P(a-b) = pL(a) pR(b) + pL(b) pR(a) (either
    way round), over the set's tiles only, averaged over the views.  Tiles *out_of_hand*
    (the round's engine, tiles counted in other hands: R3.3) are not offered, and the
    others keep their own probability (not raised to fill the gap): a crop that looks like
    the engine is not read as its neighbour with more confidence than the net has in it."""
    top = max(0, min(TOP, set_n))
    out = []
    for o in outputs:
        rows = o.reshape(-1, OUTPUTS)
        pair = np.mean([_pairs(r, top) for r in rows], axis=0)
        pair[np.tril_indices(top + 1, -1)] = -1.0     # a tile once, its smaller end first
        for t in out_of_hand:
            if t.high <= top:
                pair[t.low, t.high] = -1.0             # never among the tiles offered
        order = np.argsort(-pair, axis=None)
        tiles = tuple((Tile.of(int(i // (top + 1)), int(i % (top + 1))),
                       float(pair.flat[i])) for i in order if pair.flat[i] >= 0)
        tile = float(np.mean(1.0 / (1.0 + np.exp(rows[:, NOT_A_TILE]))))
        out.append(Guess(tiles[:OFFERED], tile, tiles[OFFERED:]))
    return out


#: How many views of each crop the net reads (:func:`views`): 2, as it is and mirrored, the
#: probabilities averaged (docs/photo-reader.md, round D: on the shared photos, each read by
#: a net that never saw its source, tiles wrong and not flagged 12 -> 9 of 447; on the
#: held-out renders 9 -> 11 of 213).
VIEWS = 2


def views(x: np.ndarray) -> np.ndarray:
    """The crops *x* (N, 3, H, W) as the net reads them: each as it is and mirrored top to
    bottom, (N, VIEWS, 3, H, W).  (A half turn adds nothing: the net reads each half the
    same way up, so a crop turned gives the same halves swapped.)"""
    return np.stack([x, x[:, :, ::-1, :]][:VIEWS], axis=1)


def classify(rgb: np.ndarray, boxes: list[np.ndarray], set_n: int,
             out_of_hand: frozenset[Tile] = frozenset(),
             model: Path | None = None) -> list[Guess]:
    """The classifier's guess for each tile outline in *boxes* (photo-array pixels), tiles
    *out_of_hand* left out (:func:`guesses`)."""
    if not boxes:
        return []
    x = views(np.stack([crop_of(rgb, b) for b in boxes]).transpose(0, 3, 1, 2))
    n = len(boxes)
    flat = np.ascontiguousarray(x.reshape(-1, *x.shape[2:]), dtype=np.float32)
    out = session(model).run(None, {"crop": flat})[0]
    return guesses(out.reshape(n, -1, OUTPUTS), set_n, out_of_hand)
