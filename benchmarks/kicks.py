"""Kicks at a hidden ball: how often the player's choice fouls, with and without aimed kicks.

Random positions (seeded) in which no straight line from the cue ball reaches the lowest ball
(:func:`nineball.players.candidates.hidden`): the level decides, and its stroke is played
``--repeats`` times with the level's execution noise. Reported for the player as it is (kicks
off one, two and three cushions, each aimed by a fan of simulations, :func:`kicks`) and, in
the same run, with the kicks it had before (one cushion, aimed at the mirror image, no
simulation): the share of executions that foul, the share whose first contact is the lowest
ball, and the CPU time of a decision. Printed, never asserted::

    python benchmarks/kicks.py --level pro --positions 150 --repeats 16
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nineball.equipment import BallId, Point
from nineball.game.position import Position
from nineball.physics import PhysicsParams, nine_foot
from nineball.players import candidates
from nineball.players.search import LEVELS, SearchPlayer
from nineball.rules import MatchConfig, MatchState, ShotFacts, shoot

TABLE, PARAMS = nine_foot(), PhysicsParams()


def after_break(layout: dict[BallId, Point]) -> Position:
    """``layout`` after a legal break that pocketed the object balls missing from it (no push out).

    The lowest ball may be one of those pocketed: the caller checks.
    """
    start = MatchState.start(MatchConfig(players=("A", "B")))
    gone = [b for b in range(1, 9) if BallId(b) not in layout]
    state = shoot(start, ShotFacts.of(first_contact=1, pocketed=gone)).state
    state = replace(state, game=replace(state.game, push_out_allowed=False))
    return Position(state=state, layout=layout, table=TABLE, params=PARAMS)


def hooked(rng: np.random.Generator) -> Position:
    """A random position after a legal break, the cue ball hidden from the lowest ball."""
    r = PARAMS.radius
    while True:
        count = int(rng.integers(3, 8))
        balls = [BallId.CUE, *sorted(rng.choice(np.arange(1, 9), count - 2, replace=False))]
        balls.append(BallId.NINE)
        layout: dict[BallId, Point] = {}
        # the cue ball near a blocker, so that hooks are common
        for ball in balls:
            for _ in range(100):
                if ball is not BallId.CUE and len(layout) == 1 and rng.uniform() < 0.8:
                    cx, cy = layout[BallId.CUE]
                    turn = rng.uniform(0, 2 * np.pi)
                    gap = 2 * r + rng.uniform(0.002, 0.03)
                    at = (cx + gap * np.cos(turn), cy + gap * np.sin(turn))
                else:
                    at = (rng.uniform(r, TABLE.width - r), rng.uniform(r, TABLE.length - r))
                point = (float(at[0]), float(at[1]))
                inside = r <= point[0] <= TABLE.width - r and r <= point[1] <= TABLE.length - r
                if inside and all(
                    np.hypot(point[0] - q[0], point[1] - q[1]) > 2 * r + 1e-3
                    for q in layout.values()
                ):
                    layout[BallId(int(ball))] = point
                    break
        if len(layout) != len(balls):
            continue
        view = after_break(layout)
        lowest = BallId(int(view.state.lowest))
        if lowest in layout and candidates.hidden(view, layout[BallId.CUE], lowest):
            return view


def measure(level: str, views: list[Position], repeats: int) -> tuple[float, float, float]:
    """(foul rate, lowest-ball-first rate, median decision CPU s) over ``views``."""
    player = SearchPlayer(LEVELS[level])
    fouls = firsts = total = 0
    times = []
    for k, view in enumerate(views):
        start = time.process_time()
        decision = player.decide(view, np.random.default_rng(k))
        times.append(time.process_time() - start)
        search = player._search(view, np.random.default_rng(10_000 + k))
        noise = player.noise
        strokes = [
            decision.stroke if noise is None else noise.apply(decision.stroke, search.rng, PARAMS)
            for _ in range(repeats)
        ]
        cue = view.layout[BallId.CUE]
        for result in search.play_all(cue, strokes):
            total += 1
            if result is None or result.ruling.fouls:
                fouls += 1
            if result is not None and result.facts.first_contact == view.state.lowest:
                firsts += 1
    return fouls / total, firsts / total, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="pro")
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=16)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    views = [hooked(rng) for _ in range(args.positions)]
    now = measure(args.level, views, args.repeats)
    hidden = candidates.hidden
    candidates.hidden = lambda *_: False  # type: ignore[assignment]  # the kicks of before
    try:
        before = measure(args.level, views, args.repeats)
    finally:
        candidates.hidden = hidden  # type: ignore[assignment]
    print(f"{args.level}, {args.positions} hidden positions, {args.repeats} executions each")
    for name, (foul, first, cpu) in (("before", before), ("now", now)):
        print(f"  {name:6s}: fouls {foul:.1%}, lowest ball first {first:.1%}, "
              f"decision {cpu:.2f} s CPU (median)")  # fmt: skip


if __name__ == "__main__":
    main()
