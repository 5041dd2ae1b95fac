"""`flask --app scorekeeper init-db`: creates and migrates the database; twice is harmless."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from scorekeeper import storage


def applied(database: Path) -> list[tuple[str, str]]:
    """The migrations recorded in the database, with when each was applied."""
    db = storage.connect(str(database))
    try:
        assert storage.migrations.pending(db) == []
        assert {"games", "rounds", "scores", "changes"} <= set(db.table_names())
        return [(m.name, m.applied_at) for m in storage.migrations.applied(db)]
    finally:
        db.close()


def test_init_db_creates_and_migrates_the_database(app, runner):
    database = Path(app.config["DATABASE"])
    for suffix in ("", "-wal", "-shm"):    # create_app made one: start from none
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert result.output == f"Database ready at {database}.\n"
    assert applied(database)
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_init_db_twice_keeps_the_games_and_applies_nothing_again(app, client, runner,
                                                                 played_game):
    database = Path(app.config["DATABASE"])
    before = applied(database)
    for _ in range(2):
        result = runner.invoke(args=["init-db"])
        assert result.exit_code == 0 and result.output == f"Database ready at {database}.\n"
    assert applied(database) == before
    game = client.get(f"/api/games/{played_game['id']}").get_json()
    assert game["name"] == "Friday" and game["rounds"] == played_game["rounds"]


def test_the_flask_command_line_runs_it_in_the_instance_folder(tmp_path):
    instance = tmp_path / "instance"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    result = subprocess.run(
        [str(Path(sys.executable).with_name("flask")), "--app", "scorekeeper", "init-db"],
        cwd=tmp_path, env={**env, "SCOREKEEPER_INSTANCE": str(instance)},
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"Database ready at {instance / 'scorekeeper.db'}.\n"
    assert applied(instance / "scorekeeper.db")
