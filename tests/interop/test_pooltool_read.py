"""Reading pooltool's own files (written by pooltool 0.6.0, data/README.md) without pooltool."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from nineball.equipment import PocketId
from nineball.interop import ball_speed, cue_speed, load_pooltool, read_pooltool

DATA = Path(__file__).parent / "data"


def raw(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def test_the_example_balls_stroke_and_parameters() -> None:
    (shot,) = load_pooltool(DATA / "example.json")
    assert [(b.id, b.r) for b in shot.balls] == [(0, (0.4953, 0.9906)), (1, (0.4953, 1.4859))]
    stroke = shot.stroke
    assert stroke is not None
    # pooltool's cue: V0 1.5 m/s, phi 94 deg, a = -0.3 (right english), b = -0.3 (draw)
    assert math.degrees(stroke.aim) == pytest.approx(94.0, abs=1e-12)
    assert (stroke.side, stroke.height, stroke.elevation) == (0.3, -0.3, 0.0)
    assert stroke.speed == pytest.approx(3.0 / (1 + 0.170097 / 0.567 + 2.5 * 0.18), rel=1e-12)
    params = shot.params
    assert params.mass == 0.170097
    assert params.radius == 0.028575
    assert params.spin_decel == pytest.approx(10.9, abs=1e-12)  # 5/2 u_sp_proportionality g
    assert params.cue_endmass == 0.0056699
    assert (params.e_ball, params.e_cushion, params.mu_cushion) == (0.95, 0.85, 0.2)
    assert shot.cue.mass == 0.567
    assert shot.outcome is None


def test_the_strike_gives_the_cue_ball_exactly_what_pooltool_gave_it() -> None:
    """The stroke read (speed, aim, side, height, squirt from the end mass) is pooltool's: the
    cue ball's velocity and spin right after the strike agree with pooltool's stick_ball event."""
    (shot,) = load_pooltool(DATA / "example_simulated.json")
    assert shot.stroke is not None
    v, w = shot.stroke.ball_velocities(shot.params)
    event = raw("example_simulated.json")["events"][1]
    assert event["event_type"] == "stick_ball"
    final = event["agents"][1]["final"]["state"]["rvw"]
    assert np.allclose(v, final[1], rtol=0, atol=1e-12)
    assert np.allclose(w, final[2], rtol=0, atol=1e-9)


def test_the_raised_cue_of_the_multisystem_maps_too() -> None:
    first, second = load_pooltool(DATA / "shots.msgpack")
    assert first.outcome is None
    assert second.outcome is not None
    assert first.stroke == second.stroke
    stroke = second.stroke
    assert stroke is not None
    assert math.degrees(stroke.elevation) == pytest.approx(5.0)
    assert (stroke.side, stroke.height) == (0.25, -0.3)
    assert any("raised 5 deg" in note for note in second.notes)
    v, w = stroke.ball_velocities(second.params)
    # pooltool 0.6.0's stick_ball state of this shot (MultiSystem.load, events[1])
    assert np.allclose(v, [0.8982939887373088, 2.8232042511802824, 0.0], atol=1e-12)
    assert np.allclose(w, [75.75788716237496, -19.642850441549083, 64.8003091839071], atol=1e-9)


def test_the_table_geometry_is_measured_from_the_segments() -> None:
    (shot,) = load_pooltool(DATA / "example.json")
    table = shot.table
    # pooltool's default table: 7 ft (1.9812 x 0.9906 m), 0.118 m corners, facings 135 + 5.3
    assert (table.length, table.width) == pytest.approx((1.9812, 0.9906), abs=1e-12)
    assert table.corner_mouth == pytest.approx(0.118, abs=1e-12)
    assert math.degrees(table.corner_facing) == pytest.approx(140.3, abs=1e-9)
    assert table.jaw_radius == pytest.approx(0.02095, abs=1e-12)
    assert table.nose_height == pytest.approx(0.036576, abs=1e-12)
    assert table.corner_shelf == pytest.approx(0.0387, abs=1e-4)
    assert table.side_shelf == pytest.approx(0.0040, abs=1e-4)
    assert table.side_jaw_radius == pytest.approx(0.00795, abs=1e-12)
    assert shot.notes == ()  # pooltool's pocket table maps exactly onto a TableSpec
    (rack,) = load_pooltool(DATA / "nineball_break.json")
    assert (rack.table.length, rack.table.width) == pytest.approx((2.54, 1.27), abs=1e-12)


def test_json_and_msgpack_of_one_system_read_the_same() -> None:
    (from_json,) = load_pooltool(DATA / "example_simulated.json")
    (from_msgpack,) = load_pooltool(DATA / "example_simulated.msgpack")
    assert from_json == from_msgpack


def test_a_simulated_file_starts_from_the_first_state_of_the_history() -> None:
    (before,) = load_pooltool(DATA / "example.json")
    (after,) = load_pooltool(DATA / "example_simulated.json")
    assert after.balls == before.balls
    (rack,) = load_pooltool(DATA / "nineball_break.json")
    (broken,) = load_pooltool(DATA / "nineball_break_simulated.msgpack")
    assert broken.balls == rack.balls
    assert sorted(b.id for b in rack.balls) == list(range(10))


def test_pooltools_own_outcome_is_read_from_its_events() -> None:
    (shot,) = load_pooltool(DATA / "example_simulated.json")
    outcome = shot.outcome
    assert outcome is not None
    assert outcome.first_contact == 1
    assert outcome.pocketed == ((0, PocketId.FOOT_LEFT), (1, PocketId.FOOT_RIGHT))
    assert outcome.rails == (0, 1)
    assert outcome.final == ((0, None), (1, None))
    assert outcome.events == 14
    # ... and nineball's engine, on the table and parameters read, sees the same shot
    facts = shot.simulate().facts()
    assert (facts.first_contact, facts.pocketed, facts.rails) == (1, (0, 1), (0, 1))
    (broken,) = load_pooltool(DATA / "nineball_break_simulated.msgpack")
    assert broken.outcome is not None
    assert broken.outcome.first_contact == 1
    assert broken.outcome.events == 80
    assert len(broken.outcome.final) == 10


def test_bytes_read_as_the_file_does() -> None:
    data = (DATA / "shots.msgpack").read_bytes()
    assert read_pooltool(data, "msgpack") == load_pooltool(DATA / "shots.msgpack")


@pytest.mark.parametrize("theta", [0.0, 5.0, 30.0])
def test_v0_and_the_ball_speed_are_inverse(theta: float) -> None:
    for a, b in ((0.0, 0.0), (-0.3, 0.2), (0.45, -0.45)):
        speed = ball_speed(2.5, a=a, b=b, theta_deg=theta, ball_mass=0.17, cue_mass=0.567)
        back = cue_speed(speed, a=a, b=b, theta_deg=theta, ball_mass=0.17, cue_mass=0.567)
        assert back == pytest.approx(2.5, rel=1e-14)
    # a centre-ball stroke of a 0.567 kg cue on a 0.170097 kg ball: 2 / (1 + 0.3) of V0
    assert ball_speed(1.0, a=0, b=0, theta_deg=0, ball_mass=0.170097, cue_mass=0.567) == (
        pytest.approx(2 / (1 + 0.170097 / 0.567))
    )
