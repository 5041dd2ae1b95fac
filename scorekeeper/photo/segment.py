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


def segment(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The most likely class of every pixel (N, H, W) uint8, and the pip class's probability
    (N, H, W) float32, of a batch of RGB images (N, H, W, 3) of any size (padded to the
    model's multiple and cut back)."""
    n, h, w, _ = batch.shape
    H, W = -(-h // MULTIPLE) * MULTIPLE, -(-w // MULTIPLE) * MULTIPLE
    if (H, W) != (h, w):
        batch = np.pad(batch, ((0, 0), (0, H - h), (0, W - w), (0, 0)), mode="edge")
    x = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)
    logits = net().run(None, {"image": x})[0]
    # the pip's softmax without the whole softmax: 1 / sum(exp(l_k - l_pip))
    rel = np.exp(np.minimum(logits - logits[:, PIP:PIP + 1], 60.0))
    classes, pip = logits.argmax(axis=1).astype(np.uint8), 1.0 / rel.sum(axis=1)
    return classes[:, :h, :w], pip[:, :h, :w].astype(np.float32)
