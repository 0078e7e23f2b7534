"""The cue strike: from a stroke (speed, aim, elevation, tip offset) to the cue ball's v and w.

Model: a rigid, instantaneous impulse J along the cue axis d through the tip's contact point on
the ball (Leckie & Greenspan's cue strike; Alciatore TP A.30 for spin from tip offset). The
contact point is R (side * right + height * up - sqrt(1 - side^2 - height^2) * d), where right
and up are perpendicular to the cue. The ball gets v = J/m and w = (r_c x J) / I with
I = 2/5 m R^2: its horizontal speed is ``speed``, its spin comes from the whole J (so an
elevated cue gives massé and swerve spin), and an elevated cue drives it down into the slate at
``speed`` tan(elevation).

The slate (Dr. Dave Alciatore's jump-shot analysis: the cue ball is driven into the bed and
bounces off it): the ball rebounds at e_slate times that downward speed. During the cue's impact
the slate's normal impulse that stops the ball's downward motion, m v_down, carries no friction:
the ball leaves along the cue's line plus squirt, and a massé or swerve then curves on the cloth
while the ball slides (Alciatore's massé technical proofs; Jewett, "Massé 101"). The rebound's
impulse, m v_z, acts with friction (mu_slide, against the contact's slip, capped at the impulse
that makes it roll), as at every later bounce (``resolve.slate_inplace``). Why that split: a
ball that barely hops makes a series of small bounces whose friction adds up to the cloth's
over the same time less mu_slide m v_z; with the rebound's friction at the strike the two sides
of ``hop_below`` agree over that series, so the outcome is continuous in elevation. If the
rebound is slower than ``hop_below`` the slate takes the whole vertical impulse and the ball
stays on the cloth, with no friction impulse (a nearly level cue: the planar stroke). Otherwise
the ball leaves the cloth: a jump, or the hop of a hard break with a slightly raised cue.

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
from nineball.physics._kernels.constants import MAX_SPEED
from nineball.physics._kernels.strike import CUE_TIP_RADIUS, velocities
from nineball.physics.kit import param_vector
from nineball.physics.params import PhysicsParams
from nineball.physics.table import nine_foot

__all__ = ["CUE_TIP_RADIUS", "MAX_ELEVATION", "MAX_SPEED", "Stroke"]

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
            InvalidInputError: a non-finite value, a speed outside [0, MAX_SPEED] or an
                elevation out of range.
        """
        speed, elevation, f = self.speed, self.elevation, float
        if (
            type(speed) is f
            and type(self.aim) is f
            and type(elevation) is f
            and type(self.side) is f
            and type(self.height) is f
            and math.isfinite(speed + self.aim + elevation + self.side + self.height)
            and 0.0 <= speed <= MAX_SPEED
            and 0.0 <= elevation <= MAX_ELEVATION
        ):
            return  # the common case, at once: five finite floats in range (a search makes many)
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
        return self._kernel(params)[1]

    def ball_velocities(self, params: PhysicsParams) -> tuple[NDArray[np.float64], ...]:
        """The cue ball's velocity (m/s) and angular velocity (rad/s) just after the stroke.

        The vertical velocity is the slate's rebound (0 when the ball stays on the cloth). The
        model is the kernel's (``physics/_kernels/strike.py``), which the engine runs too.

        Raises:
            InvalidInputError: the tip offset is beyond the miscue limit, or a scoop.
        """
        if self.offset > params.miscue_limit:
            raise InvalidInputError(
                f"miscue: tip offset {self.offset:.3g} R is beyond the miscue limit "
                f"{params.miscue_limit!r} R (side={self.side!r}, height={self.height!r})"
            )
        low, _, state = self._kernel(params)
        if low < 0.0:
            raise InvalidInputError(
                f"miscue: scoop, the cue cannot reach a contact {-low * 1000:.3g} mm that low "
                f"without digging under the ball (elevation={math.degrees(self.elevation):.3g} "
                f"deg, height={self.height!r})"
            )
        return state[1].copy(), state[2].copy()

    def _kernel(self, params: PhysicsParams) -> tuple[float, float, NDArray[np.float64]]:
        prm = param_vector(params, nine_foot())
        return velocities(self.speed, self.aim, self.elevation, self.side, self.height, prm)
