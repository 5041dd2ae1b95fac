"""Chicken foot on the pages (RULES.md R10): a train drawn with its feet, and its open ends
named so that a person can say which one a tile goes on.

The live table and the ruling page draw each train as its plain tiles, then where it
reaches a double that double across and each of its toes in turn (R10.1, R10.4), and,
where a train has several open ends (R10.5), offer each as a choice: its train's key and
the tile it joins, ``"0@3-3"`` (:func:`end_key`, read back by :func:`split_end_key`).  Pure:
no Flask; the sentences are translated when called inside a request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import BadInput
from .referee.feet import Foot
from .text import _
from .tiles import Tile, parse_tile_text


@dataclass
class FootView:
    """A double drawn across (its number) and its toes, each a :class:`Segment`."""

    number: int
    toes: list["Segment"] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return len(self.toes) < 3


@dataclass
class Segment:
    """A train or a toe: its plain tiles as (near, far) pairs, maybe ending in a foot."""

    tiles: list[tuple[int, int]] = field(default_factory=list)
    foot: FootView | None = None


@dataclass(frozen=True)
class EndChoice:
    """An open end offered on a page: the value its radio sends, and what it says."""

    key: str
    at: Tile
    label: str


def segment(items, start: int) -> Segment:
    """A train (or toe) under chicken foot, from *start* outward, as the pages draw it."""
    out, end = Segment(), start
    for item in items:
        if type(item) is Foot:
            out.foot = FootView(item.double.high,
                                [segment(toe, item.double.high) for toe in item.toes])
            break
        nxt = item.high if item.low == end else item.low
        out.tiles.append((end, nxt))
        end = nxt
    return out


def _labels(items, start: int, labels: dict, double: Tile | None = None, toe: int = 0) -> None:
    """Each open end's sentence, by the tile it joins: the train's last tile, a double with
    fewer than three toes (a new toe), a toe's last tile (R10.5)."""
    if not items:
        return
    end = start
    for item in items[:-1]:
        end = item.high if item.low == end else item.low
    last = items[-1]
    if type(last) is Foot:
        labels[last.double] = _("on the %(tile)s: a new toe", tile=last.double)
        for i, inner in enumerate(last.toes, 1):
            _labels(inner, last.double.high, labels, last.double, i)
        return
    far = last.high if last.low == end else last.low
    if double is None:
        labels[last] = _("at the train's end (ends in %(number)s)", number=far)
    else:
        labels[last] = _("on toe %(toe)s of the %(tile)s (ends in %(number)s)",
                         toe=toe, tile=double, number=far)


def end_key(key: str, at: Tile) -> str:
    """The value a choice of train and open end sends: ``"0@3-3"``."""
    return f"{key}@{at}"


def split_end_key(value: str, field_name: str = "train") -> tuple[str, Tile | None]:
    """A train's key and the open end named with it (None when none was), from a choice."""
    key, sep, at = (value or "").partition("@")
    if not sep:
        return key, None
    tile = parse_tile_text(at, field_name)
    if tile is None:
        raise BadInput(_("Pick a train."), field_name)
    return key, tile


def end_choices(table, name: str | None, key: str) -> list[EndChoice]:
    """The open ends of a train a tile may join, each named, when it has several (a
    chicken-foot train, R10.5); [] when it has one (the train's key alone says it)."""
    if not table.options.chicken_foot:
        return []
    ends = table.facts.open_ends[name]
    if len(ends) < 2:
        return []
    labels = end_labels(table, name)
    return [EndChoice(end_key(key, e.at), e.at, labels.get(e.at, str(e.at))) for e in ends]


def end_labels(table, name: str | None) -> dict:
    """Each open end of a train under chicken foot said in words, by the tile it joins."""
    labels: dict = {}
    _labels(table.train(name), table.engine, labels)
    return labels


def play_end(table, play) -> str:
    """Where a play goes on its train, in words ("" when the train has one open end)."""
    if play.at is None or not several_ends(table, play.train):
        return ""
    return end_labels(table, play.train).get(play.at, "")


def several_ends(table, name: str | None) -> bool:
    """Whether a play on this train must say which open end it joins (R10.5)."""
    return table.options.chicken_foot and len(table.facts.open_ends[name]) > 1


def train_segment(table, name: str | None) -> Segment | None:
    """A train as drawn with its feet, or None when it holds none (drawn as ever)."""
    if not table.options.chicken_foot:
        return None
    items = table.train(name)
    if not any(type(i) is Foot for i in items):
        return None
    return segment(items, table.engine)


def toe_choices(last_tiles: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The ruling page's choices for a toe's last tile (R10.1): none, or a tile of the set
    as it lies ("near-end", as for a train's last tile)."""
    return [("", _("No toe"))] + list(last_tiles[1:])
