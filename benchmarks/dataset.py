"""How fast self-play datasets are made and how large they are (never a timed test).

Run: ``python benchmarks/dataset.py [--players ghost,ghost] [--matches 2000 | --positions N]
[--workers 2] [--shard-matches 1000] [--keep DIR]``. Writes a dataset with
:func:`nineball.dataset.write_dataset` into a scratch folder (or ``--keep DIR``) and reports:

* positions per core-second: rows over the CPU time the matches took in the worker processes
  (the players' thinking, the physics, the rows), and positions per second of wall time;
* the size: bytes per position and MiB per million positions (Parquet, zstd);
* the parent's peak memory (one shard of rows at a time), and how long pandas and pyarrow take
  to load the whole dataset and how much memory the DataFrame takes.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from nineball.dataset import DatasetSpec, write_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description="self-play dataset speed and size")
    parser.add_argument("--players", default="ghost,ghost")
    parser.add_argument("--matches", type=int, default=None)
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shard-matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, default=None, help="write here and keep it")
    args = parser.parse_args()
    first, second = args.players.split(",")
    spec = DatasetSpec(
        players=(first, second),
        matches=args.matches if args.matches or args.positions else 2000,
        positions=args.positions,
        seed=args.seed,
        shard_matches=args.shard_matches,
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp) / "dataset"
        start = time.perf_counter()
        done = write_dataset(folder, spec, workers=args.workers)
        wall = time.perf_counter() - start
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{done.played_rows} positions, {done.matches} matches ({first} v {second}), "
            f"{len(done.files)} files, {args.workers} workers"
        )
        if done.played_rows:
            print(
                f"positions per core-second: {done.played_rows / done.cpu_seconds:.0f} "
                f"({done.cpu_seconds:.1f} CPU-s in the workers); "
                f"per second of wall time: {done.played_rows / wall:.0f} ({wall:.1f} s)"
            )
        per = done.bytes / done.rows
        print(
            f"size: {done.bytes / 2**20:.2f} MiB, {per:.0f} bytes a position, "
            f"{per * 1e6 / 2**20:.0f} MiB per million positions"
        )
        print(f"the writing process's peak RSS: {rss:.0f} MB")
        start = time.perf_counter()
        table = pq.read_table(folder)
        arrow_s = time.perf_counter() - start
        start = time.perf_counter()
        frame = pd.read_parquet(folder)
        pandas_s = time.perf_counter() - start
        memory = frame.memory_usage(deep=True).sum() / 2**20
        print(
            f"load: pyarrow {arrow_s:.2f} s ({table.nbytes / 2**20:.0f} MiB in Arrow), pandas "
            f"{pandas_s:.2f} s ({memory:.0f} MiB as a DataFrame, {len(frame)} rows)"
        )


if __name__ == "__main__":
    main()
