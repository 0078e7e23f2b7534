"""Collision impulses: ball-ball (Alciatore TP A.14 throw model) and ball-cushion (Han 2005).

Both are instantaneous impulse models of rigid spheres with Coulomb friction at the contact,
where the friction impulse is capped at the value that stops the relative sliding at the contact
(the sliding never reverses). Impacts are three-dimensional: a ball in flight meets another
ball along the 3D line of centres and a cushion nose at the nose's real height. A ball on the
cloth keeps a downward velocity from an impact only until :func:`motion.classify` gives it to
the slate (the slate contact is simultaneous with the impact and does not bounce, as in
Mathavan et al. 2010); an upward one launches it if it reaches ``hop_below``.
:func:`slate_inplace` is the bounce of a falling ball on the slate. Contract: the ``*_inplace``
kernels change the states they are given; :func:`ball_ball` returns new arrays.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.constants import (
    P_EB,
    P_EC,
    P_ES,
    P_FA,
    P_FB,
    P_FC,
    P_G,
    P_HOP,
    P_M,
    P_MUC,
    P_MUR,
    P_MUS,
    P_R,
)
from nineball.physics._kernels.jit import internal, lean

__all__ = [
    "V_PUSH",
    "ball_ball",
    "ball_ball_inplace",
    "ball_cushion_inplace",
    "ball_rest_inplace",
    "cloth_friction",
    "slate_inplace",
]

V_PUSH = 1e-6
"""Approach speed in m/s below which a ball-ball impact is always resolved by :func:`ball_rest`
(whatever ``settle_below``): a push that starts while two balls touch is such an impact."""


@lean
def _apply(
    out: np.ndarray,
    cx: float,
    cy: float,
    cz: float,
    px: float,
    py: float,
    pz: float,
    m: float,
    inertia: float,
) -> None:
    """Apply impulse p at contact offset c (from the centre) to a state, in place."""
    out[1, 0] += px / m
    out[1, 1] += py / m
    out[1, 2] += pz / m
    out[2, 0] += (cy * pz - cz * py) / inertia
    out[2, 1] += (cz * px - cx * pz) / inertia
    out[2, 2] += (cx * py - cy * px) / inertia


@internal
def ball_ball(rvw1: np.ndarray, rvw2: np.ndarray, prm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ball_ball_inplace` on copies of the two states (the copies returned)."""
    a = rvw1.copy()
    b = rvw2.copy()
    ball_ball_inplace(a, b, prm)
    return a, b


@lean
def ball_ball_inplace(a: np.ndarray, b: np.ndarray, prm: np.ndarray) -> None:
    """Resolve an impact of two equal balls in contact (the states a and b change in place).

    Normal impulse: (1 + e_b)/2 m v_n (v_n the approach speed along the line of centres).
    Friction impulse along the sliding direction of the contact points (3D: side, follow and draw
    spin all count): min(mu(|s|) J_n, m |s| / 7), mu from Alciatore's fit (TP A.14); m |s| / 7
    stops the sliding exactly (each ball's contact point responds with 7/(2m) per unit impulse).
    """
    R = prm[P_R]
    m = prm[P_M]
    inertia = 0.4 * m * R * R
    nx = b[0, 0] - a[0, 0]
    ny = b[0, 1] - a[0, 1]
    nz = b[0, 2] - a[0, 2]  # exactly 0 for two balls on the cloth
    d = math.sqrt(nx * nx + ny * ny + nz * nz)
    nx /= d
    ny /= d
    nz /= d
    vn = (a[1, 0] - b[1, 0]) * nx + (a[1, 1] - b[1, 1]) * ny + (a[1, 2] - b[1, 2]) * nz
    if vn <= 0.0:
        return
    jn = 0.5 * (1.0 + prm[P_EB]) * m * vn
    if (nz < 0.0 and b[0, 2] <= R and b[1, 2] <= 0.0) or (
        nz > 0.0 and a[0, 2] <= R and a[1, 2] <= 0.0
    ):
        # The lower ball is on the cloth and is pressed into it: the slate holds it up during
        # the impact (its vertical velocity stays zero), so the upper ball rebounds off a
        # supported ball: restitution along n with the slate's impulse -jn nz z on it gives
        # jn = (1 + e_b) m vn / (2 - nz^2) (the planar value when nz = 0, a wall when |nz| = 1).
        jn = (1.0 + prm[P_EB]) * m * vn / (2.0 - nz * nz)
    # contact point velocities: ball 1 at +R n, ball 2 at -R n
    # w x (R n) = R (w_y n_z - w_z n_y, w_z n_x - w_x n_z, w_x n_y - w_y n_x)
    u1x = a[1, 0] - R * a[2, 2] * ny + R * a[2, 1] * nz
    u1y = a[1, 1] + R * a[2, 2] * nx - R * a[2, 0] * nz
    u1z = a[1, 2] + R * (a[2, 0] * ny - a[2, 1] * nx)
    u2x = b[1, 0] + R * b[2, 2] * ny - R * b[2, 1] * nz
    u2y = b[1, 1] - R * b[2, 2] * nx + R * b[2, 0] * nz
    u2z = b[1, 2] - R * (b[2, 0] * ny - b[2, 1] * nx)
    sx = u1x - u2x
    sy = u1y - u2y
    sz = u1z - u2z
    sn = sx * nx + sy * ny + sz * nz
    sx -= sn * nx
    sy -= sn * ny
    sz -= sn * nz
    slip = math.sqrt(sx * sx + sy * sy + sz * sz)
    px = -jn * nx
    py = -jn * ny
    pz = -jn * nz
    if slip > 0.0:
        mu = prm[P_FA] + prm[P_FB] * math.exp(-prm[P_FC] * slip)
        jt = mu * jn
        stop = m * slip / 7.0
        if stop < jt:
            jt = stop
        px -= jt * sx / slip
        py -= jt * sy / slip
        pz -= jt * sz / slip
    _apply(a, R * nx, R * ny, R * nz, px, py, pz, m, inertia)
    _apply(b, -R * nx, -R * ny, -R * nz, -px, -py, -pz, m, inertia)


@lean
def ball_rest_inplace(a: np.ndarray, b: np.ndarray, prm: np.ndarray) -> None:
    """Resolve a slow impact, or a push, of two touching balls that roll or are at rest.

    Perfectly inelastic and rolling: the normal components of the velocities are replaced by
    their mean and both balls roll (w_xy = z x v / R; w_z is kept). The balls then neither
    approach nor separate along the line of centres. If the rolling resistance would still
    press them together (the second derivative of the squared distance is <= 0, so a new
    approach would start at once), the pair is merged: both balls take the mean velocity and
    roll together, with identical motion, until they stop or another ball hits one of them (a
    rolling ball pushing another). Rolling kinetic energy is 7/10 m v^2 per ball, so replacing
    velocities by their mean never adds energy. No friction impulse (no throw) is applied.
    """
    R = prm[P_R]
    cx = b[0, 0] - a[0, 0]
    cy = b[0, 1] - a[0, 1]
    d = math.sqrt(cx * cx + cy * cy)
    nx = cx / d
    ny = cy / d
    vn = (a[1, 0] - b[1, 0]) * nx + (a[1, 1] - b[1, 1]) * ny
    if vn > 0.0:
        h = 0.5 * vn
        a[1, 0] -= h * nx
        a[1, 1] -= h * ny
        b[1, 0] += h * nx
        b[1, 1] += h * ny
    # rolling decelerations mu_r g along each velocity
    dec = prm[P_MUR] * prm[P_G]
    sa = math.sqrt(a[1, 0] * a[1, 0] + a[1, 1] * a[1, 1])
    sb = math.sqrt(b[1, 0] * b[1, 0] + b[1, 1] * b[1, 1])
    gx = 0.0
    gy = 0.0
    if sb > 0.0:
        gx -= dec * b[1, 0] / sb
        gy -= dec * b[1, 1] / sb
    if sa > 0.0:
        gx += dec * a[1, 0] / sa
        gy += dec * a[1, 1] / sa
    ux = b[1, 0] - a[1, 0]
    uy = b[1, 1] - a[1, 1]
    if ux * ux + uy * uy + 2.0 * (gx * cx + gy * cy) <= 0.0:
        mx = 0.5 * (a[1, 0] + b[1, 0])
        my = 0.5 * (a[1, 1] + b[1, 1])
        a[1, 0] = mx
        a[1, 1] = my
        b[1, 0] = mx
        b[1, 1] = my
    a[1, 2] = 0.0
    a[2, 0] = -a[1, 1] / R
    a[2, 1] = a[1, 0] / R
    b[1, 2] = 0.0
    b[2, 0] = -b[1, 1] / R
    b[2, 1] = b[1, 0] / R


@lean
def ball_cushion_inplace(
    out: np.ndarray, nx: float, ny: float, sin_t: float, prm: np.ndarray
) -> None:
    """Resolve an impact with a rigid cushion nose (Han 2005), the state ``out`` in place.

    (nx, ny) is the horizontal unit vector from the ball's centre toward the cushion. The contact
    point is R (cos t n + sin t z): sin t = h/R - 1 for a ball on the cloth (h the nose height),
    (h - z)/R for a ball in flight at height z (negative when it meets the nose below its
    centre, which throws it up). Normal impulse (1 + e_c) m c along the
    contact normal (c = approach speed of the contact point), friction min(mu_c J_n, 2 m |s| / 7)
    against the contact's sliding s, as in Han's sliding/sticking cases.
    """
    R = prm[P_R]
    m = prm[P_M]
    inertia = 0.4 * m * R * R
    cos_t = math.sqrt(1.0 - sin_t * sin_t)
    tx = cos_t * nx
    ty = cos_t * ny
    tz = sin_t
    cx = R * tx
    cy = R * ty
    cz = R * tz
    c = out[1, 0] * tx + out[1, 1] * ty + out[1, 2] * tz
    if c <= 0.0:
        return
    jn = (1.0 + prm[P_EC]) * m * c
    wx = out[2, 0]
    wy = out[2, 1]
    wz = out[2, 2]
    ux = out[1, 0] + wy * cz - wz * cy
    uy = out[1, 1] + wz * cx - wx * cz
    uz = out[1, 2] + wx * cy - wy * cx
    un = ux * tx + uy * ty + uz * tz
    sx = ux - un * tx
    sy = uy - un * ty
    sz = uz - un * tz
    slip = math.sqrt(sx * sx + sy * sy + sz * sz)
    px = -jn * tx
    py = -jn * ty
    pz = -jn * tz
    if slip > 0.0:
        jt = prm[P_MUC] * jn
        stop = 2.0 * m * slip / 7.0
        if stop < jt:
            jt = stop
        px -= jt * sx / slip
        py -= jt * sy / slip
        pz -= jt * sz / slip
    _apply(out, cx, cy, cz, px, py, pz, m, inertia)


@lean
def slate_inplace(out: np.ndarray, prm: np.ndarray) -> None:
    """Bounce of a ball falling onto the slate (centre at z = R, moving down), in place.

    Normal impulse (1 + e_slate) m |v_z|, so the ball leaves at e_slate |v_z|; a rebound slower
    than ``hop_below`` is absorbed instead (normal impulse m |v_z|, v_z = 0: the ball lands).
    Friction at the cloth contact (mu_slide times the normal impulse) acts against its slip
    u = v + w x (-R z), capped at 2/7 m |u|, the impulse that makes it roll (the slip never
    reverses). Returns a new array, on the cloth (z = R). The same rule as the cue strike's
    (``Stroke`` in ``physics/stroke.py``, where the reason for the two impulses is given).
    """
    R = prm[P_R]
    out[0, 2] = R
    down = -out[1, 2] if out[1, 2] < 0.0 else 0.0
    rebound = prm[P_ES] * down
    if rebound < prm[P_HOP]:
        rebound = 0.0
    cloth_friction(out, down + rebound, prm)
    out[1, 2] = rebound


@lean
def cloth_friction(out: np.ndarray, impulse: float, prm: np.ndarray) -> None:
    """The cloth's friction during a normal impulse from the slate, on the state ``out``.

    ``impulse`` is the slate's normal impulse per unit mass (m/s). Friction, mu_slide times it,
    acts at the cloth contact against its slip u = v + w x (-R z), capped at 2/7 |u|, the
    impulse that makes the ball roll (the slip never reverses).
    """
    R = prm[P_R]
    ux = out[1, 0] - R * out[2, 1]
    uy = out[1, 1] + R * out[2, 0]
    un = math.sqrt(ux * ux + uy * uy)
    if un > 0.0:
        f = prm[P_MUS] * impulse
        stop = 2.0 / 7.0 * un
        if stop < f:
            f = stop
        fx = -f * ux / un
        fy = -f * uy / un
        # r x F / I with r = -R z and I = 2/5 m R^2
        out[1, 0] += fx
        out[1, 1] += fy
        out[2, 0] += 2.5 * fy / R
        out[2, 1] -= 2.5 * fx / R
