"""The rack, the break, and the referee's facts read from the events."""

from __future__ import annotations

import math

import numpy as np
import pytest
from physics_helpers import assert_energy_never_increases, assert_no_overlap

from nineball.errors import InvalidInputError
from nineball.physics import (
    BallInput,
    Event,
    EventKind,
    Stroke,
    Trajectory,
    diamond_rack,
    shot_facts,
    simulate,
)
from nineball.physics.events import BallState
from nineball.physics.facts import array_facts
from nineball.physics.state import MotionState

ORDER = [1, 2, 3, 4, 9, 5, 6, 7, 8]


def break_shot(seed: int, speed: float = 8.0) -> Trajectory:
    rng = np.random.default_rng(seed)
    rack = diamond_rack(ORDER, rng)
    cue = (0.635 + rng.uniform(-0.3, 0.3), 0.635)
    balls = [BallInput(id=0, r=cue)] + [BallInput(id=int(b), r=p) for b, p in rack.items()]
    aim = math.atan2(1.905 - cue[1], 0.635 - cue[0])
    return simulate(balls, stroke=Stroke(speed=speed, aim=aim))


def test_rack_is_seeded_and_refuses_bad_orders() -> None:
    a = diamond_rack(ORDER, np.random.default_rng(1))
    b = diamond_rack(ORDER, np.random.default_rng(1))
    c = diamond_rack(ORDER, np.random.default_rng(2))
    assert a == b
    assert a != c
    with pytest.raises(InvalidInputError, match="apex"):
        diamond_rack([2, 1, 3, 4, 9, 5, 6, 7, 8], np.random.default_rng(1))
    with pytest.raises(InvalidInputError):
        diamond_rack([1, 2, 3, 4, 5, 9, 6, 7, 8], np.random.default_rng(1))


@pytest.mark.parametrize("seed", range(6))
def test_break_is_sound(seed: int) -> None:
    tr = break_shot(seed)
    assert not tr.truncated
    assert tr.facts().first_contact == 1
    assert len(tr.events()) < 1000
    assert_energy_never_increases(tr)
    assert_no_overlap(tr, samples=500)
    # every ball moves on the break
    moved = {b for e in tr.events() if e.kind is EventKind.BALL_BALL for b in e.balls}
    assert len(moved) >= 9


def test_break_is_deterministic() -> None:
    a, b = break_shot(3), break_shot(3)
    assert a.events() == b.events()
    assert np.array_equal(a.final, b.final)


def test_break_statistics() -> None:
    """Over seeded 9 m/s breaks, balls drop on a good share and all balls spread out."""
    pocketed = 0
    n = 20
    for seed in range(n):
        tr = break_shot(seed, speed=9.0)
        facts = tr.facts()
        assert facts.first_contact == 1
        pocketed += any(b != 0 for b in facts.pocketed)
        assert len(set(facts.rails) - {0}) >= 4  # a legal break drives four balls to a rail
    assert 0.3 <= pocketed / n <= 0.95


def _ev(t: float, kind: EventKind, balls: tuple[int, ...], **kw: object) -> Event:
    s = BallState(r=(0.0, 0.0, 0.0), v=(0.0, 0.0, 0.0), w=(0.0, 0.0, 0.0), motion=MotionState(0))
    return Event(time=t, kind=kind, balls=balls, states=(s,) * len(balls), **kw)  # type: ignore[arg-type]


def test_facts_first_contact_tie_goes_to_lowest_ball() -> None:
    events = [
        _ev(0.1, EventKind.CUSHION, (0,), cushion="head"),
        _ev(0.5, EventKind.BALL_BALL, (0, 5)),
        _ev(0.5 + 1e-10, EventKind.BALL_BALL, (0, 3)),
        _ev(0.7, EventKind.BALL_BALL, (0, 2)),
        _ev(0.8, EventKind.CUSHION, (5,), cushion="foot"),
        _ev(0.9, EventKind.POCKET, (3,)),
    ]
    facts = shot_facts(events)
    assert facts.first_contact == 3
    assert facts.rails == (5,)
    assert facts.pocketed == (3,)
    assert facts.off_table == ()


def test_facts_without_contact() -> None:
    facts = shot_facts([_ev(0.1, EventKind.CUSHION, (0,), cushion="head")])
    assert facts.first_contact is None
    assert facts.rails == ()


def test_array_facts_tie_and_no_cue() -> None:
    """The array version applies the same tie rule (ball indices, kernel codes, no stroke)."""
    ids = (0, 2, 3, 5)
    times = np.array([0.1, 0.5, 0.5 + 1e-10, 0.7, 0.8, 0.9])
    kinds = np.array([2, 1, 1, 1, 2, 3])
    first = np.array([0, 0, 2, 0, 3, 2])
    second = np.array([0, 3, 0, 1, 4, -1])
    facts = array_facts(ids, times, kinds, first, second)
    assert facts.first_contact == 3
    assert facts.rails == (5,)
    assert facts.pocketed == (3,)
    assert facts.off_table == ()
    assert array_facts((2, 3), times[:0], kinds[:0], first[:0], second[:0]) == shot_facts([])
    no_cue = array_facts((2, 3), np.array([0.2]), np.array([1]), np.array([0]), np.array([1]))
    assert no_cue.first_contact is None
    # a cushion at the very time of the first contact counts, even listed before it
    same_time = array_facts(
        (0, 2), np.array([0.5, 0.5]), np.array([2, 1]), np.array([1, 0]), np.array([0, 1])
    )
    assert same_time.first_contact == 2
    assert same_time.rails == (2,)


def test_array_facts_equal_event_facts() -> None:
    """Trajectory.facts() (from the arrays) equals shot_facts(events()) on many shots."""
    seen = set()
    for seed in range(300):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(2, 11))
        pts: list[tuple[float, float]] = []
        while len(pts) < n:
            p = (float(rng.uniform(0.03, 1.24)), float(rng.uniform(0.03, 2.51)))
            if all(math.dist(p, q) >= 0.0572 for q in pts):
                pts.append(p)
        balls = [BallInput(id=i, r=p) for i, p in enumerate(pts)]
        stroke = Stroke(
            speed=float(rng.uniform(0.5, 9.0)),
            aim=float(rng.uniform(0.0, 2 * math.pi)),
            side=float(rng.uniform(-0.3, 0.3)),
            height=float(rng.uniform(-0.3, 0.3)),
        )
        tr = simulate(balls, stroke=stroke)
        facts = tr.facts()
        assert facts == shot_facts(tr.events())
        seen.add((facts.first_contact is not None, bool(facts.pocketed), bool(facts.rails)))
    for seed in range(20):
        tr = break_shot(seed)
        assert tr.facts() == shot_facts(tr.events())
    assert (True, True, True) in seen  # contact, pocket and rails all exercised
    assert any(not contact for contact, _, _ in seen)  # and shots without a contact
