"""Storage: the one place SQL is written — sqlite-utils over one SQLite file (WAL).

Every user action is one transaction (:func:`write`): a round's scores and their
history entries are written together or not at all, and a save waits for another
save to finish instead of failing (:class:`Busy` when it waited too long).  Every
write that changes a game's scores rewrites its rows of ``seats`` in the same
transaction, so the players' records and the seasons never lag a save.

- :mod:`.schema` — the migrations m001–m015 (applied at every start by
  :func:`migrate`; a database records them by name) and :func:`fill_seats`, the
  ``seats`` rows of games stored before m011;
- :mod:`.connection` — :func:`connect`, :func:`write` (one ``BEGIN IMMEDIATE``
  transaction; :class:`Busy`, :func:`is_busy`), :func:`snapshot` (consistent
  reads), :func:`now`, and the file's safety: :func:`backup` (a consistent copy
  while the server runs), :func:`forget_pins` (a copy that leaves the server),
  :func:`protect` (0600);
- :mod:`.restore` — a backup restored over the running database: checked and staged
  (:func:`stage_backup`, with its :class:`BackupSummary`), then swapped in whole, in one
  transaction (:func:`swap_backup`);
- :mod:`.games` — create, load, list, rename; the PIN's hash and the game's
  version (:func:`game_stamp`); "Recently deleted": delete, restore, purge;
- :mod:`.rounds` — :func:`record_round` (with :class:`StaleRound` and the merge of
  two tablets' saves), the history, undo and redo, and the rounds' times
  (:func:`start_round`, a "Start round" tap);
- :mod:`.archive` — export and import of a whole game (the document and its checks
  are the pure ``scorekeeper/archive.py``);
- :mod:`.moves` — the live table's move log (:class:`StaleLive`);
- :mod:`.guesses` — the wrong PINs of the guessing limits (:func:`wrong_times`,
  :func:`reserve_guess`, :func:`release_guess`, :func:`forget_guesses`), kept across a
  restart;
- :mod:`.people` — the players' tables: seats and persons, aliases, and the version
  of the players' and seasons' pages; every write of them and every read
  ``scorekeeper/people.py`` makes;
- :mod:`.seasons` — the seasons' table (``scorekeeper/seasons.py`` ranks them);
- :mod:`.clubpin` — the club PIN's hash.

Import the public names from this package (``from scorekeeper.storage import
load_game``); ``people.py`` and ``seasons.py`` use :mod:`.people` and :mod:`.seasons`
as ``storage.people`` and ``storage.seasons``.
"""

from __future__ import annotations

from . import people, seasons
from .archive import export_game, import_game
from .clubpin import club_pin_hash, set_club_pin
from .connection import (BUSY_TIMEOUT, Busy, backup, connect, forget_pins, is_busy, now, protect,
                         snapshot, write)
from .guesses import forget_all as forget_guesses
from .guesses import release as release_guess
from .guesses import reserve as reserve_guess
from .guesses import wrong_times
from .games import (KEEP_DELETED_DAYS, GameNotFound, create_game, delete_game, deleted_games,
                    game_stamp, kept_until, last_game_id, list_games, load_game, purge_deleted,
                    rename_game, restore_game, set_pin)
from .people import club_version, one_person_each, person_of, refresh_persons, refresh_seats
from .moves import StaleLive, add_move, live_moves, undo_move
from .rounds import (Conflict, StaleRound, edit_changes, history, history_entries,
                     last_redoable, last_saved_round, last_undoable, record_round, redo_last,
                     start_round, undo_last)
from .restore import BackupSummary
from .restore import stage as stage_backup
from .restore import swap as swap_backup
from .schema import fill_seats, migrate, migrations

__all__ = [
    "migrations", "migrate", "fill_seats",
    "connect", "write", "snapshot", "Busy", "is_busy", "BUSY_TIMEOUT", "now",
    "backup", "forget_pins", "protect", "BackupSummary", "stage_backup", "swap_backup",
    "GameNotFound", "KEEP_DELETED_DAYS", "create_game", "load_game", "list_games",
    "game_stamp", "set_pin", "rename_game", "delete_game", "restore_game", "kept_until",
    "deleted_games", "purge_deleted", "last_game_id",
    "Conflict", "StaleRound", "record_round", "history", "history_entries", "last_saved_round",
    "last_undoable", "edit_changes", "undo_last", "last_redoable", "redo_last", "start_round",
    "export_game", "import_game",
    "StaleLive", "live_moves", "add_move", "undo_move",
    "wrong_times", "reserve_guess", "release_guess", "forget_guesses",
    "people", "seasons", "club_version", "club_pin_hash", "set_club_pin", "person_of", "refresh_seats",
    "refresh_persons", "one_person_each",
]
