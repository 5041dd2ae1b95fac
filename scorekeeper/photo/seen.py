"""The value the reader's steps pass from one to the next: a tile seen in the photo
(:class:`Seen`), used by :mod:`.reader` and :mod:`.hand`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .crops import View
from .judge import Judgement
from .tilenet import Guess


@dataclass(frozen=True, eq=False)
class Seen:
    """A tile seen in the photo: its outline (array pixels, p0->p1 along it), what was
    decided, the views it was decided from, the classifier's guess on its crop, and
    whether the outline is one moved to centre its divider (:data:`.reader.RECENTRE`)."""

    box: np.ndarray
    judgement: Judgement
    views: tuple[View, ...]
    guess: Guess | None = None
    moved: bool = False
