"""``nineball ladder`` and ``nineball realism``: self-play figures of the computer players."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from nineball.cli.batch import (
    Batch,
    Finished,
    Reporter,
    RunOptions,
    resumed_params,
    run_batch,
)
from nineball.errors import InvalidInputError
from nineball.game import Seat
from nineball.players.breaks import BreakResult, break_from_row, break_jobs, break_once, break_row
from nineball.players.ladder import (
    GHOST_RATING,
    GameResult,
    Rating,
    fit_ratings,
    game_from_row,
    game_row,
    ladder_jobs,
    ladder_pairs,
    pairing_jobs,
    play_job,
    rating_gaps,
    round_robin_jobs,
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


def _start(
    console: Console, command: str, params: dict[str, Any], options: RunOptions | None
) -> tuple[Reporter, RunOptions, dict[str, Any]] | int:
    """The reporter, the options and the parameters (a resumed run's own); 1 on a bad run."""
    opts = RunOptions() if options is None else options
    out = Reporter(console, opts.fmt)
    if opts.resume is not None:
        try:
            params = resumed_params(command, opts.resume, opts.db)
        except InvalidInputError as error:
            out.note(f"error: {error}")
            return 1
        out.note(f"resuming run {opts.resume}: " + ", ".join(f"{k} {v}" for k, v in params.items()))
    return out, opts, params


def _games(
    out: Reporter,
    opts: RunOptions,
    command: str,
    params: dict[str, Any],
    jobs: list[Any],
    label: str,
) -> Finished[GameResult] | int:
    batch: Batch[Any, GameResult] = Batch(
        command=command,
        params=params,
        jobs=jobs,
        fn=play_job,
        to_row=game_row,
        from_row=game_from_row,
        label=label,
    )
    return run_batch(out, batch, opts)


def run_ladder(
    console: Console,
    *,
    players: list[str],
    games: int,
    seed: int,
    output: Path | None,
    plot: Path | None,
    options: RunOptions | None = None,
) -> int:
    """Play every adjacent pairing of ``players`` and fit the ratings.

    ``options``: how to run it (workers, backend, database, format, a run to resume).
    """
    start = _start(console, "ladder", {"players": players, "games": games, "seed": seed}, options)
    if isinstance(start, int):
        return start
    out, opts, params = start
    players, games, seed = list(params["players"]), int(params["games"]), int(params["seed"])
    pairs = ladder_pairs(players)
    jobs = ladder_jobs(players, games, seed)
    run = _games(out, opts, "ladder", params, jobs, f"{len(pairs)} adjacent pairs")
    if isinstance(run, int):
        return run
    summary = _report(out, run.results, pairs, games=games, seed=seed, output=output, plot=plot)
    _finish(out, run, summary | {"players": players, "seed": seed, "games_per_pair": games})
    return 0


def _finish(out: Reporter, run: Finished[Any], summary: dict[str, Any]) -> None:
    """Mark the run finished with its figures; the JSON document is those figures."""
    with run.store as store:
        store.finish(run.run, summary)
        out.note(f"saved {len(run.results)} as run {run.run} in {store.path}")
    out.document({"run": run.run, **summary})


def rerate_ladder(
    console: Console, path: Path, *, output: Path | None, plot: Path | None, fmt: str = "table"
) -> int:
    """Fit, print and plot the games of a ladder file written by ``--output``, playing none.

    Returns 1 (with the reason printed) for a file that is not such a ladder.
    """
    out = Reporter(console, fmt)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        results = [game_from_row(row) for row in data["games"]]
        games, seed = int(data["games_per_pair"]), int(data["seed"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        out.note(f"error: {path} is not a ladder written by --output ({error})")
        return 1
    # A pairing's first game has the ladder's weaker player in the first seat.
    pairs: list[tuple[str, str]] = []
    for g in results:
        if not any({g.first, g.second} == {a, b} for a, b in pairs):
            pairs.append((g.first, g.second))
    summary = _report(out, results, pairs, games=games, seed=seed, output=output, plot=plot)
    out.document(summary | {"seed": seed, "games_per_pair": games})
    return 0


def _report(
    out: Reporter,
    results: list[GameResult],
    pairs: list[tuple[str, str]],
    *,
    games: int,
    seed: int,
    output: Path | None,
    plot: Path | None,
) -> dict[str, Any]:
    """The ratings table, each pair's score, and the optional JSON and plot; the figures."""
    ratings = fit_ratings(results)
    table = Table(title=f"nineball ladder ({games} games per adjacent pair, seed {seed})")
    for column in ("player", "rating", "± 1 s.e.", "games"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in ratings:
        table.add_row(r.name, f"{r.rating:.0f}", f"{r.error:.0f}", str(r.games))
    out.table(table)
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
    out.table(table)
    figures: dict[str, Any] = {
        "ratings": [asdict(r) for r in ratings],
        "gaps": [asdict(g) | {"interval": list(wilson(g.wins, g.games))} for g in gaps],
    }
    if output is not None:
        data = {
            "seed": seed,
            "games_per_pair": games,
            "ratings": figures["ratings"],
            "gaps": [asdict(g) for g in gaps],
            "games": [game_row(g) for g in results],
        }
        output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        out.note(f"wrote {output}")
    if plot is not None:
        _plot(ratings, plot, games)
        out.note(f"wrote {plot}")
    return figures


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


_TARGETS = {
    "legal break pocketing a ball": (0.60, 0.75),
    "breaker wins the game": (0.52, 0.62),
    "break and run": (0.17, 0.30),
}
"""Professional ranges of the realism figures (docs/players.md)."""


def run_realism(
    console: Console,
    *,
    level: str,
    games: int,
    seed: int,
    output: Path | None = None,
    options: RunOptions | None = None,
) -> int:
    """Self-play at ``level``: break and break-and-run figures with 95% intervals.

    ``options``: how to run it (workers, backend, database, format, a run to resume).
    """
    start = _start(console, "realism", {"level": level, "games": games, "seed": seed}, options)
    if isinstance(start, int):
        return start
    out, opts, params = start
    level, games, seed = str(params["level"]), int(params["games"]), int(params["seed"])
    jobs = pairing_jobs(level, level, games, seed, 99)
    run = _games(out, opts, "realism", params, jobs, f"{level} v {level}")
    if isinstance(run, int):
        return run
    results = run.results
    n = len(results)
    counts = {
        "legal break pocketing a ball": sum(g.legal_break_with_ball for g in results),
        "breaker wins the game": sum(g.winner is g.breaker for g in results),
        "break and run": sum(g.broke_and_ran for g in results),
    }
    table = Table(title=f"{level} v {level}: {n} games (seed {seed})")
    for column in ("figure", "rate", "95% interval", "target (docs/players.md)"):
        table.add_column(column)
    for name, count in counts.items():
        low, high = wilson(count, n)
        t_low, t_high = _TARGETS[name]
        table.add_row(
            name, f"{count / n:.1%}", f"{low:.1%} - {high:.1%}", f"{t_low:.0%} - {t_high:.0%}"
        )
    out.table(table)
    strokes = sum(g.shots for g in results) / n
    if not out.json:
        console.print(f"strokes per game: {strokes:.1f}")
    figures = {
        name: {
            "count": count,
            "games": n,
            "rate": count / n,
            "interval": list(wilson(count, n)),
            "target": list(_TARGETS[name]),
        }
        for name, count in counts.items()
    }
    if output is not None:
        data = {
            "level": level,
            "seed": seed,
            "figures": figures,
            "games": [game_row(g) for g in results],
        }
        output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        out.note(f"wrote {output}")
    summary = {"level": level, "seed": seed, "games": n, "figures": figures}
    _finish(out, run, summary | {"strokes_per_game": strokes})
    return 0


def run_tournament(
    console: Console,
    *,
    players: list[str],
    games: int,
    seed: int,
    plot: Path | None,
    options: RunOptions | None = None,
) -> int:
    """A round robin between ``players``: ratings and head-to-head scores, saved game by game.

    ``options``: how to run it (workers, backend, database, format, a run to resume).
    """
    params: dict[str, Any] = {"players": players, "games": games, "seed": seed}
    start = _start(console, "tournament", params, options)
    if isinstance(start, int):
        return start
    out, opts, params = start
    players, games, seed = list(params["players"]), int(params["games"]), int(params["seed"])
    pairs = len(players) * (len(players) - 1) // 2
    jobs = round_robin_jobs(players, games, seed)
    run = _games(out, opts, "tournament", params, jobs, f"{pairs} pairing" + "s" * (pairs > 1))
    if isinstance(run, int):
        return run
    results = run.results
    anchor = "ghost" if "ghost" in players else players[0]
    ratings = fit_ratings(results, anchor=anchor, anchor_rating=GHOST_RATING)
    table = Table(title=f"round robin, {games} games per pairing (seed {seed}, anchor {anchor})")
    for column in ("player", "rating", "± 1 s.e.", "games", "won"):
        table.add_column(column, justify="left" if column == "player" else "right")
    rows = []
    for r in ratings:
        won = sum((g.first if g.winner is Seat.FIRST else g.second) == r.name for g in results)
        table.add_row(r.name, f"{r.rating:.0f}", f"{r.error:.0f}", str(r.games), str(won))
        rows.append(asdict(r) | {"won": won})
    out.table(table)
    if plot is not None:
        _plot(ratings, plot, games)
        out.note(f"wrote {plot}")
    summary = {"players": players, "games_per_pairing": games, "seed": seed, "anchor": anchor}
    _finish(out, run, summary | {"ratings": rows})
    return 0


def run_breaks(
    console: Console,
    *,
    level: str,
    breaks: int,
    seed: int,
    plot: Path | None,
    options: RunOptions | None = None,
) -> int:
    """Break statistics of ``level`` over ``breaks`` seeded racks, saved break by break.

    ``options``: how to run it (workers, backend, database, format, a run to resume).
    """
    start = _start(console, "breaks", {"level": level, "breaks": breaks, "seed": seed}, options)
    if isinstance(start, int):
        return start
    out, opts, params = start
    level, breaks, seed = str(params["level"]), int(params["breaks"]), int(params["seed"])
    batch: Batch[tuple[str, int], BreakResult] = Batch(
        command="breaks",
        params=params,
        jobs=break_jobs(level, breaks, seed),
        fn=break_once,
        to_row=break_row,
        from_row=break_from_row,
        label=f"{level} breaks",
    )
    run = run_batch(out, batch, opts)
    if isinstance(run, int):
        return run
    results = run.results
    n = len(results)
    counts = {
        "legal": sum(r.legal for r in results),
        "legal and a ball pocketed": sum(r.legal and r.balls > 0 for r in results),
        "cue ball scratched": sum(r.scratch for r in results),
        "9 on the break (win)": sum(r.nine for r in results),
    }
    table = Table(title=f"{n} breaks by {level} (seed {seed})")
    for column in ("outcome", "rate", "95% interval"):
        table.add_column(column)
    for name, count in counts.items():
        low, high = wilson(count, n)
        table.add_row(name, f"{count / n:.1%}", f"{low:.1%} - {high:.1%}")
    out.table(table)
    made = [r.balls for r in results]
    pocketed = {k: made.count(k) for k in sorted(set(made))}
    if not out.json:
        console.print("balls pocketed: " + ", ".join(f"{k}: {c}" for k, c in pocketed.items()))
    if plot is not None:
        _plot_breaks(results, plot, level)
        out.note(f"wrote {plot}")
    outcomes = {
        name: {"count": count, "breaks": n, "rate": count / n, "interval": list(wilson(count, n))}
        for name, count in counts.items()
    }
    summary = {"level": level, "breaks": n, "seed": seed, "outcomes": outcomes}
    _finish(out, run, summary | {"balls_pocketed": {str(k): c for k, c in pocketed.items()}})
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
