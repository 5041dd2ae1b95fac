"""Games: creating, loading and listing them, their name and PIN, their version, and
"Recently deleted" (the trash, purged after KEEP_DELETED_DAYS).

A game's ``version`` is one more with every change to it (kept by m010's triggers), so
an open page asks :func:`game_stamp` "anything new?" and gets a cheap 304; the PIN is
stored hashed.  Deleting a game keeps it whole and marks its seats not live, so it
leaves the players' records until it is restored.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta, timezone

from sqlite_utils.db import NotFoundError

from ..colours import default_colours
from ..game import Game, Round
from ..house_scoring import hand_scores_of
from ..options import RuleOptions, round_engines
from .people import one_person_each, persons_of_game, refresh_persons, refresh_seats
from .connection import now, snapshot, write

#: How long a deleted game can still be restored.
KEEP_DELETED_DAYS = 30


class GameNotFound(LookupError):
    """No game has that id."""


def create_game(db, *, name: str, players: list[str], set_n: int, options: RuleOptions,
                start_engine: int, end_engine: int, pin_hash: str | None = None,
                colours: list[str] | None = None) -> Game:
    """Store a new game and its rounds (protected by a PIN when *pin_hash* is given; each
    seat in its train colour, the default palette unless *colours* are given)."""
    game_id = secrets.token_hex(6)
    at = now()
    with write(db):
        one_person_each(db, players)
        db["games"].insert({"id": game_id, "name": name, "set_n": set_n,
                            "players": json.dumps(players, ensure_ascii=False),
                            "rules": json.dumps(options.to_dict()),
                            "created_at": at, "updated_at": at, "pin_hash": pin_hash,
                            "colours": json.dumps(colours or default_colours(len(players)))})
        # Round 1's time runs from the game's creation (timing.py).
        db["rounds"].insert_all(
            {"game_id": game_id, "number": k, "engine": engine, "revision": 0,
             "updated_at": at, "started_at": at if k == 1 else None}
            for k, engine in enumerate(round_engines(set_n, start_engine, end_engine), 1))
        refresh_seats(db, game_id)
    return load_game(db, game_id)


def load_game(db, game_id: str, *, deleted: bool = False) -> Game:
    """The whole game with every round's scores; GameNotFound if there is none.

    A game in "Recently deleted" is not found unless *deleted* is true.
    """
    with snapshot(db):
        try:
            row = db["games"].get(game_id)
        except NotFoundError:
            raise GameNotFound(game_id) from None
        if row["deleted_at"] is not None and not deleted:
            raise GameNotFound(game_id)
        scores: dict[int, dict[str, int]] = {}
        hands: dict[int, dict[str, list]] = {}
        for s in db.query("select number, player, score, hand from scores where game_id = ?",
                          [game_id]):
            scores.setdefault(s["number"], {})[s["player"]] = s["score"]
            if s["hand"] is not None:
                hands.setdefault(s["number"], {})[s["player"]] = json.loads(s["hand"])
        round_rows = list(db.query("select number, engine, revision, started_at, saved_at, "
                                   "went_out, markers from rounds where game_id = ? "
                                   "order by number", [game_id]))
    players = tuple(json.loads(row["players"]))
    options = RuleOptions(**json.loads(row["rules"]))
    rounds = []
    for r in round_rows:
        got = scores.get(r["number"])
        ordered = {p: got[p] for p in players} if got else None
        out, marked = (None if r[k] is None else tuple(json.loads(r[k]))
                       for k in ("went_out", "markers"))
        derived = None
        if ordered is not None and (out or marked):
            derived = hand_scores_of(ordered, out, marked, options)
        rounds.append(Round(r["number"], r["engine"], ordered, r["revision"],
                            hands.get(r["number"]), r["started_at"], r["saved_at"],
                            out, marked, derived))
    colours = tuple(json.loads(row["colours"])) if row["colours"] else ()
    return Game(row["id"], row["name"], players, row["set_n"], options, tuple(rounds),
                row["created_at"], row["updated_at"], row["deleted_at"], row["version"],
                row["pin_hash"], colours=colours)


def game_stamp(db, game_id: str) -> tuple[int, str | None] | None:
    """The game's version (one more with every change to it) and PIN hash; None when
    there is no such game, or it is in "Recently deleted"."""
    row = db.execute("select version, pin_hash, deleted_at from games where id = ?",
                     [game_id]).fetchone()
    return None if row is None or row[2] is not None else (row[0], row[1])


def set_pin(db, game_id: str, pin_hash: str | None) -> None:
    """Protect a game with a PIN (its hash), or open it again with None."""
    with write(db):
        require_live(db, game_id)
        db.execute("update games set pin_hash = ? where id = ?", [pin_hash, game_id])


def list_games(db) -> list[Game]:
    """Every game: in progress first, then finished; newest first within each."""
    ids = [r["id"] for r in db.query("select id from games where deleted_at is null "
                                     "order by updated_at desc, id")]
    games = [load_game(db, i) for i in ids]
    return sorted(games, key=lambda g: g.complete)


def require_live(db, game_id: str) -> None:
    """Inside a write: the game exists and is not deleted (else GameNotFound)."""
    row = db.execute("select deleted_at from games where id = ?", [game_id]).fetchone()
    if row is None or row[0] is not None:
        raise GameNotFound(game_id)


def rename_game(db, game_id: str, name: str) -> None:
    """Give a game a new name."""
    with write(db):
        require_live(db, game_id)
        db["games"].update(game_id, {"name": name, "updated_at": now()})


def delete_game(db, game_id: str) -> str:
    """Move a game to "Recently deleted" (kept whole for KEEP_DELETED_DAYS); answers when."""
    at = now()
    with write(db):
        require_live(db, game_id)
        db.execute("update games set deleted_at = ? where id = ?", [at, game_id])
        db.execute("update seats set live = 0 where game_id = ?", [game_id])
        refresh_persons(db, persons_of_game(db, game_id))
    return at


def restore_game(db, game_id: str) -> Game:
    """Bring a deleted game back whole (a game that is not deleted stays as it is)."""
    with write(db):
        if db.execute("select 1 from games where id = ?", [game_id]).fetchone() is None:
            raise GameNotFound(game_id)
        db.execute("update games set deleted_at = null where id = ?", [game_id])
        db.execute("update seats set live = 1 where game_id = ?", [game_id])
        refresh_persons(db, persons_of_game(db, game_id))
    return load_game(db, game_id)


def kept_until(deleted_at: str) -> str:
    """When a game deleted at *deleted_at* is purged (ISO 8601)."""
    when = datetime.fromisoformat(deleted_at) + timedelta(days=KEEP_DELETED_DAYS)
    return when.isoformat(timespec="seconds")


def deleted_games(db) -> list[Game]:
    """The games in "Recently deleted", most recently deleted first (older ones purged)."""
    purge_deleted(db)
    ids = [r["id"] for r in db.query("select id from games where deleted_at is not null "
                                     "order by deleted_at desc, id")]
    return [load_game(db, i, deleted=True) for i in ids]


def purge_deleted(db, *, at: datetime | None = None) -> int:
    """Remove for good the games deleted more than KEEP_DELETED_DAYS ago; answers how many."""
    cutoff = ((at or datetime.now(timezone.utc)) - timedelta(days=KEEP_DELETED_DAYS)) \
        .isoformat(timespec="seconds")
    query = "select id from games where deleted_at is not null and deleted_at < ?"
    if db.execute(query, [cutoff]).fetchone() is None:
        return 0   # the usual case: no write at all
    with write(db):
        ids = [r[0] for r in db.execute(query, [cutoff]).fetchall()]
        for game_id in ids:
            gone = persons_of_game(db, game_id)
            for table in ("seats", "changes", "edits", "scores", "moves", "rounds"):
                db.execute(f"delete from {table} where game_id = ?", [game_id])
            db.execute("delete from games where id = ?", [game_id])
            refresh_persons(db, gone)
    return len(ids)


def last_game_id(db) -> str | None:
    """The most recently started game outside "Recently deleted" (None when there is none):
    the new-game page offers to seat the same table again."""
    row = db.execute("select id from games where deleted_at is null "
                     "order by created_at desc, rowid desc limit 1").fetchone()
    return row[0] if row else None
