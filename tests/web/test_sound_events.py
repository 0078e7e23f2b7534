"""The trajectory JSON carries what the page's sounds need: each event's time, kind and speed."""

from __future__ import annotations

import math

import pytest

from nineball.physics import BallInput, Stroke, simulate
from nineball.web.segments import ball_pieces, trajectory_json


def _speed_before(pieces, t: float) -> float:
    """The ball's speed just before ``t``, from the page's pieces (finite difference)."""
    piece = next(p for p in pieces if p.t0 < t <= p.t1)
    dt = t - piece.t0
    return math.hypot(piece.vx + piece.ax * dt, piece.vy + piece.ay * dt)


def test_a_full_ball_hit_sounds_at_the_cue_balls_speed() -> None:
    # Cue ball straight up the table into a ball at rest: the relative normal speed is the cue
    # ball's speed at contact.
    balls = [BallInput(id=0, r=(0.635, 0.6)), BallInput(id=1, r=(0.635, 1.4))]
    trajectory = simulate(balls, stroke=Stroke(speed=3.0, aim=math.pi / 2))
    data = trajectory_json(trajectory)
    events = data["events"]
    assert events[0] == {"t": 0.0, "kind": "stroke", "balls": [0], "speed": pytest.approx(3.0)}
    hit = next(e for e in events if e["kind"] == "ball_ball")
    assert hit["balls"] == [0, 1]
    expected = _speed_before(ball_pieces(trajectory, 0), hit["t"])
    assert hit["speed"] == pytest.approx(expected, rel=1e-6)
    assert 1.5 < hit["speed"] < 3.0
    # the object ball then meets the foot cushion head-on: its speed into the cushion
    rail = next(e for e in events if e["kind"] == "cushion" and e["balls"] == [1])
    into = _speed_before(ball_pieces(trajectory, 1), rail["t"])
    assert rail["speed"] == pytest.approx(into, rel=0.02)
    assert [e["t"] for e in events] == sorted(e["t"] for e in events)


def test_harder_strokes_make_louder_events_and_every_event_has_a_speed() -> None:
    def first_hit(speed: float) -> float:
        balls = [BallInput(id=0, r=(0.635, 0.6)), BallInput(id=1, r=(0.64, 1.4))]
        data = trajectory_json(simulate(balls, stroke=Stroke(speed=speed, aim=math.pi / 2)))
        for event in data["events"]:
            assert set(event) == {"t", "kind", "balls", "speed"}
            assert event["kind"] in {"stroke", "ball_ball", "cushion", "pocket"}
            assert event["speed"] >= 0.0
        return next(e["speed"] for e in data["events"] if e["kind"] == "ball_ball")

    assert first_hit(1.0) < first_hit(3.0) < first_hit(8.0)


def test_a_pocketed_ball_drops_with_its_speed() -> None:
    # A ball rolled into the corner pocket along the diagonal-ish path at the foot end.
    balls = [BallInput(id=0, r=(0.3, 2.2))]
    trajectory = simulate(balls, stroke=Stroke(speed=2.0, aim=math.atan2(2.54 - 2.2, -0.3)))
    data = trajectory_json(trajectory)
    drops = [e for e in data["events"] if e["kind"] == "pocket"]
    if not drops:
        pytest.skip("the ball missed the pocket on this table")
    assert drops[0]["speed"] > 0.1
    assert data["balls"]["0"]["pocketed_at"] == drops[0]["t"]
