"""``nineball arena``: a round robin between programs and built-in players, rated on the ladder."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from nineball.cli.batch import Batch, Finished, Reporter, RunOptions, resumed_params, run_batch
from nineball.errors import InvalidInputError
from nineball.game import Seat
from nineball.players.protocol.arena import (
    ArenaJob,
    ArenaMatch,
    ArenaSettings,
    Entrant,
    arena_from_row,
    arena_jobs,
    arena_row,
    play_arena_job,
    rate_arena,
)

__all__ = ["run_arena"]


def run_arena(
    console: Console,
    *,
    entrants: Sequence[Entrant],
    matches: int,
    seed: int,
    settings: ArenaSettings,
    records: Path | None = None,
    options: RunOptions | None = None,
) -> int:
    """Play the arena's matches (those not yet saved), then print or write its figures.

    Returns:
        The exit status: 0, 1 for a bad run to resume or records that cannot be written,
        128 + the signal for a stopped run.
    """
    opts = RunOptions() if options is None else options
    out = Reporter(console, opts.fmt)
    params: dict[str, Any] = {
        "entrants": [e.as_json() for e in entrants],
        "matches": matches,
        "seed": seed,
        "settings": settings.as_json(),
    }
    if opts.resume is not None:
        try:
            params = resumed_params("arena", opts.resume, opts.db)
            entrants = [Entrant.from_json(e) for e in params["entrants"]]
            matches, seed = int(params["matches"]), int(params["seed"])
            settings = ArenaSettings.from_json(params["settings"])
        except (InvalidInputError, KeyError, TypeError, ValueError) as error:
            out.note(f"error: {error}")
            return 1
        out.note(f"resuming run {opts.resume}: " + ", ".join(e.name for e in entrants))
    if records is not None and not records.is_dir():
        out.note(f"error: {str(records)!r} is not a directory")
        return 1
    pairs = len(entrants) * (len(entrants) - 1) // 2
    batch: Batch[ArenaJob, ArenaMatch] = Batch(
        command="arena",
        params=params,
        jobs=arena_jobs(entrants, matches, seed, settings),
        fn=play_arena_job,
        to_row=arena_row,
        from_row=arena_from_row,
        label=f"{pairs} pairing" + "s" * (pairs > 1) + f" x {matches} matches",
    )
    run = run_batch(out, batch, opts)
    if isinstance(run, int):
        return run
    summary = _report(out, run.results, entrants, settings, matches=matches, seed=seed)
    code = _write_records(out, run, records)
    with run.store as store:
        store.finish(run.run, summary)
        out.note(f"saved {len(run.results)} matches as run {run.run} in {store.path}")
    out.document({"run": run.run, **summary})
    return code


def _write_records(out: Reporter, run: Finished[ArenaMatch], records: Path | None) -> int:
    if records is None:
        return 0
    try:
        for result in run.results:
            path = records / f"{run.run}-{result.pairing + 1:02d}-{result.index + 1:03d}.json"
            text = json.dumps(result.record, ensure_ascii=False, indent=2) + "\n"
            path.write_text(text, encoding="utf-8")
    except OSError as error:
        out.note(f"error: cannot write the records: {error}")
        return 1
    out.note(f"wrote {len(run.results)} records to {records}")
    return 0


def _report(
    out: Reporter,
    results: list[ArenaMatch],
    entrants: Sequence[Entrant],
    settings: ArenaSettings,
    *,
    matches: int,
    seed: int,
) -> dict[str, Any]:
    """The tables (ratings, pairings, faults) and the same figures as JSON data."""
    ratings, anchor = rate_arena(results, entrants, settings)
    rated = {r.name: r for r in ratings}
    won: Counter[str] = Counter()
    played: Counter[str] = Counter()
    games_won: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    thinking: dict[str, float] = dict.fromkeys((e.name for e in entrants), 0.0)
    lost: Counter[str] = Counter()
    forfeits: Counter[str] = Counter()
    hello: dict[str, Any] = {}
    for result in results:
        for seat in Seat:
            name = result.players[seat]
            if result.seats[seat].hello is not None:
                hello.setdefault(name, result.seats[seat].hello)
            played[name] += result.winner is not None
            won[name] += result.winner is seat
            turns[name] += result.seats[seat].turns
            thinking[name] = thinking.get(name, 0.0) + result.seats[seat].thinking
        for game in result.games:
            games_won[game.first if game.winner is Seat.FIRST else game.second] += 1
        for fault in result.faults:
            if fault["penalty"] == "lost_shot":
                lost[fault["name"]] += 1
            elif fault["penalty"] in ("game", "match"):
                forfeits[fault["name"]] += 1
    scale = "ladder" if anchor.ladder else "the arena's own"
    table = Table(
        title=f"arena: {matches} matches per pairing, race to {settings.race_to} (seed {seed}); "
        f"rated on {scale} scale, {anchor.name} = {anchor.rating:.0f}"
    )
    for column in ("player", "kind", "rating", "± 1 s.e.", "games won", "matches won"):
        table.add_column(column, justify="left" if column in ("player", "kind") else "right")
    for column in ("shots lost", "forfeits", "ms per turn"):
        table.add_column(column, justify="right")
    order = sorted(entrants, key=lambda e: -rated[e.name].rating if e.name in rated else 1e9)
    rows = []
    for entrant in order:
        name = entrant.name
        rating = rated.get(name)
        per_turn = 1000.0 * thinking[name] / turns[name] if turns[name] else 0.0
        games = rating.games if rating else 0
        table.add_row(
            Text(name),
            entrant.kind,
            "-" if rating is None else f"{rating.rating:.0f}",
            "-" if rating is None else f"{rating.error:.0f}",
            f"{games_won[name]} of {games}",
            f"{won[name]} of {played[name]}",
            str(lost[name]),
            str(forfeits[name]),
            f"{per_turn:.1f}",
        )
        rows.append(
            {
                **entrant.as_json(),
                "kind": entrant.kind,
                "noise": settings.noise_of(entrant).label,
                "rating": None if rating is None else rating.rating,
                "error": None if rating is None else rating.error,
                "games": games,
                "games_won": games_won[name],
                "matches": played[name],
                "matches_won": won[name],
                "shots_lost": lost[name],
                "forfeits": forfeits[name],
                "turns": turns[name],
                "thinking_s": thinking[name],
                "hello": hello.get(name),
            }
        )
    out.table(table)
    pairings = _pairings(out, results)
    faults = _faults(out, results)
    void = sum(r.winner is None for r in results)
    if void:
        out.note(f"{void} void matches (neither program started)")
    return {
        "matches_per_pairing": matches,
        "seed": seed,
        "settings": settings.as_json(),
        "anchor": anchor.as_json(),
        "ratings": rows,
        "fit": [asdict(r) for r in ratings],
        "pairings": pairings,
        "faults": faults,
        "void": void,
        "seconds": sum(r.seconds for r in results),
    }


def _pairings(out: Reporter, results: list[ArenaMatch]) -> list[dict[str, Any]]:
    by_pair: dict[int, list[ArenaMatch]] = {}
    for result in results:
        by_pair.setdefault(result.pairing, []).append(result)
    table = Table(title="each pairing: matches and games won")
    for column in ("player", "against", "matches", "games"):
        table.add_column(column, justify="left" if column in ("player", "against") else "right")
    rows = []
    for pairing in sorted(by_pair):
        group = by_pair[pairing]
        a, b = group[0].players
        wins = {a: 0, b: 0}
        games = {a: 0, b: 0}
        for result in group:
            if result.winner is not None:
                wins[result.players[result.winner]] += 1
            for game in result.games:
                games[game.first if game.winner is Seat.FIRST else game.second] += 1
        table.add_row(Text(a), Text(b), f"{wins[a]}-{wins[b]}", f"{games[a]}-{games[b]}")
        rows.append(
            {
                "players": [a, b],
                "matches_won": [wins[a], wins[b]],
                "games_won": [games[a], games[b]],
            }
        )
    out.table(table)
    return rows


def _faults(out: Reporter, results: list[ArenaMatch]) -> list[dict[str, Any]]:
    counts: Counter[tuple[str, str, str]] = Counter()
    example: dict[tuple[str, str, str], str] = {}
    for result in results:
        for fault in result.faults:
            key = (str(fault["name"]), str(fault["code"]), str(fault["penalty"]))
            counts[key] += 1
            example.setdefault(key, str(fault["message"]))
    keys = sorted(counts)
    if keys:
        table = Table(title="faults (docs/engine-protocol.md)")
        for column in ("player", "fault", "penalty", "count", "first message"):
            table.add_column(column, justify="right" if column == "count" else "left")
        for key in keys:
            name, code, penalty = key
            table.add_row(Text(name), code, penalty, str(counts[key]), Text(example[key][:80]))
        out.table(table)
    return [
        {
            "name": n,
            "code": c,
            "penalty": p,
            "count": counts[(n, c, p)],
            "example": example[(n, c, p)],
        }
        for n, c, p in keys
    ]
