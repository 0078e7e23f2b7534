"""The event loop: one compiled function runs a whole shot, with no Python work per event.

Per ball it caches the absolute time of its next transition, cushion/jaw contact and pocket
capture, and per pair the next ball-ball contact; after an event only the entries of the balls
involved are recomputed. Each ball's state is stored at its own reference time and evolved in
closed form, so a ball untouched by events accumulates no rounding.

Tie rule for simultaneous events (equal times to the last bit): transitions first, then pocket
captures, then cushion and jaw contacts, then ball-ball contacts; within a kind, the lowest ball
index first, then the lowest second index (other ball, cushion or pocket).

Flight: a ball in the air (``S_AIRBORNE``) meets the cushion noses at their height
(:func:`detect.edge_time`); if its centre passes over a cushion's nose line (it cleared the
nose) or over a pocket's capture line with its bottom above the nose height, it is off the
table. Its return to the slate is its transition: a bounce (``airborne`` again) or, when the
rebound is slower than ``hop_below``, a landing (``land``). An ``airborne`` event is also
recorded, at the same time, after the impact (or the stroke) that lifts a ball off the cloth.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.cluster import crowded, impact
from nineball.physics._kernels.constants import (
    EV_AIRBORNE,
    EV_BALL_BALL,
    EV_CUSHION,
    EV_LAND,
    EV_OFF_TABLE,
    EV_POCKET,
    EV_ROLL_SPIN,
    EV_ROLL_STOP,
    EV_SLIDE_ROLL,
    EV_SPIN_STOP,
    P_H,
    P_R,
    P_SLOW,
    S_AIRBORNE,
    S_OFF_TABLE,
    S_POCKETED,
    S_ROLLING,
    S_SLIDING,
    S_SPINNING,
    S_STATIONARY,
)
from nineball.physics._kernels.detect import (
    V_REST,
    arc_time,
    capture_time,
    circle_time,
    cross_time,
    edge_time,
    inside,
    segment_time,
)
from nineball.physics._kernels.jit import entry, internal, shared
from nineball.physics._kernels.motion import (
    classify,
    coefficients,
    evolve,
    settle,
    transition_time,
)
from nineball.physics._kernels.record import put, record
from nineball.physics._kernels.resolve import V_PUSH, ball_ball, ball_cushion, ball_rest, slate

__all__ = ["run"]


@internal
def _update(
    i: int,
    t: float,
    rvw: np.ndarray,
    mot: np.ndarray,
    tref: np.ndarray,
    trans: np.ndarray,
    cush_t: np.ndarray,
    cush_id: np.ndarray,
    pock_t: np.ndarray,
    pock_id: np.ndarray,
    pair: np.ndarray,
    segs: np.ndarray,
    jaws: np.ndarray,
    caps: np.ndarray,
    edges: np.ndarray,
    prm: np.ndarray,
) -> None:
    """Recompute every cached event time of ball i (whose state is current at time t)."""
    n = rvw.shape[0]
    cush_t[i] = np.inf
    cush_id[i] = -1
    pock_t[i] = np.inf
    pock_id[i] = -1
    if mot[i] == S_POCKETED or mot[i] == S_OFF_TABLE:
        trans[i] = np.inf
        for k in range(n):
            if k < i:
                pair[k, i] = np.inf
            else:
                pair[i, k] = np.inf
        return
    trans[i] = t + transition_time(rvw[i], mot[i], prm)
    h = trans[i] - t
    R = prm[P_R]
    flying = mot[i] == S_AIRBORNE
    moving_i = mot[i] == S_SLIDING or mot[i] == S_ROLLING or flying
    ci = coefficients(rvw[i], mot[i], prm)
    H = prm[P_H]
    nsj = segs.shape[0] + jaws.shape[0]
    if moving_i:
        for k in range(segs.shape[0]):
            tc = edge_time(ci, segs[k], h, R, H) if flying else segment_time(ci, segs[k], h, R)
            if tc < np.inf and t + tc < cush_t[i]:
                cush_t[i] = t + tc
                cush_id[i] = k
        for k in range(jaws.shape[0]):
            jaw = jaws[k]
            if flying:
                tc = arc_time(ci, jaw, h, R, H)
            else:
                tc = circle_time(ci[0, 0] - jaw[0], ci[0, 1] - jaw[1], ci[1, 0], ci[1, 1],
                                 ci[2, 0], ci[2, 1], 0.0, 0.0, 0.0, R + jaw[2], h, 0.0)  # fmt: skip
            if tc < np.inf and t + tc < cush_t[i]:
                cush_t[i] = t + tc
                cush_id[i] = segs.shape[0] + k
        if flying:
            # A ball in flight whose centre crosses the playing surface's boundary has left
            # the table over a cushion (event index nsj + edge), or is over a pocket (captured,
            # or off the table beyond it when too high to drop): the boundary is closed, so no
            # ball in flight gets out without one of these events.
            for k in range(edges.shape[0]):
                tc = cross_time(ci, edges[k], h)
                if tc < np.inf:
                    if edges[k, 6] >= 0.0:
                        if t + tc < pock_t[i]:
                            pock_t[i] = t + tc
                            pock_id[i] = int(edges[k, 6])
                    elif t + tc < cush_t[i]:
                        cush_t[i] = t + tc
                        cush_id[i] = nsj + k
        else:
            for k in range(caps.shape[0]):
                tc = capture_time(ci, caps[k], h)
                if tc < np.inf and t + tc < pock_t[i]:
                    pock_t[i] = t + tc
                    pock_id[i] = k
    for k in range(n):
        if k == i:
            continue
        a = k if k < i else i
        b = i if k < i else k
        moving_k = mot[k] == S_SLIDING or mot[k] == S_ROLLING or mot[k] == S_AIRBORNE
        if mot[k] == S_POCKETED or mot[k] == S_OFF_TABLE or not (moving_i or moving_k):
            pair[a, b] = np.inf
            continue
        ck = coefficients(evolve(rvw[k], mot[k], t - tref[k], prm), mot[k], prm)
        hk = (trans[k] if trans[k] < trans[i] else trans[i]) - t
        # differences taken from the lower-index ball to the higher (symmetric, deterministic)
        c1 = ci if a == i else ck
        c2 = ck if a == i else ci
        tc = circle_time(c2[0, 0] - c1[0, 0], c2[0, 1] - c1[0, 1], c2[1, 0] - c1[1, 0],
                         c2[1, 1] - c1[1, 1], c2[2, 0] - c1[2, 0], c2[2, 1] - c1[2, 1],
                         c2[0, 2] - c1[0, 2], c2[1, 2] - c1[1, 2], c2[2, 2] - c1[2, 2],
                         2.0 * R, hk, V_REST)  # fmt: skip
        pair[a, b] = t + tc


@internal
def _astray(rvw: np.ndarray, mot: np.ndarray, edges: np.ndarray, prm: np.ndarray) -> int:
    """The first ball at rest that is not on the playing surface, -1 if none (an invariant).

    Every ball ends pocketed, off the table (with the event that took it there), or at rest on
    the slate with its centre inside the boundary polygon (crossing number) and finite. A ball
    that breaks this has escaped through a gap in the engine's geometry: a bug to report, never
    a result.
    """
    R = prm[P_R]
    for i in range(rvw.shape[0]):
        if mot[i] == S_POCKETED or mot[i] == S_OFF_TABLE:
            continue
        x = rvw[i, 0, 0]
        y = rvw[i, 0, 1]
        if not (math.isfinite(x) and math.isfinite(y)) or abs(rvw[i, 0, 2] - R) > 1e-9:
            return i
        if not inside(edges, x, y):
            return i
    return -1


@shared
def _handle(
    t: float,
    kind: int,
    bi: int,
    bj: int,
    count: int,
    rvw: np.ndarray,
    mot: np.ndarray,
    tref: np.ndarray,
    segs: np.ndarray,
    jaws: np.ndarray,
    prm: np.ndarray,
    launch: np.ndarray,
    dirty: np.ndarray,
    pocket_of: np.ndarray,
    ev_t: np.ndarray,
    ev_k: np.ndarray,
    ev_i: np.ndarray,
    ev_j: np.ndarray,
    ev_s: np.ndarray,
    ev_m: np.ndarray,
) -> int:
    """Resolve the event of ``kind`` at time t between ball bi and bj, and record it as ``count``.

    Updates the states, motions and reference times of the balls involved and marks them dirty
    (their cached event times are stale) and, when one just left the cloth, launched. Returns
    the number of events recorded (1), or -2, changing nothing, for a ball-ball impact that
    another ball may touch: :func:`.cluster.impact` then resolves it.
    """
    no_ball = count - count - 1  # a non-literal -1 (one compiled signature of record)
    R = prm[P_R]
    nseg = segs.shape[0]
    nsj = nseg + jaws.shape[0]
    state_i = evolve(rvw[bi], mot[bi], t - tref[bi], prm)
    state_j = state_i
    old_i = mot[bi]
    old_j = mot[bj] if kind == EV_BALL_BALL else old_i
    if kind == EV_CUSHION and bj >= nsj:
        kind = EV_OFF_TABLE  # a ball in flight passed over a cushion's nose
    elif kind == EV_POCKET and old_i == S_AIRBORNE and state_i[0, 2] - R >= prm[P_H]:
        kind = EV_OFF_TABLE  # over the pocket, too high to drop: beyond the rail
    settle_ball = no_ball
    rest = False
    if kind in (EV_BALL_BALL, EV_CUSHION):
        # A low-speed impact first settles the slip of a sliding ball in it (a slide_roll
        # event); the impact is then found again at the same time and resolved. Below
        # V_PUSH (a push starting in resting contact) it is resolved by ball_rest.
        if kind == EV_BALL_BALL:
            state_j = evolve(rvw[bj], mot[bj], t - tref[bj], prm)
            nx = state_j[0, 0] - state_i[0, 0]
            ny = state_j[0, 1] - state_i[0, 1]
            nz = state_j[0, 2] - state_i[0, 2]
            approach = (
                (state_i[1, 0] - state_j[1, 0]) * nx
                + (state_i[1, 1] - state_j[1, 1]) * ny
                + (state_i[1, 2] - state_j[1, 2]) * nz
            )
            dist = math.sqrt(nx * nx + ny * ny + nz * nz)
            rest = approach < V_PUSH * dist and old_i != S_AIRBORNE and old_j != S_AIRBORNE
            slow = rest or approach < prm[P_SLOW] * dist
        else:
            if bj < nseg:
                approach = -(state_i[1, 0] * segs[bj, 4] + state_i[1, 1] * segs[bj, 5])
            else:
                nx = jaws[bj - nseg, 0] - state_i[0, 0]
                ny = jaws[bj - nseg, 1] - state_i[0, 1]
                approach = (state_i[1, 0] * nx + state_i[1, 1] * ny) / math.sqrt(nx * nx + ny * ny)
            slow = approach < prm[P_SLOW]
        if slow:
            if mot[bi] == S_SLIDING:
                settle_ball = bi
            elif kind == EV_BALL_BALL and mot[bj] == S_SLIDING:
                settle_ball = bj
                state_i = state_j
    if settle_ball != no_ball:
        bi = settle_ball
        bj = no_ball
        kind = EV_SLIDE_ROLL
        state_i = settle(state_i, prm)
    elif kind == 0:
        old = mot[bi]
        bj = no_ball
        if old == S_AIRBORNE:
            # back at the slate: a bounce, or a landing if the rebound is too slow to fly
            state_i = slate(state_i, prm)
            kind = EV_AIRBORNE
            if state_i[1, 2] == 0.0:
                mot[bi] = classify(state_i, prm)
                kind = EV_LAND
        elif old == S_SLIDING:
            state_i[2, 0] = -state_i[1, 1] / R
            state_i[2, 1] = state_i[1, 0] / R
            mot[bi] = S_ROLLING
            kind = EV_SLIDE_ROLL
            if state_i[1, 0] == 0.0 and state_i[1, 1] == 0.0:
                mot[bi] = S_SPINNING if state_i[2, 2] != 0.0 else S_STATIONARY
        elif old == S_ROLLING:
            state_i[1, 0] = 0.0
            state_i[1, 1] = 0.0
            state_i[2, 0] = 0.0
            state_i[2, 1] = 0.0
            if state_i[2, 2] != 0.0:
                mot[bi] = S_SPINNING
                kind = EV_ROLL_SPIN
            else:
                mot[bi] = S_STATIONARY
                kind = EV_ROLL_STOP
        else:
            state_i[2, 2] = 0.0
            mot[bi] = S_STATIONARY
            kind = EV_SPIN_STOP
    elif kind in (EV_POCKET, EV_OFF_TABLE):
        for c in range(3):
            state_i[1, c] = 0.0
            state_i[2, c] = 0.0
        if kind == EV_POCKET:
            mot[bi] = S_POCKETED
            pocket_of[bi] = bj
        else:
            mot[bi] = S_OFF_TABLE
            bj = no_ball
    elif kind == EV_CUSHION:
        if bj < nseg:
            nx = -segs[bj, 4]
            ny = -segs[bj, 5]
        else:
            jx = jaws[bj - nseg, 0] - state_i[0, 0]
            jy = jaws[bj - nseg, 1] - state_i[0, 1]
            dn = math.sqrt(jx * jx + jy * jy)
            nx = jx / dn
            ny = jy / dn
        sin_t = prm[P_H] / R - 1.0
        if old_i == S_AIRBORNE:
            # the nose edge (straight, or round a jaw) meets a ball in flight at its height
            sin_t = (prm[P_H] - state_i[0, 2]) / R
            if sin_t < -1.0:
                sin_t = -1.0
        state_i = ball_cushion(state_i, nx, ny, sin_t, prm)
    elif rest:
        state_i, state_j = ball_rest(state_i, state_j, prm)
    else:
        if crowded(bi, bj, state_i, state_j, t, rvw, mot, tref, prm):
            return no_ball - 1  # another ball may touch the pair: run resolves it with impact
        state_i, state_j = ball_ball(state_i, state_j, prm)
    if kind != EV_BALL_BALL:
        state_j = state_i
    # store the new states; impacts and settling leave a free ball to classify
    for q in range(2 if kind == EV_BALL_BALL else 1):
        b = bi if q == 0 else bj
        st = state_i if q == 0 else state_j
        if settle_ball != no_ball or kind in (EV_CUSHION, EV_BALL_BALL):
            mot[b] = classify(st, prm)
            if mot[b] == S_AIRBORNE and (old_i if q == 0 else old_j) != S_AIRBORNE:
                launch[b] = 1
        put(rvw, b, st)
        tref[b] = t
        dirty[b] = 1
    mot_j = mot[bj] if kind == EV_BALL_BALL else no_ball
    record(ev_t, ev_k, ev_i, ev_j, ev_s, ev_m, count, t, kind, bi, bj,
            state_i, mot[bi], state_j, mot_j)  # fmt: skip
    return 1


@entry
def run(
    rvw0: np.ndarray,
    mot0: np.ndarray,
    segs: np.ndarray,
    jaws: np.ndarray,
    caps: np.ndarray,
    edges: np.ndarray,
    prm: np.ndarray,
    max_events: int,
) -> tuple[
    int,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    bool,
    int,
]:
    """Simulate until every ball is at rest or pocketed, or ``max_events`` events were recorded.

    Args:
        rvw0: initial states, shape (n, 3, 3), at t = 0 (not modified).
        mot0: initial motion states, shape (n,) (not modified).
        segs: cushion segments, shape (ns, 6).
        jaws: rounded points, shape (nj, 3).
        caps: pocket capture lines, shape (np, 6).
        edges: the playing surface's boundary polygon, shape (24, 7) (``TableSpec.boundary``).
        prm: parameter vector (constants.P_*).
        max_events: capacity of the event arrays.

    Returns:
        count, times, kinds, first ball, second index (ball, cushion or pocket; -1 if none),
        states after (n_ev, 2, 3, 3), motions after (n_ev, 2), final states, final motions,
        final reference times (always the time of the last event of each ball), pocket of each
        ball (-1 if none), whether the event budget ran out before the end, and the first
        ball that ended off the playing surface without an event saying so (-1 if none: the
        invariant of :func:`_astray`; checked when the budget did not run out).
    """
    n = rvw0.shape[0]
    rvw = rvw0.copy()
    mot = mot0.copy()
    tref = np.empty(n)
    trans = np.empty(n)
    cush_t = np.empty(n)
    pock_t = np.empty(n)
    cush_id = np.empty(n, dtype=np.int64)
    pock_id = np.empty(n, dtype=np.int64)
    pocket_of = np.empty(n, dtype=np.int64)
    pair = np.empty((n, n))
    for i in range(n):
        tref[i] = 0.0
        trans[i] = np.inf
        cush_t[i] = np.inf
        pock_t[i] = np.inf
        cush_id[i] = -1
        pock_id[i] = -1
        pocket_of[i] = -1
        for j in range(n):
            pair[i, j] = np.inf
    # uninitialised: every recorded event writes all of its fields, and only [:count] is read
    ev_t = np.empty(max_events)
    ev_k = np.empty(max_events, dtype=np.int64)
    ev_i = np.empty(max_events, dtype=np.int64)
    ev_j = np.empty(max_events, dtype=np.int64)
    ev_s = np.empty((max_events, 2, 3, 3))
    ev_m = np.empty((max_events, 2), dtype=np.int64)
    dirty = np.empty(n, dtype=np.int64)  # balls whose cached event times must be recomputed
    launch = np.empty(n, dtype=np.int64)  # balls just lifted off the cloth (an airborne event)
    for i in range(n):
        trans[i] = transition_time(rvw[i], mot[i], prm)
        dirty[i] = 1
        launch[i] = 1 if mot[i] == S_AIRBORNE else 0
    count = n - n  # a non-literal integer for numba (one compiled signature)
    truncated = False
    no_ball = count - 1
    airborne = no_ball + 1 + EV_AIRBORNE  # a non-literal code: no second compiled record
    t = 0.0
    while True:
        for i in range(n):
            if launch[i] != 0 and count < max_events:
                record(ev_t, ev_k, ev_i, ev_j, ev_s, ev_m, count, t, airborne, i, no_ball,
                        rvw[i], mot[i], rvw[i], no_ball)  # fmt: skip
                count += 1
            launch[i] = 0
        # one call site for the update and one for the record keep the compiled loop small
        for i in range(n):
            if dirty[i] != 0:
                _update(i, t, rvw, mot, tref, trans, cush_t, cush_id, pock_t, pock_id, pair,
                        segs, jaws, caps, edges, prm)  # fmt: skip
                dirty[i] = 0
        best = np.inf
        kind = no_ball
        bi = no_ball
        bj = no_ball
        for i in range(n):
            if trans[i] < best:
                best = trans[i]
                kind = 0
                bi = i
        for i in range(n):
            if pock_t[i] < best:
                best = pock_t[i]
                kind = EV_POCKET
                bi = i
                bj = pock_id[i]
        for i in range(n):
            if cush_t[i] < best:
                best = cush_t[i]
                kind = EV_CUSHION
                bi = i
                bj = cush_id[i]
        for i in range(n):
            for j in range(i + 1, n):
                if pair[i, j] < best:
                    best = pair[i, j]
                    kind = EV_BALL_BALL
                    bi = i
                    bj = j
        if best == np.inf:
            break
        if count >= max_events:
            truncated = True
            break
        t = best
        added = _handle(t, kind, bi, bj, count, rvw, mot, tref, segs, jaws, prm, launch, dirty,
                        pocket_of, ev_t, ev_k, ev_i, ev_j, ev_s, ev_m)  # fmt: skip
        if added == -2:
            added = impact(t, bi, bj, count, rvw, mot, tref, prm, launch, dirty,
                            ev_t, ev_k, ev_i, ev_j, ev_s, ev_m)  # fmt: skip
        if added < 0:
            truncated = True
            break
        count += added
    astray = no_ball if truncated else _astray(rvw, mot, edges, prm)
    return (
        count,
        ev_t,
        ev_k,
        ev_i,
        ev_j,
        ev_s,
        ev_m,
        rvw,
        mot,
        tref,
        pocket_of,
        truncated,
        astray,
    )
