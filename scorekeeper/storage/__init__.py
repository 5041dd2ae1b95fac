"""Storage (sqlite-utils over one SQLite file), being cut into modules: see rounds.py."""

from .rounds import (BUSY_TIMEOUT, KEEP_DELETED_DAYS, Busy, Conflict, GameNotFound, StaleLive,
                     StaleRound, add_move, backup, club_version, connect, create_game,
                     delete_game, deleted_games, edit_changes, export_game, fill_seats,
                     forget_pins, game_stamp, history, import_game, is_busy, kept_until,
                     last_redoable, last_undoable, list_games, live_moves, load_game, migrate,
                     migrations, now, one_person_each, person_of, protect, purge_deleted,
                     record_round, redo_last, refresh_persons, refresh_seats, rename_game,
                     restore_game, set_pin, snapshot, undo_last, undo_move, write)
