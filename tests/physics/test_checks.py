"""The physics acceptance checks (docs/physics.md, "Acceptance checks"), one test per check."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from physics_helpers import (
    G,
    R,
    angle_deg,
    assert_energy_never_increases,
    assert_momentum_conserved,
    assert_no_overlap,
    ball_ball_events,
    sim,
)

from nineball.equipment import BallId, PocketId
from nineball.physics import EventKind, MotionState, PhysicsParams, diamond_rack, nine_foot

P = PhysicsParams()
IDEAL = replace(P, e_ball=1.0, ball_friction=0.0)
L, W = 2.540, 1.270


# ---------------------------------------------------------------- scenarios (reused by check 15)
def check3() -> list[dict[str, object]]:
    return [{"id": 0, "r": (0.635, 0.30), "v": (0.0, 2.0)}]


def check4() -> list[dict[str, object]]:
    return [{"id": 0, "r": (0.635, 0.30), "v": (0.0, 0.4), "w": (-14.0, 0.0, 0.0)}]


def check5() -> list[dict[str, object]]:
    return [{"id": 0, "r": (0.635, 1.270), "w": (0.0, 0.0, 20.0)}]


def check7() -> list[dict[str, object]]:
    return [{"id": 0, "r": (0.635, 1.84685), "v": (0.0, 2.0)}, {"id": 1, "r": (0.635, 1.905)}]


def check8() -> list[dict[str, object]]:
    return [
        {"id": 0, "r": (0.635, 1.854507), "v": (0.0, 1.341)},
        {"id": 1, "r": (0.663575, 1.905)},
    ]


def check11() -> list[dict[str, object]]:
    return [
        {"id": 0, "r": (0.635, 1.228588), "v": (0.0, 1.341)},
        {"id": 1, "r": (0.675412, 1.270)},
    ]


def check12() -> list[dict[str, object]]:
    return [
        {"id": 0, "r": (0.635, 0.80), "v": (0.0, 1.0), "w": (-35.0, 0.0, 0.0)},
        {"id": 1, "r": (0.635, 1.270)},
    ]


def check16(v: float) -> list[dict[str, object]]:
    return [{"id": 0, "r": (0.635, 2.510425), "v": (0.0, v), "w": (-35.0 * v, 0.0, 0.0)}]


def check22a() -> list[dict[str, object]]:
    return [
        {"id": 0, "r": (0.635, 1.270 - R), "v": (0.0, -0.5)},
        {"id": 1, "r": (0.635, 1.270 + R), "v": (0.0, 0.5)},
    ]


def check22d() -> list[dict[str, object]]:
    return [
        {"id": 0, "r": (0.635, 0.50), "v": (0.0, 1.0), "w": (-35.0, 0.0, 0.0)},
        {"id": 1, "r": (0.635, 1.50)},
    ]


def check23() -> list[dict[str, object]]:
    return [
        {"id": 0, "r": (0.635, 1.84685), "v": (0.0, 2.0)},
        {"id": 1, "r": (0.635, 1.905)},
        {"id": 2, "r": (0.635, 1.96215)},
    ]


# ---------------------------------------------------------------- 1
def test_check01_wpa_geometry_and_rack() -> None:
    t = nine_foot()
    assert abs(t.length - 2.540) <= 0.0032
    assert abs(t.width - 1.270) <= 0.0032
    assert abs(2 * P.radius - 0.05715) <= 0.000127
    assert 0.156 <= P.mass <= 0.170
    for pocket in PocketId:
        mouth = t.mouth(pocket)
        if pocket in (PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT):
            assert 0.1270 <= mouth <= 0.1302
        else:
            assert 0.1143 <= mouth <= 0.1175
    assert 35.72e-3 <= t.nose_height <= 36.86e-3
    # facing angles: between the nose (pointing away from the pocket) and the facing
    names = t.segment_names
    for k, name in enumerate(names):
        if "_facing_" not in name:
            continue
        x1, y1, x2, y2 = t.segments[k, :4]
        f = np.array([x2 - x1, y2 - y1]) / math.hypot(x2 - x1, y2 - y1)
        pocket = PocketId(name.split("_facing_")[0])
        tag = name[-1]
        p = t.points[list(PocketId).index(pocket), 0 if tag == "a" else 1]
        # the nose's direction away from the pocket, from the point
        away = p - np.array(t.pocket_centre(pocket))
        a = away / np.linalg.norm(away)
        ang = math.degrees(math.acos(float(a @ f)))
        expected = 104.0 if "side" in name else 142.0
        assert abs(ang - expected) <= 1.0, (name, ang)
    assert abs(t.head_string - 0.635) <= 1e-3
    assert math.dist(t.foot_spot, (0.635, 1.905)) <= 1e-3
    order = [1, 2, 3, 4, 9, 5, 6, 7, 8]
    rack = diamond_rack(order, np.random.default_rng(7))
    assert rack[BallId.ONE] == pytest.approx((0.635, 1.905), abs=1e-12)
    assert math.dist(rack[BallId.NINE], (0.635, 2.0040)) <= 1e-3
    pts = list(rack.values())
    adjacent = 0
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            d = math.dist(pts[i], pts[j])
            assert d >= 2 * R
            if d < 3 * R:
                adjacent += 1
                assert d - 2 * R <= 1e-4
    assert adjacent == 16


# ---------------------------------------------------------------- 2
def test_check02_parameter_ranges() -> None:
    assert 0.15 <= P.mu_slide <= 0.4
    assert 0.005 <= P.mu_roll <= 0.015
    assert 5 <= P.spin_decel <= 15
    assert 0.92 <= P.e_ball <= 0.98
    assert P.ball_friction == "default"
    assert P.ball_friction_coefficients() == (0.00995, 0.108, 1.088)
    for slip in (0.5, 1.0, 1.5):  # typical slip speeds: inside [0.03, 0.08]
        assert 0.03 <= P.ball_friction_at(slip) <= 0.08
    for v in (1.0, 2.5):  # effective rail COR (check 16)
        tr = sim(check16(v))
        e = next(e for e in tr.events() if e.kind is EventKind.CUSHION)
        cor = -e.states[0].v[1] / tr.states_at([e.time - 1e-9])[0, 0, 1, 1]
        assert 0.6 <= cor <= 0.9


# ---------------------------------------------------------------- 3
def test_check03_stun_slide_to_roll() -> None:
    tr = sim(check3())
    events = tr.events()
    first = events[0]
    assert first.kind is EventKind.SLIDE_ROLL
    assert [e.kind for e in events].count(EventKind.SLIDE_ROLL) >= 1
    v, mu = 2.0, P.mu_slide
    t = 2 * v / (7 * mu * G)
    y = 0.30 + 12 * v * v / (49 * mu * G)
    assert first.time == pytest.approx(t, rel=1e-3)
    assert first.time == pytest.approx(0.2912, abs=1e-4)
    s = first.states[0]
    assert s.r[1] == pytest.approx(y, abs=1e-4)
    assert s.r[1] == pytest.approx(0.7993, abs=1e-4)
    assert s.v[1] == pytest.approx(5 / 7 * v, rel=1e-3)
    assert s.w[0] == pytest.approx(-49.99, rel=1e-3)
    assert s.w[1] == 0.0
    assert s.w[2] == 0.0
    assert s.r[0] == 0.635
    assert s.motion is MotionState.ROLLING


# ---------------------------------------------------------------- 4
def test_check04_rolling_resistance() -> None:
    tr = sim(check4())
    stop = next(e for e in tr.events() if e.kind is EventKind.ROLL_STOP)
    v, mu = 0.4, P.mu_roll
    assert next(e.kind for e in tr.events()) is EventKind.ROLL_STOP
    assert stop.time == pytest.approx(v / (mu * G), rel=1e-3)
    assert stop.time == pytest.approx(4.077, rel=1e-3)
    assert stop.states[0].r[1] == pytest.approx(0.30 + v * v / (2 * mu * G), rel=1e-3)
    assert stop.states[0].r[1] == pytest.approx(1.1155, rel=1e-3)
    assert stop.states[0].r[0] == 0.635
    xs = tr.positions_at(np.linspace(0, stop.time, 20))[:, 0, 0]
    assert np.all(xs == 0.635)
    assert 0.54 <= stop.states[0].r[1] - 0.30 <= 1.63


# ---------------------------------------------------------------- 5
def test_check05_z_spin_decay() -> None:
    tr = sim(check5())
    events = tr.events()
    assert [e.kind for e in events] == [EventKind.SPIN_STOP]
    t_end = events[0].time
    assert t_end == pytest.approx(20 / P.spin_decel, rel=1e-12)
    assert 1.33 <= t_end <= 4.0
    ts = np.linspace(0, t_end * 1.2, 101)
    states = tr.states_at(ts)
    assert np.max(np.abs(states[:, 0, 0, :2] - np.array([0.635, 1.270]))) < 1e-9
    wz = states[:, 0, 2, 2]
    assert np.all(wz >= 0.0)
    assert np.all(np.diff(wz) <= 0.0)
    assert tr.states_at([t_end / 2])[0, 0, 2, 2] == pytest.approx(10.0, abs=0.05)
    assert tr.final_states()[0].motion is MotionState.STATIONARY
    assert tr.final_states()[0].w == (0.0, 0.0, 0.0)


# ---------------------------------------------------------------- 7
@pytest.mark.parametrize("params", [P, replace(P, e_ball=1.0)], ids=["default", "e1"])
def test_check07_stop_shot(params: PhysicsParams) -> None:
    tr = sim(check7(), params=params)
    hit = ball_ball_events(tr)[0]
    v_in = tr.states_at([hit.time - 1e-12])[0, 0, 1, 1]
    e = params.e_ball
    cb, ob = hit.states
    assert ob.v[1] == pytest.approx((1 + e) / 2 * v_in, rel=5e-3)
    assert abs(ob.v[0]) < 1e-6
    assert cb.v[1] == pytest.approx((1 - e) / 2 * v_in, abs=1e-3)
    # the first stop of the cue ball (the object ball may come back off the foot cushion later)
    stop = next(e for e in tr.events() if e.balls == (0,) and e.kind is EventKind.ROLL_STOP)
    rest = stop.states[0].r
    assert math.dist(rest[:2], cb.r[:2]) <= 0.02
    if e == 1.0:
        assert math.dist(rest[:2], cb.r[:2]) <= 1e-3


# ---------------------------------------------------------------- 8
def test_check08_ninety_degree_rule() -> None:
    for params, lo, hi in ((IDEAL, 89.95, 90.05), (P, 82.0, 90.0)):
        tr = sim(check8(), params=params)
        hit = ball_ball_events(tr)[0]
        ang = angle_deg(hit.states[0].v, hit.states[1].v)
        assert lo <= ang <= hi, ang
        if params is P:
            assert ang == pytest.approx(83.7, abs=0.3)
        # both balls then travel in (nearly) straight lines until their next event
        for slot in (0, 1):
            ball = hit.balls[slot]
            b = tr.ball_ids.index(ball)
            nxt = next(e for e in tr.events() if e.time > hit.time and ball in e.balls)
            ts = np.linspace(hit.time, nxt.time, 30)
            pos = tr.positions_at(ts)[:, b, :2]
            chord = pos[-1] - pos[0]
            normal = np.array([-chord[1], chord[0]]) / np.linalg.norm(chord)
            assert np.max(np.abs((pos - pos[0]) @ normal)) < 1e-3


# ---------------------------------------------------------------- 11
def test_check11_45_degree_stun() -> None:
    tr = sim(check11())
    hit = ball_ball_events(tr)[0]
    v = 1.341
    cb = math.hypot(*hit.states[0].v[:2])
    ob = math.hypot(*hit.states[1].v[:2])
    assert ob == pytest.approx(0.70 * v, abs=0.03 * v)
    assert cb == pytest.approx(0.68 * v, abs=0.04 * v)
    assert 0.85 <= (ob / cb) ** 2 <= 1.2


# ---------------------------------------------------------------- 12
def test_check12_rolling_follow_through() -> None:
    tr = sim(check12())
    hit = ball_ball_events(tr)[0]
    v_i = tr.states_at([hit.time - 1e-12])[0, 0, 1, 1]
    assert v_i == pytest.approx(0.959, abs=2e-3)
    assert abs(hit.states[0].v[1]) <= 0.05 * v_i
    rolls = [e for e in tr.events() if e.kind is EventKind.SLIDE_ROLL and e.time > hit.time]
    cb_roll = next(e for e in rolls if e.balls == (0,))
    ob_roll = next(e for e in rolls if e.balls == (1,))
    cb_v = cb_roll.states[0].v[1]
    ob_v = ob_roll.states[0].v[1]
    assert 0.24 * v_i <= cb_v <= 0.31 * v_i
    assert abs(ob_roll.states[0].v[0]) < 1e-12
    assert 2.1 <= ob_v / cb_v <= 3.0


# ---------------------------------------------------------------- 15
SCENARIOS = {
    "3": (check3(), P),
    "4": (check4(), P),
    "5": (check5(), P),
    "7": (check7(), P),
    "8": (check8(), P),
    "8-ideal": (check8(), IDEAL),
    "11": (check11(), P),
    "12": (check12(), P),
    "16a": (check16(1.0), P),
    "16b": (check16(2.5), P),
    "22a": (check22a(), P),
    "22d": (check22d(), P),
    "23": (check23(), P),
    "23-ideal": (check23(), IDEAL),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_check15_energy_and_momentum(name: str) -> None:
    balls, params = SCENARIOS[name]
    tr = sim(balls, params=params)
    assert_energy_never_increases(tr)
    assert_momentum_conserved(tr, elastic=params is IDEAL)
    assert_no_overlap(tr)


# ---------------------------------------------------------------- 16
@pytest.mark.parametrize("v", [1.0, 2.5])
def test_check16_cushion_perpendicular(v: float) -> None:
    tr = sim(check16(v))
    hit = next(e for e in tr.events() if e.kind is EventKind.CUSHION)
    assert hit.cushion == "foot"
    v_in = tr.states_at([hit.time - 1e-12])[0, 0, 1, 1]
    ratio = -hit.states[0].v[1] / v_in
    assert 0.55 <= ratio <= 0.95
    assert abs(hit.states[0].v[0]) <= 1e-9
    ts = np.linspace(0, tr.duration, 2000)
    assert np.max(tr.positions_at(ts)[:, 0, 1]) <= L - R + 1e-6
    assert hit.states[0].r[1] <= L - R + 1e-6
    allowed = {m.wire_name for m in MotionState}
    assert all(s.motion.wire_name in allowed for e in tr.events() for s in e.states)
    assert all(s.motion.wire_name != "airborne" for e in tr.events() for s in e.states)


# ---------------------------------------------------------------- 22
def test_check22a_touching_moving_apart_no_event() -> None:
    tr = sim(check22a())
    assert ball_ball_events(tr) == []


def test_check22b_touching_at_rest_no_event() -> None:
    tr = sim([{"id": 0, "r": (0.635, 1.270 - R)}, {"id": 1, "r": (0.635, 1.270 + R)}])
    assert tr.events() == ()


def test_check22c_no_repeat_collision_unless_approaching() -> None:
    for balls in (check23(), check7(), check12()):
        tr = sim(balls)
        last: dict[tuple[int, ...], float] = {}
        for e in ball_ball_events(tr):
            if e.balls in last and e.time - last[e.balls] < 1e-6:
                a, b = e.states
                n = np.subtract(b.r[:2], a.r[:2])
                # approaching before the impact: the impulse pushed them apart along n
                assert np.dot(np.subtract(b.v[:2], a.v[:2]), n) > 0
            last[e.balls] = e.time


def test_check22d_collision_time() -> None:
    tr = sim(check22d())
    hit = ball_ball_events(tr)[0]
    v, mu, s = 1.0, P.mu_roll, 1.0 - 2 * R
    expected = (v - math.sqrt(v * v - 2 * mu * G * s)) / (mu * G)
    assert expected == pytest.approx(0.991023, abs=1e-6)
    assert abs(hit.time - expected) <= 1e-9


# ---------------------------------------------------------------- 23
def test_check23_frozen_line() -> None:
    tr = sim(check23())
    events = tr.events()
    assert len(events) < 100
    first = ball_ball_events(tr)[0]
    t = first.time
    at = tr.states_at([t])[0]
    v = 2.0
    assert at[2, 1, 1] >= 0.90 * v
    assert abs(at[2, 1, 0]) < 1e-9
    assert math.hypot(*at[0, 1, :2]) <= 0.06 * v
    assert math.hypot(*at[1, 1, :2]) <= 0.06 * v
    assert_no_overlap(tr)
    same_time = sum(1 for e in events if e.time == t)
    assert same_time < 10
