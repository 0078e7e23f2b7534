"""Head to head: a search level with one or more settings changed, against the level as shipped.

Run: ``python benchmarks/head_to_head.py --level max --change replies=6 --games 100
[--seed 0] [--workers 2]``. ``--change`` sets fields of the :class:`nineball.players.Level`
(``leaves=model``: the learned win probability at the leaves; ``replies=6``: the opponent's best
reply at the finalists' leaves; ``samples=48``; several separated by commas). Single racks,
seats and breaks alternating as the ladder's pairings do
(:func:`nineball.players.ladder.pairing_jobs`), every game seeded. Prints the games each side
won with a 95% Wilson interval, the gap on the ladder's Fargo-style scale, and each side's CPU
time per decision.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from dataclasses import replace
from typing import Any

from nineball.game import MatchConfig, Seat
from nineball.game.match import Match
from nineball.players.backends import run_jobs
from nineball.players.ladder import pairing_jobs
from nineball.players.levels import Level
from nineball.players.play import play_turn
from nineball.players.search import LEVELS, SearchPlayer

SHIPPED, CHANGED = "shipped", "changed"


def changes(text: str) -> dict[str, Any]:
    """``field=value,...`` as typed field values of :class:`Level`."""
    kinds = {f.name: f.type for f in dataclasses.fields(Level)}
    out: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in kinds or name in ("name", "noise"):
            raise SystemExit(f"--change: {name!r} is not a setting of a level")
        kind = str(kinds[name])
        if kind == "int":
            out[name] = int(value)
        elif kind == "float":
            out[name] = float(value)
        elif kind == "str":
            out[name] = value
        else:
            raise SystemExit(f"--change: {name!r} ({kind}) cannot be set here")
    return out


def play(job: tuple[str, str, int, int, str, str]) -> tuple[str, dict[str, float], dict[str, int]]:
    """One rack; the winner's side, and each side's CPU seconds and decisions."""
    first, second, seed, breaker, level, change = job
    config = MatchConfig(players=(first, second), race_to=1, first_breaker=Seat(breaker))
    match = Match(config, seed=seed)
    sides = {SHIPPED: LEVELS[level], CHANGED: replace(LEVELS[level], **changes(change))}
    players = [SearchPlayer(sides[first]), SearchPlayer(sides[second])]
    cpu = {SHIPPED: 0.0, CHANGED: 0.0}
    decisions = {SHIPPED: 0, CHANGED: 0}
    while not match.state.is_over:
        seat = match.state.to_act
        start = time.process_time()
        play_turn(match, players[seat])
        cpu[config.players[seat]] += time.process_time() - start
        decisions[config.players[seat]] += 1
    assert match.state.winner is not None
    return config.players[match.state.winner], cpu, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description="a level with changed settings against itself")
    parser.add_argument("--level", default="club", choices=list(LEVELS))
    parser.add_argument("--change", default="leaves=model", help="field=value,... of the level")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    changes(args.change)  # a bad setting stops here, before any game
    jobs = [
        (*job, args.level, args.change)
        for job in pairing_jobs(CHANGED, SHIPPED, args.games, args.seed, 0)
    ]
    results = run_jobs(play, jobs, workers=args.workers)
    won = sum(1 for winner, _, _ in results if winner == CHANGED)
    n = len(results)
    z = 1.96
    p = won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    gap = 100 * math.log2(max(won, 0.5) / max(n - won, 0.5))
    print(f"{args.level} with {args.change} v {args.level} as shipped: {n} racks, seed {args.seed}")
    print(f"changed won {won} of {n} ({p:.1%}, 95% {centre - half:.1%}-{centre + half:.1%})")
    print(f"gap on the ladder's scale: {gap:+.0f} points")
    for side in (CHANGED, SHIPPED):
        cpu = sum(c[side] for _, c, _ in results)
        count = sum(d[side] for _, _, d in results)
        print(f"{side:8s} {cpu / max(count, 1):.3f} s CPU per decision ({count} decisions)")


if __name__ == "__main__":
    main()
