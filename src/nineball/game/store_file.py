"""The file behind a :class:`nineball.game.store.Store`: its schema, checks and migration.

Nothing here writes to a file before it has been inspected: a path that is a directory, a file
that is not SQLite, a damaged database (``PRAGMA quick_check``), another program's database or
one from a newer nineball (``PRAGMA user_version``) is refused with :class:`DatabaseError` and
left exactly as it was.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from nineball.errors import DatabaseError

__all__ = ["SCHEMA_VERSION", "guarded", "inspect_file", "inspect_path", "migrate"]

SCHEMA_VERSION = 4
"""3 added ``matches.revision`` (one writer per match); 4 the events (the ``event_*`` tables of
:mod:`nineball.game.event_store`)."""
_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    player0 INTEGER NOT NULL REFERENCES players(id),
    player1 INTEGER NOT NULL REFERENCES players(id),
    header TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    winner INTEGER,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    breaker INTEGER NOT NULL,
    rack TEXT,
    winner INTEGER,
    reason TEXT,
    UNIQUE (match_id, number)
);
CREATE TABLE IF NOT EXISTS shots (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    data TEXT NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (game_id, number)
);
CREATE INDEX IF NOT EXISTS shots_by_game ON shots (game_id, number);
-- The batch results of schema 2, kept so that older files open (batch runs now live in
-- batch_runs and batch_results, nineball.players.runs).
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    run TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS results_by_run ON results (run, kind);
-- Events (schema 4): their settings, players, matches, quick racks and every scorer's entry.
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    secret TEXT NOT NULL,
    seeding TEXT,
    created TEXT NOT NULL,
    started TEXT,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS event_players (
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    rating REAL,
    PRIMARY KEY (event_id, number),
    UNIQUE (event_id, name)
);
CREATE TABLE IF NOT EXISTS event_matches (
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    table_number INTEGER,
    called TEXT,
    mode TEXT,
    first_breaker INTEGER,
    started TEXT,
    finished TEXT,
    record_id INTEGER REFERENCES matches(id),
    winner INTEGER,
    score0 INTEGER NOT NULL DEFAULT 0,
    score1 INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, key)
);
CREATE TABLE IF NOT EXISTS event_racks (
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    number INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    breaker INTEGER NOT NULL,
    data TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (event_id, key, number)
);
CREATE TABLE IF NOT EXISTS event_entries (
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    table_number INTEGER,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    answer TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (event_id, id),
    UNIQUE (event_id, key, seq)
);
"""
_COLUMNS = {
    "players": {"id", "name", "created"},
    "matches": {"id", "player0", "player1", "header", "created", "updated", "finished", "winner"},
    "games": {"id", "match_id", "number", "breaker", "rack", "winner", "reason"},
    "shots": {"id", "game_id", "number", "data", "created"},
    "results": {"id", "run", "kind", "data", "created"},
    "events": {"id", "name", "config", "secret", "seeding", "created", "started", "revision"},
    "event_players": {"event_id", "number", "name", "rating"},
    "event_matches": {
        "event_id", "key", "table_number", "called", "mode", "first_breaker", "started",
        "finished", "record_id", "winner", "score0", "score1",
    },
    "event_racks": {"event_id", "key", "number", "winner", "breaker", "data", "created"},
    "event_entries": {
        "event_id", "id", "key", "seq", "table_number", "kind", "data", "answer", "created",
    },
}  # fmt: skip
"""The columns each table has had since schema 2 (``matches.revision`` came with 3, the
``event*`` tables with 4)."""
_TABLES = frozenset(_COLUMNS)
_SQLITE_MAGIC = b"SQLite format 3\x00"

_P = ParamSpec("_P")
_T = TypeVar("_T")


def guarded(method: Callable[_P, _T]) -> Callable[_P, _T]:
    """Turn an SQLite failure inside a :class:`Store` method into a :class:`DatabaseError`."""

    @functools.wraps(method)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(*args, **kwargs)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            store = args[0]
            path = getattr(store, "path", "?")
            raise DatabaseError(f"database {str(path)!r} cannot be used: {exc}") from exc

    return wrapper


def inspect_path(path: Path) -> bool:
    """Check a database path before SQLite opens it; True when a file with content is there.

    Raises:
        DatabaseError: a directory, a file that cannot be read or is not SQLite, or a folder
            that cannot be created.
    """
    name = str(path)
    if path.is_dir():
        raise DatabaseError(f"database {name!r} is a directory, not a file")
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"database {name!r} cannot be created: {exc}") from exc
        return False
    try:
        with path.open("rb") as file:
            head = file.read(100)
    except OSError as exc:
        raise DatabaseError(f"database {name!r} cannot be read: {exc}") from exc
    if not head:
        return False  # an empty file is an empty database
    if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
        raise DatabaseError(
            f"database {name!r} is not an SQLite database (it starts with {head[:16]!r})"
        )
    return True


def inspect_file(db: sqlite3.Connection, name: str) -> None:
    """Refuse, before any write, a database that is damaged, another program's or newer.

    Raises:
        DatabaseError: naming the file and what is wrong.
    """
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = {
            str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        check = [str(r[0]) for r in db.execute("PRAGMA quick_check(5)")]
        columns = {
            table: {str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")}
            for table in tables & _TABLES
        }
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise DatabaseError(f"database {name!r} is damaged or not a database: {exc}") from exc
    if version > SCHEMA_VERSION:
        raise DatabaseError(
            f"database {name!r} has schema {version}, newer than this nineball "
            f"({SCHEMA_VERSION}): upgrade nineball to use it"
        )
    if check != ["ok"]:
        raise DatabaseError(f"database {name!r} is damaged: {'; '.join(check)}")
    ours = tables & _TABLES
    if version == 0 and tables and not ours:
        raise DatabaseError(
            f"database {name!r} is not a nineball database (tables: {', '.join(sorted(tables))})"
        )
    missing = {"players", "matches", "games", "shots"} - tables
    if (version > 0 or ours) and missing:
        raise DatabaseError(
            f"database {name!r} is damaged: schema {version} without the "
            f"table(s) {', '.join(sorted(missing))}"
        )
    for table, have in sorted(columns.items()):
        want = _COLUMNS[table] | ({"revision"} if table == "matches" and version >= 3 else set())
        if want - have:
            raise DatabaseError(
                f"database {name!r} is damaged: table {table!r} has no column(s) "
                f"{', '.join(sorted(want - have))}"
            )


def migrate(db: sqlite3.Connection) -> None:
    """Create the tables, or bring an older nineball database up to date, in one transaction."""
    if db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:  # not done meanwhile
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            columns = {r[1] for r in db.execute("PRAGMA table_info(matches)")}
            if "revision" not in columns:
                db.execute("ALTER TABLE matches ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
