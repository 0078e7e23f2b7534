"""Storage of players, matches, games and shots in SQLite.

The database lives in the user's data directory (``nineball.sqlite3``) unless a path is given or
``NINEBALL_DB`` names one. It runs in WAL mode and commits every shot the moment it is added, so
killing the process at any moment loses no completed shot; :meth:`Store.unfinished` and
:meth:`Store.load` give back a match to resume. A match is stored as the pieces of its
:class:`MatchRecord`: the header once, then games and shots one row each.

**One writer per match.** Every match has a revision, raised by each write in the same
transaction (``BEGIN IMMEDIATE``). :class:`nineball.game.saved.SavedMatch` writes with the
revision it loaded, so a second writer of the same match (another ``nineball resume``, the web
server) has its write refused whole with :class:`ConcurrentWriteError`, and the stored match
stays as the first writer left it. A process killed while writing holds no lock.

**A file that is not a usable database is never changed.** Before anything is written the file
is inspected: a directory, a file that is not SQLite, a damaged one (``PRAGMA quick_check``),
another program's database or one from a newer nineball (``PRAGMA user_version``) is refused with
:class:`DatabaseError`, naming the file and what is wrong. Rows edited by hand into nonsense
are refused the same way when they are read.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from nineball.errors import ConcurrentWriteError, DatabaseError, InvalidInputError, NineballError
from nineball.game.record import GameRecord, MatchRecord, ShotRecord, record_to_json, shot_to_json
from nineball.game.store_file import guarded, inspect_file, inspect_path, migrate
from nineball.rules import GameOver, Seat

__all__ = [
    "DB_ENV",
    "ConcurrentWriteError",
    "DatabaseError",
    "MatchSummary",
    "Store",
    "default_db_path",
]

DB_ENV = "NINEBALL_DB"
"""The environment variable that overrides the database path."""


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

        An existing file is inspected before anything is written to it, and left exactly as
        it was when it is refused.

        Args:
            path: a file, ``":memory:"``, or None for :func:`default_db_path`.

        Raises:
            DatabaseError: the path is a directory or cannot be read or created, the file is not
                an SQLite database, is damaged, is another program's, or is from a newer
                nineball.
        """
        self.path = default_db_path() if path is None else path
        self._depth = 0
        name = str(self.path)
        exists = name != ":memory:" and inspect_path(Path(self.path))
        try:
            self._db = sqlite3.connect(name, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise DatabaseError(f"database {name!r} cannot be opened: {exc}") from exc
        try:
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA busy_timeout=30000")
            if exists:
                inspect_file(self._db, name)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            migrate(self._db)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            self._db.close()
            raise DatabaseError(f"database {name!r} cannot be used: {exc}") from exc
        except NineballError:
            self._db.close()
            raise

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
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``): committed at the end, rolled back on error.

        Re-entrant: a write made inside another (a shot stored with the event entry that
        carried it, :mod:`nineball.game.event_store`) joins it, and is committed or rolled
        back with it.
        """
        if self._depth:
            with self._joined():
                yield self._db
            return
        self._db.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self._db
        except BaseException:
            self._depth = 0
            self._db.execute("ROLLBACK")
            raise
        self._depth = 0
        self._db.execute("COMMIT")

    _transaction = transaction

    @contextmanager
    def _joined(self) -> Iterator[None]:
        """Inside an open transaction: one level deeper, for as long as the block runs."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every read inside sees the same state of the file (re-entrant).

        Write nothing inside one (begin a :meth:`transaction` instead).
        """
        if self._depth:
            with self._joined():
                yield self._db
            return
        self._db.execute("BEGIN")
        self._depth = 1
        try:
            yield self._db
        finally:
            self._depth = 0
            if self._db.in_transaction:
                self._db.execute("COMMIT")

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection, for the modules that keep their tables beside the matches."""
        return self._db

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
        self._db.execute(
            "UPDATE matches SET updated = ?, revision = revision + 1 WHERE id = ?",
            (_now(), match_id),
        )

    def _expect(self, match_id: int, revision: int | None) -> None:
        """Inside a write: refuse it unless the match is still at ``revision`` (None: any)."""
        row = self._db.execute("SELECT revision FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no match with id {match_id!r}")
        if revision is not None and row["revision"] != revision:
            raise ConcurrentWriteError(
                f"match #{match_id} in {str(self.path)!r} was changed by another writer "
                f"(revision {row['revision']!r}, this copy has {revision!r}): nothing was "
                "stored; resume it again to continue from where it stands"
            )

    @guarded
    def revision(self, match_id: int) -> int:
        """How many writes a match has had: a writer holding an older number is refused.

        Raises:
            InvalidInputError: no match has that id.
        """
        row = self._db.execute("SELECT revision FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no match with id {match_id!r}")
        return int(row["revision"])

    @guarded
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
                self._add_game(match_id, game)
                for shot in game.shots:
                    self._add_shot(match_id, game.number, shot)
                if game.result is not None:
                    self._end_game(match_id, game.result)
            if record.winner is not None:
                self._end_match(match_id, record.winner)
        return match_id

    @guarded
    def add_game(self, match_id: int, game: GameRecord) -> None:
        """Start a game of a match (its number, breaker and rack), committed at once."""
        with self._transaction():
            self._expect(match_id, None)
            self._add_game(match_id, game)

    @guarded
    def add_shot(self, match_id: int, game_number: int, shot: ShotRecord) -> None:
        """Append a shot to a game, committed at once (it survives a kill right after)."""
        with self._transaction():
            self._add_shot(match_id, game_number, shot)

    @guarded
    def end_game(self, match_id: int, result: GameOver) -> None:
        """Record how a game ended."""
        with self._transaction():
            self._end_game(match_id, result)

    @guarded
    def end_match(self, match_id: int, winner: Seat) -> None:
        """Record the winner of a match and mark it finished."""
        with self._transaction():
            self._end_match(match_id, winner)

    @guarded
    def commit_entry(
        self,
        match_id: int,
        revision: int | None,
        *,
        game: GameRecord | None = None,
        shot: tuple[int, ShotRecord] | None = None,
        game_over: GameOver | None = None,
        winner: Seat | None = None,
    ) -> int:
        """Store one entry of a match whole, in one transaction, if no one else wrote meanwhile.

        Args:
            match_id: the match.
            revision: the revision the writer last saw (None: write whatever stands).
            game: a game the entry starts (its number, breaker and rack).
            shot: the game's number and the entry.
            game_over: how the entry ended its game.
            winner: the winner of the match the entry ended.

        Returns:
            The match's new revision.

        Raises:
            ConcurrentWriteError: the match is no longer at ``revision``; nothing is stored.
            InvalidInputError: no such match or game.
        """
        with self._transaction():
            self._expect(match_id, revision)
            if game is not None:
                self._add_game(match_id, game)
            if shot is not None:
                self._add_shot(match_id, *shot)
            if game_over is not None:
                self._end_game(match_id, game_over)
            if winner is not None:
                self._end_match(match_id, winner)
            self._touch(match_id)
            return int(
                self._db.execute(
                    "SELECT revision FROM matches WHERE id = ?", (match_id,)
                ).fetchone()[0]
            )

    def _add_game(self, match_id: int, game: GameRecord) -> None:
        rack = None
        if game.rack is not None:
            rack = json.dumps({str(int(b)): list(p) for b, p in sorted(game.rack.items())})
        try:
            self._db.execute(
                "INSERT INTO games (match_id, number, breaker, rack) VALUES (?, ?, ?, ?)",
                (match_id, game.number, int(game.breaker), rack),
            )
        except sqlite3.IntegrityError as exc:
            raise ConcurrentWriteError(
                f"match #{match_id} in {str(self.path)!r} already has a game {game.number}"
            ) from exc
        self._touch(match_id)

    def _add_shot(self, match_id: int, game_number: int, shot: ShotRecord) -> None:
        game_id = self._game_id(match_id, game_number)
        number = self._db.execute(
            "SELECT COUNT(*) FROM shots WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
        self._db.execute(
            "INSERT INTO shots (game_id, number, data, created) VALUES (?, ?, ?, ?)",
            (game_id, number, json.dumps(shot_to_json(shot)), _now()),
        )
        self._touch(match_id)

    def _end_game(self, match_id: int, result: GameOver) -> None:
        game_id = self._game_id(match_id, result.game)
        self._db.execute(
            "UPDATE games SET winner = ?, reason = ? WHERE id = ?",
            (int(result.winner), result.reason.value, game_id),
        )
        self._touch(match_id)

    def _end_match(self, match_id: int, winner: Seat) -> None:
        self._db.execute(
            "UPDATE matches SET finished = 1, winner = ? WHERE id = ?", (int(winner), match_id)
        )
        self._touch(match_id)

    @guarded
    def undo_last(self, match_id: int, *, steps: int = 1, revision: int | None = None) -> int:
        """Take back the last ``steps`` things stored for a match, in one transaction.

        A thing is a shot, a game end or an empty game.

        Args:
            match_id: the match.
            steps: how many things to take back.
            revision: the revision the writer last saw (None: undo whatever stands).

        Returns:
            The match's new revision.

        Raises:
            InvalidInputError: the match has nothing to take back; nothing changes.
            ConcurrentWriteError: the match is no longer at ``revision``; nothing changes.
        """
        with self._transaction():
            self._expect(match_id, revision)
            for _ in range(steps):
                self._undo_one(match_id)
            return int(
                self._db.execute(
                    "SELECT revision FROM matches WHERE id = ?", (match_id,)
                ).fetchone()[0]
            )

    def _undo_one(self, match_id: int) -> None:
        self._db.execute("UPDATE matches SET finished = 0, winner = NULL WHERE id = ?", (match_id,))
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
            DatabaseError: its rows do not read as a record (edited by hand, damaged).
        """
        return self.snapshot(match_id)[0]

    @guarded
    def snapshot(self, match_id: int) -> tuple[MatchRecord, int]:
        """The match as a record and its revision, read together (one read transaction).

        Raises:
            InvalidInputError: no match has that id.
            DatabaseError: its rows do not read as a record (edited by hand, damaged).
        """
        from nineball.game.record import InvalidRecordError
        from nineball.game.record_read import load_record  # pydantic: only when a match is read

        inside = self._depth > 0  # read inside a write: its snapshot is the writer's
        if not inside:
            self._db.execute("BEGIN")
        try:
            row = self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise InvalidInputError(f"no match with id {match_id!r}")
            try:
                text = self._match_json(row)
            except (ValueError, TypeError, KeyError) as exc:
                raise self._damaged(match_id, exc) from exc
            revision = row["revision"]
        finally:
            if self._db.in_transaction and not inside:
                self._db.execute("COMMIT")
        try:
            return load_record(text, check=False), int(revision)
        except (InvalidRecordError, ValueError, TypeError) as exc:
            raise self._damaged(match_id, exc) from exc

    def _damaged(self, match_id: int, exc: Exception) -> DatabaseError:
        return DatabaseError(
            f"database {str(self.path)!r}: the rows of match #{match_id} are damaged "
            f"(edited by hand?): {exc}"
        )

    def _match_json(self, row: sqlite3.Row) -> str:
        """The record JSON of a match row and its games and shots."""
        data = json.loads(row["header"])
        if not isinstance(data, dict):
            raise TypeError(f"the header is not a JSON object: {row['header']!r:.80}")
        games = []
        for game in self._db.execute(
            "SELECT * FROM games WHERE match_id = ? ORDER BY number", (row["id"],)
        ):
            shots = []
            for index, shot in enumerate(
                self._db.execute(
                    "SELECT number, data FROM shots WHERE game_id = ? ORDER BY number",
                    (game["id"],),
                )
            ):
                if shot["number"] != index or not isinstance(shot["number"], int):
                    raise ValueError(
                        f"game {game['number']!r}: entry {index} is numbered {shot['number']!r}"
                    )
                try:
                    shots.append(json.loads(shot["data"]))
                except (ValueError, TypeError) as exc:
                    raise ValueError(
                        f"game {game['number']!r} entry {shot['number']!r}: {exc}"
                    ) from exc
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
        return json.dumps(data)

    @guarded
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
        return [self._summary(row) for row in self._db.execute(query, args)]

    def _summary(self, row: sqlite3.Row) -> MatchSummary:
        try:
            header = json.loads(row["header"])
            race_to = header["race_to"] if isinstance(header, dict) else None
            if not isinstance(race_to, int) or isinstance(race_to, bool):
                raise ValueError(f"race_to {race_to!r} in the header is not a whole number")
            winner = None if row["winner"] is None else Seat(row["winner"])
            if not all(isinstance(row[k], str) for k in ("name0", "name1", "created")):
                raise TypeError("a player's name or the date is not text")
        except (ValueError, TypeError, KeyError) as exc:
            raise self._damaged(row["id"], exc) from exc
        return MatchSummary(
            id=row["id"],
            players=(row["name0"], row["name1"]),
            score=(row["s0"], row["s1"]),
            race_to=race_to,
            created=row["created"],
            finished=bool(row["finished"]),
            winner=winner,
        )

    @guarded
    def unfinished(self) -> list[MatchSummary]:
        """Matches not yet won, newest first: the ones ``nineball resume`` can continue."""
        return [m for m in self.matches() if not m.finished]

    @guarded
    def players(self) -> list[str]:
        """Every player's name, in alphabetical order."""
        return [r["name"] for r in self._db.execute("SELECT name FROM players ORDER BY name")]
