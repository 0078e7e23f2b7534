"""The Python API: validation, presets, trajectories, kernels against plain numpy references."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from nineball.equipment import PocketId
from nineball.errors import InvalidInputError, InvalidPlacementError
from nineball.physics import (
    BallInput,
    EventKind,
    MotionState,
    PhysicsParams,
    PreparedBalls,
    Stroke,
    diamond_rack,
    eight_foot,
    nine_foot,
    seven_foot,
    simulate,
    strike_batch,
)
from nineball.physics._kernels.motion import evolve
from nineball.physics._kernels.roots import first_down_crossing
from nineball.physics.simulate import param_vector

R = 0.028575


def test_params_validation_names_the_bad_value() -> None:
    with pytest.raises(InvalidInputError, match="mu_sld"):
        PhysicsParams().with_overrides({"mu_sld": 0.2})
    with pytest.raises(InvalidInputError, match=r"'e_ball'.*1\.5"):
        PhysicsParams(e_ball=1.5)
    with pytest.raises(InvalidInputError, match="mu_roll"):
        PhysicsParams(mu_roll=-0.01)
    with pytest.raises(InvalidInputError, match="ball_friction"):
        PhysicsParams(ball_friction=-1.0)
    with pytest.raises(InvalidInputError, match="finite"):
        PhysicsParams(g=math.inf)
    p = PhysicsParams().with_overrides({"ball_friction": 0.05, "e_ball": 1.0})
    assert p.ball_friction_coefficients() == (0.05, 0.0, 0.0)
    assert "mu_slide" in PhysicsParams.names()


def test_simulate_validation() -> None:
    with pytest.raises(InvalidPlacementError, match=r"balls 0 and 1 overlap"):
        simulate([BallInput(id=0, r=(0.5, 0.5)), BallInput(id=1, r=(0.5, 0.55))])
    with pytest.raises(InvalidPlacementError, match="outside the playing surface"):
        simulate([BallInput(id=0, r=(0.01, 0.5))])
    with pytest.raises(InvalidInputError, match="listed twice"):
        simulate([BallInput(id=0, r=(0.5, 0.5)), BallInput(id=0, r=(0.8, 0.5))])
    with pytest.raises(InvalidInputError, match="id"):
        simulate([BallInput(id=10, r=(0.5, 0.5))])
    with pytest.raises(InvalidInputError, match="cue ball"):
        simulate([BallInput(id=3, r=(0.5, 0.5))], stroke=Stroke(speed=1.0))
    with pytest.raises(InvalidInputError, match="max_events"):
        simulate([BallInput(id=0, r=(0.5, 0.5))], max_events=0)
    with pytest.raises(InvalidInputError, match="elevation"):
        Stroke(speed=1.0, elevation=math.radians(85))
    with pytest.raises(InvalidInputError, match="speed"):
        Stroke(speed=-1.0)


def test_presets_and_pro_pockets() -> None:
    for table, length in ((seven_foot(), 1.9812), (eight_foot(), 2.2352), (nine_foot(), 2.54)):
        assert table.length == pytest.approx(length)
        assert table.width == pytest.approx(length / 2)
        tr = simulate(
            [BallInput(id=0, r=(table.width / 2, 0.3))],
            stroke=Stroke(speed=2.0, aim=math.pi / 2 + 0.3),
            table=table,
        )
        assert not tr.truncated
        final = tr.final_states()[0]
        if final.pocket is None:
            inside = R <= final.r[0] <= table.width - R and R <= final.r[1] <= table.length - R
            # or resting on a pocket's shelf, between the mouth and the capture line
            near = min(math.dist(final.r[:2], table.pocket_centre(p)) for p in PocketId)
            assert inside or near < 0.1
    assert nine_foot(pro_pockets=True).mouth(PocketId.HEAD_LEFT) < nine_foot().mouth(
        PocketId.HEAD_LEFT
    )


def test_trajectory_is_read_only_and_positions_match_events() -> None:
    balls = [BallInput(id=0, r=(0.635, 0.6)), BallInput(id=1, r=(0.7, 1.5))]
    tr = simulate(balls, stroke=Stroke(speed=3.0, aim=math.atan2(0.9, 0.065)))
    with pytest.raises(ValueError, match="read-only"):
        tr.final[0, 0, 0] = 1.0
    assert balls == [BallInput(id=0, r=(0.635, 0.6)), BallInput(id=1, r=(0.7, 1.5))]
    for e in tr.events():
        pos = tr.positions_at([e.time])[0]
        for ball, state in zip(e.balls, e.states, strict=True):
            assert pos[tr.ball_ids.index(ball)] == pytest.approx(state.r, abs=1e-12)
    # continuity: no jumps between dense samples
    ts = np.linspace(0.0, tr.duration, 4000)
    pos = tr.positions_at(ts)
    steps = np.linalg.norm(np.diff(pos, axis=0), axis=2)
    assert np.max(steps) < 0.01


def test_max_events_truncates() -> None:
    tr = simulate([BallInput(id=0, r=(0.635, 0.3), v=(0.0, 2.0))], max_events=2)
    assert tr.truncated
    assert len(tr.times) == 2


def test_final_state_motion_and_pocket() -> None:
    tr = simulate(
        [BallInput(id=0, r=(0.9, 2.2))], stroke=Stroke(speed=1.5, aim=math.atan2(0.34, 0.37))
    )
    final = tr.final_states()[0]
    assert final.motion is MotionState.POCKETED
    assert final.pocket is PocketId.FOOT_RIGHT
    assert [e.kind for e in tr.events()][-1] is EventKind.POCKET


def _integrate_sliding(rvw: np.ndarray, t_end: float, params: PhysicsParams) -> np.ndarray:
    """Plain numpy reference: explicit small-step integration of the sliding equations."""
    s = rvw.copy()
    n = 20000
    dt = t_end / n
    g, mu, radius = params.g, params.mu_slide, params.radius
    for _ in range(n):
        u = s[1, :2] + radius * np.array([-s[2, 1], s[2, 0]])
        un = np.linalg.norm(u)
        if un < 1e-12:
            break
        uh = u / un
        s[0, :2] += s[1, :2] * dt - 0.5 * mu * g * uh * dt * dt
        s[1, :2] -= mu * g * uh * dt
        s[2, 0] -= 2.5 * mu * g / radius * uh[1] * dt
        s[2, 1] += 2.5 * mu * g / radius * uh[0] * dt
    return s


def test_sliding_kernel_matches_numeric_integration() -> None:
    params = PhysicsParams()
    prm = param_vector(params, nine_foot())
    rvw = np.array([[0.5, 0.5, R], [1.0, 2.0, 0.0], [10.0, -30.0, 5.0]])
    t = 0.1  # before the slide ends
    exact = evolve(rvw, int(MotionState.SLIDING), t, prm)
    ref = _integrate_sliding(rvw, t, params)
    assert np.allclose(exact[:2, :2], ref[:2, :2], atol=1e-6)
    assert np.allclose(exact[2, :2], ref[2, :2], atol=1e-4)
    assert exact[2, 2] == pytest.approx(5.0 - params.spin_decel * t)


def test_root_finder_matches_numpy_roots() -> None:
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(300):
        c = rng.normal(size=5)
        c[4] = abs(c[4]) + 0.1  # p(0) > 0
        tmax = 3.0
        t = first_down_crossing(c[0], c[1], c[2], c[3], c[4], tmax, 0.0)
        roots = np.roots(c)
        real = sorted(r.real for r in roots if abs(r.imag) < 1e-9 and 0 < r.real <= tmax)
        downs = [r for r in real if np.polyval(c, r - 1e-7) > 0 > np.polyval(c, r + 1e-7)]
        if downs:
            assert t == pytest.approx(downs[0], abs=1e-9)
            checked += 1
        elif not real:
            assert t == math.inf
    assert checked > 50
    # degenerate leading coefficients: a cubic, a quadratic, a line, a constant
    assert first_down_crossing(0.0, 1.0, -3.0, 0.0, 1.0, 10.0, 0.0) == pytest.approx(
        min(r.real for r in np.roots([1.0, -3.0, 0.0, 1.0]) if r.real > 0 and abs(r.imag) < 1e-12)
    )
    assert first_down_crossing(0.0, 0.0, 1.0, -3.0, 2.0, 10.0, 0.0) == pytest.approx(1.0)
    assert first_down_crossing(0.0, 0.0, 0.0, -2.0, 1.0, 10.0, 0.0) == pytest.approx(0.5)
    assert first_down_crossing(0.0, 0.0, 0.0, 0.0, 1.0, 10.0, 0.0) == math.inf
    # a tangent graze (double root) is not a crossing
    assert first_down_crossing(0.0, 0.0, 1.0, -2.0, 1.0, 10.0, 1e-12) == math.inf


def test_params_dataclass_is_frozen() -> None:
    p = PhysicsParams()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.mu_slide = 0.3  # type: ignore[misc]


def test_input_order_does_not_matter() -> None:
    balls = [
        BallInput(id=5, r=(0.7, 1.5)),
        BallInput(id=0, r=(0.635, 0.6)),
        BallInput(id=2, r=(0.3, 1.9)),
    ]
    stroke = Stroke(speed=3.0, aim=math.atan2(0.9, 0.065))
    a = simulate(balls, stroke=stroke)
    b = simulate(list(reversed(balls)), stroke=stroke)
    assert a.ball_ids == (0, 2, 5)
    assert a.events() == b.events()
    hit = next(e for e in a.events() if e.kind is EventKind.BALL_BALL)
    assert hit.balls == (0, 5)


def test_centre_hit_gives_exactly_no_spin() -> None:
    params = PhysicsParams()
    for aim in (0.0, 0.3, math.pi / 2, 2.0, 4.5):
        v, w = Stroke(speed=2.5, aim=aim).ball_velocities(params)
        assert np.all(w == 0.0)
        assert math.hypot(v[0], v[1]) == pytest.approx(2.5)
        assert math.atan2(v[1], v[0]) % (2 * math.pi) == pytest.approx(aim)


def test_a_layout_strikes_exactly_as_simulate() -> None:
    rng = np.random.default_rng(11)
    rack = diamond_rack([1, 2, 3, 4, 9, 5, 6, 7, 8], rng)
    balls = [BallInput(id=int(b), r=p) for b, p in rack.items()] + [BallInput(id=0, r=(0.4, 0.5))]
    layout = PreparedBalls(balls)
    strokes = [Stroke(speed=8.0, aim=math.atan2(1.905 - 0.5, 0.635 - 0.4), height=-0.2)]
    strokes += [
        Stroke(
            speed=float(rng.uniform(0.5, 5.0)),
            aim=float(rng.uniform(-math.pi, math.pi)),
            side=float(rng.uniform(-0.3, 0.3)),
            height=float(rng.uniform(-0.3, 0.3)),
        )
        for _ in range(20)
    ]
    for stroke in strokes:
        a = layout.strike(stroke)
        b = simulate(balls, stroke=stroke)
        assert a.ball_ids == b.ball_ids
        for name in ("times", "kinds", "first", "second", "after", "final", "final_motion"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
    # The layout itself is never changed by a strike, and bad input is refused as by simulate.
    again = layout.strike(strokes[0])
    assert np.array_equal(again.final, simulate(balls, stroke=strokes[0]).final)
    with pytest.raises(InvalidInputError, match="cue ball"):
        PreparedBalls(balls[:-1]).strike(strokes[0])
    with pytest.raises(InvalidInputError, match="max_events"):
        layout.strike(strokes[0], max_events=0)
    with pytest.raises(InvalidPlacementError, match="overlap"):
        PreparedBalls([BallInput(id=1, r=(0.5, 0.5)), BallInput(id=2, r=(0.51, 0.5))])


def test_resting_balls_are_checked_with_their_first_strike() -> None:
    """``PreparedBalls.resting`` packs without a check; the first strike (or ``check``) makes
    it, in the same call, and refuses what ``PreparedBalls`` refuses, with the same message."""
    rng = np.random.default_rng(5)
    rack = diamond_rack([1, 2, 3, 4, 9, 5, 6, 7, 8], rng)
    points = sorted([(int(b), p) for b, p in rack.items()] + [(0, (0.4, 0.5))])
    balls = [BallInput(id=i, r=p) for i, p in points]
    stroke = Stroke(speed=8.0, aim=math.atan2(1.905 - 0.5, 0.635 - 0.4), height=-0.2)
    a = PreparedBalls.resting(points).strike(stroke)
    b = PreparedBalls(balls).strike(stroke)
    assert a.ball_ids == b.ball_ids
    for name in ("times", "kinds", "first", "second", "final", "final_motion"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    # ints and lists take the careful path, and pack the same
    loose = [(0, [1, 0.5]), *points[1:]]
    assert np.array_equal(
        PreparedBalls.resting(loose)._rvw,
        PreparedBalls([BallInput(id=i, r=tuple(p)) for i, p in loose])._rvw,
    )
    bad = [(1, (0.5, 0.5)), (2, (0.51, 0.5))]
    late = PreparedBalls.resting(bad)  # no check yet
    with pytest.raises(InvalidPlacementError) as refused:
        late.check()
    with pytest.raises(InvalidPlacementError) as early:
        PreparedBalls([BallInput(id=i, r=p) for i, p in bad])
    assert str(refused.value) == str(early.value)
    with_cue = [(0, (0.3, 0.3)), *bad]
    with pytest.raises(InvalidPlacementError, match="overlap"):
        PreparedBalls.resting(with_cue).strike(Stroke(speed=1.0, aim=0.0))
    nan = [(0, (0.3, 0.3)), (1, (float("nan"), 0.5))]
    with pytest.raises(InvalidInputError, match="ball 1 r must be 2 finite numbers"):
        PreparedBalls.resting(nan).strike(Stroke(speed=1.0, aim=0.0))
    with pytest.raises(InvalidInputError, match="listed twice"):
        PreparedBalls.resting([(1, (0.5, 0.5)), (1, (0.5, 0.9))])
    # a batch checks them too: the bad set's error is its own, the good one is struck
    good = PreparedBalls.resting(points)
    batch = strike_batch([good, PreparedBalls.resting(with_cue)], [stroke, stroke])
    assert batch.errors[0] is None
    assert isinstance(batch.errors[1], InvalidPlacementError)
    assert np.array_equal(batch.trajectory(0).final, b.final)
    assert not good._unchecked  # checked once: later strikes skip the checks


def test_first_collision_reads_what_the_events_say() -> None:
    """``Trajectory.first_collision`` gives the first ball-ball event of :meth:`events` that
    names the ball: the other ball and the ball's velocity after it, bit for bit."""
    rng = np.random.default_rng(8)
    rack = diamond_rack([1, 2, 3, 4, 9, 5, 6, 7, 8], rng)
    balls = [BallInput(id=0, r=(0.4, 0.5))] + [BallInput(id=int(b), r=p) for b, p in rack.items()]
    met = 0
    for _ in range(40):
        stroke = Stroke(
            speed=float(rng.uniform(0.5, 8.0)),
            aim=float(rng.uniform(0.9, 1.4)),
            side=float(rng.uniform(-0.3, 0.3)),
        )
        trajectory = simulate(balls, stroke=stroke)
        for ball in range(10):
            expected = None
            for event in trajectory.events():
                if event.kind is EventKind.BALL_BALL and ball in event.balls:
                    other = event.balls[1 - event.balls.index(ball)]
                    v = event.states[event.balls.index(ball)].v
                    expected = (other, (v[0], v[1]))
                    break
            assert trajectory.first_collision(ball) == expected
            met += expected is not None
    assert met > 100  # most balls of a rack struck hard meet another
    alone = simulate([BallInput(id=0, r=(0.4, 0.5))], stroke=Stroke(speed=1.0, aim=0.3))
    assert alone.first_collision(0) is None
    assert alone.first_collision(5) is None  # not on the table
