"""The seats' figures of a house-scored game (R11.4), for ``refresh_seats``.

A game under the default options is summed in SQL (zero rounds are scores of 0); under
house scoring a zero round is one in which the player went out or held no pips, and the
lowest round is the lowest score that counts among the others, so the figures are worked
out from the round's lists, as the game's standings work them out.
"""

from __future__ import annotations

import json

from ..house_scoring import hand_scores_of, house_on, zero_players
from ..options import RuleOptions


def house_figures(db, game_id: str) -> dict[str, tuple] | None:
    """Inside a write: each player's (total, zero rounds, lowest other round, rounds
    played) under R11.4; None for a game under the default options (SQL sums it)."""
    options = RuleOptions(**json.loads(db.execute("select rules from games where id = ?",
                                                  [game_id]).fetchone()[0]))
    if not house_on(options):
        return None
    lists = {n: tuple(None if v is None else json.loads(v) for v in (out, marked))
             for n, out, marked in db.execute(
                 "select number, went_out, markers from rounds where game_id = ?", [game_id])}
    rounds: dict[int, dict[str, int]] = {}
    for number, player, score in db.execute(
            "select number, player, score from scores where game_id = ?", [game_id]):
        rounds.setdefault(number, {})[player] = score
    figures: dict[str, list] = {}
    for number, counts in rounds.items():
        out, marked = lists[number]
        zeros = zero_players(hand_scores_of(counts, out, marked, options), out)
        for player, score in counts.items():
            total, zero, lowest, played = figures.get(player, (0, 0, None, 0))
            if player not in zeros:
                lowest = score if lowest is None else min(lowest, score)
            figures[player] = (total + score, zero + (player in zeros), lowest, played + 1)
    return {p: tuple(f) for p, f in figures.items()}
