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

from nineball.physics._kernels.cluster import crowded
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
from nineball.physics._kernels.cull import CULL, apart, path_box, point_gap, segment_gap
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
from nineball.physics._kernels.jit import lean, shared_lean
from nineball.physics._kernels.motion import (
    classify,
    coefficients_into,
    evolve_into,
    settle_inplace,
    transition_time,
)
from nineball.physics._kernels.record import put, record
from nineball.physics._kernels.resolve import (
    V_PUSH,
    ball_ball_inplace,
    ball_cushion_inplace,
    ball_rest_inplace,
    slate_inplace,
)

__all__ = ["_astray", "_handle", "_update"]  # the halves of shot.shot


@lean
def _missed(gbox: np.ndarray, g: int, box: np.ndarray, i: int, c: np.ndarray) -> bool:
    """Whether ball i, clear of line row g now, can cross the line only outside its window.

    That is: its straight path (``box[i]``) passes farther than ``CULL`` from the window of
    the row (:func:`.cull.table_boxes`).
    """
    q0 = gbox[g, 0] * c[0, 0] + gbox[g, 1] * c[0, 1] - gbox[g, 2]
    if not q0 > CULL:
        return False  # on the line or past it now: the solver decides
    ux = gbox[g, 3]
    uy = gbox[g, 4]
    # the window: points on the line at tangential coordinates lo..hi
    px = gbox[g, 0] * gbox[g, 2]
    py = gbox[g, 1] * gbox[g, 2]
    gap: float = segment_gap(
        box,
        i,
        px + ux * gbox[g, 5],
        py + uy * gbox[g, 5],
        px + ux * gbox[g, 6],
        py + uy * gbox[g, 6],
    )
    return gap > CULL


@lean
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
    i's centre stays in until its next transition (:func:`.cull.path_box`); a cushion segment,
    rounded point, capture line or boundary edge, or another ball's box (``box[k]``, over its
    own motion piece), that no contact can reach from there is not solved for: its time is
    inf, as its solver would give. ``gbox`` holds the table's elements' boxes
    (:func:`.cull.table_boxes`); ``work`` is scratch space, shape (3, 3, 3).
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
    path_box(ci, h if moving_i else 0.0, box, i, mot[i] != S_SLIDING)
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
            if segment_gap(box, i, segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3]) > reach:
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
            if point_gap(box, i, jaw[0], jaw[1]) > reach + rho:
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
                if apart(gbox, g, box, i) or _missed(gbox, g, box, i, ci):
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
                if apart(gbox, nsj + k, box, i) or _missed(gbox, nsj + k, box, i, ci):
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
        if box[i, 8] != 0.0 and box[k, 8] != 0.0:
            gap = segment_gap(box, i, box[k, 4], box[k, 5], box[k, 6], box[k, 7])
            if gap > d2:
                pair[a, b] = np.inf  # two straight paths (or points) never within 2R
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


@lean
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


@shared_lean
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
    hw: np.ndarray,
) -> int:
    """Resolve the event of ``kind`` at time t between ball bi and bj, and record it as ``count``.

    Updates the states, motions and reference times of the balls involved and marks them dirty
    (their cached event times are stale) and, when one just left the cloth, launched. Returns
    the number of events recorded (1), or -2, changing nothing, for a ball-ball impact that
    another ball may touch: :func:`.cluster.impact` then resolves it. ``hw`` is scratch space,
    shape (2, 3, 3), where the two states are worked on.
    """
    no_ball = count - count - 1  # a non-literal -1 (one compiled signature of record)
    R = prm[P_R]
    nseg = segs.shape[0]
    nsj = nseg + jaws.shape[0]
    evolve_into(rvw[bi], mot[bi], t - tref[bi], prm, hw[0])
    state_i = hw[0]
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
            evolve_into(rvw[bj], mot[bj], t - tref[bj], prm, hw[1])
            state_j = hw[1]
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
        settle_inplace(state_i, prm)
    elif kind == 0:
        old = mot[bi]
        bj = no_ball
        if old == S_AIRBORNE:
            # back at the slate: a bounce, or a landing if the rebound is too slow to fly
            slate_inplace(state_i, prm)
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
        ball_cushion_inplace(state_i, nx, ny, sin_t, prm)
    elif rest:
        ball_rest_inplace(state_i, state_j, prm)
    else:
        if crowded(bi, bj, state_i, state_j, t, rvw, mot, tref, prm):
            return no_ball - 1  # another ball may touch the pair: run resolves it with impact
        ball_ball_inplace(state_i, state_j, prm)
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
