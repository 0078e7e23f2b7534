"""Well-known phenomena of pool physics, measured the same way as the public checks.

Expected values come from the sources, not from the engine: Dr. Dave's 30-degree rule (a rolling
cue ball deflects 27-34 deg for cuts of about 1/4 to 3/4 ball), TP A.14 (cut-induced throw of a
slow stun shot peaks near a half-ball hit at about 4-5 deg, falls with speed, is smaller for a
rolling cue ball and vanishes with "gearing" outside english), running/reverse english off a rail,
follow bending the path forward off a rail, squirt and swerve with an elevated cue.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from nineball.physics import (
    BallInput,
    EventKind,
    MotionState,
    PhysicsParams,
    Stroke,
    Trajectory,
    simulate,
)

R = 0.028575
W, L = 1.270, 2.540


def cut_shot(cut_deg: float, v: float, spin: str = "stun", wz: float = 0.0) -> Trajectory:
    """Object ball at the centre spot, cue ball 1 mm before contact, moving +y."""
    ob = np.array([0.635, 1.27])
    phi = math.radians(cut_deg)
    cb = ob - 2 * R * np.array([math.sin(phi), math.cos(phi)]) - np.array([0.0, 0.001])
    w = {"stun": (0.0, 0.0, wz), "roll": (-v / R, 0.0, wz), "draw": (v / R, 0.0, wz)}[spin]
    balls = [BallInput(id=0, r=(cb[0], cb[1]), v=(0.0, v), w=w), BallInput(id=1, r=(ob[0], ob[1]))]
    return simulate(balls, params=PhysicsParams())


def throw_deg(tr: Trajectory) -> float:
    """Angle of the object ball's departure from the line of centres (positive = thrown)."""
    e = next(e for e in tr.events() if e.kind is EventKind.BALL_BALL)
    n = np.subtract(e.states[1].r[:2], e.states[0].r[:2])
    n /= np.linalg.norm(n)
    vo = np.asarray(e.states[1].v[:2])
    return math.degrees(math.atan2(n[0] * vo[1] - n[1] * vo[0], float(n @ vo)))


def cue_deflection_deg(tr: Trajectory) -> float:
    """Angle between the cue ball's final rolling direction and its original +y path."""
    hit = next(e for e in tr.events() if e.kind is EventKind.BALL_BALL)
    roll = next(
        e
        for e in tr.events()
        if e.time > hit.time and e.balls == (0,) and e.kind is EventKind.SLIDE_ROLL
    )
    v = roll.states[0].v
    return abs(math.degrees(math.atan2(v[0], v[1])))


@pytest.mark.parametrize("cut", [15.0, 30.0, 45.0])
def test_thirty_degree_rule(cut: float) -> None:
    assert 27.0 <= cue_deflection_deg(cut_shot(cut, 1.0, "roll")) <= 35.0


def test_stun_follows_tangent_and_draw_goes_beyond() -> None:
    roll = cue_deflection_deg(cut_shot(30.0, 1.0, "roll"))
    stun = cue_deflection_deg(cut_shot(30.0, 1.0, "stun"))
    draw = cue_deflection_deg(cut_shot(30.0, 1.0, "draw"))
    assert roll < stun < draw
    assert 50.0 <= stun <= 62.0  # near the 60 deg tangent line, bent slightly forward
    assert draw > 90.0


def test_straight_draw_comes_back_and_follow_goes_through() -> None:
    def final_y(spin: str) -> float:
        tr = cut_shot(0.0, 1.5, spin)
        hit = next(e for e in tr.events() if e.kind is EventKind.BALL_BALL)
        stop = next(
            e
            for e in tr.events()
            if e.time > hit.time and e.balls == (0,) and e.kind is EventKind.ROLL_STOP
        )
        return stop.states[0].r[1] - hit.states[0].r[1]

    assert final_y("draw") < -0.2  # draws back a good distance
    assert final_y("roll") > 0.2  # follows through
    assert abs(final_y("stun")) < 0.02  # stops


def test_cut_induced_throw_magnitude_and_trends() -> None:
    slow = throw_deg(cut_shot(30.0, 0.5))
    mid = throw_deg(cut_shot(30.0, 1.341))
    fast = throw_deg(cut_shot(30.0, 4.0))
    assert 3.5 <= slow <= 6.0  # TP A.14: about 4-5 deg for a slow half-ball stun hit
    assert slow > mid > fast > 0.5
    rolling = throw_deg(cut_shot(30.0, 1.341, "roll"))
    assert 0.0 < rolling < 0.5 * mid  # follow reduces throw
    by_cut = [throw_deg(cut_shot(c, 1.0)) for c in (10.0, 30.0, 60.0)]
    assert by_cut[1] > by_cut[0]
    assert by_cut[1] > by_cut[2]


def test_gearing_outside_english_cancels_throw_and_more_reverses_it() -> None:
    v, phi = 1.0, math.radians(30.0)
    gearing = -v * math.sin(phi) / R
    assert abs(throw_deg(cut_shot(30.0, v, wz=gearing))) < 0.1
    assert throw_deg(cut_shot(30.0, v, wz=2.3 * gearing)) < -2.0
    assert throw_deg(cut_shot(30.0, v, wz=-gearing)) > 0.0


def test_spin_induced_throw_on_a_straight_shot() -> None:
    right = throw_deg(cut_shot(0.0, 1.0, wz=20.0))
    left = throw_deg(cut_shot(0.0, 1.0, wz=-20.0))
    assert right == pytest.approx(-left, abs=1e-9)
    assert 1.0 <= abs(right) <= 6.0


def bank(wz: float, *, roll: bool, speed: float = 1.5) -> tuple[float, float]:
    """A ball at 45 deg into the right cushion: rebound angle right after and once rolling."""
    a = math.radians(45.0)
    d = np.array([math.cos(a), math.sin(a)])
    r = np.array([W - R, 0.7]) - d * 0.002 / d[0]
    v = speed * d
    w = (-v[1] / R, v[0] / R, wz) if roll else (0.0, 0.0, wz)
    tr = simulate([BallInput(id=0, r=(r[0], r[1]), v=(v[0], v[1]), w=w)])
    ev = tr.events()
    c = next(i for i, e in enumerate(ev) if e.kind is EventKind.CUSHION)
    out = ev[c].states[0].v
    after = next(e for e in ev[c + 1 :] if e.kind is EventKind.SLIDE_ROLL).states[0].v
    return (
        math.degrees(math.atan2(out[1], -out[0])),
        math.degrees(math.atan2(after[1], -after[0])),
    )


@pytest.mark.parametrize("roll", [False, True], ids=["stun", "rolling"])
def test_running_english_widens_and_reverse_narrows_the_rebound(roll: bool) -> None:
    running, plain, reverse = (bank(wz, roll=roll)[0] for wz in (-40.0, 0.0, 40.0))
    assert running > plain + 3.0
    assert reverse < plain - 1.0


def test_english_changes_the_stun_bank_path() -> None:
    running, plain, reverse = (bank(wz, roll=False)[1] for wz in (-40.0, 0.0, 40.0))
    assert running > plain > reverse


def test_follow_bends_the_path_forward_off_a_rail() -> None:
    stun = bank(0.0, roll=False)[1]
    follow = bank(0.0, roll=True)[1]
    assert follow > stun + 10.0


def test_squirt_and_swerve() -> None:
    def directions(elev_deg: float, side: float) -> tuple[float, float]:
        tr = simulate(
            [BallInput(id=0, r=(0.635, 0.4))],
            stroke=Stroke(speed=2.0, aim=math.pi / 2, elevation=math.radians(elev_deg), side=side),
        )
        ev = tr.events()
        v0 = ev[0].states[0].v
        # where the ball starts to roll: a slide_roll, or a landing (a 30 deg cue hops the ball)
        v1 = next(e for e in ev if e.states[0].motion is MotionState.ROLLING).states[0].v
        return math.degrees(math.atan2(v0[1], v0[0])), math.degrees(math.atan2(v1[1], v1[0]))

    # level cue: right english squirts the ball left (1-4 deg at 0.4 R) and it does not swerve
    start, end = directions(0.0, 0.4)
    assert 1.0 <= start - 90.0 <= 4.0
    assert end == pytest.approx(start, abs=1e-9)
    # elevated cue: the ball swerves back to the right; more elevation, more swerve
    s10, e10 = directions(10.0, 0.4)
    s30, e30 = directions(30.0, 0.4)
    assert e10 < s10
    assert e30 < e10
    # symmetric for left english
    sl, el = directions(30.0, -0.4)
    assert sl - 90.0 == pytest.approx(90.0 - s30, abs=1e-9)
    assert el - 90.0 == pytest.approx(90.0 - e30, abs=1e-9)
    # centre-ball elevated hit: no swerve
    sc, ec = directions(30.0, 0.0)
    assert sc == pytest.approx(90.0)
    assert ec == pytest.approx(90.0)


def test_follow_and_draw_from_the_stroke() -> None:
    params = PhysicsParams()
    v, w = Stroke(speed=2.0, aim=math.pi / 2, height=0.4).ball_velocities(params)
    assert w[0] == pytest.approx(-v[1] / R)  # 2/5 R above centre: natural roll
    v, w = Stroke(speed=2.0, aim=math.pi / 2, height=-0.4).ball_velocities(params)
    assert w[0] == pytest.approx(v[1] / R)  # draw
    with pytest.raises(ValueError, match="miscue"):
        Stroke(speed=2.0, side=0.4, height=0.4).ball_velocities(params)


def table_lengths(speed: float) -> float:
    """Distance a centre-ball stroke from the head spot, straight up the long string, travels.

    In table lengths (L, nose to nose), up and down the table until the ball stops.
    """
    tr = simulate([BallInput(id=0, r=(0.635, 0.635))], stroke=Stroke(speed=speed, aim=math.pi / 2))
    ys = [0.635] + [e.states[0].r[1] for e in tr.events()[1:]] + [tr.final_states()[0].r[1]]
    assert all(abs(e.states[0].r[0] - 0.635) < 1e-9 for e in tr.events())
    return sum(abs(b - a) for a, b in itertools.pairwise(ys)) / L


def test_table_speed_wpa_four_to_four_and_a_half_lengths() -> None:
    """WPA table-speed test: a firm stroke from the head spot travels 4 to 4.5 table lengths.

    The WPA does not give the stroke speed. With the engine's cloth and Han cushion, a medium
    stroke (3 m/s) travels a little over 2 lengths, and 4 to 4.5 lengths take a hard stroke of
    6.5 to 7.5 m/s (below break speed): each head-on rail keeps about 0.55 of a rolling ball's
    speed once it rolls again (the cushion's friction removes the topspin, then the cloth turns
    the sliding ball into a roll), as in Mathavan 2010's model (0.58-0.62; docs/physics.md).
    """
    speeds = [1.5, 3.0, 5.0, 6.5, 7.0, 7.5, 9.0]
    lengths = [table_lengths(v) for v in speeds]
    assert lengths == sorted(lengths)
    assert 2.0 < lengths[1] < 2.6
    in_range = [v for v, d in zip(speeds, lengths, strict=True) if 4.0 <= d <= 4.5]
    assert in_range == [6.5, 7.0, 7.5]


def test_rolling_ball_keeps_about_half_its_speed_off_a_head_on_rail() -> None:
    v = 1.0
    tr = simulate([BallInput(id=0, r=(0.635, L - R - 0.001), v=(0.0, v), w=(-v / R, 0.0, 0.0))])
    ev = tr.events()
    c = next(i for i, e in enumerate(ev) if e.kind is EventKind.CUSHION)
    out = ev[c].states[0]  # 1 mm of rolling before the rail: the impact speed is v
    rolled = next(e for e in ev[c + 1 :] if e.kind is EventKind.SLIDE_ROLL).states[0]
    # rail COR 0.81 (Han), and the topspin left opposes the new direction of travel
    assert -out.v[1] == pytest.approx(0.81 * v, abs=0.01)
    assert out.w[0] < 0.0
    # once rolling again: between Han's 0.55 and Mathavan's 0.58-0.62 of the incoming speed
    assert 0.5 <= -rolled.v[1] / v <= 0.65


@pytest.mark.parametrize("speed", [1.0, 2.0])
def test_rolling_ball_english_off_a_rail_at_other_speeds(speed: float) -> None:
    """A rolling ball at 45 deg, slower and faster than the 1.5 m/s case above.

    Running english widens and reverse english narrows the rebound right after the rail.
    (Once the ball rolls again, follow dominates the path; see docs/physics.md.)
    """
    running, plain, reverse = (bank(wz, roll=True, speed=speed)[0] for wz in (-40.0, 0.0, 40.0))
    assert running > plain + 3.0
    assert reverse < plain - 1.0
