"""Storage of players, matches, games and shots in SQLite.

The database lives in the user's data directory (``nineball.sqlite3``) unless a path is given or
``NINEBALL_DB`` names one. It runs in WAL mode and commits every shot the moment it is added, so
killing the process at any moment loses no completed shot; :meth:`Store.unfinished` and
:meth:`Store.load` give back a match to resume. A match is stored as the pieces of its
:class:`MatchRecord`: the header once, then games and shots one row each.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from nineball.errors import InvalidInputError
from nineball.game.record import GameRecord, MatchRecord, ShotRecord, record_to_json, shot_to_json
from nineball.rules import GameOver, Seat

__all__ = ["DB_ENV", "MatchSummary", "Store", "default_db_path"]

DB_ENV = "NINEBALL_DB"
"""The environment variable that overrides the database path."""

_SCHEMA_VERSION = 2
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
    winner INTEGER
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
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    run TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS results_by_run ON results (run, kind);
"""


def default_db_path() -> Path:
    """``$NINEBALL_DB`` if set, else ``nineball.sqlite3`` in the user's data directory."""
    override = os.environ.get(DB_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("nineball", appauthor=False)) / "nineball.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSummary:
    """One line of a match list."""

    id: int
    players: tuple[str, str]
    score: tuple[int, int]
    race_to: int
    created: str
    finished: bool
    winner: Seat | None


class Store:
    """A nineball database. Use it as a context manager, or call :meth:`close`."""

    def __init__(self, path: Path | str | None = None) -> None:
        """Open (and create, with its folder) the database at ``path``.

        Args:
            path: a file, ``":memory:"``, or None for :func:`default_db_path`.
        """
        self.path = default_db_path() if path is None else path
        if str(self.path) != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > _SCHEMA_VERSION:
            self._db.close()
            raise InvalidInputError(
                f"database {str(self.path)!r} has schema {version}, newer than this nineball "
                f"({_SCHEMA_VERSION})"
            )
        if version < _SCHEMA_VERSION:
            self._db.executescript(f"{_SCHEMA}\nPRAGMA user_version={_SCHEMA_VERSION};")

    def __enter__(self) -> Store:
        """Use the store in a ``with`` block."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the store at the end of the block."""
        self.close()

    def close(self) -> None:
        """Close the connection (harmless when already closed)."""
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _player(self, name: str) -> int:
        row = self._db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        if row is not None:
            return int(row["id"])
        cursor = self._db.execute(
            "INSERT INTO players (name, created) VALUES (?, ?)", (name, _now())
        )
        return int(cursor.lastrowid or 0)

    def _game_id(self, match_id: int, number: int) -> int:
        row = self._db.execute(
            "SELECT id FROM games WHERE match_id = ? AND number = ?", (match_id, number)
        ).fetchone()
        if row is None:
            raise InvalidInputError(f"match {match_id} has no game {number}")
        return int(row["id"])

    def _touch(self, match_id: int) -> None:
        self._db.execute("UPDATE matches SET updated = ? WHERE id = ?", (_now(), match_id))

    def start_match(self, record: MatchRecord) -> int:
        """Store a new match (with any games and shots it already has); return its id."""
        header = record_to_json(replace(record, games=(), winner=None))
        with self._transaction():
            players = [self._player(name) for name in record.config.players]
            now = _now()
            cursor = self._db.execute(
                "INSERT INTO matches (player0, player1, header, created, updated)"
                " VALUES (?, ?, ?, ?, ?)",
                (players[0], players[1], json.dumps(header), now, now),
            )
            match_id = int(cursor.lastrowid or 0)
        for game in record.games:
            self.add_game(match_id, replace(game, shots=(), result=None))
            for shot in game.shots:
                self.add_shot(match_id, game.number, shot)
            if game.result is not None:
                self.end_game(match_id, game.result)
        if record.winner is not None:
            self.end_match(match_id, record.winner)
        return match_id

    def add_game(self, match_id: int, game: GameRecord) -> None:
        """Start a game of a match (its number, breaker and rack), committed at once."""
        rack = None
        if game.rack is not None:
            rack = json.dumps({str(int(b)): list(p) for b, p in sorted(game.rack.items())})
        with self._transaction():
            self._db.execute(
                "INSERT INTO games (match_id, number, breaker, rack) VALUES (?, ?, ?, ?)",
                (match_id, game.number, int(game.breaker), rack),
            )
            self._touch(match_id)

    def add_shot(self, match_id: int, game_number: int, shot: ShotRecord) -> None:
        """Append a shot to a game, committed at once (it survives a kill right after)."""
        with self._transaction():
            game_id = self._game_id(match_id, game_number)
            number = self._db.execute(
                "SELECT COUNT(*) FROM shots WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            self._db.execute(
                "INSERT INTO shots (game_id, number, data, created) VALUES (?, ?, ?, ?)",
                (game_id, number, json.dumps(shot_to_json(shot)), _now()),
            )
            self._touch(match_id)

    def end_game(self, match_id: int, result: GameOver) -> None:
        """Record how a game ended."""
        with self._transaction():
            game_id = self._game_id(match_id, result.game)
            self._db.execute(
                "UPDATE games SET winner = ?, reason = ? WHERE id = ?",
                (int(result.winner), result.reason.value, game_id),
            )
            self._touch(match_id)

    def end_match(self, match_id: int, winner: Seat) -> None:
        """Record the winner of a match and mark it finished."""
        with self._transaction():
            self._db.execute(
                "UPDATE matches SET finished = 1, winner = ?, updated = ? WHERE id = ?",
                (int(winner), _now(), match_id),
            )

    def undo_last(self, match_id: int) -> None:
        """Take back the last thing stored for a match: a shot, a game end or an empty game.

        Raises:
            InvalidInputError: the match has nothing to take back.
        """
        with self._transaction():
            self._db.execute(
                "UPDATE matches SET finished = 0, winner = NULL WHERE id = ?", (match_id,)
            )
            game = self._db.execute(
                "SELECT id, winner FROM games WHERE match_id = ? ORDER BY number DESC LIMIT 1",
                (match_id,),
            ).fetchone()
            if game is None:
                raise InvalidInputError(f"match {match_id} has nothing to undo")
            shot = self._db.execute(
                "SELECT id FROM shots WHERE game_id = ? ORDER BY number DESC LIMIT 1",
                (game["id"],),
            ).fetchone()
            if game["winner"] is not None:
                self._db.execute(
                    "UPDATE games SET winner = NULL, reason = NULL WHERE id = ?", (game["id"],)
                )
            elif shot is not None:
                self._db.execute("DELETE FROM shots WHERE id = ?", (shot["id"],))
            else:
                self._db.execute("DELETE FROM games WHERE id = ?", (game["id"],))
            self._touch(match_id)

    def load(self, match_id: int) -> MatchRecord:
        """The match as a record, with every stored game and shot.

        The referee is not consulted: a match killed between a shot and the end of its game
        loads as stored, and the game layer replays it to resume.

        Raises:
            InvalidInputError: no match has that id.
        """
        from nineball.game.record_read import load_record  # pydantic: only when a match is read

        row = self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no match with id {match_id!r}")
        data: dict[str, Any] = json.loads(row["header"])
        games = []
        for game in self._db.execute(
            "SELECT * FROM games WHERE match_id = ? ORDER BY number", (match_id,)
        ):
            shots = [
                json.loads(shot["data"])
                for shot in self._db.execute(
                    "SELECT data FROM shots WHERE game_id = ? ORDER BY number", (game["id"],)
                )
            ]
            result = None
            if game["winner"] is not None:
                result = {"winner": game["winner"], "reason": game["reason"]}
            games.append(
                {
                    "number": game["number"],
                    "breaker": game["breaker"],
                    "rack": None if game["rack"] is None else json.loads(game["rack"]),
                    "shots": shots,
                    "result": result,
                }
            )
        data["games"] = games
        data["winner"] = row["winner"]
        return load_record(json.dumps(data), check=False)

    def matches(self, *, player: str | None = None) -> list[MatchSummary]:
        """Every match, newest first; only those of ``player`` when a name is given."""
        query = (
            "SELECT m.*, p0.name AS name0, p1.name AS name1,"
            " (SELECT COUNT(*) FROM games g WHERE g.match_id = m.id AND g.winner = 0) AS s0,"
            " (SELECT COUNT(*) FROM games g WHERE g.match_id = m.id AND g.winner = 1) AS s1"
            " FROM matches m JOIN players p0 ON p0.id = m.player0"
            " JOIN players p1 ON p1.id = m.player1"
        )
        args: tuple[object, ...] = ()
        if player is not None:
            query += " WHERE p0.name = ? OR p1.name = ?"
            args = (player, player)
        query += " ORDER BY m.id DESC"
        return [
            MatchSummary(
                id=row["id"],
                players=(row["name0"], row["name1"]),
                score=(row["s0"], row["s1"]),
                race_to=json.loads(row["header"])["race_to"],
                created=row["created"],
                finished=bool(row["finished"]),
                winner=None if row["winner"] is None else Seat(row["winner"]),
            )
            for row in self._db.execute(query, args)
        ]

    def unfinished(self) -> list[MatchSummary]:
        """Matches not yet won, newest first: the ones ``nineball resume`` can continue."""
        return [m for m in self.matches() if not m.finished]

    def add_results(self, run: str, kind: str, rows: Iterable[Mapping[str, object]]) -> int:
        """Store the results of a batch run (a tournament's games, a set of breaks) at once.

        Returns:
            The number of rows stored.
        """
        now = _now()
        data = [(run, kind, json.dumps(dict(row)), now) for row in rows]
        with self._transaction():
            self._db.executemany(
                "INSERT INTO results (run, kind, data, created) VALUES (?, ?, ?, ?)", data
            )
        return len(data)

    def results(self, run: str, kind: str) -> list[dict[str, Any]]:
        """The rows of a batch run, in the order they were stored."""
        rows = self._db.execute(
            "SELECT data FROM results WHERE run = ? AND kind = ? ORDER BY id", (run, kind)
        )
        return [json.loads(row["data"]) for row in rows]

    def players(self) -> list[str]:
        """Every player's name, in alphabetical order."""
        return [r["name"] for r in self._db.execute("SELECT name FROM players ORDER BY name")]
