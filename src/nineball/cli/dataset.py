"""``nineball dataset``: self-play games, positions and shots as Parquet (docs/dataset.md)."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from nineball.cli.common import AddressOpt, BackendOpt, WorkersOpt, check_backend, two
from nineball.errors import NineballError

__all__ = ["dataset_command", "run_dataset"]


def run_dataset(
    console: Console,
    output: Path,
    *,
    players: tuple[str, str],
    matches: int | None,
    positions: int | None,
    race_to: int,
    rules: str,
    seed: int,
    shard_matches: int,
    records: bool,
    workers: int | None,
    backend: str,
    address: str | None,
) -> int:
    """Play and write a dataset with a progress bar; report its size and speed.

    Returns:
        The exit status: 0, 1 for a refused request, 2 without pyarrow, 128 + the signal when
        stopped (the finished shards are kept: the same command finishes the dataset).
    """
    if importlib.util.find_spec("pyarrow") is None:
        typer.echo(
            "a dataset needs pyarrow, the data extra: pip install 'nineball[data]'", err=True
        )
        return 2
    from nineball.cli.batch import progress_bar
    from nineball.dataset import DatasetSpec, write_dataset
    from nineball.players.backends import Stopped, default_workers, stop_on_signals

    start = time.perf_counter()
    try:
        spec = DatasetSpec(
            players=players,
            matches=matches if matches is not None or positions is not None else 100,
            positions=positions,
            race_to=race_to,
            rules=rules,
            seed=seed,
            shard_matches=shard_matches,
            records=records,
        )
        by_rows = spec.positions is not None
        with stop_on_signals(), progress_bar(console) as progress:
            task = progress.add_task(
                "positions" if by_rows else "matches",
                total=spec.positions if by_rows else spec.matches,
            )

            def advance(done_matches: int, done_rows: int) -> None:
                progress.advance(task, done_rows if by_rows else done_matches)

            written = write_dataset(
                output,
                spec,
                workers=default_workers() if workers is None else workers,
                backend=backend,
                address=address,
                progress=advance,
            )
    except NineballError as exc:
        console.print(f"error: {exc}", style="red", markup=False)
        return 1
    except OSError as exc:
        console.print(f"error: cannot write {str(output)!r}: {exc.strerror or exc}", style="red")
        return 1
    except KeyboardInterrupt as stop:
        signum = stop.signum if isinstance(stop, Stopped) else 2
        console.print(
            f"stopped: the finished shards are kept in {output}; the same command finishes the "
            "dataset"
        )
        return 128 + signum
    wall = time.perf_counter() - start
    table = Table(title=f"dataset {output}", show_header=False)
    table.add_row("positions (rows)", f"{written.rows}")
    table.add_row("matches", f"{written.matches}")
    table.add_row("files", f"{len(written.files)} (shots-*.parquet)")
    size = written.bytes
    table.add_row(
        "size", f"{size / 2**20:.2f} MiB ({size / max(written.rows, 1):.0f} bytes a position)"
    )
    if written.resumed_shards:
        table.add_row("resumed", f"{written.resumed_shards} shard(s) found finished and kept")
    if written.played_rows:
        rate = written.played_rows / written.cpu_seconds if written.cpu_seconds > 0 else 0.0
        table.add_row("played now", f"{written.played_rows} positions in {wall:.1f} s")
        table.add_row("positions per core-second", f"{rate:.0f} (the matches' CPU time)")
    console.print(table)
    console.print(f"load it: pandas.read_parquet({str(output)!r})  (docs/dataset.md)")
    return 0


def dataset_command(
    output: Annotated[Path, typer.Option("--output", "-o", help="The dataset's folder.")],
    players: Annotated[
        str, typer.Option(help="The two computer players (seats alternate), e.g. 'club,pro'.")
    ] = "ghost,ghost",
    matches: Annotated[
        int | None, typer.Option(min=1, help="How many matches (default 100).")
    ] = None,
    positions: Annotated[
        int | None, typer.Option(min=1, help="Or: at least this many positions (whole shards).")
    ] = None,
    race_to: Annotated[int, typer.Option(min=1, max=99, help="Games needed to win.")] = 1,
    rules: Annotated[str, typer.Option(help="Rule profile: standard, fr or pl.")] = "standard",
    seed: Annotated[int, typer.Option(help="Same seed, same files, byte for byte.")] = 0,
    shard_matches: Annotated[
        int, typer.Option(min=1, max=1_000_000, help="Matches per Parquet file.")
    ] = 1000,
    records: Annotated[
        bool, typer.Option("--records/--no-records", help="Also keep each match's record.")
    ] = False,
    workers: WorkersOpt = None,
    backend: BackendOpt = None,
    address: AddressOpt = None,
) -> None:
    """Self-play games, positions and shots as Parquet files (docs/dataset.md)."""
    from nineball.players.backends import ray_address

    pair = two(players, "players")
    if matches is not None and positions is not None:
        raise typer.BadParameter("give --matches or --positions, not both")
    if backend is not None:
        check_backend(backend)
    where = ray_address(address)
    console = Console(highlight=False, soft_wrap=True)
    code = run_dataset(
        console,
        output,
        players=pair,
        matches=matches,
        positions=positions,
        race_to=race_to,
        rules=rules,
        seed=seed,
        shard_matches=shard_matches,
        records=records,
        workers=workers,
        backend=backend or ("process" if where is None else "ray"),
        address=where,
    )
    raise typer.Exit(code)
