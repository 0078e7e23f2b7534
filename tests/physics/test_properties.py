"""Property tests on random layouts: energy, momentum, no overlap, on the table, termination,
determinism."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from physics_helpers import (
    assert_energy_never_increases,
    assert_momentum_conserved,
    assert_no_overlap,
    random_layout,
)

from nineball.equipment import PocketId
from nineball.physics import BallInput, EventKind, Stroke, Trajectory, nine_foot, simulate

W, L, R = 1.270, 2.540, 0.028575


def layout(seed: int, n: int) -> list[BallInput]:
    return random_layout(np.random.default_rng(seed), n)


def run(seed: int, n: int, speed: float, aim: float, side: float, height: float) -> Trajectory:
    stroke = Stroke(speed=speed, aim=aim, side=side, height=height)
    return simulate(layout(seed, n), stroke=stroke)


def on_surface(tr: Trajectory) -> None:
    table = nine_foot()
    pockets = [table.pocket_centre(p) for p in PocketId]
    times = np.unique(np.concatenate([tr.times, np.linspace(0, tr.duration, 200)]))
    pos = tr.positions_at(times)
    tol = 1e-6
    for q in range(times.shape[0]):
        for b in range(pos.shape[1]):
            x, y = pos[q, b, 0], pos[q, b, 1]
            inside = R - tol <= x <= W - R + tol and R - tol <= y <= L - R + tol
            near_pocket = min(math.dist((x, y), p) for p in pockets) < 0.15
            assert inside or near_pocket, (times[q], tr.ball_ids[b], x, y)
            assert pos[q, b, 2] == R


SHOTS = st.tuples(
    st.integers(0, 10_000),
    st.integers(2, 10),
    st.floats(0.2, 8.0),
    st.floats(0.0, 2 * math.pi),
    st.floats(-0.45, 0.45),
    st.floats(-0.3, 0.3),
).filter(lambda shot: math.hypot(shot[4], shot[5]) <= 0.49)  # inside the miscue limit


@settings(max_examples=25, deadline=None, derandomize=True)
@given(SHOTS)
def test_random_layouts_are_physical(shot: tuple[int, int, float, float, float, float]) -> None:
    assume(math.hypot(shot[4], shot[5]) <= 0.5)  # inside the miscue limit
    tr = run(*shot)
    assert not tr.truncated  # every shot terminates
    assert_energy_never_increases(tr)
    assert_momentum_conserved(tr)
    assert_no_overlap(tr, samples=300)
    on_surface(tr)
    times = tr.times
    assert np.all(np.diff(times) >= 0.0)
    # each ball-ball event resolves an approach: the balls separate (or stop approaching)
    for e in tr.events():
        if e.kind is EventKind.BALL_BALL:
            a, b = e.states
            n = np.subtract(b.r[:2], a.r[:2])
            assert np.dot(np.subtract(b.v[:2], a.v[:2]), n) >= -1e-12


@settings(max_examples=10, deadline=None, derandomize=True)
@given(SHOTS)
def test_identical_input_identical_output(
    shot: tuple[int, int, float, float, float, float],
) -> None:
    assume(math.hypot(shot[4], shot[5]) <= 0.5)  # inside the miscue limit
    a, b = run(*shot), run(*shot)
    assert a.events() == b.events()
    assert np.array_equal(a.final, b.final)
