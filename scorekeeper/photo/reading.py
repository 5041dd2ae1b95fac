"""What the photo reader returns: tiles read with confidence, and tiles it is unsure of."""

from __future__ import annotations

from dataclasses import dataclass

from ..tiles import Tile

#: A tile's outline: its 4 corners (x, y) in the full photo's pixels, as shown.
Box = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Found:
    """A tile read with confidence (0..1: how sure the reader is)."""

    tile: Tile
    box: Box
    confidence: float


@dataclass(frozen=True)
class Unsure:
    """A tile the reader could not read with confidence: its candidates, best first."""

    box: Box
    candidates: tuple[Tile, ...]


@dataclass(frozen=True)
class Reading:
    """The tiles of one photo of a hand laid face up."""

    tiles: tuple[Found, ...]
    unsure: tuple[Unsure, ...]
    width: int
    height: int

    def to_json(self) -> dict:
        """The reading as the API answers it."""
        def box(b):
            return [[round(x, 1), round(y, 1)] for x, y in b]
        return {
            "width": self.width, "height": self.height,
            "tiles": [{"tile": f.tile.to_json(), "box": box(f.box),
                       "confidence": round(f.confidence, 3)} for f in self.tiles],
            "unsure": [{"box": box(u.box), "candidates": [c.to_json() for c in u.candidates]}
                       for u in self.unsure],
        }
