"""The cue strike: the cue ball's velocity and spin just after the stroke.

The model (why each term, and its sources) is described on :class:`nineball.physics.Stroke`,
whose :meth:`~nineball.physics.Stroke.ball_velocities` calls :func:`velocities`; the event loop
calls :func:`strike` on the cue ball of a shot.

The stroke's impulse J = j d along the cue axis d, at the tip's contact point
R (side right + height up - depth d) from the centre: v = J / m, w = (r_c x J) / I (the depth
term is parallel to J and drops out exactly: no spin from a centre hit); the heading turns by
the squirt angle; a raised cue drives the ball into the slate at speed tan(elevation) v, and
the slate's rebound (``resolve.slate_inplace``'s rule, with friction only on the rebound's impulse)
may launch it.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.constants import (
    P_CUE_END,
    P_ES,
    P_HOP,
    P_M,
    P_R,
)
from nineball.physics._kernels.jit import entry, lean
from nineball.physics._kernels.resolve import cloth_friction

__all__ = ["CUE_TIP_RADIUS", "squirt", "strike", "velocities"]

CUE_TIP_RADIUS = 0.0065
"""Radius of the cue's tip in m, for the scoop test: 6.5 mm (a 13 mm tip; shafts are commonly
12.5-13.5 mm at the tip)."""


@lean
def squirt(side: float, prm: np.ndarray) -> float:
    """The squirt angle in rad (positive to the left of the aim for right english)."""
    s = side
    one = 1.0 - s * s
    num = 2.5 * s * math.sqrt(one if one > 0.0 else 0.0)
    den = 1.0 + prm[P_M] / prm[P_CUE_END] + 2.5 * (1.0 - s * s)
    angle: float = math.atan(num / den)
    return angle


@lean
def strike(
    speed: float,
    aim: float,
    elevation: float,
    side: float,
    height: float,
    prm: np.ndarray,
    out: np.ndarray,
) -> float:
    """Write the cue ball's v and w after the stroke into ``out[1]`` and ``out[2]``.

    Returns the height (m) of the tip's lowest reach above the cloth: negative for a scoop
    (the cue would dig under the ball), which the caller refuses.
    """
    R = prm[P_R]
    m = prm[P_M]
    ce = math.cos(elevation)
    se = math.sin(elevation)
    ca = math.cos(aim)
    sa = math.sin(aim)
    d0 = ce * ca  # the cue axis
    d1 = ce * sa
    d2 = -se
    r0 = sa  # the cue's right
    r1 = -ca
    r2 = 0.0
    u0 = r1 * d2 - r2 * d1  # up = right x d
    u1 = r2 * d0 - r0 * d2
    u2 = r0 * d1 - r1 * d0
    j = m * speed / ce
    k = j * R / (0.4 * m * R * R)
    rxd0 = r1 * d2 - r2 * d1
    rxd1 = r2 * d0 - r0 * d2
    rxd2 = r0 * d1 - r1 * d0
    uxd0 = u1 * d2 - u2 * d1
    uxd1 = u2 * d0 - u0 * d2
    uxd2 = u0 * d1 - u1 * d0
    out[2, 0] = k * (side * rxd0 + height * uxd0)
    out[2, 1] = k * (side * rxd1 + height * uxd1)
    out[2, 2] = k * (side * rxd2 + height * uxd2)
    heading = aim + squirt(side, prm)
    out[1, 0] = speed * math.cos(heading)
    out[1, 1] = speed * math.sin(heading)
    out[1, 2] = 0.0
    deep = 1.0 - side * side - height * height
    depth = math.sqrt(deep if deep > 0.0 else 0.0)
    low: float = R * (1.0 + height * u2 - depth * d2) - CUE_TIP_RADIUS * ce
    down = speed * se / ce  # into the slate
    if down > 0.0:
        rebound = prm[P_ES] * down
        if rebound >= prm[P_HOP]:
            cloth_friction(out, rebound, prm)  # the rebound's impulse only (module docstring)
            out[1, 2] = rebound
    return low


@entry
def velocities(
    speed: float, aim: float, elevation: float, side: float, height: float, prm: np.ndarray
) -> tuple[float, float, np.ndarray]:
    """The stroke from Python: (lowest reach of the tip in m, squirt angle in rad, state).

    The state is a (3, 3) array: row 0 zero, rows 1 and 2 the cue ball's v and w.
    """
    out = np.zeros((3, 3))
    low = strike(speed, aim, elevation, side, height, prm, out)
    return low, squirt(side, prm), out
