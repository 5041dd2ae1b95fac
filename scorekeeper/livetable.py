"""The live table as stored: a round's move log replayed through the referee.

Each play, draw and pass recorded at the live table is appended to the round's
move log (:func:`scorekeeper.storage.add_move`); the state is the start
replayed through the log, so the log is the single source of truth and an undo
is a mark on its last entry.  :func:`load_live` replays it and says each line
in words; the pages (views/live.py, the referee and round pages) call it.  No
Flask: the caller passes the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from .footview import play_end
from .referee import (DrawAction, IllegalMove, PlayAction, RoundState, action_from_json, apply,
                      start_from_json, train_sentence)
from .storage import live_moves
from .text import N_, _


@dataclass
class LogEntry:
    """One line of the move log, said in words."""

    seq: int
    player: str
    text: str
    at: str
    override: bool = False
    undone: bool = False
    skipped: bool = False    # recorded, but the rules no longer allow it here


@dataclass
class Live:
    """A round's live table: the start record, the active actions, and the state."""

    start: dict | None
    state: RoundState | None
    log: list[LogEntry]
    active: int


def describe(action, player: str | None, before: RoundState | None = None) -> str:
    """A log line, said whole; *player* is None for an old entry that did not record who.

    *before* is the table the action was taken on: a pass after building one's train
    in the first turn only ends the turn (R4.1); any other pass places a marker; a play
    on a train with several open ends says which it joined (R10.5).
    """
    said = _describe(action, player, before)
    if isinstance(action, PlayAction) and before is not None:
        end = play_end(before.table, action.play)
        if end:
            return _("%(move)s, %(end)s", move=said, end=end)
    return said


def _describe(action, player: str | None, before: RoundState | None) -> str:
    """The log line of :func:`describe` before the open end a play joined."""
    tile = getattr(action, "tile", None)
    if isinstance(action, PlayAction) and player is None:
        return train_sentence(action.train, N_("Someone played %(tile)s on the Mexican train"),
                              N_("Someone played %(tile)s on the train of %(owner)s"), tile=tile)
    if isinstance(action, PlayAction):
        return train_sentence(action.train, N_("%(player)s played %(tile)s on the Mexican train"),
                              N_("%(player)s played %(tile)s on the train of %(owner)s"),
                              N_("%(player)s played %(tile)s on their own train"),
                              player=player, tile=tile)
    if isinstance(action, DrawAction):
        if player is None:
            return _("Someone drew a tile") if tile is None else _("Someone drew %(tile)s",
                                                                    tile=tile)
        if tile is None:
            return _("%(player)s drew a tile", player=player)
        return _("%(player)s drew %(tile)s", player=player, tile=tile)
    if player is None:
        return _("Someone passed")
    if before is not None and before.table.first_turn and before.table.turn:
        return _("%(player)s ended their first turn", player=player)
    return _("%(player)s passed and placed a marker", player=player)


def load_live(db, game_id: str, number: int) -> Live:
    """Replay the round's log; actions overridden by the table are applied as recorded."""
    rows = live_moves(db, game_id, number)
    active = [r for r in rows if r["undone_at"] is None]
    start_row = next((r for r in active if r["data"].get("type") == "start"), None)
    if start_row is None:
        return Live(None, None, [], len(active))
    state = start_from_json(start_row["data"]["start"])
    log: list[LogEntry] = []
    for r in rows:
        data = r["data"]
        if data.get("type") == "start":
            if r["undone_at"] is None:
                started = (_("Round started: %(name)s drew highest and plays first",
                             name=state.current)
                           if state.table.options.starter == "highest_draw" else
                           _("Round started: %(name)s set the engine and plays first",
                             name=state.current))
                log.append(LogEntry(r["seq"], state.current, started, r["at"]))
            continue
        action = action_from_json(data)
        if r["undone_at"] is not None:
            by = data.get("by") or None
            log.append(LogEntry(r["seq"], by or "", describe(action, by), r["at"],
                                bool(data.get("override")), True))
            continue
        player, before = state.current, state
        try:
            state = apply(state, action)
        except IllegalMove:
            # Recorded under older rules and no longer possible: kept in the log, skipped.
            log.append(LogEntry(r["seq"], player, describe(action, player, before), r["at"],
                                bool(data.get("override")), skipped=True))
            continue
        log.append(LogEntry(r["seq"], player, describe(action, player, before), r["at"],
                            bool(data.get("override"))))
    return Live(start_row["data"]["start"], state, log, len(active))


def live_state(db, game_id: str, number: int) -> RoundState | None:
    """The live table's state for a round, if one is being kept (for the referee page)."""
    return load_live(db, game_id, number).state
