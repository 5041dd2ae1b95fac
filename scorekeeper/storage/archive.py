"""Export and import of a whole game: read in one snapshot, stored in one write.

The document itself (its format and every check of an import) is the pure module
``scorekeeper/archive.py``; here it is read from the tables and written into them.
An imported game is a new game (a new id), its history and live-table logs included.
"""

from __future__ import annotations

import json
import secrets

from ..archive import Archive, to_document
from ..game import Game
from .people import one_person_each, refresh_seats
from .connection import now, snapshot, write
from .games import load_game


def export_game(db, game_id: str, *, deleted: bool = False) -> dict:
    """The whole game as an export document (archive.py), read in one snapshot (a game in
    "Recently deleted" too when *deleted*: a backup's check reads every game)."""
    with snapshot(db):
        game = load_game(db, game_id, deleted=deleted)
        edits = [dict(r) for r in db.query(
            "select id, number, at, undo_of, lists from edits where game_id = ? order by id",
            [game_id])]
        changes: dict[int, list[dict]] = {}
        for c in db.query("select edit_id, player, old, new from changes where game_id = ? "
                          "order by id", [game_id]):
            changes.setdefault(c["edit_id"], []).append(dict(c))
        moves = [{**dict(r), "data": json.loads(r["data"])} for r in db.query(
            "select number, seq, data, at, undone_at from moves where game_id = ? "
            "order by number, seq", [game_id])]
    for edit in edits:
        edit["changes"] = changes.get(edit["id"], [])
        edit["lists"] = json.loads(edit["lists"]) if edit["lists"] else None
    return to_document(game, edits, moves, now())


def import_game(db, archive: Archive) -> Game:
    """Store a checked export as a new game (a new id), history and live-table logs included."""
    game_id = secrets.token_hex(6)
    at = now()
    with write(db):
        one_person_each(db, list(archive.players))
        db["games"].insert({"id": game_id, "name": archive.name, "set_n": archive.set,
                            "players": json.dumps(archive.players, ensure_ascii=False),
                            "rules": json.dumps(archive.options.to_dict()),
                            "created_at": archive.created_at, "updated_at": at,
                            "deleted_at": None, "colours": json.dumps(archive.colours)})
        db["rounds"].insert_all({"game_id": game_id, "number": r.number, "engine": r.engine,
                                 "revision": r.revision, "updated_at": at,
                                 "started_at": r.started_at, "saved_at": r.saved_at,
                                 "went_out": _names(r.went_out), "markers": _names(r.markers)}
                                for r in archive.rounds)
        db["scores"].insert_all(
            {"game_id": game_id, "number": r.number, "player": p, "score": r.scores[p],
             "hand": json.dumps(r.hands[p]) if r.hands and p in r.hands else None}
            for r in archive.rounds if r.scores is not None for p in archive.players)
        ids: dict[int, int] = {}
        for edit in archive.history:
            ids[edit.number] = db["edits"].insert(
                {"game_id": game_id, "number": edit.round, "at": edit.at,
                 "undo_of": ids[edit.undo_of] if edit.undo_of is not None else None,
                 "lists": json.dumps(edit.lists, ensure_ascii=False) if edit.lists else None
                 }).last_pk
            db["changes"].insert_all({"edit_id": ids[edit.number], "game_id": game_id,
                                      "number": edit.round, "player": c["player"],
                                      "old": c["old"], "new": c["new"], "at": edit.at}
                                     for c in edit.changes)
        db["moves"].insert_all({"game_id": game_id, "number": m.round, "seq": m.seq,
                                "data": json.dumps(m.data, ensure_ascii=False), "at": m.at,
                                "undone_at": m.undone_at} for m in archive.moves)
        refresh_seats(db, game_id)
    return load_game(db, game_id)


def _names(names) -> str | None:
    """A round's list (house scoring) as stored: JSON, or NULL when not given."""
    return None if names is None else json.dumps(list(names), ensure_ascii=False)
