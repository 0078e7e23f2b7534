"""Times of the next ball-ball, ball-cushion, ball-jaw and ball-pocket events.

Each function takes the position polynomials r(t) = c[0] + c[1] t + c[2] t^2 (shape (3, 3), from
:func:`motion.coefficients`) of balls that translate, at the current time, and a horizon (the
earliest next motion transition of the balls involved, after which their polynomials change), and
returns the time from now of the first event, or inf. Contact policy:

* A pair (or a ball and a cushion) in contact within ``TOUCH`` m and approaching has an event
  now (t = 0): this resolves frozen balls and frozen lines sequentially. For two balls,
  "approaching" means faster than ``V_REST``; slower is resting contact.
* Two balls touching and not approaching (moving apart, at rest, or in resting contact): the
  event is the first time their approach speed reaches ``V_REST`` while they still touch (the
  first down-going crossing of the derivative of the squared distance): a push that starts while
  the balls touch is an event, never a missed collision. If they separate first, the next
  contact is found as below.
* Otherwise the event is the first time the gap goes from positive to <= 0 (a down-crossing of
  a polynomial of degree <= 4, see :mod:`roots`), so grazing separations are never events.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.jit import lean
from nineball.physics._kernels.roots import first_down_crossing, poly4

__all__ = [
    "TOUCH",
    "V_REST",
    "arc_time",
    "capture_time",
    "circle_time",
    "cross_time",
    "edge_time",
    "inside",
    "segment_time",
]

TOUCH = 1e-9
"""Distance in m within which two surfaces count as touching (the near-future epsilon)."""

V_REST = 1e-11
"""Approach speed in m/s below which two touching balls are in resting contact (no impact now).

Far above the rounding of velocities (about 1e-15 m/s) and small enough that an unresolved
creep at this speed overlaps by less than ``TOUCH`` in 100 s.
"""


@lean
def circle_time(
    cx: float,
    cy: float,
    bx: float,
    by: float,
    ax: float,
    ay: float,
    cz: float,
    bz: float,
    az: float,
    d: float,
    horizon: float,
    v_rest: float,
) -> float:
    """First time |c + b t + a t^2| reaches d from outside (a quartic), with the contact policy.

    Three-dimensional: the z terms are zero for two balls on the cloth (and for the jaws, which
    are tested in the table plane) and are added last, so they change no bit of a planar case.

    Ball-ball: c, b, a are the differences of the two balls' position polynomials, d = 2R and
    ``v_rest`` = V_REST: a touching pair also has an event when its approach starts (resting
    contact). Jaw: the ball's polynomial minus the jaw's centre, d = R + the jaw's radius, and
    ``v_rest`` = 0 (no resting-contact search: any approach at contact is an event now).
    (A float rather than a literal flag: one compiled specialization serves both.)
    """
    dist = math.sqrt(cx * cx + cy * cy + cz * cz)
    h = horizon
    # quick rejection: the gap cannot close within the horizon
    reach = (
        math.sqrt(bx * bx + by * by + bz * bz) * h + math.sqrt(ax * ax + ay * ay + az * az) * h * h
    )
    if dist - d > reach + TOUCH:
        return np.inf
    c0 = cx * cx + cy * cy + cz * cz - d * d
    k1 = 2.0 * (bx * cx + by * cy + bz * cz)
    band = 2.0 * d * TOUCH  # p = |r|^2 - d^2 at a gap of TOUCH (to first order)
    touching = dist - d <= TOUCH
    k4 = ax * ax + ay * ay + az * az
    k3 = 2.0 * (ax * bx + ay * by + az * bz)
    k2 = bx * bx + by * by + bz * bz + 2.0 * (ax * cx + ay * cy + az * cz)
    if touching and v_rest > 0.0:
        # p' = k1 + 2 k2 t + 3 k3 t^2 + 4 k4 t^3 = -2 |r| (approach speed)
        slack = 2.0 * d * v_rest
        if k1 + slack <= 0.0:
            return 0.0
        t1 = first_down_crossing(0.0, 4.0 * k4, 3.0 * k3, 2.0 * k2, k1 + slack, horizon, 0.0)
        if t1 < np.inf and poly4(k4, k3, k2, k1, c0, t1) <= band:
            return t1
    elif touching and k1 < 0.0:
        return 0.0
    return first_down_crossing(k4, k3, k2, k1, c0, horizon, band)


@lean
def segment_time(c: np.ndarray, seg: np.ndarray, horizon: float, R: float) -> float:
    """Time until the ball's surface reaches a straight cushion nose (or facing) segment.

    ``seg`` is (x1, y1, x2, y2, nx, ny) with n the unit normal on the ball's side. The contact
    must fall within the segment's length (its ends are covered by the jaw circles).
    """
    nx = seg[4]
    ny = seg[5]
    q0 = nx * (c[0, 0] - seg[0]) + ny * (c[0, 1] - seg[1]) - R
    q1 = nx * c[1, 0] + ny * c[1, 1]
    q2 = nx * c[2, 0] + ny * c[2, 1]
    if q0 < -R and q2 >= 0.0:
        # The centre is behind the segment's line (beside the segment: a facing's line runs on
        # into the table), and the path cannot turn back to it: a straight path, or one that
        # curves away, can only cross the line once, going out. A sliding ball's path that
        # curves toward the line (q2 < 0) can cross it going out beside the segment and come
        # back onto its face: that is solved for.
        return np.inf
    if q0 - abs(q1) * horizon - abs(q2) * horizon * horizon > TOUCH:
        return np.inf
    if q0 <= TOUCH and q1 < 0.0:
        t = 0.0
    else:
        t = first_down_crossing(0.0, 0.0, q2, q1, q0, horizon, TOUCH)
        if t == np.inf:
            return t
    px = c[0, 0] + c[1, 0] * t + c[2, 0] * t * t - seg[0]
    py = c[0, 1] + c[1, 1] * t + c[2, 1] * t * t - seg[1]
    ex = seg[2] - seg[0]
    ey = seg[3] - seg[1]
    f = (px * ex + py * ey) / (ex * ex + ey * ey)
    if 0.0 <= f <= 1.0:
        return t
    return np.inf


@lean
def edge_time(c: np.ndarray, seg: np.ndarray, horizon: float, R: float, H: float) -> float:
    """Time until a ball in flight touches a cushion's nose edge (or a facing's), a quartic.

    The nose is a horizontal line at height H along the segment. On the cloth a ball touches it
    when its centre is R from the segment's line (the engine's nose-to-nose frame), so the edge
    lies R (1 - cos t) on the table side of that line, with sin t = H/R - 1. In flight the
    horizontal motion is linear and z(t) quadratic: the contact is the first time the distance
    from the centre to the edge falls to R, with the ball on the table side of the edge and the
    contact within the segment's length.
    """
    nx = seg[4]
    ny = seg[5]
    st = H / R - 1.0
    e0 = nx * (c[0, 0] - seg[0]) + ny * (c[0, 1] - seg[1]) - R * (1.0 - math.sqrt(1.0 - st * st))
    e1 = nx * c[1, 0] + ny * c[1, 1]
    if e0 < 0.0 or (e0 > R + TOUCH and e0 + e1 * horizon > R + TOUCH):
        return np.inf
    z0 = c[0, 2] - H
    z1 = c[1, 2]
    z2 = c[2, 2]
    k4 = z2 * z2
    k3 = 2.0 * z1 * z2
    k2 = z1 * z1 + 2.0 * z0 * z2 + e1 * e1
    k1 = 2.0 * (e0 * e1 + z0 * z1)
    k0 = e0 * e0 + z0 * z0 - R * R
    band = 2.0 * R * TOUCH
    if k0 <= band and k1 < 0.0:
        t = 0.0
    else:
        t = first_down_crossing(k4, k3, k2, k1, k0, horizon, band)
        if t == np.inf:
            return t
    px = c[0, 0] + c[1, 0] * t - seg[0]
    py = c[0, 1] + c[1, 1] * t - seg[1]
    ex = seg[2] - seg[0]
    ey = seg[3] - seg[1]
    f = (px * ex + py * ey) / (ex * ex + ey * ey)
    if 0.0 <= f <= 1.0 and e0 + e1 * t >= 0.0:
        return t
    return np.inf


@lean
def capture_time(c: np.ndarray, cap: np.ndarray, horizon: float) -> float:
    """Time until the ball's centre crosses a pocket's capture line o . r = c (going in).

    ``cap`` is (ox, oy, c, mx, my, half): the crossing must lie within ``half`` m of the
    line's midpoint (mx, my), i.e. inside the pocket's throat.
    """
    q0 = cap[2] - (cap[0] * c[0, 0] + cap[1] * c[0, 1])
    q1 = -(cap[0] * c[1, 0] + cap[1] * c[1, 1])
    q2 = -(cap[0] * c[2, 0] + cap[1] * c[2, 1])
    if q0 <= 0.0:
        t = 0.0
    elif q0 > abs(q1) * horizon + abs(q2) * horizon * horizon:
        return np.inf
    else:
        t = first_down_crossing(0.0, 0.0, q2, q1, q0, horizon, 0.0)
        if t == np.inf:
            return t
    px = c[0, 0] + c[1, 0] * t + c[2, 0] * t * t - cap[3]
    py = c[0, 1] + c[1, 1] * t + c[2, 1] * t * t - cap[4]
    if abs(-cap[1] * px + cap[0] * py) <= cap[5]:
        return t
    return np.inf


@lean
def cross_time(c: np.ndarray, edge: np.ndarray, horizon: float) -> float:
    """Time until the ball's centre crosses an edge of the playing surface's boundary, going out.

    ``edge`` is a row of ``TableSpec.boundary``: (x1, y1, x2, y2, nx, ny, pocket) with n the unit
    normal into the table. The crossing must fall within the edge's length, its ends included
    to ``TOUCH``: the edges share their end points, so a centre crossing the polygon at a corner
    crosses at least one of them. A centre on the line or beyond it and moving out crosses now.
    """
    nx = edge[4]
    ny = edge[5]
    q0 = nx * (c[0, 0] - edge[0]) + ny * (c[0, 1] - edge[1])
    q1 = nx * c[1, 0] + ny * c[1, 1]
    q2 = nx * c[2, 0] + ny * c[2, 1]
    if q0 <= 0.0:
        if q1 >= 0.0:
            return np.inf
        t = 0.0
    elif q0 > abs(q1) * horizon + abs(q2) * horizon * horizon:
        return np.inf
    else:
        t = first_down_crossing(0.0, 0.0, q2, q1, q0, horizon, 0.0)
        if t == np.inf:
            return t
    px = c[0, 0] + c[1, 0] * t + c[2, 0] * t * t - edge[0]
    py = c[0, 1] + c[1, 1] * t + c[2, 1] * t * t - edge[1]
    ex = edge[2] - edge[0]
    ey = edge[3] - edge[1]
    length = math.sqrt(ex * ex + ey * ey)
    f = (px * ex + py * ey) / length
    if -TOUCH <= f <= length + TOUCH:
        return t
    return np.inf


@lean
def inside(edges: np.ndarray, x: float, y: float) -> bool:
    """Whether the point (x, y) is inside the polygon of ``edges`` (crossing number).

    ``edges`` holds the boundary's rows (x1, y1, x2, y2, ...) in any order; the polygon must be
    closed. ``TableSpec.contains`` runs this same function in Python.
    """
    crossings = 0
    for k in range(edges.shape[0]):
        y1 = edges[k, 1]
        y2 = edges[k, 3]
        if (y1 > y) != (y2 > y):
            x1 = edges[k, 0]
            if x1 + (y - y1) * (edges[k, 2] - x1) / (y2 - y1) > x:
                crossings += 1
    return crossings % 2 == 1


_ARC_STEPS = 400
"""Most steps of the conservative advancement in :func:`arc_time`."""


@lean
def arc_time(c: np.ndarray, jaw: np.ndarray, horizon: float, R: float, H: float) -> float:
    """Time until a ball in flight touches a rounded point's edge, inf if not before horizon.

    The rounded point is the cushion's nose edge going round the jaw: a horizontal circle at
    the nose height H, centred on the jaw's centre, its radius the jaw's plus R (1 - cos t)
    (sin t = H/R - 1), so that a ball on the cloth touches it with its centre R + the jaw's
    radius from the jaw's centre, as the straight nose edges (:func:`edge_time`). The contact
    is the first time the distance from the ball's centre to that circle falls to R: at any
    height, so a ball flying low meets it and one flying just above it grazes it (no switch
    between a wall and nothing). The distance is not a polynomial in time (a degree-8 one
    after squaring twice), so it is found by conservative advancement: from each time, step
    by the distance left over a bound of the ball's speed until then, which can never step
    past the contact.
    """
    jx = jaw[0]
    jy = jaw[1]
    st = H / R - 1.0
    rho = jaw[2] + R * (1.0 - math.sqrt(1.0 - st * st))
    vx = c[1, 0]
    vy = c[1, 1]
    vh = math.sqrt(vx * vx + vy * vy)
    dx = c[0, 0] - jx
    dy = c[0, 1] - jy
    if math.sqrt(dx * dx + dy * dy) - vh * horizon > rho + R + TOUCH:
        return np.inf
    vz0 = abs(c[1, 2])
    vz1 = abs(c[1, 2] + 2.0 * c[2, 2] * horizon)
    bound = vh + (vz0 if vz0 > vz1 else vz1) + 1e-12
    t = 0.0
    for step in range(_ARC_STEPS):
        px = c[0, 0] + vx * t - jx
        py = c[0, 1] + vy * t - jy
        dz = c[0, 2] + (c[1, 2] + c[2, 2] * t) * t - H
        rh = math.sqrt(px * px + py * py)
        gap = math.sqrt((rh - rho) ** 2 + dz * dz) - R
        if gap <= TOUCH:
            # touching: an event only if approaching (the gap's derivative is negative)
            dzv = c[1, 2] + 2.0 * c[2, 2] * t
            dr = (px * vx + py * vy) / rh if rh > 0.0 else 0.0
            if (rh - rho) * dr + dz * dzv < 0.0:
                return t
            if step == 0:
                # touching and separating now: look again once clear of the edge
                t = 2.0 * TOUCH / bound
                continue
            return np.inf
        t += gap / bound
        if t > horizon:
            return np.inf
    return np.inf
