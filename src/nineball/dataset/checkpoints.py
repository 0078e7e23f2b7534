"""Checkpoints of a training run: each finished job's positions kept as it ends.

``nineball train-value --checkpoints DIR`` keeps the positions of every job (a range of matches)
in its own file of DIR the moment the job finishes, and takes the files already there instead of
playing their jobs again: a run of many core-hours stopped by Ctrl-C, a signal or a lost machine
goes on where it stopped, and since every match has its own seed, the model is the one an
uninterrupted run writes. The files are :func:`~nineball.dataset.value.save_positions` files of
one job each, named by their range of matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from nineball.dataset.value import ValueChunk, ValueJob, load_positions, save_positions
from nineball.errors import InvalidInputError

__all__ = ["CHECKPOINT_KEYS", "checkpoint_path", "load_checkpoints", "save_checkpoint"]

CHECKPOINT_KEYS = ("players", "seed", "race_to", "rules")
"""What a folder of checkpoints is tied to: the matches of another run have other positions."""


def checkpoint_path(folder: Path, job: ValueJob) -> Path:
    """Where the positions of ``job``'s matches are kept in a checkpoint folder."""
    return folder / f"matches-{job.start:09d}-{job.stop:09d}.npz"


def _run_meta(job: ValueJob) -> dict[str, Any]:
    return {"players": list(job.players), "seed": job.seed, "race_to": job.race_to,
            "rules": job.rules}  # fmt: skip


def save_checkpoint(folder: Path, job: ValueJob, chunk: ValueChunk) -> None:
    """Keep a finished job's positions in ``folder`` (made if missing), whole or not at all.

    The file is written under a temporary name and renamed, so a run stopped while writing
    leaves no half file for the next run to read.

    Raises:
        OSError: the folder or the file cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = checkpoint_path(folder, job)
    partial = path.with_name(path.name + ".partial")
    meta = _run_meta(job) | {"games": job.stop - job.start, "start": job.start, "stop": job.stop}
    save_positions(partial, [chunk], meta)
    partial.replace(path)


def load_checkpoints(folder: Path, jobs: Sequence[ValueJob]) -> dict[int, ValueChunk]:
    """The chunks of ``jobs`` already kept in ``folder``, by the job's index in ``jobs``.

    Raises:
        InvalidInputError: a kept file that cannot be read, or one of another run (other
            players, seed, race or rules: its positions are not these jobs' positions).
    """
    found: dict[int, ValueChunk] = {}
    for k, job in enumerate(jobs):
        path = checkpoint_path(folder, job)
        if not path.is_file():
            continue
        chunk, meta = load_positions(path)
        wanted = _run_meta(job)
        for key in CHECKPOINT_KEYS:
            if meta.get(key) != wanted[key]:
                raise InvalidInputError(
                    f"{str(path)!r} was played with {key} {meta.get(key)!r}, not "
                    f"{wanted[key]!r}: use another folder for another run"
                )
        found[k] = replace(chunk, start=job.start)
    return found
