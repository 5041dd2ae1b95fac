"""Is a question about a tile at all?  Limits on what the reader already measured, learnt
from real photos (photolab/clutter.py, validated on whole sources held out).

The reader asks about a face it is unsure of; on a cluttered table many such faces are
flowers, a cactus, a wallet.  What tells them apart is in the views the reader took: their
shape against a domino's, their divider, their pips' counts and clarity, and above all
their size against the other tiles of the photo (the tiles of one hand are one size).
:func:`features` turns one tile seen into numbers; ``clutter.json`` (its provenance inside)
holds, for a few of them, a limit no question on a real tile passed in any source (with a
margin); :func:`not_a_tile` says whether a question passes one, and the reader then does not
ask it.  Tiles read with confidence are never dropped: a tile left out is an error nothing
on the screen shows.  (A logistic model over every feature did worse on sources held out;
docs/photo-reader.md.)
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from .crops import View

WEIGHTS = Path(__file__).resolve().parent / "clutter.json"

#: The features' names, in order (the weights file names them too, and must agree).
NAMES = ("views", "divided", "confidence", "aspect", "fill", "face", "divider", "across",
         "offset", "pips", "pips_per_half_max", "strength", "spread", "merged", "slivers",
         "soft_extra", "size_vs_photo", "size_vs_sure", "agree")


def features(views: tuple[View, ...], divided: bool, confidence: float, width: float,
             photo_widths: list[float], sure_widths: list[float],
             agree: float) -> list[float]:
    """The numbers one tile seen is judged by (in :data:`NAMES`' order)."""
    halves = [h for v in views for h in v.halves]

    def mean(values):
        values = list(values)
        return float(sum(values) / len(values)) if values else 0.0
    med_all = float(np.median(photo_widths)) if photo_widths else width
    med_sure = float(np.median(sure_widths)) if sure_widths else med_all
    return [
        float(len(views)), float(divided), float(confidence),
        mean(v.aspect for v in views), mean(v.fill for v in views), mean(v.face for v in views),
        mean(v.divider for v in views), mean(v.across for v in views),
        mean(v.offset for v in views),
        mean(sum(h.count for h in v.halves) for v in views),
        float(max((h.count for h in halves), default=0)),
        float(min((h.strength for h in halves), default=1.0)),
        float(max((h.spread for h in halves), default=0.0)),
        float(sum(h.merged for h in halves)), float(sum(h.slivers for h in halves)),
        float(sum(max(0, h.soft - h.blobs) for h in halves)),
        abs(math.log(max(width, 1e-3) / max(med_all, 1e-3))),
        abs(math.log(max(width, 1e-3) / max(med_sure, 1e-3))),
        float(agree),
    ]


@lru_cache(maxsize=1)
def _model() -> dict | None:
    if not WEIGHTS.exists():
        return None
    model = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    if tuple(model["names"]) != NAMES:
        raise ValueError("clutter.json names other features than scorekeeper/photo/clutter.py")
    return model


def limits() -> dict[int, float]:
    """Feature index -> the limit a question on a tile stays within (none: no model)."""
    model = _model()
    if model is None:
        return {}
    return {NAMES.index(name): float(value) for name, value in model["limits"].items()}


def not_a_tile(x: list[float], bounds: dict[int, float] | None = None) -> bool:
    """Whether a question with features *x* passes a limit: likely no tile at all."""
    bounds = limits() if bounds is None else bounds
    return any(x[i] > value for i, value in bounds.items())
