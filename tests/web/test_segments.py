from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from nineball.game.layout import rack
from nineball.physics import BallInput, PhysicsParams, Stroke, nine_foot, simulate
from nineball.web.segments import ball_pieces, position_at, trajectory_json


def _break(seed: int, speed: float, side: float = 0.0, height: float = 0.0):
    table, params = nine_foot(), PhysicsParams()
    layout = rack(np.random.default_rng(seed), table, params)
    balls = [BallInput(id=0, r=(0.6, 0.45))] + [
        BallInput(id=int(b), r=p) for b, p in sorted(layout.items())
    ]
    aim = math.atan2(layout[1][1] - 0.45, layout[1][0] - 0.6)
    stroke = Stroke(speed=speed, aim=aim + 0.002 * seed, side=side, height=height)
    return simulate(balls, stroke=stroke, params=params, table=table)


@pytest.mark.parametrize(
    ("seed", "speed", "side", "height"),
    [(1, 9.0, 0.0, 0.0), (2, 4.0, 0.3, -0.3), (3, 2.0, -0.2, 0.4), (4, 11.0, 0.0, -0.4)],
)
def test_pieces_reproduce_the_engine_to_a_nanometre(seed, speed, side, height) -> None:
    trajectory = _break(seed, speed, side, height)
    times = np.concatenate([np.linspace(0.0, trajectory.duration + 0.5, 1500), trajectory.times])
    expected = trajectory.positions_at(times)
    for index in range(len(trajectory.ball_ids)):
        pieces = ball_pieces(trajectory, index)
        for q, t in enumerate(times):
            x, y = position_at(pieces, float(t))
            assert abs(x - expected[q, index, 0]) < 1e-9
            assert abs(y - expected[q, index, 1]) < 1e-9


def _spin_at(pieces: list[list[float]], t: float) -> tuple[float, float, float]:
    """The page's formula for the angular velocity: w0 + aw (t - t0) in the piece holding t."""
    piece = pieces[0]
    for p in pieces:
        if p[0] <= t:
            piece = p
        else:
            break
    dt = max(t - piece[0], 0.0)
    return (piece[11] + piece[14] * dt, piece[12] + piece[15] * dt, piece[13] + piece[16] * dt)


@pytest.mark.parametrize(
    ("seed", "speed", "side", "height"),
    [(1, 9.0, 0.0, 0.0), (2, 4.0, 0.4, -0.25), (3, 2.5, -0.3, 0.35)],
)
def test_pieces_carry_the_engines_angular_velocity(seed, speed, side, height) -> None:
    """A break and spin shots: w from the page's pieces is the engine's state at any time."""
    trajectory = _break(seed, speed, side, height)
    times = np.concatenate(
        [np.linspace(0.0, trajectory.duration + 0.5, 1200), trajectory.times + 1e-4]
    )
    expected = trajectory.states_at(times)
    data = trajectory_json(trajectory)
    worst = 0.0
    spinning = False
    for index, ball in enumerate(trajectory.ball_ids):
        pieces = data["balls"][str(int(ball))]["pieces"]
        for q, t in enumerate(times):
            w = _spin_at(pieces, float(t))
            for k in range(3):
                worst = max(worst, abs(w[k] - expected[q, index, 2, k]))
            spinning = spinning or abs(expected[q, index, 2, 2]) > 1.0
    assert worst < 1e-9
    assert spinning or side == 0.0  # the spin shots do carry z-spin
    # the rates are finite numbers, and a piece cut where the z-spin stops joins up with the next
    for ball in data["balls"].values():
        pieces = ball["pieces"]
        for a, b in itertools.pairwise(pieces):
            assert a[1] == b[0]
            assert all(math.isfinite(v) for v in a)


def test_json_names_pockets_and_is_plain_data() -> None:
    for seed in range(1, 12):
        trajectory = _break(seed, 10.0)
        data = trajectory_json(trajectory)
        pocketed = [b for b, ball in data["balls"].items() if ball["pocket"] is not None]
        if pocketed:
            break
    assert pocketed
    ball = data["balls"][pocketed[0]]
    assert ball["pocketed_at"] is not None
    assert data["duration"] == trajectory.duration
    for ball in data["balls"].values():
        for piece in ball["pieces"]:
            assert len(piece) == 17
            assert piece[0] <= piece[1]


def test_a_jump_is_drawn_in_the_air_and_off_the_table() -> None:
    from nineball.physics import MotionState

    jump = Stroke(speed=4.0, aim=math.pi / 2, elevation=math.radians(60))
    trajectory = simulate([BallInput(id=0, r=(0.635, 2.0))], stroke=jump)
    data = trajectory_json(trajectory)
    ball = data["balls"]["0"]
    assert ball["off_table_at"] is not None
    # In flight the piece carries the height: z(t) = z0 + vz dt - g dt^2 / 2 matches the engine.
    flying = [p for p in ball["pieces"] if p[10] != 0.0]
    assert flying
    params = trajectory.params
    for event in trajectory.events():
        state = event.states[0]
        if state.motion is MotionState.AIRBORNE:
            piece = next(p for p in ball["pieces"] if p[0] == event.time)
            assert piece[8] == pytest.approx(state.r[2] - params.radius, abs=1e-12)
            assert piece[9] == pytest.approx(state.v[2], abs=1e-12)
            assert piece[10] == -params.g
