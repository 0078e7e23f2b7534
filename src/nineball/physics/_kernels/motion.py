"""Closed-form ball motion on the cloth.

Sources: Leckie & Greenspan 2005, "An event-based pool physics simulator"; Alciatore TP A.4.

A ball state ``rvw`` is a (3, 3) array: rows r (m), v (m/s), w (rad/s) in the table frame.
The contact point with the cloth is at -R z, so its velocity (the slip) is
u = v + w x (-R z) = (v_x - R w_y, v_y + R w_x). Sliding friction decelerates u at 7/2 mu_s g and
v at mu_s g along u; rolling (u = 0) decelerates v at mu_r g; the z-spin decays linearly at
alpha in every state.

Flight (``S_AIRBORNE``): the ball is off the cloth and falls freely, r(t) = r0 + v0 t - g t^2 z / 2,
with constant spin (no air drag, no Magnus force: at pool speeds both change a flight of a few
tenths of a second by far less than a millimetre). Its next transition is its return to the
slate (z = R).
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.constants import (
    P_ALPHA,
    P_G,
    P_HOP,
    P_MUR,
    P_MUS,
    P_R,
    S_AIRBORNE,
    S_OFF_TABLE,
    S_POCKETED,
    S_ROLLING,
    S_SLIDING,
    S_SPINNING,
    S_STATIONARY,
)
from nineball.physics._kernels.jit import entry, internal, lean

__all__ = [
    "classify",
    "coefficients",
    "coefficients_into",
    "evolve",
    "evolve_into",
    "settle_inplace",
    "transition_time",
]

U_EPS = 1e-9
"""Slip speed in m/s below which a ball counts as rolling (its spin is then set to roll)."""

V_EPS = 1e-12
"""Speed in m/s below which a ball counts as not translating."""


@entry
def evolve(rvw: np.ndarray, state: int, dt: float, prm: np.ndarray) -> np.ndarray:
    """State after ``dt`` s of motion in ``state`` (no transition may occur in between).

    Contract: returns a new array; ``rvw`` is not modified.
    """
    out = np.empty((3, 3))
    evolve_into(rvw, state, dt, prm, out)
    return out


@lean
def evolve_into(rvw: np.ndarray, state: int, dt: float, prm: np.ndarray, out: np.ndarray) -> None:
    """:func:`evolve` into ``out`` (a (3, 3) array other than ``rvw``), with no allocation."""
    for r in range(3):
        for q in range(3):
            out[r, q] = rvw[r, q]
    if dt == 0.0 or state in (S_STATIONARY, S_POCKETED, S_OFF_TABLE):
        return
    R = prm[P_R]
    g = prm[P_G]
    if state == S_AIRBORNE:
        for q in range(3):
            out[0, q] = rvw[0, q] + rvw[1, q] * dt
        out[0, 2] -= 0.5 * g * dt * dt
        out[1, 2] = rvw[1, 2] - g * dt
        return
    # the z-spin decays linearly and stops at zero without reversing
    spin = abs(rvw[2, 2]) - prm[P_ALPHA] * dt
    out[2, 2] = math.copysign(spin, rvw[2, 2]) if spin > 0.0 else 0.0
    if state == S_SPINNING:
        return
    if state == S_SLIDING:
        ux = rvw[1, 0] - R * rvw[2, 1]
        uy = rvw[1, 1] + R * rvw[2, 0]
        un = math.sqrt(ux * ux + uy * uy)
        if un > 0.0:
            ux /= un
            uy /= un
        a = prm[P_MUS] * g
        out[0, 0] = rvw[0, 0] + rvw[1, 0] * dt - 0.5 * a * ux * dt * dt
        out[0, 1] = rvw[0, 1] + rvw[1, 1] * dt - 0.5 * a * uy * dt * dt
        out[1, 0] = rvw[1, 0] - a * ux * dt
        out[1, 1] = rvw[1, 1] - a * uy * dt
        k = 2.5 * a / R
        out[2, 0] = rvw[2, 0] - k * uy * dt
        out[2, 1] = rvw[2, 1] + k * ux * dt
        return
    # rolling
    vx = rvw[1, 0]
    vy = rvw[1, 1]
    vn = math.sqrt(vx * vx + vy * vy)
    if vn > 0.0:
        vx /= vn
        vy /= vn
    a = prm[P_MUR] * g
    out[0, 0] = rvw[0, 0] + rvw[1, 0] * dt - 0.5 * a * vx * dt * dt
    out[0, 1] = rvw[0, 1] + rvw[1, 1] * dt - 0.5 * a * vy * dt * dt
    out[1, 0] = rvw[1, 0] - a * vx * dt
    out[1, 1] = rvw[1, 1] - a * vy * dt
    out[2, 0] = -out[1, 1] / R
    out[2, 1] = out[1, 0] / R


@lean
def transition_time(rvw: np.ndarray, state: int, prm: np.ndarray) -> float:
    """Time in s until the next motion transition (inf if none)."""
    g = prm[P_G]
    if state == S_SLIDING:
        R = prm[P_R]
        ux = rvw[1, 0] - R * rvw[2, 1]
        uy = rvw[1, 1] + R * rvw[2, 0]
        return float(2.0 * math.sqrt(ux * ux + uy * uy) / (7.0 * prm[P_MUS] * g))
    if state == S_ROLLING:
        return float(math.sqrt(rvw[1, 0] ** 2 + rvw[1, 1] ** 2) / (prm[P_MUR] * g))
    if state == S_SPINNING:
        return float(abs(rvw[2, 2]) / prm[P_ALPHA])
    if state == S_AIRBORNE:  # back at the slate: z(t) = R
        vz = rvw[1, 2]
        dz = rvw[0, 2] - prm[P_R]
        return float((vz + math.sqrt(vz * vz + 2.0 * g * (dz if dz > 0.0 else 0.0))) / g)
    return np.inf


@internal
def coefficients(rvw: np.ndarray, state: int, prm: np.ndarray) -> np.ndarray:
    """Position as a polynomial in time: r(t) = c[0] + c[1] t + c[2] t^2, shape (3, 3)."""
    c = np.empty((3, 3))
    coefficients_into(rvw, state, prm, c)
    return c


@lean
def coefficients_into(rvw: np.ndarray, state: int, prm: np.ndarray, c: np.ndarray) -> None:
    """:func:`coefficients` into ``c`` (a (3, 3) array), with no allocation."""
    for q in range(3):
        c[0, q] = rvw[0, q]
        c[1, q] = 0.0
        c[2, q] = 0.0
    if state == S_AIRBORNE:
        for q in range(3):
            c[1, q] = rvw[1, q]
        c[2, 2] = -0.5 * prm[P_G]
    elif state in (S_SLIDING, S_ROLLING):
        c[1, 0] = rvw[1, 0]
        c[1, 1] = rvw[1, 1]
        g = prm[P_G]
        if state == S_SLIDING:
            R = prm[P_R]
            dx = rvw[1, 0] - R * rvw[2, 1]
            dy = rvw[1, 1] + R * rvw[2, 0]
            a = prm[P_MUS] * g
        else:
            dx = rvw[1, 0]
            dy = rvw[1, 1]
            a = prm[P_MUR] * g
        dn = math.sqrt(dx * dx + dy * dy)
        if dn > 0.0:
            c[2, 0] = -0.5 * a * dx / dn
            c[2, 1] = -0.5 * a * dy / dn


@lean
def classify(rvw: np.ndarray, prm: np.ndarray) -> int:
    """Motion state of a free ball from its velocities; snaps near-rolling spin to rolling.

    A ball above the cloth, or on it and moving up at ``hop_below`` or faster, is airborne
    (left unchanged). Otherwise ``rvw`` is modified in place: the ball is put on the cloth and
    its vertical velocity set to zero (a downward one is taken by the slate, an upward one
    slower than ``hop_below`` is absorbed by the cloth), speeds below V_EPS are set to zero, and
    a slip below U_EPS is removed by setting the spin to roll.
    """
    R = prm[P_R]
    if rvw[0, 2] > R or rvw[1, 2] >= prm[P_HOP]:
        return S_AIRBORNE
    rvw[1, 2] = 0.0
    rvw[0, 2] = R
    vn = math.sqrt(rvw[1, 0] ** 2 + rvw[1, 1] ** 2)
    if vn < V_EPS:
        rvw[1, 0] = 0.0
        rvw[1, 1] = 0.0
        vn = 0.0
    ux = rvw[1, 0] - R * rvw[2, 1]
    uy = rvw[1, 1] + R * rvw[2, 0]
    if math.sqrt(ux * ux + uy * uy) >= U_EPS:
        return S_SLIDING
    rvw[2, 0] = -rvw[1, 1] / R
    rvw[2, 1] = rvw[1, 0] / R
    if vn > 0.0:
        return S_ROLLING
    if rvw[2, 2] != 0.0:
        return S_SPINNING
    return S_STATIONARY


@lean
def settle_inplace(out: np.ndarray, prm: np.ndarray) -> None:
    """Instant slide-to-roll: the state a sliding ball reaches when the cloth removes its slip.

    The friction impulse conserves angular momentum about the contact point, so
    v' = v - 2/7 u and the ball rolls (energy only decreases). The state ``out`` changes in
    place.
    """
    R = prm[P_R]
    ux = out[1, 0] - R * out[2, 1]
    uy = out[1, 1] + R * out[2, 0]
    out[1, 0] = out[1, 0] - 2.0 / 7.0 * ux
    out[1, 1] = out[1, 1] - 2.0 / 7.0 * uy
    out[2, 0] = -out[1, 1] / R
    out[2, 1] = out[1, 0] / R
