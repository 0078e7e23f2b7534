"""The cue stick and the bridge hand: which balls a stroke would touch (clause 11's geometry)."""

from __future__ import annotations

import math

import pytest

from nineball.physics import PhysicsParams, Stroke
from nineball.physics.cue import BRIDGE_DISTANCE, HAND_RADIUS, cue_contacts

R = PhysicsParams().radius
UP = math.pi / 2  # aiming up the table, +y
CUE = (0.635, 1.0)


def _stroke(elevation_deg: float, **kwargs: float) -> Stroke:
    return Stroke(speed=3.0, aim=UP, elevation=math.radians(elevation_deg), **kwargs)


def test_a_level_cue_runs_into_a_ball_behind_the_cue_ball() -> None:
    balls = {0: CUE, 3: (0.635, 0.9)}
    assert cue_contacts(balls, _stroke(0.0)) == (3,)
    # Raised enough, the stick passes over it; the bridge is further back.
    assert cue_contacts(balls, _stroke(50.0)) == ()


def test_the_stick_clears_a_ball_by_its_height() -> None:
    # 0.11 m back (in front of the bridge hand): at 10 degrees the stick is 2 cm above the
    # ball's centre and rubs it; at 35 degrees it is 7 cm above and clear.
    balls = {0: CUE, 4: (0.635, 0.89)}
    assert cue_contacts(balls, _stroke(10.0)) == (4,)
    assert cue_contacts(balls, _stroke(35.0)) == ()


def test_the_bridge_hand_lands_on_a_ball_on_the_cue_line() -> None:
    behind = (0.635, CUE[1] - BRIDGE_DISTANCE)
    balls = {0: CUE, 5: behind}
    assert cue_contacts(balls, _stroke(45.0)) == (5,)
    aside = (0.635 + R + HAND_RADIUS + 0.01, behind[1])
    assert cue_contacts({0: CUE, 5: aside}, _stroke(45.0)) == ()


def test_balls_ahead_and_aside_are_not_touched() -> None:
    # The ball to jump over, a ball frozen to the cue ball in front, and one off the line.
    balls = {0: CUE, 1: (0.635, 1.3), 2: (0.635, CUE[1] + 2 * R), 6: (0.9, 0.9)}
    for elevation in (0.0, 30.0, 60.0, 80.0):
        assert cue_contacts(balls, _stroke(elevation)) == ()


@pytest.mark.parametrize("side", [-0.4, 0.4])
def test_side_english_moves_the_stick_sideways(side: float) -> None:
    # A ball just beside the cue line behind the cue ball: the stick, shifted by the tip offset
    # toward it, touches it; shifted away, it does not.
    x = CUE[0] + (1.0 if side > 0 else -1.0) * (R + 0.008)
    balls = {0: CUE, 7: (x, 0.9)}
    touching = cue_contacts(balls, _stroke(0.0, side=side))
    away = cue_contacts(balls, _stroke(0.0, side=-side))
    assert touching == (7,)
    assert away == ()


def test_needs_the_cue_ball() -> None:
    with pytest.raises(KeyError):
        cue_contacts({1: CUE}, _stroke(0.0))
