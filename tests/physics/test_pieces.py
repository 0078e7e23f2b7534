"""The physics' pieces of motion give the engine's positions between events."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from nineball.physics import BallInput, MotionState, Stroke, simulate
from nineball.physics.pieces import motion_pieces


@pytest.mark.parametrize(
    "stroke",
    [
        Stroke(speed=5.0, aim=math.pi / 2 + 0.01, side=0.3, height=-0.3),
        Stroke(speed=4.0, aim=math.pi / 2, elevation=math.radians(60)),  # a jump, then off
    ],
)
def test_pieces_give_the_engine_positions(stroke: Stroke) -> None:
    balls = [BallInput(id=0, r=(0.635, 1.2)), BallInput(id=1, r=(0.64, 1.9))]
    trajectory = simulate(balls, stroke=stroke)
    pieces = motion_pieces(trajectory)
    assert len(pieces) == len(trajectory.ball_ids)
    times = np.concatenate([np.linspace(0.0, trajectory.duration + 0.3, 400), trajectory.times])
    expected = trajectory.positions_at(times)
    for index, ball in enumerate(pieces):
        assert ball[0].start == 0.0
        assert all(a.end == b.start for a, b in itertools.pairwise(ball))
        starts = [p.start for p in ball]
        for q, t in enumerate(times):
            piece = ball[max(int(np.searchsorted(starts, t, side="right")) - 1, 0)]
            assert piece.position(float(t)) == pytest.approx(expected[q, index], abs=1e-12)
    motions = {p.motion for ball in pieces for p in ball}
    if stroke.elevation > 0:
        assert MotionState.AIRBORNE in motions


def test_pieces_are_read_only() -> None:
    trajectory = simulate([BallInput(id=0, r=(0.635, 1.2))], stroke=Stroke(speed=2.0, aim=1.0))
    piece = motion_pieces(trajectory)[0][0]
    assert piece.motion is MotionState.SLIDING
    with pytest.raises(ValueError, match="read-only"):
        piece.coefficients[0, 0] = 1.0
