"""Rounds: recording a round's scores with its history entries, the conflict of two
tablets saving one round, the history of a game, undo and redo, and when each round's
play started and ended (its time, ``timing.py``).

A round's scores and their history entries (``edits``, ``changes``) are written in one
transaction with the round's new revision and the game's ``seats`` rows
(:func:`~.people.refresh_seats`).  A save based on an older revision is refused or merged
(:class:`StaleRound`), never written blindly.  Undo and redo are history entries of
their own, linked to the entry they take back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlite_utils.db import NotFoundError

from ..errors import BadInput
from ..game import Game, Round
from ..house_scoring import Names
from ..merge import Merge, merge_scores
from ..text import _
from .people import refresh_seats
from .connection import now, write
from .games import load_game, require_live


@dataclass(frozen=True, slots=True)
class Conflict:
    """Another tablet saved this round after the scorekeeper opened it."""

    round: Round
    changes: list[dict]
    merge: Merge | None = None   # with a base: who needs a choice, the rest merged


class StaleRound(Exception):
    """The round changed since the given revision was read (another tablet saved it)."""

    def __init__(self, conflict: Conflict):
        super().__init__("stale round")
        self.conflict = conflict


def record_round(db, game: Game, number: int, scores: dict[str, int],
                 hands: dict[str, list] | None = None,
                 expected_revision: int | None = None, *, merge: bool = False,
                 base: dict[str, int | None] | None = None,
                 lists: tuple[Names, Names] = (None, None)) -> Round:
    """Store a round's scores (the scores that count) and their history entries in one
    transaction, with *lists*: who went out and whose marker stood (R11.3; None: not
    given), which a save replaces like the scores.

    With *expected_revision*, a save based on an older revision is never
    written blindly: it is refused (StaleRound), or, with *merge*, merged
    player by player with what was saved meanwhile against *base* (the scores
    the page showed; None if unknown) and the merge stored — unless a player
    was changed on both tablets, differently (StaleRound carrying the merge).
    """
    with write(db):
        require_live(db, game.id)
        current = _round_row(db, game.id, number)
        if expected_revision is not None and current["revision"] != expected_revision:
            fresh = load_game(db, game.id).round(number)
            merged = merge_scores(game.players, base, scores, fresh.scores) if merge else None
            if merged is None or not merged.clean:
                raise StaleRound(_conflict(db, game, number, expected_revision, merged))
            scores = merged.scores
            hands = _merged_hands(game.players, merged, hands, fresh)
        stored = {s["player"]: (s["score"], s["hand"]) for s in db.query(
            "select player, score, hand from scores where game_id = ? and number = ?",
            [game.id, number])}
        old = {p: score for p, (score, _hand) in stored.items()}
        new_hands = {p: json.dumps(hands[p]) if hands and p in hands else None
                     for p in game.players}
        at = now()
        diff = [(p, old.get(p), scores[p]) for p in game.players if old.get(p) != scores[p]]
        hands_changed = any(stored.get(p, (None, None))[1] != new_hands[p] for p in game.players)
        old_lists = _stored_lists(current)
        lists = _lists_value(lists)
        if not diff and not hands_changed and old_lists == lists:
            # Nothing changes: no history entry and no new revision.
            return load_game(db, game.id).round(number)
        _set_lists(db, game.id, number, lists)
        edit_id = None
        if diff:
            # A change of the lists alone (no score changed) is a new revision, not a
            # history entry: the history lists score changes.
            edit_id = db["edits"].insert({
                "game_id": game.id, "number": number, "at": at, "undo_of": None,
                "lists": _lists_change(old_lists, lists)}).last_pk
            db["changes"].insert_all({"edit_id": edit_id, "game_id": game.id, "number": number,
                                      "player": p, "old": o, "new": n, "at": at}
                                     for p, o, n in diff)
        db["scores"].upsert_all(
            ({"game_id": game.id, "number": number, "player": p, "score": scores[p],
              "hand": new_hands[p]} for p in game.players), pk=("game_id", "number", "player"))
        _bump(db, game.id, number, at)
        _first_save(db, game.id, number, at)
        refresh_seats(db, game.id)
        # Read inside the write: another tablet's save may follow as soon as it commits,
        # and the answer is this save's revision, not the next one's.
        return load_game(db, game.id).round(number)


#: Inside a statement about a game's round (parameters :game): the game keeps round times.
_TIMED = ("exists (select 1 from rounds t where t.game_id = :game and t.number = 1 "
          "and t.started_at is not null)")


def _first_save(db, game_id: str, number: int, at: str) -> None:
    """Inside a write: a round's time ends at its first save, and the next round's play
    starts then (unless it started later, or was already saved).  Only in a game that
    keeps round times; later saves (corrections) change neither.

    Decision: an undo that makes a round unplayed again keeps its first save, and
    saving it again is not a first save: its play ended when it was first saved.
    """
    params = {"game": game_id, "number": number, "at": at}
    first = db.execute("update rounds set saved_at = :at where game_id = :game "
                       f"and number = :number and saved_at is null and {_TIMED}",
                       params).rowcount > 0
    if first:
        mark_started(db, game_id, number + 1, at)


def mark_started(db, game_id: str, number: int, at: str) -> bool:
    """Inside a write: round *number*'s play starts at *at*, unless it started later or was
    already saved, or the game keeps no round times; answers whether it changed.

    Every start (the round before saved, the live table's first action, a "Start round"
    tap) comes through here: the latest before the round's first save stands.
    """
    return db.execute(
        "update rounds set started_at = :at where game_id = :game and number = :number "
        "and saved_at is null and (started_at is null or started_at < :at) "
        f"and {_TIMED}", {"game": game_id, "number": number, "at": at}).rowcount > 0


def start_round(db, game: Game, number: int) -> Round:
    """A "Start round" tap: round *number*'s play starts now (timing.py).

    Refused (BadInput) for a round already recorded, whose time ended at its first save,
    and in a game stored before round times were kept.
    """
    with write(db):
        require_live(db, game.id)
        row = _round_row(db, game.id, number)
        if not game.timed:
            raise BadInput(_("This game was stored before round times were kept, so its "
                             "rounds are not timed."), "number")
        if row["saved_at"] is not None:
            raise BadInput(_("Round %(n)s is already recorded: its time ended when it was "
                             "first saved.", n=number), "number")
        mark_started(db, game.id, number, now())
    return load_game(db, game.id).round(number)


def _merged_hands(players, merged: Merge, mine: dict | None, fresh: Round) -> dict | None:
    """The counted tiles that go with the merged scores, each player's from the side kept.

    Where both sides agree on a score and only the other tablet counted the
    tiles, its tiles are kept too.  Tiles counted on one tablet may clash with
    the other's (a tile in two hands, R3.3); the scores still stand, so the
    tiles are then dropped.
    """
    mine, theirs = mine or {}, fresh.hands or {}
    hands = {}
    for p in players:
        same_score = fresh.scores is not None and fresh.scores[p] == merged.scores[p]
        if p in merged.theirs or (same_score and mine.get(p) is None):
            side = theirs
        else:
            side = mine
        if side.get(p) is not None:
            hands[p] = side[p]
    tiles = [tuple(sorted(t)) for hand in hands.values() for t in hand]
    if len(tiles) != len(set(tiles)):
        return None
    return hands or None


def _lists_value(lists: tuple[Names, Names]) -> list:
    """The lists as compared and stored: [went_out, markers], each a list or None."""
    return [None if names is None else list(names) for names in lists]


def _stored_lists(row: dict) -> list:
    """A rounds row's lists, as :func:`_lists_value` makes them."""
    return [None if row[k] is None else json.loads(row[k]) for k in ("went_out", "markers")]


def _set_lists(db, game_id: str, number: int, lists: list) -> None:
    """Inside a write: the round's lists become *lists* ([went_out, markers])."""
    went_out, markers = (None if names is None else json.dumps(names, ensure_ascii=False)
                         for names in lists)
    db.execute("update rounds set went_out = ?, markers = ? where game_id = ? and number = ?",
               [went_out, markers, game_id, number])


def _lists_change(old: list, new: list) -> str | None:
    """An edit's record of the lists it changed (None: left as they were)."""
    return None if old == new else json.dumps({"old": old, "new": new}, ensure_ascii=False)


def _round_row(db, game_id: str, number: int) -> dict:
    try:
        return db["rounds"].get((game_id, number))
    except NotFoundError:
        raise BadInput(_("This game has no round %(n)s.", n=number), "number") from None


def _bump(db, game_id: str, number: int, at: str) -> None:
    db.execute("update rounds set revision = revision + 1, updated_at = ? "
               "where game_id = ? and number = ?", [at, game_id, number])
    db.execute("update games set updated_at = ? where id = ?", [at, game_id])


def _conflict(db, game: Game, number: int, since_revision: int,
              merged: Merge | None = None) -> Conflict:
    fresh = load_game(db, game.id).round(number)
    # The changes saved for this round after the scorekeeper's copy: the last
    # (current revision - their revision) edits of the round.
    edits = [r["id"] for r in db.query(
        "select id from edits where game_id = ? and number = ? order by id desc limit ?",
        [game.id, number, max(0, fresh.revision - since_revision)])]
    changes = [dict(r) for r in db.query(
        f"select player, old, new, at from changes where edit_id in "
        f"({','.join('?' * len(edits))}) order by id", edits)] if edits else []
    return Conflict(fresh, changes, merged)


def history(db, game_id: str) -> list[dict]:
    """Every score change of a game, oldest first, with its edit and undo links; ``entry``
    numbers its edit within the game from 1 (as an export numbers them)."""
    return [dict(r) for r in db.query(
        "select c.id, c.edit_id, c.number as round, c.player, c.old, c.new, c.at, e.lists, "
        "(select count(*) from edits x where x.game_id = e.game_id and x.id <= e.id) as entry, "
        "e.undo_of, e.redo_of, (select u.id from edits u where u.undo_of = e.id) as undone_by, "
        "(select r.id from edits r where r.redo_of = e.id) as redone_by "
        "from changes c join edits e on e.id = c.edit_id where c.game_id = ? order by c.id",
        [game_id])]


def history_entries(db, game_id: str) -> list[dict]:
    """The game's history as one entry per save, undo or redo (an ``edits`` row), oldest
    first: its id, number in the game, round, time, undo and redo links, ``changes``,
    each player whose score it changed with the old and new score (old None: first
    recorded), and ``lists``, the house-scoring lists it changed (None: left as they
    were)."""
    entries: dict[int, dict] = {}
    for c in history(db, game_id):
        entry = entries.get(c["edit_id"])
        if entry is None:
            entry = entries[c["edit_id"]] = {
                "id": c["edit_id"], "entry": c["entry"], "round": c["round"], "at": c["at"],
                "undo_of": c["undo_of"], "redo_of": c["redo_of"],
                "undone_by": c["undone_by"], "redone_by": c["redone_by"], "changes": [],
                "lists": json.loads(c["lists"]) if c["lists"] else None}
        entry["changes"].append({"player": c["player"], "old": c["old"], "new": c["new"]})
    return list(entries.values())


def last_saved_round(db, game_id: str) -> int | None:
    """The round of the game's latest history entry (a page marks it as just saved); None
    before the first save."""
    row = db.execute("select number from edits where game_id = ? order by id desc limit 1",
                     [game_id]).fetchone()
    return row[0] if row else None


def last_undoable(db, game_id: str) -> dict | None:
    """The latest edit that is not an undo and has not been undone."""
    rows = list(db.query(
        "select e.id, e.number from edits e where e.game_id = ? and e.undo_of is null "
        "and not exists (select 1 from edits u where u.undo_of = e.id) "
        "order by e.id desc limit 1", [game_id]))
    return dict(rows[0]) if rows else None


def edit_changes(db, edit_id: int) -> list[dict]:
    """The score changes one history entry made: player, old, new."""
    return [dict(r) for r in db.query("select player, old, new from changes where edit_id = ? "
                                      "order by id", [edit_id])]


def undo_last(db, game: Game) -> dict | None:
    """Undo the latest change: put its old values back, as a new history entry."""
    return _take_back(db, game, last_undoable, "undo_of")


def last_redoable(db, game_id: str) -> dict | None:
    """The undo to redo: the game's latest history entry, when it is an undo not yet redone."""
    rows = list(db.query(
        "select e.id, e.number from edits e where e.game_id = ? and e.undo_of is not null "
        "and e.id = (select max(id) from edits where game_id = ?) "
        "and not exists (select 1 from edits r where r.redo_of = e.id)", [game_id, game_id]))
    return dict(rows[0]) if rows else None


def redo_last(db, game: Game) -> dict | None:
    """Redo the undo that was the last change: the values it took away come back, as a new
    history entry (which can be undone like any change)."""
    return _take_back(db, game, last_redoable, "redo_of")


def _take_back(db, game: Game, find, link: str) -> dict | None:
    """One write: the entry *find* names is taken back (its old values restored) by a new
    entry linked to it as *link* (undo_of or redo_of); None when there is none."""
    with write(db):
        require_live(db, game.id)
        target = find(db, game.id)
        if target is None:
            return None
        changes = edit_changes(db, target["id"])
        row = db.execute("select lists from edits where id = ?", [target["id"]]).fetchone()
        lists = json.loads(row[0])["old"] if row[0] else None
        _put_back(db, game, target["number"], {c["player"]: c["old"] for c in changes},
                  lists, **{link: target["id"]})
        return {"round": target["number"], "changes": changes}


def _put_back(db, game: Game, number: int, values: dict[str, int | None],
              lists: list | None = None, *,
              undo_of: int | None = None, redo_of: int | None = None) -> None:
    """Inside a write: set these players' scores of a round (None: the round unplayed again)
    and its *lists* (None: as they are; an unplayed round has none), as one history entry
    linked to the entry it undoes or redoes."""
    at = now()
    old_lists = _stored_lists(_round_row(db, game.id, number))
    if all(v is None for v in values.values()):
        lists = [None, None]
    lists = old_lists if lists is None else lists
    _set_lists(db, game.id, number, lists)
    edit_id = db["edits"].insert({"game_id": game.id, "number": number, "at": at,
                                  "undo_of": undo_of, "redo_of": redo_of,
                                  "lists": _lists_change(old_lists, lists)}).last_pk
    current = {s["player"]: s["score"] for s in db.query(
        "select player, score from scores where game_id = ? and number = ?", [game.id, number])}
    db["changes"].insert_all({"edit_id": edit_id, "game_id": game.id, "number": number,
                              "player": p, "old": current.get(p), "new": v, "at": at}
                             for p, v in values.items())
    if all(v is None for v in values.values()):
        # Back to before the round's first recording: the round is unplayed again.
        db.execute("delete from scores where game_id = ? and number = ?", [game.id, number])
    else:
        db["scores"].upsert_all(({"game_id": game.id, "number": number, "player": p,
                                  "score": v, "hand": None} for p, v in values.items()),
                                pk=("game_id", "number", "player"))
    _bump(db, game.id, number, at)
    refresh_seats(db, game.id)
