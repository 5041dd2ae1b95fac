"""A database made by earlier code opens and migrates unchanged (storage/schema.py).

A database records the migrations it has applied by name, so moving or renaming one
would apply it a second time.  ``tests/data`` holds SQL dumps (``iterdump``) of one
small club made by two releases' own code: ``club-main-444e519.sql`` by main before
storage became a package (all of m001–m011), ``club-before-m011-2f9d82d.sql`` by the
commit before the players' tables (m001–m010).  Both hold the same games: "Friday"
(Ann, Bob, Chi; complete, with a correction, an undo and a redo), a game of Ann and
Dee in progress with a live-table log (one move undone), and "Oops" (Eve, Fay) in
"Recently deleted"; main's also joins Dee to Chi and holds the season "Autumn 2026".
Migrating them applies what came after them (m013, m014: the wrong PINs kept and the club
PIN; m015: train colours and round times; m016: house scoring's lists) and leaves every row and column they had as it
was.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from scorekeeper import create_app, people, seasons, storage

DATA = Path(__file__).resolve().parent / "data"
RELEASED = ["m001_initial", "m002_live_moves", "m003_move_undo", "m004_trash",
            "m010_version_and_pin", "m011_people_and_seasons"]
#: Every migration, in the order a new database applies them.
MIGRATIONS = RELEASED + ["m013_pin_guesses", "m014_club_pin", "m015_colours_and_round_times",
                         "m016_house_scoring"]
#: The tables and columns added since: NULL in the rows stored before (no club PIN, the
#: default palette, no round times), and the wrong PINs' table, empty.
ADDED_COLUMNS = {"club": {"pin_hash"}, "games": {"colours"},
                 "rounds": {"started_at", "saved_at", "went_out", "markers"},
                 "edits": {"lists"}}
ADDED_TABLES = {"pin_guesses"}
FRIDAY = [{"Ann": 0, "Bob": 7, "Chi": 3}, {"Ann": 5, "Bob": 0, "Chi": 8},
          {"Ann": 2, "Bob": 6, "Chi": 0}]


def restored(tmp_path: Path, dump: str) -> str:
    """The dump made into a database file; answers its path."""
    path = str(tmp_path / "club.db")
    conn = sqlite3.connect(path)
    conn.executescript((DATA / dump).read_text())
    conn.close()
    return path


def contents(path: str) -> list[str]:
    """Every table, index, trigger and row of the database, as SQL."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def as_before(path: str) -> tuple[dict, list[str]]:
    """Every table's rows in the columns it had before m013, and every index and
    trigger: what migrating must leave as it was."""
    conn = sqlite3.connect(path)
    try:
        tables = {}
        for (table,) in conn.execute("select name from sqlite_master where type = 'table' "
                                     "and name not like 'sqlite_%' order by name"):
            if table in ADDED_TABLES:
                continue
            columns = [c[1] for c in conn.execute(f"pragma table_info({table})")
                       if c[1] not in ADDED_COLUMNS.get(table, set())]
            names = ", ".join(f'"{c}"' for c in columns)
            rows = conn.execute(f'select {names} from "{table}" order by rowid').fetchall()
            if table == "_sqlite_migrations":   # and the records of the ones after them
                rows = [r for r in rows if r[columns.index("name")] in RELEASED]
            tables[table] = (columns, rows)
        schema = [sql for (sql,) in conn.execute(
            "select sql from sqlite_master where type in ('index', 'trigger') "
            "and sql is not null order by name")
            if not any(table in sql for table in ADDED_TABLES)]
        return tables, schema
    finally:
        conn.close()


def applied(db) -> list[tuple[str, str]]:
    """The migrations the database records, with when each was applied."""
    return [(m.name, m.applied_at) for m in storage.migrations.applied(db)]


def game_ids(db) -> dict[str, str]:
    """Each game's id by its players' names (the ids are random)."""
    return {" ".join(storage.load_game(db, gid, deleted=True).players): gid
            for (gid,) in db.execute("select id from games").fetchall()}


def test_the_migrations_keep_the_names_databases_recorded():
    pending = storage.migrations.pending(sqlite_utils.Database(memory=True))
    assert [m.name for m in pending] == MIGRATIONS


def test_a_database_made_by_main_opens_and_migrating_it_changes_nothing_it_had(tmp_path):
    path = restored(tmp_path, "club-main-444e519.sql")
    before = as_before(path)
    storage.migrate(path)
    assert as_before(path) == before
    migrated = contents(path)
    storage.migrate(path)   # again: nothing left to do
    assert contents(path) == migrated
    db = storage.connect(path)
    assert [name for name, _at in applied(db)] == MIGRATIONS
    ids = game_ids(db)
    friday = storage.load_game(db, ids["Ann Bob Chi"])
    assert friday.name == "Friday" and [r.scores for r in friday.rounds] == FRIDAY
    # Stored before train colours and round times: the default palette, no times.
    assert friday.colours == () and list(friday.colours_by_player.values()) == [
        "#0072b2", "#d55e00", "#009e73"]
    assert not friday.timed and {(r.started_at, r.saved_at) for r in friday.rounds} == {
        (None, None)}
    # Stored before house scoring (R11): no lists, hands as scores, the same record and
    # standings as before (its check code too: the record leaves the new options out).
    assert {(r.went_out, r.markers) for r in friday.rounds} == {(None, None)}
    assert [r.to_json()["hand_scores"] for r in friday.rounds] == FRIDAY
    assert friday.options.record() == {
        "deal": "A", "starter": "engine_holder", "first_turn": "train",
        "first_turn_stuck": "marker", "double_owner_satisfies": False, "double_blank": 50}
    assert [(s.player, s.total, s.zero_rounds, s.lowest_nonzero)
            for s in friday.standings().rows] == [("Ann", 7, 1, 2), ("Chi", 11, 1, 3),
                                                   ("Bob", 13, 1, 6)]
    assert [(c["round"], c["player"], c["old"], c["new"]) for c in
            storage.history(db, friday.id)][6:9] == [(2, "Chi", 9, 8), (2, "Chi", 8, 9),
                                                     (2, "Chi", 9, 8)]
    log = storage.live_moves(db, ids["Ann Dee"], 2)
    assert [(m["seq"], m["data"]["type"], m["undone_at"] is None) for m in log] == [
        (0, "play", True), (1, "draw", False)]
    chi = people.player(db, "Chi")   # named as in their latest game, where they are Dee
    assert (chi.record.name, chi.record.games, chi.record.points, chi.aliases,
            chi.in_progress) == ("Dee", 1, 11, ("Dee",), 1)
    assert [s.name for s in seasons.seasons(db)] == ["Autumn 2026"]
    # It goes on as any database: a save, a restored game and a separated alias.
    game = storage.load_game(db, ids["Ann Dee"])
    for number in (2, 3):
        storage.record_round(db, game, number, {"Ann": 3, "Dee": 0})
    storage.restore_game(db, ids["Eve Fay"])
    people.remove_alias(db, "Dee")
    assert (people.player(db, "Dee").record.games, people.player(db, "Ann").record.games,
            people.player(db, "Eve").record.games) == (1, 2, 0)
    db.close()


def test_the_app_serves_a_database_made_by_main(tmp_path):
    path = restored(tmp_path, "club-main-444e519.sql")
    client = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"}).test_client()
    assert sorted(g["name"] for g in client.get("/api/games").get_json()["games"]) == [
        "", "Friday"]
    ann = client.get("/api/players/Ann").get_json()
    assert [(g["name"], g["total"], g["place"]) for g in ann["games"]] == [("Friday", 7, 1)]
    assert (ann["wins"], ann["points"], ann["zero_rounds"]) == (1, 7, 1)


def test_a_database_from_before_the_players_tables_gains_them_with_its_games(tmp_path):
    path = restored(tmp_path, "club-before-m011-2f9d82d.sql")
    db = storage.connect(path)
    earlier = applied(db)
    assert [name for name, _at in earlier] == RELEASED[:-1]
    db.close()
    storage.migrate(path)
    db = storage.connect(path)
    assert applied(db)[:len(earlier)] == earlier
    assert [name for name, _at in applied(db)] == MIGRATIONS
    assert db.execute("select count(*) from seats").fetchone()[0] == 7   # fill_seats
    assert [(r.name, r.games, r.wins, r.points) for r in people.directory(db)] == [
        ("Ann", 1, 1, 7), ("Bob", 1, 0, 13), ("Chi", 1, 0, 11), ("Dee", 0, 0, 0)]
    friday = storage.load_game(db, game_ids(db)["Ann Bob Chi"])
    assert [r.scores for r in friday.rounds] == FRIDAY
    joined = people.add_alias(db, "Dee", "Chi")
    assert (joined.key, joined.games, people.player(db, "Dee").in_progress) == ("chi", 1, 1)
    db.close()
    storage.migrate(path)   # again: nothing left to do
    db = storage.connect(path)
    assert storage.migrations.pending(db) == [] and storage.fill_seats(db) == 0
    db.close()
