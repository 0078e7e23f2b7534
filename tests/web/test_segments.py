from __future__ import annotations

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
            assert len(piece) == 8
            assert piece[0] <= piece[1]
