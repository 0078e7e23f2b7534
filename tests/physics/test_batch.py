"""The batch call gives each shot's single-call result, bit for bit, and its errors per shot."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball.errors import InvalidInputError, InvalidPlacementError
from nineball.physics import (
    BallInput,
    PhysicsParams,
    PreparedBalls,
    Stroke,
    Trajectory,
    diamond_rack,
    nine_foot,
    simulate,
    simulate_batch,
    strike_batch,
)
from nineball.physics import batch as batch_module

TABLE, PARAMS = nine_foot(), PhysicsParams()
R = PARAMS.radius

VIEWS = (
    "initial",
    "initial_motion",
    "times",
    "kinds",
    "first",
    "second",
    "after",
    "after_motion",
    "final",
    "final_motion",
    "pocket_of",
)


def _same(a: Trajectory, b: Trajectory) -> None:
    """Every event time, state and final state equal, bit for bit (-0.0 and 0.0 differ)."""
    assert a.ball_ids == b.ball_ids
    assert a.truncated == b.truncated
    assert a.stroked == b.stroked
    for name in VIEWS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.shape == y.shape, name
        assert x.dtype == y.dtype, name
        assert x.tobytes() == y.tobytes(), name


def _layout(rng: np.random.Generator) -> list[BallInput]:
    """The cue ball and 1-9 object balls at random, clear of each other."""
    ids = [0, *sorted(int(b) for b in rng.choice(np.arange(1, 10), rng.integers(1, 10), False))]
    points: list[tuple[float, float]] = []
    while len(points) < len(ids):
        x = float(rng.uniform(R, TABLE.width - R))
        y = float(rng.uniform(R, TABLE.length - R))
        if all(math.hypot(x - px, y - py) > 2 * R + 1e-6 for px, py in points):
            points.append((x, y))
    return [BallInput(id=b, r=p) for b, p in zip(ids, points, strict=True)]


def _stroke(rng: np.random.Generator) -> Stroke:
    side, height = rng.uniform(-0.3, 0.3, 2)
    return Stroke(
        speed=float(rng.uniform(0.3, 8.0)),
        aim=float(rng.uniform(-math.pi, math.pi)),
        elevation=float(rng.choice([0.0, rng.uniform(0.0, 0.5)])),
        side=float(side),
        height=float(height),
    )


def _breaks(rng: np.random.Generator, count: int) -> tuple[list[list[BallInput]], list[Stroke]]:
    layouts, strokes = [], []
    for _ in range(count):
        order = [1, *(int(b) for b in rng.permutation([2, 3, 4, 5, 6, 7, 8])[:3]), 9]
        order += [b for b in range(2, 9) if b not in order]
        rack = diamond_rack(order, rng, table=TABLE, params=PARAMS)
        cue = (float(rng.uniform(0.4, 0.9)), float(TABLE.head_string - 0.1))
        balls = [BallInput(id=0, r=cue), *(BallInput(id=int(b), r=p) for b, p in rack.items())]
        layouts.append(balls)
        aim = math.atan2(rack[1][1] - cue[1], rack[1][0] - cue[0]) + float(rng.normal(0, 0.002))
        strokes.append(Stroke(speed=float(rng.uniform(7.0, 11.0)), aim=aim))
    return layouts, strokes


def test_a_batch_of_seeded_shots_and_breaks_is_the_single_calls_bit_for_bit() -> None:
    rng = np.random.default_rng(19)
    layouts = [_layout(rng) for _ in range(120)]
    strokes: list[Stroke | None] = [_stroke(rng) for _ in layouts]
    more, breaks = _breaks(rng, 12)
    layouts += more
    strokes += breaks
    layouts.append(layouts[0])
    strokes.append(None)  # no stroke: the balls lie still
    batch = simulate_batch(layouts, strokes)
    assert len(batch) == len(layouts)
    assert batch.errors == (None,) * len(layouts)
    for i, (balls, stroke) in enumerate(zip(layouts, strokes, strict=True)):
        alone = simulate(balls, stroke=stroke)
        got = batch.trajectory(i)
        _same(got, alone)
        assert batch.event_counts[i] == alone.times.shape[0]
        assert batch.truncated[i] == alone.truncated
        for j, ball in enumerate(alone.ball_ids):
            assert batch.final[i, ball].tobytes() == alone.final[j].tobytes()
            assert batch.final_motion[i, ball] == alone.final_motion[j]
            assert batch.pocket_of[i, ball] == alone.pocket_of[j]
        absent = [b for b in range(10) if b not in alone.ball_ids]
        assert np.isnan(batch.final[i, absent]).all()
        assert (batch.pocket_of[i, absent] == -1).all()
    assert batch.trajectory(3) is batch.trajectory(3)  # made once, when asked for
    assert sum(int(c) for c in batch.event_counts[-13:-1]) > 12 * 40  # the breaks are long


def test_shots_too_long_for_their_slice_are_run_again_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(5)
    layouts, strokes = _breaks(rng, 3)
    monkeypatch.setattr(batch_module, "_ROOM", 0)  # room for 8 events a ball: breaks overflow
    batch = simulate_batch(layouts, strokes, max_events=500)
    for i in range(3):
        _same(batch.trajectory(i), simulate(layouts[i], stroke=strokes[i], max_events=500))
    truncated = simulate_batch(layouts[:1], strokes[:1], max_events=7)
    assert truncated.truncated.tolist() == [True]
    assert truncated.event_counts.tolist() == [7]
    _same(truncated.trajectory(0), simulate(layouts[0], stroke=strokes[0], max_events=7))


@pytest.mark.parametrize("small", [1, 16])
def test_prepared_balls_struck_in_a_batch_are_each_strike(
    small: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch_module, "SMALL", small)  # compiled, or one call at a time
    rng = np.random.default_rng(7)
    prepared = [PreparedBalls(_layout(rng)) for _ in range(6)]
    strokes = [_stroke(rng) for _ in range(12)]
    batch = strike_batch(prepared * 2, strokes)
    for i, (balls, stroke) in enumerate(zip(prepared * 2, strokes, strict=True)):
        _same(batch.trajectory(i), balls.strike(stroke))
    other = PhysicsParams(mu_roll=0.02)  # another kit in the same batch: its own call
    mixed = [PreparedBalls(_layout(rng), params=other), prepared[0]]
    batch = strike_batch(mixed, strokes[:2])
    assert batch.trajectory(0).params is other
    _same(batch.trajectory(0), mixed[0].strike(strokes[0]))
    _same(batch.trajectory(1), prepared[0].strike(strokes[1]))


@pytest.mark.parametrize("small", [1, 16])
def test_errors_are_reported_per_shot_as_the_single_call_raises_them(
    small: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch_module, "SMALL", small)
    good = [BallInput(id=0, r=(0.6, 0.6)), BallInput(id=1, r=(0.6, 1.9))]
    overlap = [BallInput(id=0, r=(0.6, 0.6)), BallInput(id=1, r=(0.6, 0.62))]
    outside = [BallInput(id=0, r=(-0.5, 0.6))]
    twice = [BallInput(id=0, r=(0.6, 0.6)), BallInput(id=0, r=(0.6, 1.0))]
    no_cue = [BallInput(id=1, r=(0.6, 1.9))]
    stroke = Stroke(speed=2.0, aim=math.pi / 2)
    miscue = Stroke(speed=2.0, aim=math.pi / 2, side=0.7)
    layouts = [good, overlap, outside, twice, no_cue, good]
    strokes = [stroke, stroke, stroke, stroke, stroke, miscue]
    batch = simulate_batch(layouts, strokes)
    assert batch.errors[0] is None
    _same(batch.trajectory(0), simulate(good, stroke=stroke))
    for i in range(1, 6):
        error = batch.errors[i]
        assert error is not None
        with pytest.raises(type(error)) as alone:
            simulate(layouts[i], stroke=strokes[i])
        assert str(error) == str(alone.value)
        with pytest.raises(type(error)):
            batch.trajectory(i)
        assert batch.event_counts[i] == 0
        assert np.isnan(batch.final[i]).all()
    assert batch.trajectories()[1] is None
    with pytest.raises(InvalidPlacementError, match=r"^shot 1: balls 0 and 1 overlap"):
        batch.check()
    simulate_batch([good], [stroke]).check()  # no error: nothing raised


def test_a_malformed_call_is_refused_as_a_whole() -> None:
    good = [BallInput(id=0, r=(0.6, 0.6))]
    with pytest.raises(InvalidInputError, match="1 layouts and 2 strokes"):
        simulate_batch([good], [None, None])
    with pytest.raises(InvalidInputError, match="max_events"):
        simulate_batch([good], [None], max_events=0)
    with pytest.raises(InvalidInputError, match="one stroke each"):
        strike_batch([PreparedBalls(good)], [])
    empty = simulate_batch([], [])
    assert len(empty) == 0
    assert empty.final.shape == (0, 10, 3, 3)
    assert not empty.final.flags.writeable


def test_the_simulate_protocol_runs_an_array_of_requests_as_one_batch() -> None:
    import io
    import json

    from nineball.physics.protocol import run_simulate

    rng = np.random.default_rng(23)
    requests: list[object] = []
    for _ in range(8):
        balls = [{"id": b.id, "r": list(b.r)} for b in _layout(rng)]
        stroke = _stroke(rng)
        requests.append(
            {
                "balls": balls,
                "stroke": {"speed": stroke.speed, "aim_deg": math.degrees(stroke.aim)},
                "max_events": int(rng.integers(5, 200)),
                "params": {"mu_roll": float(rng.choice([0.01, 0.015]))},
            }
        )
    requests.insert(3, {"balls": [{"id": 0, "r": [0.6, 0.6]}, {"id": 1, "r": [0.6, 0.61]}]})
    requests.insert(5, "not a request")

    def run(payload: object) -> object:
        out = io.StringIO()
        assert run_simulate(io.StringIO(json.dumps(payload)), out) == 0
        return json.loads(out.getvalue())

    together = run(requests)
    assert together == [run(r) if isinstance(r, dict) and "stroke" in r else together[i]
                        for i, r in enumerate(requests)]  # fmt: skip
    assert together[3]["error"]["code"] == "invalid_placement"
    assert together[5]["error"]["code"] == "invalid_input"
    assert [r["facts"] for r in together if "facts" in r] == [
        run(r)["facts"] for r in requests if isinstance(r, dict) and "stroke" in r
    ]
