"""Deciding each tile from both readers: the blob counts (:mod:`.judge`) and the classifier
on its crop (:mod:`.tilenet`); then the hand made consistent with the set (R3.3: each tile
exists once).

The thresholds (:data:`RULES`) were chosen on the classifier's predictions for photos of
sources it never saw (photolab/train_crops.py, leave-sources-out); see docs/photo-reader.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tiles import Tile
from .judge import CONFIDENT, Judgement
from .tilenet import Guess


@dataclass(frozen=True)
class Rules:
    """When the classifier's word counts: *agree*, its probability for the blob counts' best
    tile that reads it with confidence; *alone*, its probability for another tile that reads
    that one with confidence instead; *not_tile*, the probability of a tile at all under
    which an outline the blob counts were unsure of is no question but dropped; *veto*, its
    probability for the blob counts' confident tile under which that tile becomes a
    question, when it is itself at least *firm* sure of another.  A second tile read as one
    already read (R3.3) goes when *drop_twice*; otherwise it is a question.  Where both
    read the same tile, each without much confidence, it is read with confidence when the
    classifier gives it at least *together* and the blob counts at least *counts*.  Where
    the classifier likes another tile better without being sure of it (under *alone*), the
    blob counts' tile is read with confidence when they give it at least *backed* and the
    classifier at least *backing*."""

    agree: float
    alone: float
    not_tile: float
    veto: float
    firm: float = 0.0
    drop_twice: bool = False
    together: float = 1.0
    counts: float = 1.0
    backing: float = 1.0
    backed: float = 1.0


#: Chosen on both sets (docs/photo-reader.md, issue 24 rounds B, C and E): questions on what
#: the net finds no tile are still asked (not_tile 0: dropping them at 0.1 or more raised the
#: silent errors on the held-out renders from 9 to 12 or more); a tile read twice goes
#: (round C: questions where no tile is 114 -> 101 on the shared photos' held-out sources,
#: nothing else changed; the net's "not a tile" or the outlines' overlap told none apart).
#: The net is trusted from 0.6 where the blob counts agree and 0.85 alone, and vetoes the
#: blob counts' tile under 0.05 (since round M, its probability for that tile whether among
#: its six best or not; before, a tile outside them counted 0: no photo turned on it).
#: Round E's net, trained on more renders, is less peaked
#: and better calibrated (of the outlines it gives 0.8 or more, 443 of 445 right on sources
#: it never saw): round E trusted it from 0.7 and 0.9.  Round F: with a sure tile off its
#: divider asked (reader.OFF_MIDDLE) the silent errors fell to 2, and 0.6 / 0.85 were
#: taken (shared photos by source: right 374 -> 383, wrong and not flagged 2 -> 3;
#: held-out renders 110 -> 111, 10 -> 10).  At 0.5 a face-down tile's printed logo, read
#: 0-4 by the blob counts and 0.53 by the net, was read with confidence (tests/photos).
#: Round G: where both read the same tile, the net at 0.4 and the blob counts at 0.3 are
#: enough (shared photos by source: right 382 -> 387, wrong and not flagged 4 -> 4; held-out
#: renders 111 -> 112, 10 -> 10); the blob counts' floor keeps out a face-down tile's
#: printed logo that both read as 0-4 (tk_ro7: the blob counts about 0.1, the net 0.49).
#: Round J, with the neighbours' pips no longer counted and tiles off their divider looked
#: at again: the net at 0.3 (shared photos by source: right 423 -> 426, wrong and not
#: flagged 2 -> 2; held-out renders 117 -> 119, 10 -> 10).  Lower limits read more (0.25
#: and 0.2: 427 and 123, no more silent errors on either set), but on a render of a
#: double-18 set both read a 2-16 as 2-15 (the net 0.29, the blob counts 0.27): where pips
#: are many and small the two readers miss the same pip, and no real photo of such a set
#: was there to set a lower limit on.
#: Round K: where the net likes another tile better without being sure of it, the blob
#: counts' tile with 0.4 of theirs and 0.15 of the net's is read: the net misses a pip the
#: blob counts see (a 1-12 read 2-12, a 0-12 read 0-11, a 0-0 read 0-1).  Shared photos by
#: source: right 426 -> 430, wrong and not flagged 2 -> 2; with the nets of another seed
#: 424 -> 426, 3 -> 3; held-out renders 119 -> 122, 10 -> 10.  The net at 0.1 read the same;
#: the counts at 0.5, 429; the counts at 0.3 gave the renders a silent error more; the net
#: at 0.2 or 0.25 read 428 (the renders 120 and 119).  Where both name the same tile,
#: *together* stays the rule: the same limits there made a question where no tile is of an
#: outline the net gave 0.15 for its best tile.
RULES = Rules(agree=0.6, alone=0.85, not_tile=0.0, veto=0.05, firm=0.5, drop_twice=True,
              together=0.3, counts=0.3, backing=0.15, backed=0.4)


def _merged(*lists) -> tuple[Tile, ...]:
    out: list[Tile] = []
    for tile in (t for tiles in lists for t in tiles):
        if tile not in out:
            out.append(tile)
    return tuple(out)


def without(j: Judgement, out_of_hand: frozenset[Tile], g: Guess) -> Judgement:
    """The blob counts' judgement *j* with the tiles that cannot be in this hand (the
    round's engine, tiles counted in other hands: R3.3) taken out; a tile it read with
    confidence that is one of them is no longer sure (the net's best stands in where the
    blob counts have no other candidate; with none either, *j* is kept, unsure)."""
    if not out_of_hand or not set(j.candidates) & out_of_hand:
        return j
    kept = tuple(t for t in j.candidates if t not in out_of_hand) or \
        tuple(t for t, _ in g.tiles[:1]) or j.candidates
    sure = j.candidates[0] not in out_of_hand
    return Judgement(kept, j.confidence if sure else min(j.confidence, CONFIDENT / 2))


def choose(j: Judgement, g: Guess, rules: Rules = RULES,
           out_of_hand: frozenset[Tile] = frozenset()) -> Judgement | None:
    """One tile decided from the blob counts' judgement *j* and the classifier's guess *g*
    (which offers no tile *out_of_hand*); None when it is most likely no tile at all and
    nothing read it with confidence.  A tile the blob counts read as one out of the hand
    stays a question whatever the net says: the photo may show it after all (the engine
    photographed with the hand), and a tile read instead would carry no mark.  (The reader
    still leaves out a question the net reads as a tile already read in the photo:
    ``hand.taken``.)"""
    ruled_out = bool(out_of_hand) and j.candidates[0] in out_of_hand
    j = without(j, out_of_hand, g)
    if not g.tiles:                 # every tile of the set is out of the hand
        return Judgement(j.candidates, min(j.confidence, CONFIDENT / 2))
    blob = j.candidates[0]
    best, q = g.tiles[0]
    net = [t for t, _ in g.tiles]
    if ruled_out:
        return Judgement(_merged([best, blob], net[1:3], j.candidates), min(q, CONFIDENT / 2))
    if j.confidence >= CONFIDENT:
        if best == blob or g.p(blob) >= rules.veto or q < rules.firm:
            return j
        if q >= rules.alone:
            return Judgement(_merged([best], j.candidates), q)
        return Judgement(_merged([best, blob], net[1:3], j.candidates), min(q, CONFIDENT / 2))
    if best == blob and (q >= rules.agree
                         or (q >= rules.together and j.confidence >= rules.counts)):
        return Judgement(_merged([best], j.candidates, net), max(q, CONFIDENT))
    if q >= rules.alone:
        return Judgement(_merged([best], j.candidates, net), q)
    if best != blob and g.p(blob) >= rules.backing and j.confidence >= rules.backed:
        return Judgement(_merged([blob], net, j.candidates), CONFIDENT)
    if g.tile < rules.not_tile:
        return None
    return Judgement(_merged([best, blob], net[1:3], j.candidates), min(j.confidence, q))


def consistent(decided: list[tuple[Judgement, Guess]], rules: Rules = RULES,
               doubtful: list[bool] | None = None) -> list[Judgement | None]:
    """Each tile exists once (R3.3): of two tiles read with confidence as the same tile, the
    one the classifier gives less for that tile goes (None) when *rules* say so, else
    becomes a question, its other candidates first; a reading *doubtful* (the reader's: its
    outline off its divider, or moved to centre it) is the one that goes (or is asked),
    whatever the classifier says."""
    doubtful = doubtful or [False] * len(decided)
    order = sorted(range(len(decided)), key=lambda i: (
        doubtful[i], -decided[i][1].p_first(decided[i][0].candidates)))
    taken: set[Tile] = set()
    out: list[Judgement | None] = [j for j, _ in decided]
    for i in order:
        j, g = decided[i]
        if j.confidence < CONFIDENT:
            continue
        tile = j.candidates[0]
        if tile not in taken:
            taken.add(tile)
        elif rules.drop_twice:
            out[i] = None
        else:
            others = [t for t, _ in g.tiles if t not in taken]
            out[i] = Judgement(_merged(others[:2], j.candidates[1:], [tile]),
                               CONFIDENT / 2)
    return out
