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
    TOUCH,
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
    coefficients_into,
    evolve,
    evolve_into,
    settle,
    transition_time,
)
from nineball.physics._kernels.record import put, record
from nineball.physics._kernels.resolve import V_PUSH, ball_ball, ball_cushion, ball_rest, slate

__all__ = ["run"]


CULL = 1e-6
"""Margin in m added to every culling box: far above the rounding of positions (about 1e-15 m)
and of the contact tolerance ``TOUCH``, so a culled element could never have had an event."""


@internal
def _path_box(c: np.ndarray, h: float, box: np.ndarray, i: int) -> None:
    """``box[i]`` = (x min, x max, y min, y max) of r(s) = c[0] + c[1] s + c[2] s^2, s in [0, h].

    Each coordinate is a quadratic: its extremes are at the ends or at its vertex. The box is
    widened by ``CULL`` on every side.
    """
    for q in range(2):
        lo = c[0, q]
        hi = lo
        if h > 0.0:
            end = c[0, q] + c[1, q] * h + c[2, q] * h * h
            lo = end if end < lo else lo
            hi = end if end > hi else hi
            if c[2, q] != 0.0:
                s = -c[1, q] / (2.0 * c[2, q])
                if 0.0 < s < h:
                    top = c[0, q] + c[1, q] * s + c[2, q] * s * s
                    lo = top if top < lo else lo
                    hi = top if top > hi else hi
        box[i, 2 * q] = lo - CULL
        box[i, 2 * q + 1] = hi + CULL


@internal
def _table_boxes(
    segs: np.ndarray, jaws: np.ndarray, caps: np.ndarray, edges: np.ndarray
) -> np.ndarray:
    """The culling data of the table's elements, a row each: segments, jaws, captures, edges.

    A segment's row starts with its box (x min, x max, y min, y max). A capture line's or a
    boundary edge's row is (nx, ny, offset, ux, uy, lo, hi): a ball's centre crosses it where
    q = n . r - offset falls to 0 (n into the table), with its tangential coordinate u . r
    within [lo, hi] (:func:`_apart`). Jaws are tested from their own rows.
    """
    nseg = segs.shape[0]
    nsj = nseg + jaws.shape[0]
    ncap = caps.shape[0]
    out = np.zeros((nsj + ncap + edges.shape[0], 7))
    for k in range(nseg):
        out[k, 0] = segs[k, 0] if segs[k, 0] < segs[k, 2] else segs[k, 2]
        out[k, 1] = segs[k, 2] if segs[k, 0] < segs[k, 2] else segs[k, 0]
        out[k, 2] = segs[k, 1] if segs[k, 1] < segs[k, 3] else segs[k, 3]
        out[k, 3] = segs[k, 3] if segs[k, 1] < segs[k, 3] else segs[k, 1]
    for k in range(ncap):
        # capture_time: o . r = c crossed going out (o = caps[k, :2] points out of the table)
        # within caps[k, 5] of the midpoint (caps[k, 3], caps[k, 4]) along the line
        row = nsj + k
        ux = -caps[k, 1]
        uy = caps[k, 0]
        mid = ux * caps[k, 3] + uy * caps[k, 4]
        out[row, 0] = -caps[k, 0]
        out[row, 1] = -caps[k, 1]
        out[row, 2] = -caps[k, 2]
        out[row, 3] = ux
        out[row, 4] = uy
        out[row, 5] = mid - caps[k, 5]
        out[row, 6] = mid + caps[k, 5]
    for k in range(edges.shape[0]):
        # cross_time: n . (r - e0) falls to 0, the crossing within [-TOUCH, length + TOUCH] of
        # e0 along the edge
        row = nsj + ncap + k
        ex = edges[k, 2] - edges[k, 0]
        ey = edges[k, 3] - edges[k, 1]
        length = math.sqrt(ex * ex + ey * ey)
        ux = ex / length
        uy = ey / length
        start = ux * edges[k, 0] + uy * edges[k, 1]
        out[row, 0] = edges[k, 4]
        out[row, 1] = edges[k, 5]
        out[row, 2] = edges[k, 4] * edges[k, 0] + edges[k, 5] * edges[k, 1]
        out[row, 3] = ux
        out[row, 4] = uy
        out[row, 5] = start - TOUCH
        out[row, 6] = start + length + TOUCH
    return out


@internal
def _low(a: float, b: float, box: np.ndarray, i: int) -> float:
    """The least value of a x + b y over the box ``box[i]``."""
    low: float = (a * box[i, 0] if a > 0.0 else a * box[i, 1]) + (
        b * box[i, 2] if b > 0.0 else b * box[i, 3]
    )
    return low


@internal
def _apart(gbox: np.ndarray, g: int, box: np.ndarray, i: int) -> bool:
    """Whether no centre in ``box[i]`` can cross the line of row ``g`` of :func:`_table_boxes`.

    That is: the whole box is more than ``CULL`` inside the table, or its tangential range is
    outside the line's window (widened by ``CULL``).
    """
    if _low(gbox[g, 0], gbox[g, 1], box, i) - gbox[g, 2] > CULL:
        return True  # the whole box is inside the table, clear of the line
    if _low(gbox[g, 3], gbox[g, 4], box, i) > gbox[g, 6] + CULL:
        return True
    below: bool = -_low(-gbox[g, 3], -gbox[g, 4], box, i) < gbox[g, 5] - CULL
    return below


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
    box: np.ndarray,
    gbox: np.ndarray,
    work: np.ndarray,
) -> None:
    """Recompute every cached event time of ball i (whose state is current at time t).

    Culling (never a different result, only less work): ``box[i]`` becomes the box that ball
    i's centre stays in until its next transition (:func:`_path_box`); a cushion segment, rounded
    point, capture line or boundary edge, or another ball's box (``box[k]``, over its own
    motion piece), that no contact can reach from there is not solved for: its time is inf,
    as its solver would give. ``gbox`` holds the table's elements' boxes (:func:`_table_boxes`);
    ``work`` is scratch space, shape (3, 3, 3).
    """
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
    ci = work[0]
    coefficients_into(rvw[i], mot[i], prm, ci)
    H = prm[P_H]
    nseg = segs.shape[0]
    nsj = nseg + jaws.shape[0]
    _path_box(ci, h if moving_i else 0.0, box, i)
    # the reach of a contact from the centre: R (2R in flight, where the nose edge and the
    # rounded points' edges lie up to R inside their lines), plus the culling margin
    reach = (R + R if flying else R) + CULL
    x0 = box[i, 0] - reach
    x1 = box[i, 1] + reach
    y0 = box[i, 2] - reach
    y1 = box[i, 3] + reach
    if moving_i:
        for k in range(nseg):
            if gbox[k, 0] > x1 or gbox[k, 1] < x0 or gbox[k, 2] > y1 or gbox[k, 3] < y0:
                continue
            tc = edge_time(ci, segs[k], h, R, H) if flying else segment_time(ci, segs[k], h, R)
            if tc < np.inf and t + tc < cush_t[i]:
                cush_t[i] = t + tc
                cush_id[i] = k
        for k in range(jaws.shape[0]):
            jaw = jaws[k]
            rho = jaw[2]
            if jaw[0] - rho > x1 or jaw[0] + rho < x0 or jaw[1] - rho > y1 or jaw[1] + rho < y0:
                continue
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
                g = nsj + caps.shape[0] + k
                if _apart(gbox, g, box, i):
                    continue
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
                if _apart(gbox, nsj + k, box, i):
                    continue
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
        d2 = R + R + CULL
        if (
            box[k, 0] - d2 > box[i, 1]
            or box[k, 1] + d2 < box[i, 0]
            or box[k, 2] - d2 > box[i, 3]
            or box[k, 3] + d2 < box[i, 2]
        ):
            pair[a, b] = np.inf  # the two boxes stay more than 2R apart: no contact
            continue
        evolve_into(rvw[k], mot[k], t - tref[k], prm, work[1])
        ck = work[2]
        coefficients_into(work[1], mot[k], prm, ck)
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
    box = np.empty((n, 4))  # where each ball's centre stays during its motion piece
    for i in range(n):
        box[i, 0] = -np.inf
        box[i, 1] = np.inf
        box[i, 2] = -np.inf
        box[i, 3] = np.inf
    gbox = _table_boxes(segs, jaws, caps, edges)
    work = np.empty((3, 3, 3))  # scratch of _update
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
                        segs, jaws, caps, edges, prm, box, gbox, work)  # fmt: skip
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
