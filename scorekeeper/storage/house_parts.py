"""Each person's bonuses and penalties, game by game, under house scoring (R11.5): what the
player and season pages show beside the totals.

Apart from ``storage/house.py`` (the seats' figures, which ``storage/people.py`` uses while
``storage/games.py`` uses people): this one reads whole games, so it builds on games.
"""

from __future__ import annotations

from ..house_view import house_totals
from .games import load_game


def house_changes(db, *, person: str | None = None,
                  days: tuple | None = None) -> dict[str, dict[str, tuple[int, int]]]:
    """Each person's bonuses (negative) and penalties in their complete, live house-scored
    games (R11.5): person → {game id: (bonuses, penalties)}; only *person*'s when given,
    only games of *days* (start, end, inclusive) when given.  Empty when no such game."""
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
