"""The segmenter: every pixel of a picture labelled with one of :mod:`.classes`.

One small encoder-decoder (``model.onnx``, trained on renders by ``photolab/train.py``; its
provenance in ``model.json`` beside it), run by onnxruntime (one thread unless told more),
telemetry off.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

from .classes import PIP

MODEL = Path(__file__).resolve().parent / "model.onnx"
#: Pictures go to the segmenter padded (edge pixels repeated) to sides that are multiples of
#: this: the net needs 8 (it halves them three times); 32 is what the deeper net tried in
#: round A2 needed, and what the figures in docs/photo-reader.md were measured with.
MULTIPLE = 32

#: Threads for each run of the segmenter (set before the first read: a reading process
#: of scorekeeper.photo.worker may have more than one core to itself).
THREADS = 1

_session = None
_lock = threading.Lock()


def net():
    """The segmenter's onnxruntime session, made once (:data:`THREADS` threads a run)."""
    global _session
    if _session is None:
        with _lock:
            if _session is None:
                import onnxruntime as ort
                # no telemetry events written on the server's disk (ETW/1DS logging)
                ort.disable_telemetry_events()
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = THREADS
                opts.inter_op_num_threads = 1
                opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
                cv2.setNumThreads(1)
                _session = ort.InferenceSession(str(MODEL), opts,
                                                providers=["CPUExecutionProvider"])
    return _session


def segment(batch: np.ndarray, pips: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """The most likely class of every pixel (N, H, W) uint8, and the pip class's probability
    (N, H, W) float32 (None unless *pips*), of a batch of RGB images (N, H, W, 3) of any
    size (padded to the model's multiple and cut back)."""
    z = logits(batch)
    return _classes(z), (_pip(z) if pips else None)


def logits(batch: np.ndarray) -> np.ndarray:
    """The segmenter's logits (N, classes, H, W) of a batch of RGB images (N, H, W, 3) of
    any size: padded (edge pixels repeated) to the model's multiple, the padding cut."""
    n, h, w, _ = batch.shape
    H, W = -(-h // MULTIPLE) * MULTIPLE, -(-w // MULTIPLE) * MULTIPLE
    if (H, W) != (h, w):
        batch = np.pad(batch, ((0, 0), (0, H - h), (0, W - w), (0, 0)), mode="edge")
    x = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)
    return net().run(None, {"image": x})[0][:, :, :h, :w]


def _classes(logits: np.ndarray) -> np.ndarray:
    """The argmax over the class axis (the first of equal logits), class by class: a few
    whole-array comparisons instead of numpy's strided argmax over an inner axis."""
    best = logits[:, 0].copy()
    classes = np.zeros(best.shape, np.uint8)
    for k in range(1, logits.shape[1]):
        more = logits[:, k] > best
        classes[more] = k
        np.maximum(best, logits[:, k], out=best)
    return classes


def _pip(logits: np.ndarray) -> np.ndarray:
    """The pip class's softmax without the whole softmax: 1 / sum over k of
    exp(l_k - l_pip), summed in class order (the pip's own term is 1)."""
    lp = logits[:, PIP]
    total = None
    for k in range(logits.shape[1]):
        term = np.ones_like(lp) if k == PIP else np.exp(np.minimum(logits[:, k] - lp, 60.0))
        total = term if total is None else total + term
    return (1.0 / total).astype(np.float32)
