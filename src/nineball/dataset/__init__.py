"""Self-play datasets: games, positions and shots as Parquet files (docs/dataset.md).

``nineball dataset`` (or :func:`write_dataset`) plays matches between computer players and writes
one row per entry of every game: the position (the balls and the referee's state), the stroke as
chosen and as played, and what came of it. Writing needs pyarrow (the ``[data]`` extra); the
schema (:data:`COLUMNS`) and the rows (:func:`match_rows`) do not.
"""

from __future__ import annotations

from nineball.dataset.rows import Rows, match_rows
from nineball.dataset.schema import COLUMNS, DATASET_VERSION, Column, arrow_schema, column_names
from nineball.dataset.selfplay import Job, Played, dataset_jobs, play_job
from nineball.dataset.writer import MANIFEST, DatasetSpec, Written, shard_name, write_dataset

__all__ = [
    "COLUMNS",
    "DATASET_VERSION",
    "MANIFEST",
    "Column",
    "DatasetSpec",
    "Job",
    "Played",
    "Rows",
    "Written",
    "arrow_schema",
    "column_names",
    "dataset_jobs",
    "match_rows",
    "play_job",
    "shard_name",
    "write_dataset",
]
