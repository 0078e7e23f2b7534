"""Soak the physics engine with random strokes on random layouts (never a timed test).

Run: ``python benchmarks/soak.py [--strokes N] [--seed S]`` (default 100000 strokes, seed 0).
Each stroke: 1-10 balls placed at random on the cloth (the cue ball among them), a cue speed of
0-12 m/s, an elevation of 0-60 deg, a tip offset anywhere on the miscue disc (strokes the engine
refuses as a scoop are counted and skipped) and a random aim. Every fifth case is instead a
lone ball near a pocket, sliding at up to 2 m/s with up to several hundred rad/s of spin
(:func:`spinning_case`): the curved paths of a ball that comes off a hard break with heavy
draw, which can leave a facing's line beside the pocket and curve back onto its face. Reports:

* escapes: a ball that ends off the playing surface with no event taking it there (the engine
  raises ``EngineError``), or a final state that is not finite;
* overlaps: two balls left on the table closer than 2R (less ``PLACEMENT_TOLERANCE``);
* truncated shots (``max_events`` ran out);
* the slowest shot (wall time) and its events, to reproduce it.

``tests/physics/test_invariants.py`` runs the same generator on a smaller sample.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

import numpy as np

from nineball.errors import EngineError, InvalidInputError
from nineball.physics import BallInput, PhysicsParams, Stroke, simulate
from nineball.physics.simulate import PLACEMENT_TOLERANCE
from nineball.physics.table import nine_foot

R = 0.028575


@dataclass(frozen=True)
class Case:
    balls: tuple[BallInput, ...]
    stroke: Stroke | None
    """None: the balls move as given."""


def random_case(rng: np.random.Generator, params: PhysicsParams) -> Case:
    table = nine_foot()
    n = int(rng.integers(1, 11))
    placed: list[tuple[float, float]] = []
    while len(placed) < n:
        x = float(rng.uniform(R, table.width - R))
        y = float(rng.uniform(R, table.length - R))
        if all(math.hypot(x - a, y - b) >= 2 * R for a, b in placed):
            placed.append((x, y))
    ids = [0, *(int(b) for b in rng.choice(np.arange(1, 10), size=n - 1, replace=False))]
    balls = tuple(BallInput(id=i, r=p) for i, p in zip(ids, placed, strict=True))
    radius = params.miscue_limit * math.sqrt(float(rng.uniform()))
    angle = float(rng.uniform(0.0, 2 * math.pi))
    stroke = Stroke(
        speed=float(rng.uniform(0.0, 12.0)),
        aim=float(rng.uniform(0.0, 2 * math.pi)),
        elevation=math.radians(float(rng.uniform(0.0, 60.0))),
        side=radius * math.cos(angle),
        height=radius * math.sin(angle),
    )
    return Case(balls=balls, stroke=stroke)


def spinning_case(rng: np.random.Generator) -> Case:
    """A lone ball within 35 cm of a pocket, sliding toward it (give or take a radian) at up
    to 2 m/s, with a spin of about 150 rad/s on each axis: its path curves hard."""
    table = nine_foot()
    w, length = table.width, table.length
    pockets = [(0.0, 0.0), (w, 0.0), (0.0, length / 2), (w, length / 2), (0.0, length), (w, length)]
    px, py = pockets[int(rng.integers(6))]
    x = min(max(px + float(rng.uniform(-0.35, 0.35)), R), w - R)
    y = min(max(py + float(rng.uniform(-0.35, 0.35)), R), length - R)
    speed = float(rng.uniform(0.0, 2.0))
    heading = math.atan2(py - y, px - x) + float(rng.normal(0.0, 1.0))
    spin = tuple(float(q) for q in rng.normal(0.0, 150.0, 3))
    ball = BallInput(
        id=0, r=(x, y), v=(speed * math.cos(heading), speed * math.sin(heading)), w=spin
    )
    return Case(balls=(ball,), stroke=None)


@dataclass
class Report:
    strokes: int = 0
    refused: int = 0
    escapes: int = 0
    overlaps: int = 0
    truncated: int = 0
    slowest_s: float = 0.0
    slowest: Case | None = None
    first_problem: str = ""


def check(case: Case, report: Report) -> None:
    start = time.perf_counter()
    try:
        tr = simulate(case.balls, stroke=case.stroke)
    except InvalidInputError:
        report.refused += 1
        return
    except EngineError as exc:
        report.escapes += 1
        report.first_problem = report.first_problem or f"escape: {case!r}: {exc}"
        return
    elapsed = time.perf_counter() - start
    report.strokes += 1
    if elapsed > report.slowest_s:
        report.slowest_s = elapsed
        report.slowest = case
    if tr.truncated:
        report.truncated += 1
        report.first_problem = report.first_problem or f"truncated: {case!r}"
    on = [i for i in range(len(tr.ball_ids)) if tr.pocket_of[i] < 0 and tr.final_motion[i] != 6]
    r = tr.final[:, 0, :2]
    if not np.all(np.isfinite(tr.final)):
        report.escapes += 1
        report.first_problem = report.first_problem or f"not finite: {case!r}"
    for p, i in enumerate(on):
        for j in on[p + 1 :]:
            if math.dist(r[i], r[j]) < 2 * R - PLACEMENT_TOLERANCE:
                report.overlaps += 1
                report.first_problem = report.first_problem or f"overlap: {case!r}"


def soak(strokes: int, seed: int, *, progress: bool = False) -> Report:
    rng = np.random.default_rng(seed)
    params = PhysicsParams()
    simulate([BallInput(id=0, r=(0.6, 0.6))], stroke=Stroke(speed=1.0))  # compile or load
    report = Report()
    for k in range(strokes):
        check(spinning_case(rng) if k % 5 == 4 else random_case(rng, params), report)
        if progress and (k + 1) % 10000 == 0:
            print(f"  {k + 1} strokes", file=sys.stderr, flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strokes", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    report = soak(args.strokes, args.seed, progress=True)
    wall = time.perf_counter() - start
    print(f"{args.strokes} random strokes (seed {args.seed}) in {wall:.1f} s")
    print(f"  simulated {report.strokes}, refused as a scoop {report.refused}")
    print(f"  escapes {report.escapes}, overlaps {report.overlaps}, truncated {report.truncated}")
    print(f"  slowest shot {report.slowest_s * 1e3:.2f} ms: {report.slowest!r}")
    if report.first_problem:
        print(f"  first problem: {report.first_problem}")


if __name__ == "__main__":
    main()
