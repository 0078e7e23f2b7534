"""Collision impulses: ball-ball (Alciatore TP A.14 throw model) and ball-cushion (Han 2005).

Both are instantaneous impulse models of rigid spheres with Coulomb friction at the contact,
where the friction impulse is capped at the value that stops the relative sliding at the contact
(the sliding never reverses). The engine is planar: after an impact the vertical velocity is
discarded (the slate absorbs a downward one; an upward one would be a hop, which is not
modelled), so no energy is created. Contract: both functions return new arrays.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from nineball.physics._kernels.constants import (
    P_EB,
    P_EC,
    P_FA,
    P_FB,
    P_FC,
    P_H,
    P_M,
    P_MUC,
    P_R,
)

__all__ = ["ball_ball", "ball_cushion"]


@njit(cache=True)
def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty(3)
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    return out


@njit(cache=True)
def ball_ball(rvw1: np.ndarray, rvw2: np.ndarray, prm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Resolve an impact of two equal balls in contact.

    Normal impulse: (1 + e_b)/2 m v_n (v_n the approach speed along the line of centres).
    Friction impulse along the sliding direction of the contact points (3D: side, follow and draw
    spin all count): min(mu(|s|) J_n, m |s| / 7), mu from Alciatore's fit (TP A.14); m |s| / 7
    stops the sliding exactly (each ball's contact point responds with 7/(2m) per unit impulse).
    """
    R = prm[P_R]
    m = prm[P_M]
    inertia = 0.4 * m * R * R
    a = rvw1.copy()
    b = rvw2.copy()
    n = np.zeros(3)
    n[0] = b[0, 0] - a[0, 0]
    n[1] = b[0, 1] - a[0, 1]
    d = math.sqrt(n[0] * n[0] + n[1] * n[1])
    n[0] /= d
    n[1] /= d
    vn = (a[1, 0] - b[1, 0]) * n[0] + (a[1, 1] - b[1, 1]) * n[1]
    if vn <= 0.0:
        return a, b
    jn = 0.5 * (1.0 + prm[P_EB]) * m * vn
    u1 = a[1] + _cross(a[2], R * n)
    u2 = b[1] + _cross(b[2], -R * n)
    s = u1 - u2
    sn = s[0] * n[0] + s[1] * n[1]
    s = s - sn * n
    slip = math.sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2])
    p1 = -jn * n
    if slip > 0.0:
        mu = prm[P_FA] + prm[P_FB] * math.exp(-prm[P_FC] * slip)
        jt = min(mu * jn, m * slip / 7.0)
        p1 = p1 - (jt / slip) * s
    a[1] += p1 / m
    b[1] -= p1 / m
    a[2] += _cross(R * n, p1) / inertia
    b[2] += _cross(-R * n, -p1) / inertia
    return a, b


@njit(cache=True)
def ball_cushion(rvw: np.ndarray, nx: float, ny: float, prm: np.ndarray) -> np.ndarray:
    """Resolve an impact with a rigid cushion whose nose is at height h (Han 2005).

    (nx, ny) is the horizontal unit vector from the ball's centre toward the cushion. The contact
    point is R (cos t n + sin t z) with sin t = h/R - 1. Normal impulse (1 + e_c) m c along the
    contact normal (c = approach speed of the contact point), friction min(mu_c J_n, 2 m |s| / 7)
    against the contact's sliding s, as in Han's sliding/sticking cases.
    """
    R = prm[P_R]
    m = prm[P_M]
    inertia = 0.4 * m * R * R
    out = rvw.copy()
    sin_t = prm[P_H] / R - 1.0
    cos_t = math.sqrt(1.0 - sin_t * sin_t)
    nt = np.zeros(3)
    nt[0] = cos_t * nx
    nt[1] = cos_t * ny
    nt[2] = sin_t
    rc = R * nt
    c = out[1, 0] * nt[0] + out[1, 1] * nt[1] + out[1, 2] * nt[2]
    if c <= 0.0:
        return out
    jn = (1.0 + prm[P_EC]) * m * c
    u = out[1] + _cross(out[2], rc)
    un = u[0] * nt[0] + u[1] * nt[1] + u[2] * nt[2]
    s = u - un * nt
    slip = math.sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2])
    p = -jn * nt
    if slip > 0.0:
        jt = min(prm[P_MUC] * jn, 2.0 * m * slip / 7.0)
        p = p - (jt / slip) * s
    out[1] += p / m
    out[2] += _cross(rc, p) / inertia
    return out
