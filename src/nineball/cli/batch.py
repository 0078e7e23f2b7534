"""Running a saved batch of jobs for a command: the run id, the progress bar, stops, errors.

Shared by ``tournament``, ``breaks``, ``ladder`` and ``realism`` (``nineball.cli.ladder``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from nineball.errors import InvalidInputError
from nineball.players.backends import (
    ClusterUnreachableError,
    Stopped,
    default_workers,
    ray_address,
    stop_on_signals,
)
from nineball.players.runs import RunStore, play_run

__all__ = [
    "Batch",
    "Finished",
    "Reporter",
    "RunOptions",
    "progress_bar",
    "resumed_params",
    "run_batch",
]

J = TypeVar("J")
R = TypeVar("R")


class Reporter:
    """Where a command writes: tables on the console, or one JSON document on stdout.

    With ``--format json`` everything else (the progress bar, the notes) goes to stderr, so the
    standard output is the document alone.
    """

    def __init__(self, console: Console, fmt: str) -> None:
        """Write to ``console`` in ``fmt`` (``"table"`` or ``"json"``)."""
        if fmt not in ("table", "json"):
            raise InvalidInputError(f"unknown format {fmt!r} (known: table, json)")
        self.console = console
        self.json = fmt == "json"
        self.info = Console(stderr=True, highlight=False, soft_wrap=True) if self.json else console

    def note(self, text: str) -> None:
        """A line for the person watching (stderr with ``--format json``)."""
        self.info.print(text)

    def table(self, table: Any) -> None:
        """Print a Rich table (not with ``--format json``)."""
        if not self.json:
            self.console.print(table)

    def document(self, data: Mapping[str, object]) -> None:
        """Write the JSON document (only with ``--format json``)."""
        if self.json:
            (self.console.file or sys.stdout).write(json.dumps(data, indent=1) + "\n")


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOptions:
    """How a batch command runs (not what it plays: that is the run's parameters)."""

    workers: int | None = None
    """Processes (None: the machine's cores)."""
    backend: str | None = None
    """``process`` or ``ray`` (None: ``ray`` when a cluster address is given or in
    ``$RAY_ADDRESS``, else ``process``)."""
    address: str | None = None
    """A Ray cluster to join (None: ``$RAY_ADDRESS``)."""
    db: Path | None = None
    """The database (None: the default one)."""
    fmt: str = "table"
    """``table`` or ``json``."""
    resume: str | None = None
    """A stored run to finish, by its id (its own parameters replace the command's)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Batch(Generic[J, R]):
    """What a command runs: its jobs and how their results are saved."""

    command: str
    params: Mapping[str, object]
    """What fixes the jobs (and so the run id); not the workers or the backend."""
    jobs: Sequence[J]
    fn: Callable[[J], R]
    to_row: Callable[[R], Mapping[str, object]]
    from_row: Callable[[Mapping[str, Any]], R]
    label: str
    """The progress bar's description."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Finished(Generic[R]):
    """A run played to its end."""

    run: str
    results: list[R]
    store: RunStore


def resumed_params(command: str, run: str, db: Path | None) -> dict[str, Any]:
    """The parameters of the stored run ``run`` of ``command`` (for ``--resume``).

    Raises:
        InvalidInputError: no such run, or a run of another command.
    """
    with RunStore(db) as store:
        info = store.info(run)
    if info.command != command:
        raise InvalidInputError(
            f"run {run!r} is a {info.command} run; resume it with `nineball {info.command} "
            f"--resume {run}`"
        )
    return info.params


def progress_bar(console: Console) -> Progress:
    """The progress bar of a long run: what it counts, the bar, done of total, time and ETA."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
    )


def run_batch(
    out: Reporter,
    batch: Batch[J, R],
    options: RunOptions,
) -> Finished[R] | int:
    """Play the jobs of ``batch`` not yet saved, with a progress bar; save each as it finishes.

    Args:
        out: where to write.
        batch: the command's jobs.
        options: the workers, the backend, the cluster and the database.

    Returns:
        The finished run (its store still open, for the caller to close), or an exit status: 1
        for a cluster that does not answer, 128 + the signal for a stopped run (its finished
        jobs saved).
    """
    address = ray_address(options.address)
    backend = options.backend or ("process" if address is None else "ray")
    workers = default_workers() if options.workers is None else options.workers
    store = RunStore(options.db)
    info = store.open(batch.command, batch.params, len(batch.jobs))
    if info.done:
        out.note(
            f"run {info.id}: {info.done} of {info.jobs} already saved"
            + ("" if info.done < info.jobs else ", nothing to play")
        )
    done = info.done
    try:
        with stop_on_signals(), progress_bar(out.info) as progress:
            task = progress.add_task(batch.label, total=len(batch.jobs), completed=done)

            def advance(_index: int, _result: R) -> None:
                nonlocal done
                done += 1
                progress.advance(task)

            results = play_run(
                store,
                info.id,
                batch.fn,
                batch.jobs,
                to_row=batch.to_row,
                from_row=batch.from_row,
                backend=backend,
                workers=workers,
                address=address,
                on_result=advance,
            )
    except ClusterUnreachableError as error:
        store.close()
        out.note(f"error: {error}")
        return 1
    except KeyboardInterrupt as stop:
        store.close()
        signum = stop.signum if isinstance(stop, Stopped) else 2
        out.note(
            f"stopped: {done} of {len(batch.jobs)} saved in run {info.id} ({store.path}); "
            f"finish it with `nineball {batch.command} --resume {info.id}`"
        )
        return 128 + signum
    return Finished(run=info.id, results=results, store=store)
