"""SQL is written in one place, ``scorekeeper/storage/``: no other module of the package
holds an SQL statement or runs one (README, "For developers")."""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
STORAGE = PACKAGE / "storage"
#: The words an SQL statement starts with.
VERB = re.compile(r"\s*(select|insert|update|delete|replace|upsert|create|drop|alter|pragma|"
                  r"with|begin|commit|rollback|savepoint|release|vacuum|attach|explain)\b", re.I)
#: How a connection is asked to run SQL (sqlite3's and sqlite-utils' names).
RUNS_SQL = {"execute", "executemany", "executescript", "query"}
#: What the database is called where a module holds one (sqlite-utils: db["games"]).
DATABASE = {"db", "get_db"}


def is_sql(text: str) -> bool:
    """True when *text* is a statement SQLite can read (the tables it names need not
    exist); prose that starts with such a word ("Select a tile.") is a syntax error.

    A hole (an f-string's {…}, a template's {where}) is read as a name and as nothing.
    """
    if not VERB.match(text):
        return False
    return any(_reads(re.sub(r"\{\w*\}", fill, text)) for fill in ("x", ""))


def _reads(statement: str) -> bool:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"explain {statement}", [None] * statement.count("?"))
    except sqlite3.OperationalError as error:
        return not re.match(r"(near .*: syntax error|incomplete input|unrecognized token)",
                            str(error))
    except sqlite3.Error:
        return True   # read, then refused for its bindings: it is SQL
    finally:
        conn.close()
    return True


def literal(node: ast.AST) -> str | None:
    """The text of a string literal; an f-string's holes written {}."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}"
                       for part in node.values)
    return None


def sql_in(path: Path) -> list[str]:
    """Each SQL statement written, each call that runs SQL and each table taken from the
    database (sqlite-utils' ``db["games"]``) in one module: where, and what."""
    found = []
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        text = literal(node)
        if text is not None and is_sql(text):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {text.strip()!r}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in RUNS_SQL):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: "
                         f".{node.func.attr}(…)")
        elif isinstance(node, ast.Subscript) and _name(node.value) in DATABASE:
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: a table, "
                         f"{ast.unparse(node)}")
    return found


def _name(node: ast.AST) -> str | None:
    """The name *node* is, or calls (``db``, ``get_db()``)."""
    if isinstance(node, ast.Call):
        node = node.func
    return node.id if isinstance(node, ast.Name) else None


def outside_storage() -> list[Path]:
    """Every module of the package but storage's."""
    return sorted(p for p in PACKAGE.rglob("*.py") if STORAGE not in p.parents)


@pytest.mark.parametrize("text, sql", [
    ("select number from edits where game_id = ? order by id desc limit 1", True),
    ("\n    select person, count(*) from seats where complete = 1 {where}\n    group by person",
     True),
    ("delete from {table} where game_id = ?", True),
    ("update games set pin_hash = null where pin_hash is not null", True),
    ("PRAGMA foreign_keys = ON", True),
    ("BEGIN IMMEDIATE", True),
    ("Select a tile from the boneyard.", False),
    ("Delete this game?", False),
    ("Update the scores, then save.", False),
    ("With the double-12 set, the engine is 12.", False),
    ("select", False),
])
def test_a_statement_is_told_from_prose(text, sql):
    assert is_sql(text) is sql


def test_storage_is_where_the_sql_is():
    # The check finds storage's own statements: it would find them anywhere else.
    found = [line for p in sorted(STORAGE.glob("*.py")) for line in sql_in(p)]
    assert len(found) > 60
    assert any("games.py" in line and "select deleted_at from games" in line for line in found)
    assert any("schema.py" in line and "CREATE TRIGGER" in line for line in found)
    assert any("seasons.py" in line and "db['seasons']" in line for line in found)


def test_no_module_outside_storage_writes_or_runs_sql():
    assert outside_storage() and PACKAGE / "people.py" in outside_storage()
    assert [line for p in outside_storage() for line in sql_in(p)] == []
