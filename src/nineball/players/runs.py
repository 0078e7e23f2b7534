"""Batch runs saved job by job: a run id, its parameters, and each result the moment it finishes.

A run (a tournament, a ladder, a set of breaks, a realism check) is a list of seeded jobs fixed by
its command and parameters, so its id is made from them (``tournament-1a2b3c4d5e``): the same
command again is the same run, and finds its finished jobs saved instead of adding them twice.
Each result is committed as it arrives, keyed by the run and the job's index; a stopped run is
finished by running the jobs not yet saved (:func:`play_run`), and since every job has its own
seed the finished run is the one an uninterrupted run gives. The tables live in the match
store's SQLite file (:func:`nineball.game.store.default_db_path`), in WAL mode with a busy
timeout so that two writers (two commands, or a command and the web) work together.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from nineball.errors import InvalidInputError
from nineball.game.store import default_db_path
from nineball.players.backends import iter_jobs

__all__ = ["RunInfo", "RunStore", "play_run", "run_id"]

J = TypeVar("J")
R = TypeVar("R")

_TABLES = """
CREATE TABLE IF NOT EXISTS batch_runs (
    id TEXT PRIMARY KEY,
    command TEXT NOT NULL,
    params TEXT NOT NULL,
    jobs INTEGER NOT NULL,
    created TEXT NOT NULL,
    finished TEXT,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS batch_results (
    run TEXT NOT NULL REFERENCES batch_runs(id) ON DELETE CASCADE,
    job INTEGER NOT NULL,
    data TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (run, job)
);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def run_id(command: str, params: Mapping[str, object]) -> str:
    """The id of the run of ``command`` with ``params``: the same parameters, the same id."""
    canonical = json.dumps({"command": command, **params}, sort_keys=True, separators=(",", ":"))
    return f"{command}-{hashlib.sha256(canonical.encode()).hexdigest()[:10]}"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunInfo:
    """A stored run."""

    id: str
    command: str
    params: dict[str, Any]
    jobs: int
    """How many jobs (games, breaks) the run has."""
    done: int
    """How many of them are saved."""
    created: str
    finished: bool


class RunStore:
    """The runs in a nineball database. Use it as a context manager, or call :meth:`close`."""

    def __init__(self, path: Path | str | None = None) -> None:
        """Open (and create, with its folder) the database at ``path``.

        Args:
            path: a file, ``":memory:"``, or None for the match store's default path.
        """
        self.path = default_db_path() if path is None else path
        if str(self.path) != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.executescript(_TABLES)

    def __enter__(self) -> RunStore:
        """Use the store in a ``with`` block."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the store at the end of the block."""
        self.close()

    def close(self) -> None:
        """Close the connection (harmless when already closed)."""
        self._db.close()

    def open(self, command: str, params: Mapping[str, object], jobs: int) -> RunInfo:
        """The run of ``command`` with ``params`` (``jobs`` of them), created if it is new."""
        run = run_id(command, params)
        self._db.execute(
            "INSERT OR IGNORE INTO batch_runs (id, command, params, jobs, created)"
            " VALUES (?, ?, ?, ?, ?)",
            (run, command, json.dumps(dict(params), sort_keys=True), jobs, _now()),
        )
        return self.info(run)

    def info(self, run: str) -> RunInfo:
        """A stored run by its id.

        Raises:
            InvalidInputError: no run has that id.
        """
        row = self._db.execute("SELECT * FROM batch_runs WHERE id = ?", (run,)).fetchone()
        if row is None:
            known = [r.id for r in self.runs()[:5]]
            raise InvalidInputError(
                f"no run {run!r} in {str(self.path)!r}"
                + (f" (newest: {', '.join(known)})" if known else " (it holds no runs)")
            )
        (done,) = self._db.execute(
            "SELECT COUNT(*) FROM batch_results WHERE run = ?", (run,)
        ).fetchone()
        return RunInfo(
            id=row["id"],
            command=row["command"],
            params=json.loads(row["params"]),
            jobs=int(row["jobs"]),
            done=int(done),
            created=row["created"],
            finished=row["finished"] is not None,
        )

    def runs(self) -> list[RunInfo]:
        """Every stored run, newest first."""
        ids = [r["id"] for r in self._db.execute("SELECT id FROM batch_runs ORDER BY rowid DESC")]
        return [self.info(run) for run in ids]

    def saved(self, run: str) -> dict[int, dict[str, Any]]:
        """The saved results of a run by job index."""
        rows = self._db.execute(
            "SELECT job, data FROM batch_results WHERE run = ? ORDER BY job", (run,)
        )
        return {int(r["job"]): json.loads(r["data"]) for r in rows}

    def save(self, run: str, job: int, row: Mapping[str, object]) -> None:
        """Save one job's result, committed at once (a job saved before is left as it was)."""
        self._db.execute(
            "INSERT OR IGNORE INTO batch_results (run, job, data, created) VALUES (?, ?, ?, ?)",
            (run, job, json.dumps(dict(row)), _now()),
        )

    def finish(self, run: str, summary: Mapping[str, object]) -> None:
        """Mark a run finished, with its summary figures (the ratings, the rates)."""
        self._db.execute(
            "UPDATE batch_runs SET finished = ?, summary = ? WHERE id = ?",
            (_now(), json.dumps(dict(summary)), run),
        )

    def summary(self, run: str) -> dict[str, Any] | None:
        """The summary of a finished run (None while it is not finished)."""
        row = self._db.execute("SELECT summary FROM batch_runs WHERE id = ?", (run,)).fetchone()
        return None if row is None or row["summary"] is None else json.loads(row["summary"])


def play_run(
    store: RunStore,
    run: str,
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    to_row: Callable[[R], Mapping[str, object]],
    from_row: Callable[[Mapping[str, Any]], R],
    backend: str = "process",
    workers: int = 1,
    address: str | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """Run the jobs of ``run`` not yet saved, saving each result as it finishes.

    Args:
        store: where the run's results are.
        run: the run's id (:meth:`RunStore.open`).
        fn: a module-level function (it is sent to other processes).
        jobs: every job of the run, in order (the saved ones are skipped).
        to_row: a result as JSON data.
        from_row: the result back from its JSON data.
        backend: ``"process"`` or ``"ray"`` (see :func:`nineball.players.backends.iter_jobs`).
        workers: how many processes work at once.
        address: a Ray cluster to join.
        on_result: called with the index and result of each job played now, as it finishes.

    Returns:
        Every job's result in job order, the saved ones included.

    Raises:
        KeyboardInterrupt: a stop (Ctrl-C, or :class:`nineball.players.backends.Stopped`); the
            results that finished before it are saved.
    """
    results: dict[int, R] = {k: from_row(row) for k, row in store.saved(run).items()}
    todo = [k for k in range(len(jobs)) if k not in results]
    finished: Generator[tuple[int, R], None, None] = iter_jobs(
        fn, [jobs[k] for k in todo], backend=backend, workers=workers, address=address
    )
    with contextlib.closing(finished):
        for i, result in finished:
            index = todo[i]
            store.save(run, index, to_row(result))
            results[index] = result
            if on_result is not None:
                on_result(index, result)
    return [results[k] for k in range(len(jobs))]
