"""``nineball train-value``: self-play, then the learned win probability and its calibration."""

from __future__ import annotations

import contextlib
import importlib.util
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from nineball.cli.common import AddressOpt, BackendOpt, WorkersOpt, check_backend, two
from nineball.errors import NineballError

if TYPE_CHECKING:
    from nineball.dataset.value import Decile

__all__ = ["run_train_value", "train_value_command"]

DEFAULT_OUTPUT = Path("value.json")


def run_train_value(
    console: Console,
    output: Path,
    *,
    games: int,
    players: tuple[str, str],
    seed: int,
    race_to: int,
    chunk: int,
    rounds: int,
    workers: int,
    backend: str,
    address: str | None,
    positions_out: Path | None = None,
    positions_in: Path | None = None,
    checkpoints: Path | None = None,
) -> int:
    """Play (or read saved positions), train, measure and write the model, and report.

    Returns:
        The exit status: 0, 1 for a refused request or an unwritable file, 2 without LightGBM,
        128 + the signal when stopped.
    """
    if importlib.util.find_spec("lightgbm") is None:
        typer.echo(
            "training needs LightGBM, the train extra: pip install 'nineball[train]'", err=True
        )
        return 2
    from nineball.cli.batch import progress_bar
    from nineball.dataset.checkpoints import load_checkpoints, save_checkpoint
    from nineball.dataset.value import (
        TrainingParams,
        ValueChunk,
        dump_model_file,
        load_positions,
        play_value_job,
        save_positions,
        train_value_model,
        value_jobs,
    )
    from nineball.players.backends import Stopped, iter_jobs, stop_on_signals

    start = time.perf_counter()
    try:
        chunks: list[ValueChunk] = []
        if positions_in is not None:
            saved, meta = load_positions(positions_in)
            chunks.append(saved)
            players = (meta["players"][0], meta["players"][1])
            seed, race_to = int(meta["seed"]), int(meta["race_to"])
            console.print(f"read {saved.match.size} positions of {meta['games']} matches")
        else:
            jobs = value_jobs(games, players=players, seed=seed, race_to=race_to, chunk=chunk)
            kept = {} if checkpoints is None else load_checkpoints(checkpoints, jobs)
            chunks.extend(kept[k] for k in sorted(kept))
            todo = [job for k, job in enumerate(jobs) if k not in kept]
            done = sum(jobs[k].stop - jobs[k].start for k in kept)
            if kept:
                positions = sum(c.match.size for c in chunks)
                console.print(f"read {positions} positions of {done} matches from {checkpoints}")
            with stop_on_signals(), progress_bar(console) as progress:
                task = progress.add_task("self-play matches", total=games, completed=done)
                finished = iter_jobs(
                    play_value_job, todo, backend=backend, workers=workers, address=address
                )
                with contextlib.closing(finished):
                    for k, result in finished:
                        chunks.append(result)
                        if checkpoints is not None:  # kept at once: a stop loses no finished job
                            save_checkpoint(checkpoints, todo[k], result)
                        progress.advance(task, todo[k].stop - todo[k].start)
            if positions_out is not None:
                meta = {"players": list(players), "seed": seed, "race_to": race_to, "games": games}
                save_positions(positions_out, chunks, meta)
                console.print(f"wrote the positions to {positions_out}")
        played = time.perf_counter() - start
        console.print(f"training on {sum(c.match.size for c in chunks)} positions...")
        trained = train_value_model(
            chunks,
            seed=seed,
            players=players,
            race_to=race_to,
            params=TrainingParams(rounds=rounds),
        )
    except NineballError as exc:
        console.print(f"error: {exc}", style="red", markup=False)
        return 1
    except OSError as exc:
        console.print(f"error: {exc}", style="red", markup=False)
        return 1
    except KeyboardInterrupt as stop:
        signum = stop.signum if isinstance(stop, Stopped) else 2
        kept_note = "" if checkpoints is None else f" (finished jobs kept in {checkpoints})"
        console.print(f"stopped: no model written{kept_note}")
        return 128 + signum
    text = dump_model_file(trained.data)
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        console.print(f"error: cannot write {str(output)!r}: {exc.strerror or exc}", style="red")
        return 1
    wall = time.perf_counter() - start
    summary = Table(title=f"value model {output}", show_header=False)
    positions = trained.train_positions + trained.held_out_positions
    summary.add_row("games (finished)", f"{trained.games}")
    summary.add_row("positions", f"{positions} ({trained.train_positions} to train on)")
    summary.add_row("held out", f"{trained.held_out_positions} positions (every fifth match)")
    rate = positions / trained.cpu_seconds if trained.cpu_seconds > 0 else 0.0
    summary.add_row("self-play", f"{played:.1f} s, {rate:.0f} positions per core-second")
    summary.add_row("trees", f"{trained.model.trees} (depth up to {trained.model.depth})")
    summary.add_row("file", f"{len(text.encode()) / 1024:.0f} KiB, {wall:.1f} s in all")
    console.print(summary)
    scores = Table(title="held-out calibration (P the player to act wins the game)")
    for column in ("", "Brier", "log loss"):
        scores.add_column(column, justify="right")
    for name, c in (("model", trained.held_out), ("position_value", trained.heuristic)):
        scores.add_row(name, f"{c.brier:.4f}", f"{c.log_loss:.4f}")
    held = trained.data["held_out"]
    for name, key in (("model, breaks left out", "model_no_break"),
                      ("position_value, breaks left out", "heuristic_no_break")):  # fmt: skip
        if key in held:
            scores.add_row(name, f"{held[key]['brier']:.4f}", f"{held[key]['log_loss']:.4f}")
    match = trained.match
    scores.add_row("model, the match", f"{match.brier:.4f}", f"{match.log_loss:.4f}")
    console.print(scores)
    curve = Table(
        title="reliability: stated chance bins, mean stated / observed ± 1 s.e. of the gap, "
        "the matches as draws (positions in matches)"
    )
    for column in ("bin", "model", "position_value", "model, the match"):
        curve.add_column(column, justify="right")
    for a, b, m in zip(trained.held_out.deciles, trained.heuristic.deciles, match.deciles,
                       strict=True):  # fmt: skip
        curve.add_row(f"{a.low:.1f}-{a.high:.1f}", _cell(a), _cell(b), _cell(m))
    console.print(curve)
    return 0


def _cell(d: Decile) -> str:
    if d.count == 0 or math.isnan(d.stated):
        return "-"
    error = "" if math.isnan(d.error) else f" ± {d.error:.3f}"
    return f"{d.stated:.3f} / {d.observed:.3f}{error} ({d.count} in {d.matches})"


def train_value_command(
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The model file to write.")
    ] = DEFAULT_OUTPUT,
    games: Annotated[
        int, typer.Option(min=10, max=10**8, help="Self-play matches to learn from.")
    ] = 2000,
    players: Annotated[
        str, typer.Option(help="The two computer players (seats alternate), e.g. 'ghost,ghost'.")
    ] = "ghost,ghost",
    seed: Annotated[int, typer.Option(help="Same seed and games, same file, byte for byte.")] = 0,
    race_to: Annotated[int, typer.Option(min=1, max=99, help="Games needed to win.")] = 1,
    chunk: Annotated[int, typer.Option(min=1, help="Matches per job sent to a worker.")] = 50,
    rounds: Annotated[int, typer.Option(min=1, max=5000, help="Boosting rounds (trees).")] = 300,
    save_positions: Annotated[
        Path | None, typer.Option(help="Also keep the played positions in this .npz file.")
    ] = None,
    from_positions: Annotated[
        Path | None,
        typer.Option(help="Train on positions kept by --save-positions instead of playing."),
    ] = None,
    checkpoints: Annotated[
        Path | None,
        typer.Option(
            help="Keep each finished job's positions in this folder, and take those already "
            "there instead of playing them again: a stopped run goes on where it stopped, and "
            "a larger --games adds matches."
        ),
    ] = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = None,
    address: AddressOpt = None,
) -> None:
    """Learn the win probability from self-play and measure it on held-out games."""
    from nineball.players.backends import default_workers, ray_address

    pair = two(players, "players")
    if checkpoints is not None and from_positions is not None:
        typer.echo("--checkpoints plays matches, --from-positions plays none: not both", err=True)
        raise typer.Exit(1)
    if backend is not None:
        check_backend(backend)
    where = ray_address(address)
    code = run_train_value(
        Console(highlight=False, soft_wrap=True),
        output,
        games=games,
        players=pair,
        seed=seed,
        race_to=race_to,
        chunk=chunk,
        rounds=rounds,
        workers=default_workers() if workers is None else workers,
        backend=backend or ("process" if where is None else "ray"),
        address=where,
        positions_out=save_positions,
        positions_in=from_positions,
        checkpoints=checkpoints,
    )
    raise typer.Exit(code)
