"""Simultaneous impacts: a ball meeting two or more touching balls at one instant.

When a ball-ball impact happens while other balls touch the pair (a frozen pair or cluster, a
cue ball meeting two balls at once), the impacts are simultaneous and the rigid-ball model
alone does not say which completes first. Following Seghete & Murphey ("Variational solutions
to simultaneous collisions between multiple rigid bodies", and their propagative model of
simultaneous impact), the outcomes of such a collision are the limits of nearby trajectories in
which the same impacts happen one after another, one limit per order. The engine takes the
mean of those outcomes over every order of the contacts (each order resolved as a cascade of
pairwise impacts, :func:`resolve.ball_ball`, until no contact approaches):

* it does not depend on the balls' numbers (every order is taken), and a symmetric layout
  gives a symmetric result;
* momentum is conserved (each order conserves it); the mean of the orders' outcomes has less
  kinetic energy than their mean energy (the energy is convex), so the velocities relative to
  the centre of mass are then scaled to give back the orders' mean energy
  (:func:`_restore_energy`): ideal elastic balls stay elastic (a property Smith et al.,
  "Reflections on simultaneous impact", 2012, require of any such model), and inelastic ones
  lose what the sequential impacts lose, never more energy than they had;
* a frozen line (Newton's cradle) still passes the impulse down the line: only one contact
  approaches at each step, so every order gives the same cascade.

Contacts are pairs of balls on the cloth whose surfaces are within ``TOUCH``; up to
:data:`MAX_CONTACTS` of them (6! = 720 orders) are averaged. A larger cluster (a frozen rack)
falls back to the pairwise resolution in event order.

The event loop asks :func:`crowded` (a cheap bound) at each ball-ball impact whether another
ball may touch the pair, and if so hands the impact to :func:`impact`, which finds the cluster
(:func:`simultaneous`), resolves it and records one event per contact that carried an impulse.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.constants import (
    EV_BALL_BALL,
    P_G,
    P_MUS,
    P_R,
    S_AIRBORNE,
    S_OFF_TABLE,
    S_POCKETED,
)
from nineball.physics._kernels.detect import TOUCH
from nineball.physics._kernels.jit import internal, lean, shared
from nineball.physics._kernels.motion import classify, evolve
from nineball.physics._kernels.record import put, record
from nineball.physics._kernels.resolve import V_PUSH, ball_ball

__all__ = ["MAX_CONTACTS", "crowded", "impact", "simultaneous"]

MAX_CONTACTS = 6
"""Most contacts in a cluster whose orders are averaged (6! = 720 orders)."""

_MAX_STEPS = 64
"""Pairwise impacts at most in one order's cascade (a frozen line of 10 needs about 20)."""


@internal
def _approach(s: np.ndarray, a: int, b: int) -> float:
    """Approach speed of balls a and b along their line of centres (m/s, > 0 approaching)."""
    d2 = 0.0
    dot = 0.0
    for c in range(3):  # loops, not unrolled terms: numba types each array access on its own
        n = s[b, 0, c] - s[a, 0, c]
        d2 += n * n
        dot += (s[a, 1, c] - s[b, 1, c]) * n
    return float(dot / math.sqrt(d2))


@internal
def _apart2(s: np.ndarray, a: int, b: int) -> float:
    """Squared distance in m^2 between the centres of balls a and b."""
    d2 = 0.0
    for c in range(3):
        n = s[b, 0, c] - s[a, 0, c]
        d2 += n * n
    return d2


@internal
def _copy(dst: np.ndarray, src: np.ndarray, members: np.ndarray, nm: int) -> None:
    """dst[b] = src[b] for the members b."""
    for q in range(nm):
        b = members[q]
        for r in range(3):
            for c in range(3):
                dst[b, r, c] = src[b, r, c]


@internal
def _restore_energy(out: np.ndarray, members: np.ndarray, nm: int, target: float, R: float) -> None:
    """Scale the members' velocities relative to their centre of mass to the orders' energy.

    The mean of the orders' outcomes has less kinetic energy than their mean energy (the
    energy is convex), so averaging alone would make ideal elastic balls lose energy. The
    velocities relative to the centre of mass are scaled by the factor that gives back the
    orders' mean energy (``target``, twice the KE per unit mass), the spins kept: momentum is
    unchanged (the relative velocities sum to zero), a symmetric result stays symmetric, the
    energy is at most the initial one (each order only loses), and when every order gives the
    same outcome (a frozen line) the factor is 1.
    """
    vc = np.empty(3)
    for c in range(3):
        vc[c] = 0.0
    for q in range(nm):
        for c in range(3):
            vc[c] += out[members[q], 1, c] / nm
    fixed = 0.0
    rel = 0.0
    for c in range(3):
        fixed += nm * vc[c] * vc[c]
        for q in range(nm):
            d = out[members[q], 1, c] - vc[c]
            w = out[members[q], 2, c]
            rel += d * d
            fixed += 0.4 * R * R * w * w
    if rel <= 0.0 or target - fixed <= rel:
        return
    k = math.sqrt((target - fixed) / rel)
    for q in range(nm):
        for c in range(3):
            out[members[q], 1, c] = vc[c] + k * (out[members[q], 1, c] - vc[c])


@internal
def simultaneous(
    t: float,
    bi: int,
    bj: int,
    rvw: np.ndarray,
    mot: np.ndarray,
    tref: np.ndarray,
    prm: np.ndarray,
    out: np.ndarray,
    members: np.ndarray,
    hit: np.ndarray,
) -> int:
    """Resolve the impact of bi and bj at time t with every ball touching them, at once.

    Finds the cluster of balls on the cloth connected to bi and bj by contacts (surfaces within
    ``TOUCH``). If it holds only bi and bj, or more than :data:`MAX_CONTACTS` contacts, returns
    0 (the caller resolves the pair; ``out`` then holds every ball's state at t). Otherwise
    returns the number of members nm and writes: ``members[:nm]`` (bi and bj first), their new
    states at time t to ``out[members[k]]``, and to the rows of ``hit`` the contacts that
    carried an impulse in some order (two ball indices each, ascending), ended by a row whose
    first index is -1. ``out`` (n, 3, 3), ``members`` (n,) and ``hit`` (MAX_CONTACTS + 1, 2)
    are the caller's work arrays.
    """
    n = rvw.shape[0]
    R = prm[P_R]
    reach = 2.0 * R + TOUCH
    # the cluster: a breadth-first search over contacts from the two colliding balls
    inside = np.empty(n, dtype=np.int64)
    for b in range(n):
        inside[b] = 0
    nm = 0
    members[nm] = bi
    nm += 1
    members[nm] = bj
    nm += 1
    inside[bi] = 1
    inside[bj] = 1
    for b in range(n):  # explicit loops: an array assignment compiles numba's error messages
        now = evolve(rvw[b], mot[b], t - tref[b], prm)
        for r in range(3):
            for c in range(3):
                out[b, r, c] = now[r, c]
    k = 0
    while k < nm:
        a = members[k]
        for b in range(n):
            if inside[b] != 0 or mot[b] == S_POCKETED or mot[b] == S_OFF_TABLE:
                continue
            if mot[b] == S_AIRBORNE:
                continue
            if _apart2(out, a, b) <= reach * reach:
                inside[b] = 1
                members[nm] = b
                nm += 1
        k += 1
    if nm == 2:
        return 0
    # the contacts between members, in ascending ball order
    ca = np.empty(MAX_CONTACTS, dtype=np.int64)
    cb = np.empty(MAX_CONTACTS, dtype=np.int64)
    m = 0
    for a in range(n):
        if inside[a] == 0:
            continue
        for b in range(a + 1, n):
            if inside[b] == 0:
                continue
            if _apart2(out, a, b) <= reach * reach:
                if m == MAX_CONTACTS:
                    return 0
                ca[m] = a
                cb[m] = b
                m += 1
    orders = 1
    for q in range(2, m + 1):
        orders *= q
    # out keeps the members' states at t until the end; work: one order's cascade; total:
    # the sums of v and w over orders
    work = np.empty((n, 3, 3))
    total = np.empty((n, 3, 3))
    for q in range(nm):
        for r in range(3):
            for c in range(3):
                total[members[q], r, c] = 0.0
    energy = 0.0  # sum over orders of sum |v|^2 + (2/5) R^2 |w|^2 (twice the KE per unit mass)
    used = np.empty(m, dtype=np.int64)
    rank = np.empty(m, dtype=np.int64)
    free = np.empty(m, dtype=np.int64)
    for c in range(m):
        used[c] = 0
    for p in range(orders):
        # the p-th order (Lehmer code): rank[c] is contact c's priority, 0 first
        for q in range(m):
            free[q] = q
        code = p
        left = m
        for q in range(m):
            f = 1
            for r in range(2, left):
                f *= r
            pick = code // f
            code -= pick * f
            rank[free[pick]] = q
            for r in range(pick, left - 1):
                free[r] = free[r + 1]
            left -= 1
        _copy(work, out, members, nm)
        for _ in range(_MAX_STEPS):
            best = -1
            for c in range(m):
                if _approach(work, ca[c], cb[c]) > V_PUSH and (best < 0 or rank[c] < rank[best]):
                    best = c
            if best < 0:
                break
            a = ca[best]
            b = cb[best]
            sa, sb = ball_ball(work[a], work[b], prm)
            for r in range(3):
                for c in range(3):
                    work[a, r, c] = sa[r, c]
                    work[b, r, c] = sb[r, c]
            used[best] = 1
        for q in range(nm):
            b = members[q]
            for r in range(1, 3):
                for c in range(3):
                    x = work[b, r, c]
                    total[b, r, c] += x
                    energy += (1.0 if r == 1 else 0.4 * R * R) * x * x
    for q in range(nm):
        b = members[q]
        for r in range(1, 3):
            for c in range(3):
                out[b, r, c] = total[b, r, c] / orders
    _restore_energy(out, members, nm, energy / orders, R)
    h = 0
    for c in range(m):
        if used[c] != 0:
            hit[h, 0] = ca[c]
            hit[h, 1] = cb[c]
            h += 1
    hit[h, 0] = -1
    return nm


@lean
def crowded(
    bi: int,
    bj: int,
    state_i: np.ndarray,
    state_j: np.ndarray,
    t: float,
    rvw: np.ndarray,
    mot: np.ndarray,
    tref: np.ndarray,
    prm: np.ndarray,
) -> bool:
    """Whether a third ball on the cloth may be within ``TOUCH`` of ball bi or bj at time t.

    A cheap bound, with no allocation: a ball on the cloth moves from where it was at its
    reference time by at most its speed then times the time since, plus the sliding friction's
    mu_slide g t^2 (a sliding ball can speed up as its spin takes hold).
    """
    reach = 2.0 * prm[P_R] + 2.0 * TOUCH
    for k in range(rvw.shape[0]):
        # comparisons, not `in` a tuple: numba compiles an overload for tuple membership
        if k == bi or k == bj or mot[k] == S_POCKETED or mot[k] == S_OFF_TABLE:  # noqa: SIM109
            continue
        if mot[k] == S_AIRBORNE:
            continue
        dt = t - tref[k]
        moved = (
            math.sqrt(rvw[k, 1, 0] ** 2 + rvw[k, 1, 1] ** 2) * dt + prm[P_MUS] * prm[P_G] * dt * dt
        )
        for q in range(2):
            s = state_i if q == 0 else state_j
            dx = rvw[k, 0, 0] - s[0, 0]
            dy = rvw[k, 0, 1] - s[0, 1]
            if math.sqrt(dx * dx + dy * dy) - moved <= reach:
                return True
    return False


@shared
def impact(
    t: float,
    bi: int,
    bj: int,
    count: int,
    rvw: np.ndarray,
    mot: np.ndarray,
    tref: np.ndarray,
    prm: np.ndarray,
    launch: np.ndarray,
    dirty: np.ndarray,
    ev_t: np.ndarray,
    ev_k: np.ndarray,
    ev_i: np.ndarray,
    ev_j: np.ndarray,
    ev_s: np.ndarray,
    ev_m: np.ndarray,
) -> int:
    """Resolve the impact of bi and bj at time t with the balls touching them (:mod:`.cluster`).

    Returns the number of events recorded (one per contact that carried an impulse; 1 if no
    other ball touches the pair after all, resolved as ``loop._handle`` would), or -1 if the
    events do not fit.
    Cached on its own (``@shared``): on a cold start a second child process compiles it
    (:mod:`.warm`).
    """
    n = rvw.shape[0]
    work = np.empty((n, 3, 3))
    members = np.empty(n, dtype=np.int64)
    hit = np.empty((MAX_CONTACTS + 1, 2), dtype=np.int64)
    nm = simultaneous(t, bi, bj, rvw, mot, tref, prm, work, members, hit)
    if nm == 0:
        # no other ball touches the pair after all: the pairwise impact, as _handle resolves it
        a, b = ball_ball(work[bi], work[bj], prm)
        put(work, bi, a)
        put(work, bj, b)
        members[0] = bi
        members[1] = bj
        hit[0, 0] = bi
        hit[0, 1] = bj
        hit[1, 0] = -1
        nm = 2
    return _store(t, nm, count, work, members, hit, rvw, mot, tref, prm,
                          launch, dirty, ev_t, ev_k, ev_i, ev_j, ev_s, ev_m)  # fmt: skip


@internal
def _store(
    t: float,
    nm: int,
    count: int,
    work: np.ndarray,
    members: np.ndarray,
    hit: np.ndarray,
    rvw: np.ndarray,
    mot: np.ndarray,
    tref: np.ndarray,
    prm: np.ndarray,
    launch: np.ndarray,
    dirty: np.ndarray,
    ev_t: np.ndarray,
    ev_k: np.ndarray,
    ev_i: np.ndarray,
    ev_j: np.ndarray,
    ev_s: np.ndarray,
    ev_m: np.ndarray,
) -> int:
    """Store a simultaneous impact's states and record one ball-ball event per contact hit.

    Returns the number of events recorded, or -1 if they do not fit in the event arrays.
    """
    for q in range(nm):
        b = members[q]
        st = work[b]
        old = mot[b]
        mot[b] = classify(st, prm)
        if mot[b] == S_AIRBORNE and old != S_AIRBORNE:
            launch[b] = 1
        put(rvw, b, st)
        tref[b] = t
        dirty[b] = 1
    kind = count - count + EV_BALL_BALL  # non-literal: the one compiled signature of record
    k = 0
    while hit[k, 0] >= 0:
        if count + k >= ev_t.shape[0]:
            return -1
        a = hit[k, 0]
        b = hit[k, 1]
        record(ev_t, ev_k, ev_i, ev_j, ev_s, ev_m, count + k, t, kind, a, b,
                rvw[a], mot[a], rvw[b], mot[b])  # fmt: skip
        k += 1
    return k
