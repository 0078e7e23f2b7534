"""Balls never interpenetrate: pushes that start while two balls touch, inelastic collapse,
zero-time loops, and a stress test over seeded racks followed by random shots."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from physics_helpers import (
    assert_energy_never_increases,
    assert_momentum_conserved,
    assert_no_overlap,
)

from nineball.physics import BallInput, Stroke, Trajectory, diamond_rack, simulate

DATA = Path(__file__).parent / "data"
R = 0.028575
TOL = 1e-9


def min_gap(tr: Trajectory, samples: int) -> float:
    """Smallest gap between two balls on the table at the event times, at ``samples`` evenly
    spaced times and at the midpoints between events (vectorised; pocketed balls excluded from
    their capture on)."""
    times = np.linspace(0.0, tr.duration, samples)
    if tr.times.shape[0] > 1:
        times = np.concatenate([times, 0.5 * (tr.times[1:] + tr.times[:-1])])
    times = np.unique(np.concatenate([times, tr.times]))
    pos = tr.positions_at(times)[:, :, :2]
    captured = np.full(len(tr.ball_ids), np.inf)
    for e in np.flatnonzero(tr.kinds == 3):
        captured[tr.first[e]] = min(captured[tr.first[e]], tr.times[e])
    on_table = times[:, None] < captured[None, :]
    gap = np.inf
    n = pos.shape[1]
    for i in range(n):
        for j in range(i + 1, n):
            d = np.hypot(pos[:, i, 0] - pos[:, j, 0], pos[:, i, 1] - pos[:, j, 1]) - 2 * R
            live = on_table[:, i] & on_table[:, j]
            if live.any():
                gap = min(gap, float(d[live].min()))
    return gap


def final_overlaps(tr: Trajectory) -> list[tuple[int, int, float]]:
    pos = {b: s.r[:2] for b, s in tr.final_states().items() if s.pocket is None}
    ids = sorted(pos)
    return [
        (a, b, math.dist(pos[a], pos[b]))
        for q, a in enumerate(ids)
        for b in ids[q + 1 :]
        if math.dist(pos[a], pos[b]) < 2 * R - TOL
    ]


def test_overlap_break_request() -> None:
    """A break that once ended with balls 5 and 9 overlapping (a missed collision after an
    inelastic collapse): no overlap at the end nor at densely sampled times."""
    req = json.loads((DATA / "overlap_break.json").read_text())
    s = req["stroke"]
    stroke = Stroke(
        speed=s["speed"],
        aim=math.radians(s["aim_deg"]),
        elevation=math.radians(s["elevation_deg"]),
        side=s["side"],
        height=s["height"],
    )
    tr = simulate([BallInput(id=b["id"], r=tuple(b["r"])) for b in req["balls"]], stroke=stroke)
    assert not tr.truncated
    assert final_overlaps(tr) == []
    assert min_gap(tr, 20_000) >= -TOL
    assert_no_overlap(tr, samples=300)
    assert_energy_never_increases(tr)


@pytest.mark.parametrize("name", ["seed67", "seed123"])
def test_resting_contact_breaks_terminate(name: str) -> None:
    """Breaks that used to loop at a single instant on a contact with no approach speed
    (10000 events, truncated, final layout overlapping)."""
    req: dict[str, Any] = json.loads((DATA / "push_loops.json").read_text())[name]
    balls = [BallInput(id=b["id"], r=tuple(b["r"])) for b in req["balls"]]
    tr = simulate(balls, stroke=Stroke(**req["stroke"]))
    assert not tr.truncated
    assert tr.times.shape[0] < 500
    assert final_overlaps(tr) == []
    assert min_gap(tr, 5000) >= -TOL
    assert_energy_never_increases(tr)
    assert_momentum_conserved(tr)


@pytest.mark.parametrize("angle", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("speed", [0.05, 0.5, 2.0])
def test_push_that_starts_while_touching(angle: float, speed: float) -> None:
    """Ball 1 touches ball 2 and both move at the same velocity: ball 1 rolls, ball 2 slides
    without spin (it decelerates faster), so ball 1 starts pushing at t = 0 with no approach
    speed. The push must be an event; the balls never interpenetrate."""
    ux, uy = math.cos(angle), math.sin(angle)
    vx, vy = speed * math.cos(angle + 0.2), speed * math.sin(angle + 0.2)
    a = (0.5, 1.0)
    b = (a[0] + 2 * R * ux, a[1] + 2 * R * uy)
    balls = [
        BallInput(id=1, r=a, v=(vx, vy), w=(-vy / R, vx / R, 0.0)),
        BallInput(id=2, r=b, v=(vx, vy)),
    ]
    tr = simulate(balls)
    assert not tr.truncated
    assert tr.times.shape[0] < 100
    assert (tr.kinds == 1).any()
    assert min_gap(tr, 5000) >= -TOL
    assert final_overlaps(tr) == []
    assert_energy_never_increases(tr)
    assert_momentum_conserved(tr)


def shot_sequence(seed: int, shots: int = 4) -> list[Trajectory]:
    """A seeded random rack, a break from a random spot, then random shots from where the cue
    ball stopped (until it is pocketed)."""
    rng = np.random.default_rng(seed)
    others = [int(x) for x in rng.permutation([2, 3, 4, 5, 6, 7, 8])]
    layout = diamond_rack([1, *others[:3], 9, *others[3:]], rng)
    cue = (rng.uniform(0.2, 1.0), 0.5)
    one = layout[1]
    aim = math.atan2(one[1] - cue[1], one[0] - cue[0]) + rng.normal(0.0, 0.01)
    balls = [BallInput(id=int(b), r=xy) for b, xy in layout.items()]
    balls.append(BallInput(id=0, r=cue))
    out = []
    for _ in range(shots):
        stroke = Stroke(
            speed=rng.uniform(2.0, 11.0),
            aim=aim,
            side=rng.uniform(-0.3, 0.3),
            height=rng.uniform(-0.3, 0.3),
        )
        tr = simulate(balls, stroke=stroke)  # refuses an overlapping layout
        out.append(tr)
        final = {b: s for b, s in tr.final_states().items() if s.pocket is None}
        if 0 not in final:
            break
        balls = [BallInput(id=b, r=s.r[:2]) for b, s in final.items()]
        aim = rng.uniform(-math.pi, math.pi)
    return out


def test_stress_racks_and_shots_never_overlap() -> None:
    """A few hundred seeded racks-plus-shots sequences: zero overlaps, zero truncations."""
    failures = []
    shots = 0
    for seed in range(400):
        for k, tr in enumerate(shot_sequence(seed)):
            shots += 1
            gap = min_gap(tr, 60)
            if tr.truncated or gap < -TOL or final_overlaps(tr):
                failures.append((seed, k, tr.truncated, gap))
    assert failures == []
    assert shots > 1000
