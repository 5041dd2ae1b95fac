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

_sessions: dict[Path, object] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Guess:
    """What the classifier makes of one crop: tiles by probability (best first, halves at
    most the set's top), and the probability that it is a tile at all."""

    tiles: tuple[tuple[Tile, float], ...]
    tile: float

    @property
    def best(self) -> Tile:
        return self.tiles[0][0]

    def p(self, tile: Tile) -> float:
        return next((q for t, q in self.tiles if t == tile), 0.0)


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


def guesses(outputs: np.ndarray, set_n: int) -> list[Guess]:
    """The net's *outputs* (N, OUTPUTS) as tiles of a double-*set_n* set by probability:
    P(a-b) = pL(a) pR(b) + pL(b) pR(a) (either way round), over the set's tiles only."""
    top = max(0, min(TOP, set_n))
    out = []
    for o in outputs:
        pl, pr = _softmax(o[LEFT])[:top + 1], _softmax(o[RIGHT])[:top + 1]
        joint = np.outer(pl, pr)
        pair = np.triu(joint + joint.T)
        pair[np.diag_indices(top + 1)] /= 2            # a double counted once
        pair /= max(float(pair.sum()), 1e-12)
        order = np.argsort(-pair, axis=None)[:6]
        tiles = tuple((Tile.of(int(i // (top + 1)), int(i % (top + 1))),
                       float(pair.flat[i])) for i in order)
        out.append(Guess(tiles, float(1.0 / (1.0 + np.exp(o[NOT_A_TILE])))))
    return out


def classify(rgb: np.ndarray, boxes: list[np.ndarray], set_n: int,
             model: Path | None = None) -> list[Guess]:
    """The classifier's guess for each tile outline in *boxes* (photo-array pixels)."""
    if not boxes:
        return []
    x = np.stack([crop_of(rgb, b) for b in boxes]).transpose(0, 3, 1, 2).astype(np.float32)
    return guesses(session(model).run(None, {"crop": x})[0], set_n)
