"""Shared helpers of the physics tests."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from nineball.physics import BallInput, EventKind, PhysicsParams, Trajectory, simulate
from nineball.physics.table import TableSpec, nine_foot

G = 9.81
R = 0.028575


def sim(balls: list[dict[str, Any]], **kw: Any) -> Trajectory:
    return simulate([BallInput(**b) for b in balls], **kw)


def kinetic_energy(states: NDArray[np.float64], params: PhysicsParams) -> float:
    """Total KE (translation plus rotation about all axes) of states shaped (n, 3, 3)."""
    m = params.mass
    inertia = 0.4 * m * params.radius**2
    return float(
        0.5 * m * np.sum(states[:, 1, :] ** 2) + 0.5 * inertia * np.sum(states[:, 2, :] ** 2)
    )


def assert_energy_never_increases(tr: Trajectory) -> None:
    """KE after every event and at sampled times in between never exceeds the KE before."""
    p = tr.params
    e0 = kinetic_energy(tr.initial, p)
    times = np.unique(np.concatenate([tr.times, np.linspace(0.0, tr.duration, 50)]))
    energies = [e0] + [kinetic_energy(s, p) for s in tr.states_at(times)]
    tol = 1e-9 * max(e0, 1e-12)
    for a, b in itertools.pairwise(energies):
        assert b <= a + tol


def assert_no_overlap(tr: Trajectory, samples: int = 0) -> None:
    """No two balls on the table overlap (by more than 1e-9 m) at any event time, nor at
    ``samples`` evenly spaced times in between (a missed collision would show as an overlap)."""
    times = np.unique(np.concatenate([tr.times, np.linspace(0.0, tr.duration, samples)]))
    states = tr.states_at(times)
    for q, t in enumerate(times):
        pos = states[q, :, 0, :2]
        for i in range(pos.shape[0]):
            if _pocketed_by(tr, i, t):
                continue
            for j in range(i + 1, pos.shape[0]):
                if _pocketed_by(tr, j, t):
                    continue
                d = math.dist(pos[i], pos[j])
                assert d >= 2 * R - 1e-9, (t, tr.ball_ids[i], tr.ball_ids[j], d)


def _pocketed_by(tr: Trajectory, i: int, t: float) -> bool:
    for e in range(tr.times.shape[0]):
        if tr.kinds[e] == 3 and tr.first[e] == i and tr.times[e] <= t:
            return True
    return False


def ball_ball_events(tr: Trajectory) -> list[Any]:
    return [e for e in tr.events() if e.kind is EventKind.BALL_BALL]


def angle_deg(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    va = np.asarray(a[:2])
    vb = np.asarray(b[:2])
    c = float(va @ vb / (np.linalg.norm(va) * np.linalg.norm(vb)))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def state_before(tr: Trajectory, e: int, ball_index: int) -> NDArray[np.float64]:
    """State of a ball just before event ``e`` (after all earlier events)."""
    from nineball.physics._kernels.motion import evolve
    from nineball.physics.simulate import param_vector
    from nineball.physics.table import nine_foot

    state = tr.initial[ball_index]
    motion = int(tr.initial_motion[ball_index])
    t0 = 0.0
    for q in range(e):
        if tr.first[q] == ball_index:
            slot = 0
        elif tr.kinds[q] == 1 and tr.second[q] == ball_index:
            slot = 1
        else:
            continue
        state = tr.after[q, slot]
        motion = int(tr.after_motion[q, slot])
        t0 = float(tr.times[q])
    prm = param_vector(tr.params, nine_foot())
    return np.asarray(evolve(state, motion, float(tr.times[e]) - t0, prm))


def impact_groups(tr: Trajectory) -> list[list[int]]:
    """Ball-ball events grouped into impacts: consecutive events at one time sharing balls.

    A simultaneous impact (a ball meeting touching balls at once) is recorded as one event per
    contact, all at the same time; momentum is conserved over the group, not per event.
    """
    groups: list[list[int]] = []
    balls: set[int] = set()
    for e in range(tr.times.shape[0]):
        if tr.kinds[e] != 1:
            continue
        pair = {int(tr.first[e]), int(tr.second[e])}
        last = groups[-1][-1] if groups else -1
        if groups and tr.times[e] == tr.times[last] and last == e - 1 and pair & balls:
            groups[-1].append(e)
            balls |= pair
        else:
            groups.append([e])
            balls = set(pair)
    return groups


def assert_momentum_conserved(tr: Trajectory, *, elastic: bool = False) -> None:
    """Sum of m v_xy (and KE if elastic) is conserved across every ball-ball impact."""
    m = tr.params.mass
    inertia = 0.4 * m * tr.params.radius**2

    def ke(x: NDArray[np.float64]) -> float:
        return float(0.5 * m * np.sum(x[1] ** 2) + 0.5 * inertia * np.sum(x[2] ** 2))

    for group in impact_groups(tr):
        before: dict[int, NDArray[np.float64]] = {}
        after: dict[int, NDArray[np.float64]] = {}
        for e in group:
            for slot, ball in enumerate((int(tr.first[e]), int(tr.second[e]))):
                before.setdefault(ball, state_before(tr, group[0], ball))
                after[ball] = tr.after[e, slot]
        p0 = m * sum(x[1, :2] for x in before.values())
        p1 = m * sum(x[1, :2] for x in after.values())
        scale = max(float(np.linalg.norm(p0)), 1e-12)
        assert float(np.linalg.norm(p1 - p0)) <= 1e-9 * scale
        k0 = sum(ke(x) for x in before.values())
        k1 = sum(ke(x) for x in after.values())
        assert k1 <= k0 * (1 + 1e-9)
        if elastic:
            assert abs(k1 - k0) <= 1e-9 * k0


def random_layout(
    rng: np.random.Generator, n: int, table: TableSpec | None = None
) -> list[BallInput]:
    """``n`` balls (ids 0 to n-1) at uniform random spots on the cloth, none touching."""
    table = table or nine_foot()
    width, length, r = table.width, table.length, 0.028575
    pts: list[tuple[float, float]] = []
    while len(pts) < n:
        p = (rng.uniform(r, width - r), rng.uniform(r, length - r))
        if all(math.dist(p, q) >= 2 * r for q in pts):
            pts.append(p)
    return [BallInput(id=i, r=p) for i, p in enumerate(pts)]
