"""A whole game as one JSON document: export it, check an export before importing it.

Pure: storage reads the rows and writes the checked :class:`Archive`; this
module only knows the document.  An import is checked as strictly as a new
game (names, set, rule options, engines, scores, counted tiles), and its
history must add up to its scores, so a hand-edited or damaged file is
refused with the field at fault instead of becoming a game nobody can open.

The document (version 1)::

    {"format": "mexican-train-scorekeeper", "version": 1, "exported_at": "…",
     "game": {"id", "name", "players", "colours", "set", "rules", "start_engine",
              "end_engine", "created_at", "updated_at"},
     "rounds": [{"number", "engine", "revision", "scores": {…} | null,
                 "hands": {player: [[a, b], …]} | null,
                 "started_at", "saved_at", "seconds"}, …],
     "history": [{"edit": 1, "round": 1, "at": "…", "undo_of": null | <edit>,
                  "changes": [{"player", "old", "new"}, …]}, …],
     "live": [{"round": 4, "moves": [{"seq", "data", "at", "undone_at"}, …]}, …]}

``colours`` (each seat's train colour) and the rounds' times (``started_at`` and
``saved_at``, ISO 8601 or null; ``seconds``, how long the round took, is written for the
reader and worked out again on import) came with issue 20: an export without them
imports in the default palette, with no round times.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Mapping

from .colours import parse_colours
from .referee import action_from_json, start_from_json
from .errors import BadInput
from .game import Game, parse_game_name, parse_players
from .options import RuleOptions, parse_engines, round_engines
from .house_scoring import check_counts, hand_scores_of, house_on, parse_names, score_range
from .scoring import check_hands, check_scores, hand_score, max_hand
from .parsing import Fields, load_json
from .text import N_, _
from .tiles import parse_set
from .timing import utc

FORMAT = "mexican-train-scorekeeper"
VERSION = 1
#: The fields of the document itself (its parts are read by their version's rules).
EXPORT = Fields(("format", "version", "exported_at", "game", "rounds", "history", "live"),
                N_("“%(name)s” is not a field of a game's export."))
#: The fields of each object inside it (as to_document writes them; an export from before
#: colours or round times carries fewer, never others).
GAME = Fields(("id", "name", "players", "colours", "set", "rules", "start_engine",
               "end_engine", "created_at", "updated_at"),
              N_("“%(name)s” is not a field of an export's game."))
ROUND = Fields(("number", "engine", "revision", "scores", "hands", "started_at", "saved_at",
                "seconds", "hand_scores", "went_out", "markers"), N_("“%(name)s” is not a field of an export's round."))
SAVE = Fields(("edit", "round", "at", "undo_of", "changes", "lists"),
              N_("“%(name)s” is not a field of a save in an export's history."))
CHANGE = Fields(("player", "old", "new"),
                N_("“%(name)s” is not a field of a score change in an export's history."))
LOG = Fields(("round", "moves"), N_("“%(name)s” is not a field of an export's live-table log."))
MOVE = Fields(("seq", "data", "at", "undone_at"),
              N_("“%(name)s” is not a field of a move in an export's live-table log."))


@dataclass(frozen=True)
class ArchivedRound:
    number: int
    engine: int
    revision: int
    scores: dict[str, int] | None
    hands: dict[str, list] | None
    started_at: str | None = None
    saved_at: str | None = None
    went_out: tuple[str, ...] | None = None    # house scoring (R11.3): as saved
    markers: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ArchivedEdit:
    """One save (or undo) in the history; *undo_of* is another edit's number here."""

    number: int
    round: int
    at: str
    undo_of: int | None
    changes: list[dict]          # {"player", "old", "new"}
    lists: dict | None = None    # {"old": [went_out, markers], "new": [...]}: lists changed


@dataclass(frozen=True)
class ArchivedMove:
    round: int
    seq: int
    data: dict
    at: str
    undone_at: str | None


@dataclass(frozen=True)
class Archive:
    """A checked export: everything needed to store the game again (under a new id)."""

    name: str
    players: list[str]
    set: int
    options: RuleOptions
    created_at: str
    rounds: list[ArchivedRound]
    history: list[ArchivedEdit] = field(default_factory=list)
    moves: list[ArchivedMove] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)


def to_document(game: Game, history: list[dict], moves: list[dict], exported_at: str) -> dict:
    """The export of *game*: *history* rows are edits ({"id", "number", "at", "undo_of",
    "changes"}), *moves* the live-table rows ({"number", "seq", "data", "at", "undone_at"})."""
    local = {edit["id"]: k for k, edit in enumerate(history, 1)}
    live: dict[int, list] = {}
    for m in moves:
        live.setdefault(m["number"], []).append(
            {"seq": m["seq"], "data": m["data"], "at": m["at"], "undone_at": m["undone_at"]})
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": exported_at,
        "game": {"id": game.id, "name": game.name, "players": list(game.players),
                 "colours": list(game.colours_by_player.values()),
                 "set": game.set, "rules": game.options.to_dict(),
                 "start_engine": game.start_engine, "end_engine": game.end_engine,
                 "created_at": game.created_at, "updated_at": game.updated_at},
        "rounds": [{"number": r.number, "engine": r.engine, "revision": r.revision,
                    "scores": r.scores, "hands": r.hands, "started_at": r.started_at,
                    "saved_at": r.saved_at, "seconds": r.seconds,
                    **{k: v for k, v in r.to_json().items()
                       if k in ("hand_scores", "went_out", "markers")}}
                   for r in game.rounds],
        "history": [{"edit": local[e["id"]], "round": e["number"], "at": e["at"],
                     "undo_of": local.get(e["undo_of"]) if e["undo_of"] is not None else None,
                     "changes": [{"player": c["player"], "old": c["old"], "new": c["new"]}
                                 for c in e["changes"]],
                     **({"lists": e["lists"]} if e.get("lists") else {})}
                    for e in history],
        "live": [{"round": n, "moves": ms} for n, ms in sorted(live.items())],
    }


#: The first bytes of an SQLite file: a backup of the whole app, not a game's export.
SQLITE_HEADER = b"SQLite format 3\x00"


def read_export(data: bytes):
    """The JSON document in an uploaded export file; BadInput saying what the file should
    be when it is empty, a backup of the whole app (field "backup": the page points to
    "Restore a backup") or not JSON text (issue 26, item 3)."""
    if not data.strip():
        raise BadInput(_("This file is empty. Choose the file saved with “Download (JSON)” "
                         "on a game page."), "file")
    if data.startswith(SQLITE_HEADER):
        raise BadInput(_("This file is a backup of the whole app (.sqlite), not the export "
                         "of one game. To bring a backup back, use “Restore a backup”."),
                       "backup")
    not_an_export = BadInput(_("This file is not a game's export: an export is JSON text, "
                               "saved with “Download (JSON)” on a game page."), "file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise not_an_export from None
    try:
        return load_json(text, "file")
    except BadInput as refused:
        try:
            json.loads(text)   # broken JSON, or JSON nested too deep (its own sentence)?
        except ValueError:
            raise not_an_export from None
        except RecursionError:
            pass
        raise refused


def parse_document(doc) -> Archive:
    """Check an export document; BadInput naming the field at fault."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise BadInput(_("This is not an export of Mexican Train Scorekeeper: its \"format\" "
                         "must be \"%(format)s\".", format=FORMAT), "format")
    EXPORT.check(doc)
    if doc.get("version") != VERSION:
        raise BadInput(_("This export has version %(given)s; this app reads version %(version)s.",
                         given=_shown(doc.get("version")), version=VERSION), "version")
    game = _object(doc.get("game"), "game", GAME)
    players = parse_players(game.get("players"), "game.players")
    colours = parse_colours(game.get("colours"), players, "game.colours")
    name = parse_game_name(game.get("name"), "game.name")
    set_n = parse_set(game.get("set"), "game.set")
    options = RuleOptions.from_dict(game.get("rules"), "game.rules")
    try:
        start, end = parse_engines(set_n, game.get("start_engine"), game.get("end_engine"))
    except BadInput as error:
        raise BadInput(error.message, f"game.{error.field}") from None
    created_at = _time(game.get("created_at"), "game.created_at")
    engines = round_engines(set_n, start, end)
    rounds = _rounds(doc.get("rounds"), players, set_n, options, engines)
    history = _history(doc.get("history", []), players, set_n, options, rounds)
    moves = _moves(doc.get("live", []), len(rounds))
    return Archive(name, players, set_n, options, created_at, rounds, history, moves, colours)


def _rounds(value, players, set_n, options, engines) -> list[ArchivedRound]:
    if not isinstance(value, list) or len(value) != len(engines):
        raise BadInput(_("Rounds in this game (double-%(start)s down to double-%(end)s): "
                         "%(count)s. The export must list each of them once, in order.",
                         start=engines[0], end=engines[-1], count=len(engines)), "rounds")
    rounds = []
    for i, (item, engine) in enumerate(zip(value, engines)):
        where = f"rounds.{i}"
        item = _object(item, where, ROUND)
        if item.get("number") != i + 1:
            raise BadInput(_("The rounds must be numbered 1, 2, 3 … in order."), f"{where}.number")
        if item.get("engine") != engine:
            raise BadInput(_("Round %(n)s of this game has the double-%(engine)s engine (R2.1).",
                             n=i + 1, engine=engine), f"{where}.engine")
        revision = item.get("revision", 0)
        if isinstance(revision, bool) or not isinstance(revision, int) or revision < 0:
            raise BadInput(_("A revision is a whole number from 0."), f"{where}.revision")
        scores = item.get("scores")
        hands = item.get("hands")
        went_out, markers = (parse_names(item.get(k), players, f"{where}.{k}")
                             for k in ("went_out", "markers"))
        if scores is not None and house_on(options):
            scores = _counts(scores, players, went_out, markers, options,
                             max_hand(set_n, engine, options), where)
        elif scores is not None:
            scores = check_scores(scores, players, set_n, engine, options, f"{where}.scores")
        if hands is not None:
            if scores is None:
                raise BadInput(_("Counted tiles need the scores they were counted for."),
                               f"{where}.hands")
            tiles = check_hands(hands, players, set_n, engine, f"{where}.hands",
                                every_player=False)
            behind = hand_scores_of(scores, went_out, markers, options)
            for p, ts in tiles.items():
                if hand_score(ts, options) != behind[p]:
                    raise BadInput(_("The tiles counted for %(name)s do not make the score "
                                     "recorded (R7.3).", name=p), f"{where}.hands.{p}")
            hands = {p: [t.to_json() for t in ts] for p, ts in tiles.items()} or None
        started, saved = (_optional_time(item.get(key), f"{where}.{key}")
                          for key in ("started_at", "saved_at"))
        if started is not None and saved is not None and saved < started:
            raise BadInput(_("A round cannot be saved before its play started."),
                           f"{where}.saved_at")
        if scores is None:
            went_out = markers = None
        rounds.append(ArchivedRound(i + 1, engine, revision, scores, hands, started, saved,
                                    went_out, markers))
    return rounds


def _counts(scores, players, went_out, markers, options, top: int, where: str) -> dict:
    """A house-scored round's scores that count: whole numbers for every player that agree
    with who went out and whose marker stood (R11.3)."""
    if not isinstance(scores, Mapping) or set(scores) != set(players) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in scores.values()):
        raise BadInput(_("Scores must be given for every player by name."), f"{where}.scores")
    return check_counts({p: scores[p] for p in players}, went_out, markers, options, top,
                        where)


def _history(value, players, set_n, options, rounds) -> list[ArchivedEdit]:
    if not isinstance(value, list):
        raise BadInput(_("The history must be a list of saves."), "history")
    edits: list[ArchivedEdit] = []
    state: dict[int, dict[str, int | None]] = {}
    for i, item in enumerate(value):
        where = f"history.{i}"
        item = _object(item, where, SAVE)
        if item.get("edit") != i + 1:
            raise BadInput(_("The saves in the history must be numbered 1, 2, 3 … in order."),
                           f"{where}.edit")
        number = item.get("round")
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(rounds):
            raise BadInput(_("This game has rounds 1 to %(last)s.", last=len(rounds)),
                           f"{where}.round")
        undo_of = item.get("undo_of")
        if undo_of is not None and (isinstance(undo_of, bool) or not isinstance(undo_of, int)
                                    or not 1 <= undo_of <= i):
            raise BadInput(_("An undo must name an earlier save of the history."),
                           f"{where}.undo_of")
        changes = item.get("changes")
        if not isinstance(changes, list) or not changes:
            raise BadInput(_("Each save in the history changes at least one score."),
                           f"{where}.changes")
        low, top = score_range(options, max_hand(set_n, rounds[number - 1].engine, options))
        scores = state.setdefault(number, {})
        checked = []
        for k, change in enumerate(changes):
            at = f"{where}.changes.{k}"
            change = _object(change, at, CHANGE)
            player = change.get("player")
            if player not in players:
                raise BadInput(_("%(name)s is not a player in this game.", name=_shown(player)),
                               f"{at}.player")
            for key in ("old", "new"):
                v = change.get(key)
                if v is not None and (isinstance(v, bool) or not isinstance(v, int)
                                      or not low <= v <= top):
                    if low:
                        raise BadInput(_("A score in the history must be empty or a whole "
                                         "number from %(low)s to %(top)s (R11.3).", low=low,
                                         top=top), f"{at}.{key}")
                    raise BadInput(_("A score in the history must be empty or a whole number "
                                     "from 0 to %(top)s (R7.4).", top=top), f"{at}.{key}")
            if change.get("old") != scores.get(player):
                raise _history_mismatch(number)
            scores[player] = change.get("new")
            checked.append({"player": player, "old": change.get("old"), "new": change.get("new")})
        edits.append(ArchivedEdit(i + 1, number, _time(item.get("at"), f"{where}.at"),
                                  undo_of, checked,
                                  _edit_lists(item.get("lists"), players, f"{where}.lists")))
    for r in rounds:
        replayed = state.get(r.number, {})
        if any(v is not None for v in replayed.values()):
            if replayed != (r.scores or {}):
                raise _history_mismatch(r.number)
        elif r.scores is not None:
            raise _history_mismatch(r.number)
    return edits


def _edit_lists(value, players, where: str) -> dict | None:
    """The lists a save changed (house scoring): {"old": [went_out, markers], "new": …}."""
    if value is None:
        return None
    value = _object(value, where)
    if set(value) != {"old", "new"} or not all(
            isinstance(value[k], list) and len(value[k]) == 2 for k in ("old", "new")):
        raise BadInput(_("The lists a save changed are written {\"old\": [went out, "
                         "markers], \"new\": [went out, markers]}."), where)
    return {k: [None if names is None else list(parse_names(names, players, f"{where}.{k}"))
                for names in value[k]] for k in ("old", "new")}


def _moves(value, count: int) -> list[ArchivedMove]:
    if not isinstance(value, list):
        raise BadInput(_("The live-table logs must be a list, one entry per round."), "live")
    moves: list[ArchivedMove] = []
    seen: set[int] = set()
    for i, item in enumerate(value):
        where = f"live.{i}"
        item = _object(item, where, LOG)
        number = item.get("round")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count \
                or number in seen:
            raise BadInput(_("Each live-table log names a different round, from 1 to %(last)s.",
                             last=count), f"{where}.round")
        seen.add(number)
        log = item.get("moves")
        if not isinstance(log, list):
            raise BadInput(_("A live-table log is a list of moves."), f"{where}.moves")
        last = -1
        for k, move in enumerate(log):
            at = f"{where}.moves.{k}"
            move = _object(move, at, MOVE)
            seq = move.get("seq")
            if isinstance(seq, bool) or not isinstance(seq, int) or seq <= last:
                raise BadInput(_("The moves of a live-table log are numbered upwards."),
                               f"{at}.seq")
            last = seq
            data = _object(move.get("data"), f"{at}.data")
            if data.get("type") == "start":
                start_from_json(data.get("start"), f"{at}.data.start")
            else:
                action_from_json(data, f"{at}.data")
            undone = move.get("undone_at")
            moves.append(ArchivedMove(number, seq, data, _time(move.get("at"), f"{at}.at"),
                                      None if undone is None else _time(undone, f"{at}.undone_at")))
    return moves


def _object(value, where: str, fields: Fields | None = None) -> Mapping:
    """*value*, a JSON object carrying only *fields* (when given)."""
    if not isinstance(value, Mapping):
        raise BadInput(_("This part of the export must be a JSON object."), where)
    return value if fields is None else fields.check(value, where)


def _time(value, where: str) -> str:
    """An ISO 8601 time as the app writes them."""
    if isinstance(value, str):
        try:
            datetime.fromisoformat(value)
            return value
        except ValueError:
            pass
    raise BadInput(_("A time must be written in ISO 8601, like 2026-11-30T20:15:00+00:00."),
                   where)


def _optional_time(value, where: str) -> str | None:
    """A round's time, or null: stored in UTC as the app writes them (timing.utc)."""
    return None if value is None else utc(_time(value, where))


def _history_mismatch(number: int) -> BadInput:
    return BadInput(_("The history does not add up to the scores of round %(n)s: the export "
                      "was changed or is damaged.", n=number), "history")


def _shown(value) -> str:
    """A value from the document, short, for a sentence."""
    text = str(value)
    return text if len(text) <= 40 else text[:40] + "…"
