"""Head to head: a search level with the learned win probability at its leaves against itself.

Run: ``python benchmarks/value_leaves.py --level club --games 40 [--seed 0] [--workers 1]``.
Single racks between ``LEVEL`` (leaves valued by geometry, as shipped) and the same level with
``leaves="model"`` (the learned chance, :mod:`nineball.players.value`), seats and breaks
alternating as the ladder's pairings do (:func:`nineball.players.ladder.pairing_jobs`), every
game seeded. Prints the games each side won with a 95% Wilson interval, the gap on the ladder's
Fargo-style scale, and each side's CPU time per decision.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import replace

from nineball.game import MatchConfig, Seat
from nineball.game.match import Match
from nineball.players.backends import run_jobs
from nineball.players.ladder import pairing_jobs
from nineball.players.play import play_turn
from nineball.players.search import LEVELS, SearchPlayer

GEOMETRY, MODEL = "geometry", "model"


def _player(level: str, leaves: str) -> SearchPlayer:
    return SearchPlayer(replace(LEVELS[level], leaves=leaves))


def play(job: tuple[str, str, int, int, str]) -> tuple[str, dict[str, float], dict[str, int]]:
    """One rack; the winner's leaves, and each side's CPU seconds and decisions."""
    first, second, seed, breaker, level = job
    config = MatchConfig(players=(first, second), race_to=1, first_breaker=Seat(breaker))
    match = Match(config, seed=seed)
    players = [_player(level, first), _player(level, second)]
    cpu = {GEOMETRY: 0.0, MODEL: 0.0}
    decisions = {GEOMETRY: 0, MODEL: 0}
    while not match.state.is_over:
        seat = match.state.to_act
        start = time.process_time()
        play_turn(match, players[seat])
        cpu[config.players[seat]] += time.process_time() - start
        decisions[config.players[seat]] += 1
    assert match.state.winner is not None
    return config.players[match.state.winner], cpu, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description="learned leaves against geometric leaves")
    parser.add_argument("--level", default="club", choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    jobs = [(*job, args.level) for job in pairing_jobs(MODEL, GEOMETRY, args.games, args.seed, 0)]
    results = run_jobs(play, jobs, workers=args.workers)
    won = sum(1 for winner, _, _ in results if winner == MODEL)
    n = len(results)
    z = 1.96
    p = won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    gap = 100 * math.log2(max(won, 0.5) / max(n - won, 0.5))
    print(
        f"{args.level} with learned leaves v {args.level} as shipped, {n} racks (seed {args.seed})"
    )
    print(f"learned leaves won {won} of {n} ({p:.1%}, 95% {centre - half:.1%}-{centre + half:.1%})")
    print(f"gap on the ladder's scale: {gap:+.0f} points")
    for side in (MODEL, GEOMETRY):
        cpu = sum(c[side] for _, c, _ in results)
        count = sum(d[side] for _, _, d in results)
        print(f"{side:9s} {cpu / max(count, 1):.3f} s CPU per decision ({count} decisions)")


if __name__ == "__main__":
    main()
