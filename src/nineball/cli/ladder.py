"""``nineball ladder`` and ``nineball realism``: self-play figures of the computer players."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from nineball.players.ladder import GameResult, Rating, fit_ratings, ladder_pairs, play_pairing
from nineball.rules import Seat

__all__ = ["run_ladder", "run_realism", "wilson"]


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def run_ladder(
    console: Console,
    *,
    players: list[str],
    games: int,
    workers: int,
    seed: int,
    output: Path | None,
    plot: Path | None,
) -> int:
    """Play every adjacent pairing of ``players`` and fit the ratings."""
    results: list[GameResult] = []
    pairs = ladder_pairs(players)
    with _progress(console) as progress:
        for k, (a, b) in enumerate(pairs):
            task = progress.add_task(f"{a} v {b}", total=games)

            def advance(_game: GameResult, task: TaskID = task) -> None:
                progress.advance(task)

            results += play_pairing(
                a, b, games, seed=seed, pairing=k, workers=workers, on_game=advance
            )
    ratings = fit_ratings(results)
    table = Table(title=f"nineball ladder ({games} games per adjacent pair, seed {seed})")
    for column in ("player", "rating", "± 1 s.e.", "games"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in ratings:
        table.add_row(r.name, f"{r.rating:.0f}", f"{r.error:.0f}", str(r.games))
    console.print(table)
    for a, b in pairs:
        pair = [g for g in results if {g.first, g.second} == {a, b}]
        wins_b = sum((g.first if g.winner is Seat.FIRST else g.second) == b for g in pair)
        console.print(f"{b} beat {a} in {wins_b} of {len(pair)} games")
    if output is not None:
        data = {
            "seed": seed,
            "games_per_pair": games,
            "ratings": [asdict(r) for r in ratings],
            "games": [
                asdict(g) | {"breaker": int(g.breaker), "winner": int(g.winner)} for g in results
            ],
        }
        output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        console.print(f"wrote {output}")
    if plot is not None:
        _plot(ratings, plot, games)
        console.print(f"wrote {plot}")
    return 0


def _plot(ratings: list[Rating], path: Path, games: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    ordered = sorted(ratings, key=lambda r: r.rating)
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=120)
    ax.barh(
        [r.name for r in ordered],
        [r.rating for r in ordered],
        xerr=[1.96 * r.error for r in ordered],
        color="#1d6b45",
        ecolor="#333",
    )
    ax.set_xlabel("Fargo-style rating (95% interval)")
    ax.set_title(f"nineball computer players, {games} games per adjacent pair")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run_realism(console: Console, *, level: str, games: int, workers: int, seed: int) -> int:
    """Self-play at ``level``: break and break-and-run figures with 95% intervals."""
    with _progress(console) as progress:
        task = progress.add_task(f"{level} v {level}", total=games)
        results = play_pairing(
            level,
            level,
            games,
            seed=seed,
            pairing=99,
            workers=workers,
            on_game=lambda _g: progress.advance(task),
        )
    n = len(results)
    figures = {
        "legal break pocketing a ball": sum(g.legal_break_with_ball for g in results),
        "breaker wins the game": sum(g.winner is g.breaker for g in results),
        "break and run": sum(g.broke_and_ran for g in results),
    }
    targets = {
        "legal break pocketing a ball": (0.60, 0.75),
        "breaker wins the game": (0.52, 0.62),
        "break and run": (0.17, 0.30),
    }
    table = Table(title=f"{level} v {level}: {n} games (seed {seed})")
    for column in ("figure", "rate", "95% interval", "target (shared/realism.md)"):
        table.add_column(column)
    for name, count in figures.items():
        low, high = wilson(count, n)
        t_low, t_high = targets[name]
        table.add_row(
            name, f"{count / n:.1%}", f"{low:.1%} - {high:.1%}", f"{t_low:.0%} - {t_high:.0%}"
        )
    console.print(table)
    console.print(f"strokes per game: {sum(g.shots for g in results) / n:.1f}")
    return 0
