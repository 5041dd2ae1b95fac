"""The seats' figures of a house-scored game (R11.4), for ``refresh_seats``.

A game under the default options is summed in SQL (zero rounds are scores of 0); under
house scoring a zero round is one in which the player went out or held no pips, and the
lowest round is the lowest score that counts among the others, so the figures are worked
out from the round's lists, as the game's standings work them out.
"""

from __future__ import annotations

import json

from ..house_scoring import hand_scores_of, house_on, zero_players
from ..house_view import house_totals
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


def house_changes(db, *, person: str | None = None,
                  days: tuple | None = None) -> dict[str, dict[str, tuple[int, int]]]:
    """Each person's bonuses (negative) and penalties in their complete, live house-scored
    games (R11.5): person → {game id: (bonuses, penalties)}; only *person*'s when given,
    only games of *days* (start, end, inclusive) when given.  Empty when no such game."""
    from .games import load_game   # storage.games imports this module's package early

    where, params = ["s.complete = 1", "s.live = 1",
                     "(json_extract(g.rules, '$.went_out_bonus') > 0 "
                     "or json_extract(g.rules, '$.marker_penalty') > 0)"], []
    if person is not None:
        where.append("s.person = ?")
        params.append(person)
    if days is not None:
        where.append("s.day between ? and ?")
        params += [str(days[0]), str(days[1])]
    seats = db.execute("select s.game_id, s.name, s.person from seats s join games g "
                       f"on g.id = s.game_id where {' and '.join(where)}", params).fetchall()
    out: dict[str, dict[str, tuple[int, int]]] = {}
    games = {}
    for game_id, name, who in seats:
        if game_id not in games:
            games[game_id] = house_totals(load_game(db, game_id))
        _hands, bonus, penalty = games[game_id][name]
        out.setdefault(who, {})[game_id] = (bonus, penalty)
    return out
