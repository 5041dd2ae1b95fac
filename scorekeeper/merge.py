"""Two tablets saved the same round: keep both changes where they touch different players.

A three-way merge per player, like a version-control merge of one line each:
*base* is what my tablet showed when I started typing, *mine* what I saved,
*theirs* what the other tablet saved meanwhile.  Only a player both tablets
changed, to different scores, needs a person to choose.  Pure: no storage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

#: The base is unknown (an old page that did not send it): every difference is asked.
UNKNOWN = object()


@dataclass(frozen=True, slots=True)
class Merge:
    """The merged round: a score for every player, and who needs a choice."""

    scores: dict[str, int]
    theirs: tuple[str, ...] = ()      # players whose score comes from the other tablet
    conflicts: tuple[str, ...] = ()   # both changed, differently: *scores* holds mine for now

    @property
    def clean(self) -> bool:
        """True when no player needs a choice: the merge can be saved as it is."""
        return not self.conflicts


def merge_scores(players: Sequence[str], base: Mapping[str, int | None] | None,
                 mine: Mapping[str, int], theirs: Mapping[str, int] | None) -> Merge:
    """Merge my round into theirs, player by player, against the common *base*.

    *base* None: unknown (every player where mine and theirs differ is a
    conflict).  A player absent from *base* had no score yet.  *theirs* None:
    the round has no scores now (its first recording was undone); there is
    nothing of theirs to keep, so mine is taken whole.
    """
    if theirs is None:
        return Merge(dict(mine))
    scores: dict[str, int] = {}
    kept: list[str] = []
    conflicts: list[str] = []
    for p in players:
        m, t = mine[p], theirs[p]
        b = UNKNOWN if base is None else base.get(p)
        if m == t or t == b:        # the same either way, or only I changed it
            scores[p] = m
        elif m == b:                # only they changed it
            scores[p] = t
            kept.append(p)
        else:                       # both changed it, differently
            scores[p] = m
            conflicts.append(p)
    return Merge(scores, tuple(kept), tuple(conflicts))
