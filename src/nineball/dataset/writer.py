"""Writing a self-play dataset: shards of matches as Parquet files, resumable shard by shard.

A dataset is a folder::

    _dataset.json              what was asked (players, seed...) and the finished shards
    shots-00000.parquet        matches 0 to K - 1, one row per entry (docs/dataset.md)
    shots-00001.parquet        matches K to 2K - 1 ...
    _records/records-00000.parquet   with ``records``: each match's record (JSON text)

Names that start with ``_`` or ``.`` are skipped by pyarrow's, pandas', polars' and Hugging Face's
readers of a folder, so ``pandas.read_parquet(folder)`` reads the shots alone. Each shard is played
(on a process pool or Ray, :func:`nineball.players.backends.iter_jobs`), held in memory (one
shard's rows only: K matches of about ten entries), written to a hidden file and renamed, then
listed in ``_dataset.json``; a stopped run asked again with the same parameters skips the shards
listed and plays the rest. Every match is seeded from the dataset's seed and its index, so the
files are the same, byte for byte, whatever the workers, the backend and the resumes.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from nineball.dataset.schema import DATASET_VERSION, arrow_schema, column_names
from nineball.dataset.selfplay import Played, dataset_jobs, play_job
from nineball.errors import InvalidInputError
from nineball.game import RULE_NAMES
from nineball.players.backends import iter_jobs
from nineball.players.registry import PLAYERS

__all__ = ["MANIFEST", "DatasetSpec", "Written", "shard_name", "write_dataset"]

MANIFEST = "_dataset.json"
"""The dataset's description, in its folder."""

RECORDS = "_records"
"""The folder of the records, in the dataset's folder."""

FORMAT = "nineball-dataset"


@dataclass(frozen=True, slots=True, kw_only=True)
class DatasetSpec:
    """What a dataset holds: the same spec, the same files."""

    players: tuple[str, str] = ("ghost", "ghost")
    """The two computer players (their seats alternate from match to match)."""
    matches: int | None = None
    """How many matches (or give :attr:`positions`)."""
    positions: int | None = None
    """At least this many rows: shards are played until there are (whole shards)."""
    race_to: int = 1
    rules: str = "standard"
    seed: int = 0
    shard_matches: int = 1000
    """Matches per file."""
    records: bool = False
    """Also keep every match's record (``_records/``), to replay and check the rows."""

    def __post_init__(self) -> None:
        """Check the spec.

        Raises:
            InvalidInputError: an unknown player or rule profile, or counts out of range.
        """
        unknown = [p for p in self.players if p not in PLAYERS]
        if len(self.players) != 2 or unknown:
            raise InvalidInputError(
                f"a dataset needs two players of {', '.join(PLAYERS)}, got {self.players!r}"
            )
        if (self.matches is None) == (self.positions is None):
            raise InvalidInputError("give either the number of matches or of positions")
        for name in ("matches", "positions"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= 10**9:
                raise InvalidInputError(f"{name} must be in 1..10^9, got {value!r}")
        if not 1 <= self.race_to <= 99:
            raise InvalidInputError(f"race_to must be in 1..99, got {self.race_to!r}")
        if self.rules.lower() not in RULE_NAMES:
            raise InvalidInputError(f"unknown rule profile {self.rules!r}")
        if not 1 <= self.shard_matches <= 10**6:
            raise InvalidInputError(f"shard_matches must be in 1..10^6, got {self.shard_matches!r}")


@dataclass(slots=True, kw_only=True)
class Written:
    """What :func:`write_dataset` did."""

    folder: Path
    rows: int = 0
    """Rows in the dataset (every shard)."""
    matches: int = 0
    """Matches in the dataset."""
    files: list[Path] = field(default_factory=list)
    """The shots files, in order."""
    played_rows: int = 0
    """Rows played by this call (not the shards found finished)."""
    cpu_seconds: float = 0.0
    """The CPU time the matches played by this call took, summed over the processes, s."""
    resumed_shards: int = 0
    """Shards found finished and kept."""

    @property
    def bytes(self) -> int:
        """The size of the shots files."""
        return sum(f.stat().st_size for f in self.files)


def shard_name(shard: int) -> str:
    """The file name of shard ``shard``."""
    return f"shots-{shard:05d}.parquet"


def _params(spec: DatasetSpec) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(spec).items()}


def _read_manifest(folder: Path, spec: DatasetSpec) -> list[dict[str, Any]]:
    """The finished shards a previous run of ``spec`` left in ``folder``.

    Raises:
        InvalidInputError: the folder holds another dataset, or something that is not one.
    """
    path = folder / MANIFEST
    if not path.exists():
        if any(folder.glob("shots-*.parquet")):
            raise InvalidInputError(f"{str(folder)!r} holds shots files but no {MANIFEST}")
        return []
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read {str(path)!r}: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InvalidInputError(f"{str(path)!r} is not a nineball dataset's description")
    if manifest.get("params") != _params(spec) or manifest.get("version") != DATASET_VERSION:
        raise InvalidInputError(
            f"{str(folder)!r} holds a dataset of other parameters ({manifest.get('params')}); "
            "give another folder"
        )
    import pyarrow.parquet as pq

    kept = []
    shards = manifest.get("shards")
    for shard in shards if isinstance(shards, list) else []:
        # only the shards this spec makes, each in its own file, with the rows it says
        first = shard.get("first_match") if isinstance(shard, dict) else None
        if not isinstance(first, int) or first < 0 or first % spec.shard_matches:
            continue
        if shard.get("file") != shard_name(first // spec.shard_matches):
            continue
        file = folder / shard_name(first // spec.shard_matches)
        with contextlib.suppress(OSError, ValueError):
            if file.is_file() and pq.read_metadata(file).num_rows == shard.get("rows"):
                kept.append(shard)
    return kept


def _write_manifest(folder: Path, spec: DatasetSpec, shards: list[dict[str, Any]]) -> None:
    manifest = {
        "format": FORMAT,
        "version": DATASET_VERSION,
        "params": _params(spec),
        "columns": list(column_names()),
        "rows": sum(s["rows"] for s in shards),
        "matches": sum(s["matches"] for s in shards),
        "shards": shards,
    }
    tmp = folder / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, folder / MANIFEST)


def _write_shard(folder: Path, shard: int, played: list[Played], records: bool) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema()
    columns: dict[str, list[object]] = {name: [] for name in schema.names}
    for match in played:
        for name in schema.names:
            columns[name].extend(match.rows[name])
    table = pa.table({name: pa.array(columns[name], type=schema.field(name).type)
                      for name in schema.names}, schema=schema)  # fmt: skip
    name = shard_name(shard)
    tmp = folder / f".{name}.tmp"
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, folder / name)
    if records:
        (folder / RECORDS).mkdir(exist_ok=True)
        texts = pa.table(
            {
                "match": pa.array([m.index for m in played], type=pa.int64()),
                "record": pa.array([m.record for m in played], type=pa.string()),
            }
        )
        target = folder / RECORDS / f"records-{shard:05d}.parquet"
        pq.write_table(texts, folder / RECORDS / f".{target.name}.tmp", compression="zstd")
        os.replace(folder / RECORDS / f".{target.name}.tmp", target)
    return int(table.num_rows)


def write_dataset(
    folder: Path | str,
    spec: DatasetSpec,
    *,
    workers: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Written:
    """Play and write the dataset ``spec`` into ``folder``.

    The folder is created if missing; a run of the same spec that stopped there is resumed (its
    finished shards are kept).

    Args:
        folder: the dataset's folder.
        spec: what to play.
        workers: processes (or Ray CPUs) playing matches at once.
        backend: ``process`` or ``ray`` (see :func:`nineball.players.backends.iter_jobs`).
        address: a Ray cluster to join.
        progress: called in this process with the matches and rows done since its last call
            (a whole shard found finished, or one match played).

    Raises:
        InvalidInputError: the folder holds another dataset.
        ImportError: pyarrow (the ``[data]`` extra) is missing.
        KeyboardInterrupt: a stop; the shards finished before it are kept.
    """
    arrow_schema()  # pyarrow missing: say so before any match is played
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shards = _read_manifest(folder, spec)
    done = {int(s["first_match"]) // spec.shard_matches: s for s in shards}
    written = Written(folder=folder, resumed_shards=len(done))
    kept: list[dict[str, Any]] = []
    shard = 0
    while True:
        start = shard * spec.shard_matches
        if spec.matches is not None and start >= spec.matches:
            break
        if spec.positions is not None and written.rows >= spec.positions:
            break
        stop = start + spec.shard_matches
        if spec.matches is not None:
            stop = min(stop, spec.matches)
        if shard in done and done[shard]["matches"] == stop - start:
            entry = done[shard]
            if progress is not None:
                progress(int(entry["matches"]), int(entry["rows"]))
        else:
            jobs = dataset_jobs(spec.players, start, stop, seed=spec.seed, race_to=spec.race_to,
                                rules=spec.rules.lower(), record=spec.records)  # fmt: skip
            played: list[Played] = [None] * len(jobs)  # type: ignore[list-item]
            finished = iter_jobs(play_job, jobs, backend=backend, workers=workers, address=address)
            with contextlib.closing(finished):
                for k, result in finished:
                    played[k] = result
                    written.cpu_seconds += result.cpu_seconds
                    if progress is not None:
                        progress(1, len(result.rows["match"]))
            rows = _write_shard(folder, shard, played, spec.records)
            written.played_rows += rows
            entry = {"file": shard_name(shard), "first_match": start, "matches": stop - start,
                     "rows": rows}  # fmt: skip
        kept.append(entry)
        _write_manifest(folder, spec, kept)
        written.rows += int(entry["rows"])
        written.matches += int(entry["matches"])
        written.files.append(folder / str(entry["file"]))
        shard += 1
    return written
