"""Batched simulation against one call at a time: shots per second per core, and per event.

Seeded single shots (the cue ball and 1-9 object balls at random, random strokes) and breaks,
simulated (1) one ``simulate`` call each, (2) one ``PreparedBalls.strike`` each (the balls
checked once, as the search player does), (3) in one ``simulate_batch`` call on one thread and
(4) on every core; then the game's step: ``play_stroke`` one at a time against
``play_strokes``. Each timing is the best of ``--rounds``, the variants interleaved in each
round; the figures are ratios and rates, never assertions::

    nice -n 10 python benchmarks/batch.py --shots 2000 --breaks 200
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nineball.game import Match, MatchConfig, play_stroke, play_strokes
from nineball.physics import (
    BallInput,
    PhysicsParams,
    PreparedBalls,
    Stroke,
    diamond_rack,
    nine_foot,
    simulate,
    simulate_batch,
)

TABLE, PARAMS = nine_foot(), PhysicsParams()
R = PARAMS.radius


def layouts(rng: np.random.Generator, count: int) -> list[list[BallInput]]:
    """The cue ball and 1-9 object balls at random, clear of each other."""
    out = []
    for _ in range(count):
        ids = [0, *sorted(int(b) for b in rng.choice(np.arange(1, 10), rng.integers(1, 10), False))]
        points: list[tuple[float, float]] = []
        while len(points) < len(ids):
            x, y = float(rng.uniform(R, TABLE.width - R)), float(rng.uniform(R, TABLE.length - R))
            if all(math.hypot(x - px, y - py) > 2 * R + 1e-6 for px, py in points):
                points.append((x, y))
        out.append([BallInput(id=b, r=p) for b, p in zip(ids, points, strict=True)])
    return out


def strokes(rng: np.random.Generator, count: int) -> list[Stroke]:
    """Random strokes: 0.3-8 m/s, any direction, a little spin."""
    return [
        Stroke(
            speed=float(rng.uniform(0.3, 8.0)),
            aim=float(rng.uniform(-math.pi, math.pi)),
            side=float(rng.uniform(-0.3, 0.3)),
            height=float(rng.uniform(-0.3, 0.3)),
        )
        for _ in range(count)
    ]


def breaks(rng: np.random.Generator, count: int) -> tuple[list[list[BallInput]], list[Stroke]]:
    """Seeded racks broken at 8 m/s from the kitchen."""
    balls, hits = [], []
    for _ in range(count):
        order = [1, 2, 3, 4, 9, 5, 6, 7, 8]
        rack = diamond_rack(order, rng, table=TABLE, params=PARAMS)
        cue = (float(rng.uniform(0.4, 0.9)), TABLE.head_string - 0.1)
        balls.append(
            [BallInput(id=0, r=cue), *(BallInput(id=int(b), r=p) for b, p in rack.items())]
        )
        aim = math.atan2(rack[1][1] - cue[1], rack[1][0] - cue[0])
        hits.append(Stroke(speed=8.0, aim=aim))
    return balls, hits


def best(rounds: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The best wall time of each run over ``rounds`` rounds, the runs interleaved."""
    out = dict.fromkeys(runs, math.inf)
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            out[name] = min(out[name], time.perf_counter() - start)
    return out


def cores() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def measure(
    name: str, balls: list[list[BallInput]], hits: list[Stroke], rounds: int
) -> dict[str, object]:
    """Shots per second per core of each way, and the cost per event."""
    n = len(balls)
    prepared = [PreparedBalls(b) for b in balls]
    threads = min(numba.config.NUMBA_NUM_THREADS, cores())
    events = int(simulate_batch(balls, hits).event_counts.sum())

    def batch_on(count: int) -> Callable[[], object]:
        def run() -> object:
            numba.set_num_threads(count)
            try:
                return simulate_batch(balls, hits)
            finally:
                numba.set_num_threads(threads)

        return run

    times = best(
        rounds,
        {
            "simulate, one call each": lambda: [
                simulate(b, stroke=s) for b, s in zip(balls, hits, strict=True)
            ],
            "strike (prepared), one call each": lambda: [
                p.strike(s) for p, s in zip(prepared, hits, strict=True)
            ],
            "simulate_batch, 1 thread": batch_on(1),
            f"simulate_batch, {threads} threads": batch_on(threads),
        },
    )
    used = {
        name: (threads if "threads" in name and "1 thread" not in name else 1) for name in times
    }
    rates = {
        way: {
            "shots/s": round(n / t),
            "shots/s/core": round(n / t / used[way]),
            "us/event (per core)": round(t * used[way] / events * 1e6, 2),
        }
        for way, t in times.items()
    }
    single = times["simulate, one call each"]
    return {
        "set": name,
        "shots": n,
        "events": events,
        "events/shot": round(events / n, 1),
        "rates": rates,
        "batch on 1 thread / simulate, per core": round(
            single / times["simulate_batch, 1 thread"], 2
        ),
        f"batch on {threads} threads / simulate, per core": round(
            single / times[f"simulate_batch, {threads} threads"] / threads, 2
        ),
    }


def game_step(rounds: int, count: int) -> dict[str, object]:
    """The game's step: play_stroke one at a time against play_strokes, from one position."""
    match = Match(MatchConfig(players=("a", "b")), seed=1)
    match.place_cue_ball((0.6, 0.45))
    one = match.layout[1]  # type: ignore[index]
    match.strike(Stroke(speed=9.0, aim=math.atan2(one[1] - 0.45, one[0] - 0.6)))
    position = match.position
    if position.in_hand is not None:
        position = position.place((0.3, 0.3))
    position = position.ready()
    hits = strokes(np.random.default_rng(2), count)
    times = best(
        rounds,
        {
            "play_stroke, one at a time": lambda: [play_stroke(position, s) for s in hits],
            "play_strokes": lambda: play_strokes(position, hits),
        },
    )
    return {
        "strokes": count,
        "strokes/s": {way: round(count / t) for way, t in times.items()},
        "play_strokes / play_stroke (wall)": round(
            times["play_stroke, one at a time"] / times["play_strokes"], 2
        ),
    }


def search(rounds: int, level: str, decisions: int) -> dict[str, object]:
    """The search player's decisions with its candidates scored in batches and one at a time.

    The decisions are the same either way (``tests/players/test_search_batch.py``); the time
    per decision differs by what the batch saves: the cores, and Python per simulation.
    """
    from nineball.players.evaluation import Search
    from nineball.players.search import LEVELS, SearchPlayer

    views = []
    for seed in range(decisions):
        match = Match(MatchConfig(players=("a", "b")), seed=seed)
        match.place_cue_ball((0.6, 0.45))
        one = match.layout[1]  # type: ignore[index]
        match.strike(Stroke(speed=9.0, aim=math.atan2(one[1] - 0.45, one[0] - 0.6)))
        if not match.state.is_over and match.position.in_hand is None:
            views.append(match.position)
    batched = Search.play_all

    def one_at_a_time(self: Search, cue, strokes, *, push_out=False):  # type: ignore[no-untyped-def]
        return [self.play(cue, stroke, push_out=push_out) for stroke in strokes]

    def decide_all() -> object:
        return [SearchPlayer(LEVELS[level]).decide(v, np.random.default_rng(0)) for v in views]

    def alone() -> object:
        Search.play_all = one_at_a_time  # type: ignore[method-assign]
        try:
            return decide_all()
        finally:
            Search.play_all = batched  # type: ignore[method-assign]

    times = best(rounds, {"batched": decide_all, "one at a time": alone})
    return {
        "level": level,
        "decisions": len(views),
        "s/decision": {way: round(t / max(len(views), 1), 4) for way, t in times.items()},
        "one at a time / batched (wall)": round(times["one at a time"] / times["batched"], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=2000)
    parser.add_argument("--breaks", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    balls = layouts(rng, args.shots)
    hits = strokes(rng, args.shots)
    rack_balls, rack_hits = breaks(rng, args.breaks)
    simulate_batch(balls[:2], hits[:2])  # compile (or load) the batch kernel first
    report = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cores": cores(),
        "load average": os.getloadavg(),
        "single shots": measure("single shots", balls, hits, args.rounds),
        "breaks": measure("breaks at 8 m/s", rack_balls, rack_hits, args.rounds),
        "game step": game_step(args.rounds, 300),
        "search": search(args.rounds, "pro", 12),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
