"""The cue strike: from a stroke (speed, aim, elevation, tip offset) to the cue ball's v and w.

Model: a rigid, instantaneous impulse J along the cue axis d through the tip's contact point on
the ball (Leckie & Greenspan's cue strike; Alciatore TP A.30 for spin from tip offset). The
contact point is R (side * right + height * up - sqrt(1 - side^2 - height^2) * d), where right
and up are perpendicular to the cue. The ball gets v = J/m and w = (r_c x J) / I with
I = 2/5 m R^2. The vertical part of J (an elevated cue pushes the ball into the slate) is taken
by the slate: the ball's horizontal speed is ``speed`` and its spin comes from the whole J
(so an elevated cue gives massé spin). Jumps are not modelled.

Squirt: side english deflects the cue ball away from the side hit by
atan(5/2 s sqrt(1 - s^2) / (1 + m/m_e + 5/2 (1 - s^2))) with s the side offset and m_e the cue's
end mass (Alciatore TP A.31). Miscue: a tip offset beyond ``PhysicsParams.miscue_limit`` (half
the radius, Dr. Dave) is refused with :class:`nineball.errors.InvalidInputError`; the engine does
not simulate miscues (a miscue is a failed stroke, not an event).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.errors import InvalidInputError
from nineball.physics.params import PhysicsParams

__all__ = ["MAX_ELEVATION", "Stroke"]

MAX_ELEVATION = math.radians(80.0)
"""Largest cue elevation accepted, in rad (80 deg)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Stroke:
    """A cue strike on the cue ball (ball 0) at t = 0."""

    speed: float
    """The cue ball's horizontal speed just after the stroke, in m/s (>= 0)."""
    aim: float = math.pi / 2
    """The cue's direction in the table plane, counter-clockwise from +x, in rad."""
    elevation: float = 0.0
    """Elevation of the cue's butt above horizontal, in rad, in [0, 80 deg]."""
    side: float = 0.0
    """Tip offset to the right of centre, as a fraction of R (right english positive)."""
    height: float = 0.0
    """Tip offset above centre, as a fraction of R (follow positive, draw negative)."""

    def __post_init__(self) -> None:
        """Validate the stroke.

        Raises:
            InvalidInputError: a non-finite value, a negative speed or an elevation out of range.
        """
        for name in ("speed", "aim", "elevation", "side", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidInputError(f"stroke {name!r} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise InvalidInputError(f"stroke {name!r} must be finite, got {value!r}")
        if self.speed < 0.0:
            raise InvalidInputError(f"stroke 'speed' must be >= 0 m/s, got {self.speed!r}")
        if not 0.0 <= self.elevation <= MAX_ELEVATION:
            raise InvalidInputError(
                f"stroke elevation must be in [0, 80] deg, got {math.degrees(self.elevation)!r}"
            )

    @property
    def offset(self) -> float:
        """Distance of the tip's contact from the ball's axis, as a fraction of R."""
        return math.hypot(self.side, self.height)

    def squirt(self, params: PhysicsParams) -> float:
        """The squirt angle in rad (positive to the left of the aim for right english)."""
        s = self.side
        num = 2.5 * s * math.sqrt(max(0.0, 1.0 - s * s))
        den = 1.0 + params.mass / params.cue_endmass + 2.5 * (1.0 - s * s)
        return math.atan(num / den)

    def ball_velocities(self, params: PhysicsParams) -> tuple[NDArray[np.float64], ...]:
        """The cue ball's velocity (m/s) and angular velocity (rad/s) just after the stroke.

        Raises:
            InvalidInputError: the tip offset is beyond the miscue limit.
        """
        if self.offset > params.miscue_limit:
            raise InvalidInputError(
                f"miscue: tip offset {self.offset:.3g} R is beyond the miscue limit "
                f"{params.miscue_limit!r} R (side={self.side!r}, height={self.height!r})"
            )
        R, m = params.radius, params.mass
        ce, se = math.cos(self.elevation), math.sin(self.elevation)
        ca, sa = math.cos(self.aim), math.sin(self.aim)
        d = (ce * ca, ce * sa, -se)  # cue axis
        right = (sa, -ca, 0.0)
        up = (  # right x d
            right[1] * d[2] - right[2] * d[1],
            right[2] * d[0] - right[0] * d[2],
            right[0] * d[1] - right[1] * d[0],
        )
        # w = (r_c x J) / I with r_c = R (side right + height up - depth d) and J = j d: the
        # depth term is parallel to J and drops out exactly (no spin from a centre hit)
        j = m * self.speed / ce
        k = j * R / (0.4 * m * R * R)
        rxd = (
            right[1] * d[2] - right[2] * d[1],
            right[2] * d[0] - right[0] * d[2],
            right[0] * d[1] - right[1] * d[0],
        )
        uxd = (
            up[1] * d[2] - up[2] * d[1],
            up[2] * d[0] - up[0] * d[2],
            up[0] * d[1] - up[1] * d[0],
        )
        w = np.array([k * (self.side * rxd[q] + self.height * uxd[q]) for q in range(3)])
        heading = self.aim + self.squirt(params)
        v = np.array([self.speed * math.cos(heading), self.speed * math.sin(heading), 0.0])
        return v, w
