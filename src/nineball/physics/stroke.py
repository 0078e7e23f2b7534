"""The cue strike: from a stroke (speed, aim, elevation, tip offset) to the cue ball's v and w.

Model: a rigid, instantaneous impulse J along the cue axis d through the tip's contact point on
the ball (Leckie & Greenspan's cue strike; Alciatore TP A.30 for spin from tip offset). The
contact point is R (side * right + height * up - sqrt(1 - side^2 - height^2) * d), where right
and up are perpendicular to the cue. The ball gets v = J/m and w = (r_c x J) / I with
I = 2/5 m R^2: its horizontal speed is ``speed``, its spin comes from the whole J (so an
elevated cue gives massé and swerve spin), and an elevated cue drives it down into the slate at
``speed`` tan(elevation).

The slate (Dr. Dave Alciatore's jump-shot analysis: the cue ball is driven into the bed and
bounces off it): the ball rebounds at e_slate times that downward speed, and the friction of the
cloth contact (mu_slide, capped at the impulse that makes the ball roll) acts against the
contact's slip with the normal impulse (1 + e_slate) m v_down. If the rebound is slower than
``hop_below`` the slate takes the whole vertical impulse and the ball stays on the cloth, with
no friction impulse (a nearly level cue: the planar stroke). Otherwise the ball leaves the cloth:
a jump, or the hop of a hard break with a slightly raised cue.

Scoop: the tip can only meet the ball where the cue's end stays above the cloth. A contact point
lower than that (its normal pointing down toward the slate, so low that the cue's end, a disc of
``CUE_TIP_RADIUS`` around the cue's axis, would be in the slate) can only be reached by digging
the tip under the ball: a scoop, refused as a miscue (WPA: scooping the cue ball is illegal).
Within the default miscue limit (half the radius) the cue reaches every contact point, so this
matters only with a larger ``miscue_limit``; elevated draw shots that hop the ball (Dr. Dave,
TP B.10) are legal strokes, not scoops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.errors import InvalidInputError
from nineball.physics.params import PhysicsParams

__all__ = ["CUE_TIP_RADIUS", "MAX_ELEVATION", "MAX_SPEED", "Stroke"]

MAX_SPEED = 20.0
"""Largest cue-ball speed accepted, in m/s (the hardest recorded breaks are about 14 m/s)."""

MAX_ELEVATION = math.radians(80.0)
"""Largest cue elevation accepted, in rad (80 deg)."""

CUE_TIP_RADIUS = 0.0065
"""Radius of the cue's tip in m, for the scoop test: 6.5 mm (a 13 mm tip; shafts are commonly
12.5-13.5 mm at the tip)."""


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
            InvalidInputError: a non-finite value, a speed outside [0, MAX_SPEED] or an
                elevation out of range.
        """
        for name in ("speed", "aim", "elevation", "side", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidInputError(f"stroke {name!r} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise InvalidInputError(f"stroke {name!r} must be finite, got {value!r}")
        if not 0.0 <= self.speed <= MAX_SPEED:
            raise InvalidInputError(
                f"stroke 'speed' must be in [0, {MAX_SPEED!r}] m/s, got {self.speed!r}"
            )
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

        The vertical velocity is the slate's rebound (0 when the ball stays on the cloth).

        Raises:
            InvalidInputError: the tip offset is beyond the miscue limit, or a scoop.
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
        # the contact point's height above the cloth, less the reach of the cue's end below it
        depth = math.sqrt(max(0.0, 1.0 - self.side**2 - self.height**2))
        low = R * (1.0 + self.height * up[2] - depth * d[2]) - CUE_TIP_RADIUS * ce
        if low < 0.0:
            raise InvalidInputError(
                f"miscue: scoop, the cue cannot reach a contact {-low * 1000:.3g} mm that low "
                f"without digging under the ball (elevation={math.degrees(self.elevation):.3g} "
                f"deg, height={self.height!r})"
            )
        down = self.speed * se / ce  # into the slate
        if down > 0.0:
            _slate_bounce(v, w, down, params)
        return v, w


def _slate_bounce(
    v: NDArray[np.float64], w: NDArray[np.float64], down: float, params: PhysicsParams
) -> None:
    """The slate's response to a ball driven into it at ``down`` m/s by the cue, in place.

    The ball rebounds at v_z = e_slate down; a rebound slower than ``hop_below`` is absorbed
    (v_z = 0: the ball stays on the cloth). During the cue's impact the slate's normal impulse
    that stops the ball's downward motion, m down, carries no friction: the ball leaves along
    the cue's line plus squirt, and a massé or swerve then curves on the cloth while the ball
    slides (Alciatore's massé technical proofs; Jewett, "Massé 101"). The rebound's impulse,
    m v_z, acts with friction (mu_slide, against the contact's slip, capped at the impulse that
    makes it roll), as at every later bounce (``resolve.slate``). Why that split: a ball that
    barely hops makes a series of small bounces whose friction adds up to the cloth's over the
    same time less mu_slide m v_z; with the rebound's friction at the strike the two sides of
    ``hop_below`` agree over that series, so the outcome is continuous in elevation.
    """
    R = params.radius
    rebound = params.e_slate * down
    if rebound < params.hop_below:
        return
    ux, uy = v[0] - R * w[1], v[1] + R * w[0]
    un = math.hypot(ux, uy)
    if un > 0.0:
        f = min(params.mu_slide * rebound, 2.0 / 7.0 * un)
        fx, fy = -f * ux / un, -f * uy / un
        v[0] += fx
        v[1] += fy
        w[0] += 2.5 * fy / R
        w[1] -= 2.5 * fx / R
    v[2] = rebound
