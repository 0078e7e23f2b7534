"""``nineball ladder`` and ``nineball realism``: self-play figures of the computer players."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

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

from nineball.game import Seat
from nineball.players.breaks import BreakResult
from nineball.players.ladder import (
    GHOST_RATING,
    GameResult,
    Rating,
    fit_ratings,
    ladder_pairs,
    play_pairing,
    rating_gaps,
)

__all__ = ["rerate_ladder", "run_breaks", "run_ladder", "run_realism", "run_tournament", "wilson"]


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
    _report(console, results, pairs, games=games, seed=seed, output=output, plot=plot)
    return 0


def rerate_ladder(console: Console, path: Path, *, output: Path | None, plot: Path | None) -> int:
    """Fit, print and plot the games of a ladder file written by ``--output``, playing none.

    Returns 1 (with the reason printed) for a file that is not such a ladder.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        results = [
            GameResult(
                **(row | {"breaker": Seat(int(row["breaker"])), "winner": Seat(int(row["winner"]))})
            )
            for row in data["games"]
        ]
        games, seed = int(data["games_per_pair"]), int(data["seed"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        console.print(f"error: {path} is not a ladder written by --output ({error})")
        return 1
    # A pairing's first game has the ladder's weaker player in the first seat.
    pairs: list[tuple[str, str]] = []
    for g in results:
        if not any({g.first, g.second} == {a, b} for a, b in pairs):
            pairs.append((g.first, g.second))
    _report(console, results, pairs, games=games, seed=seed, output=output, plot=plot)
    return 0


def _report(
    console: Console,
    results: list[GameResult],
    pairs: list[tuple[str, str]],
    *,
    games: int,
    seed: int,
    output: Path | None,
    plot: Path | None,
) -> None:
    """The ratings table, each pair's score, and the optional JSON and plot."""
    ratings = fit_ratings(results)
    table = Table(title=f"nineball ladder ({games} games per adjacent pair, seed {seed})")
    for column in ("player", "rating", "± 1 s.e.", "games"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in ratings:
        table.add_row(r.name, f"{r.rating:.0f}", f"{r.error:.0f}", str(r.games))
    console.print(table)
    gaps = rating_gaps(results, pairs)
    table = Table(title="each pair: the score and the gap the fit puts between them")
    for column in ("player", "against", "won", "rate (95% interval)", "gap", "± 1 s.e."):
        table.add_column(column, justify="left" if column in ("player", "against") else "right")
    for gap in gaps:
        low, high = wilson(gap.wins, gap.games)
        table.add_row(
            gap.stronger,
            gap.weaker,
            f"{gap.wins} of {gap.games}",
            f"{gap.wins / gap.games:.1%} ({low:.1%}-{high:.1%})",
            f"{gap.gap:+.0f}",
            f"{gap.error:.0f}",
        )
    console.print(table)
    if output is not None:
        data = {
            "seed": seed,
            "games_per_pair": games,
            "ratings": [asdict(r) for r in ratings],
            "gaps": [asdict(g) for g in gaps],
            "games": [_game_row(g) for g in results],
        }
        output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        console.print(f"wrote {output}")
    if plot is not None:
        _plot(ratings, plot, games)
        console.print(f"wrote {plot}")


def _game_row(game: GameResult) -> dict[str, object]:
    """A game as plain JSON data (seats as numbers)."""
    return asdict(game) | {"breaker": int(game.breaker), "winner": int(game.winner)}


def _pyplot() -> Any:
    """Matplotlib's pyplot on the file-only Agg backend (the [plots] extra)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def _plot(ratings: list[Rating], path: Path, games: int) -> None:
    plt = _pyplot()
    ordered = sorted(ratings, key=lambda r: r.rating)
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=120)
    ax.barh(
        [r.name for r in ordered],
        [r.rating for r in ordered],
        xerr=[1.96 * r.error for r in ordered],
        # The anchor's rating is fixed, not fitted: drawn apart.
        color=["#8a8a8a" if r.error == 0.0 else "#1d6b45" for r in ordered],
        ecolor="#333",
    )
    for y, r in enumerate(ordered):
        label = f"{r.rating:.0f}" + (f" ± {1.96 * r.error:.0f}" if r.error else " (anchor)")
        ax.text(r.rating + 1.96 * r.error + 8, y, label, va="center", fontsize=8)
    ax.set_xlim(0, max(r.rating + 1.96 * r.error for r in ordered) * 1.18)
    ax.set_xlabel("Fargo-style rating (95% interval)")
    ax.set_title(f"nineball computer players, {games} games per adjacent pair")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run_realism(
    console: Console,
    *,
    level: str,
    games: int,
    workers: int,
    seed: int,
    output: Path | None = None,
) -> int:
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
    for column in ("figure", "rate", "95% interval", "target (docs/players.md)"):
        table.add_column(column)
    for name, count in figures.items():
        low, high = wilson(count, n)
        t_low, t_high = targets[name]
        table.add_row(
            name, f"{count / n:.1%}", f"{low:.1%} - {high:.1%}", f"{t_low:.0%} - {t_high:.0%}"
        )
    console.print(table)
    console.print(f"strokes per game: {sum(g.shots for g in results) / n:.1f}")
    if output is not None:
        data = {
            "level": level,
            "seed": seed,
            "figures": {
                name: {"count": count, "games": n, "interval": list(wilson(count, n))}
                for name, count in figures.items()
            },
            "games": [_game_row(g) for g in results],
        }
        output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        console.print(f"wrote {output}")
    return 0


def run_tournament(
    console: Console,
    *,
    players: list[str],
    games: int,
    workers: int,
    backend: str,
    address: str | None,
    seed: int,
    db: Path | None,
    plot: Path | None,
) -> int:
    """A round robin between ``players``: ratings, head-to-head scores, stored results."""
    from nineball.game.store import Store
    from nineball.players.ladder import round_robin

    pairs = len(players) * (len(players) - 1) // 2
    with _progress(console) as progress:
        task = progress.add_task(f"{pairs} pairings on {backend}", total=pairs * games)
        results = round_robin(
            players,
            games,
            seed=seed,
            workers=workers,
            backend=backend,
            address=address,
            on_game=lambda _g: progress.advance(task),
        )
    anchor = "ghost" if "ghost" in players else players[0]
    ratings = fit_ratings(results, anchor=anchor, anchor_rating=GHOST_RATING)
    table = Table(title=f"round robin, {games} games per pairing (seed {seed}, anchor {anchor})")
    for column in ("player", "rating", "± 1 s.e.", "games", "won"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in ratings:
        won = sum((g.first if g.winner is Seat.FIRST else g.second) == r.name for g in results)
        table.add_row(r.name, f"{r.rating:.0f}", f"{r.error:.0f}", str(r.games), str(won))
    console.print(table)
    run = f"tournament seed {seed} {','.join(players)} x{games}"
    with Store(db) as store:
        rows = [_game_row(g) for g in results]
        store.add_results(run, "game", rows)
        store.add_results(run, "rating", [asdict(r) for r in ratings])
        console.print(f"stored {len(rows)} games as {run!r} in {store.path}")
    if plot is not None:
        _plot(ratings, plot, games)
        console.print(f"wrote {plot}")
    return 0


def run_breaks(
    console: Console,
    *,
    level: str,
    breaks: int,
    workers: int,
    backend: str,
    address: str | None,
    seed: int,
    db: Path | None,
    plot: Path | None,
) -> int:
    """Break statistics of ``level`` over ``breaks`` seeded racks."""
    import numpy as np

    from nineball.game.store import Store
    from nineball.players.backends import run_jobs
    from nineball.players.breaks import break_once

    jobs = [
        (level, int(np.random.SeedSequence([seed, k]).generate_state(1)[0])) for k in range(breaks)
    ]
    with _progress(console) as progress:
        task = progress.add_task(f"{level} breaks on {backend}", total=breaks)
        results = run_jobs(
            break_once,
            jobs,
            backend=backend,
            workers=workers,
            address=address,
            on_result=lambda _r: progress.advance(task),
        )
    n = len(results)
    rows = {
        "legal": sum(r.legal for r in results),
        "legal and a ball pocketed": sum(r.legal and r.balls > 0 for r in results),
        "cue ball scratched": sum(r.scratch for r in results),
        "9 on the break (win)": sum(r.nine for r in results),
    }
    table = Table(title=f"{n} breaks by {level} (seed {seed})")
    for column in ("outcome", "rate", "95% interval"):
        table.add_column(column)
    for name, count in rows.items():
        low, high = wilson(count, n)
        table.add_row(name, f"{count / n:.1%}", f"{low:.1%} - {high:.1%}")
    console.print(table)
    made = [r.balls for r in results]
    console.print(
        "balls pocketed: " + ", ".join(f"{k}: {made.count(k)}" for k in sorted(set(made)))
    )
    run = f"breaks seed {seed} {level} x{breaks}"
    with Store(db) as store:
        store.add_results(run, "break", [asdict(r) for r in results])
        console.print(f"stored {n} breaks as {run!r} in {store.path}")
    if plot is not None:
        _plot_breaks(results, plot, level)
        console.print(f"wrote {plot}")
    return 0


def _plot_breaks(results: list[BreakResult], path: Path, level: str) -> None:
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6), dpi=120)
    made = [r.balls for r in results]
    left.hist(made, bins=range(max(made) + 2), align="left", color="#1d6b45", rwidth=0.8)
    left.set_xlabel("object balls pocketed on the break")
    left.set_ylabel("breaks")
    cues = [r.cue for r in results if r.cue is not None]
    right.scatter([c[1] for c in cues], [c[0] for c in cues], s=6, color="#202020")
    right.set_xlim(0, 2.54)
    right.set_ylim(0, 1.27)
    right.set_aspect("equal")
    right.set_title("where the cue ball stopped")
    fig.suptitle(f"{len(results)} breaks by {level}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
