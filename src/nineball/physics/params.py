"""Physical parameters of balls, cloth and cushions (SI units, validated, frozen).

Every field states its unit, its default and where the default comes from. The names are the
ones the simulation protocol's ``params`` object accepts (docs/simulate-protocol.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Literal

from nineball.errors import InvalidInputError

__all__ = ["ALCIATORE_FIT", "PhysicsParams"]

ALCIATORE_FIT: tuple[float, float, float] = (0.00995, 0.108, 1.088)
"""Ball-ball friction fit mu(v) = a + b exp(-c v), v the sliding speed at contact in m/s.

Source: D. G. Alciatore, TP A.14 "Cut-induced and spin-induced throw" (fit to measured data).
"""


_UPPER: dict[str, float] = {
    "mass": 10.0,
    "radius": 0.1,
    "g": 100.0,
    "mu_slide": 2.0,
    "mu_roll": 1.0,
    "spin_decel": 1000.0,
    "mu_cushion": 2.0,
    "cue_endmass": 10.0,
    "settle_below": 10.0,
    "hop_below": 10.0,
}
"""Upper bounds of the parameters (far beyond any real table, but finite: a value past them is
refused as input, not simulated into numbers that mean nothing)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PhysicsParams:
    """The physical parameters of the simulation, SI units throughout.

    Build variants with :meth:`with_overrides` (by protocol name) or ``dataclasses.replace``.
    """

    mass: float = 0.163
    """Ball mass m in kg. Default 0.163 kg (5.75 oz, the middle of WPA's 5.5-6 oz, spec 16)."""

    radius: float = 0.028575
    """Ball radius R in m. Default 0.028575 m (2.25 in ball, WPA spec 16)."""

    g: float = 9.81
    """Gravitational acceleration in m/s^2. Default 9.81."""

    mu_slide: float = 0.2
    """Ball-cloth sliding friction coefficient (dimensionless). Default 0.2 (Dr. Dave's physical
    properties page: 0.15-0.4; Leckie & Greenspan use 0.2)."""

    mu_roll: float = 0.01
    """Rolling resistance coefficient (dimensionless): a rolling ball decelerates at mu_roll g.
    Default 0.01 (Dr. Dave: 0.005-0.015; pooltool default 0.01)."""

    spin_decel: float = 10.9
    """Deceleration of the z-spin (about the vertical axis) in rad/s^2. Default 10.9
    (Dr. Dave: 5-15 rad/s^2; the reference value of docs/physics.md's acceptance checks)."""

    e_ball: float = 0.95
    """Ball-ball coefficient of restitution (dimensionless). Default 0.95 (Dr. Dave: 0.92-0.98)."""

    ball_friction: float | Literal["default"] = "default"
    """Ball-ball friction coefficient: ``"default"`` for Alciatore's speed-dependent fit
    (:data:`ALCIATORE_FIT`, TP A.14) or a constant (0.0 for frictionless balls)."""

    e_cushion: float = 0.85
    """Normal coefficient of restitution of the ball-cushion contact in Han's model
    (dimensionless). Default 0.85 (pooltool default for Han 2005; effective rail COR of a rolling
    ball comes out near 0.8, inside Dr. Dave's 0.6-0.9)."""

    mu_cushion: float = 0.2
    """Ball-cushion friction coefficient in Han's model (dimensionless). Default 0.2 (Han 2005;
    pooltool default)."""

    settle_below: float = 1e-5
    """Approach speed in m/s below which an impact first settles the cloth slip of every sliding
    ball in it (an instant slide-to-roll, recorded as a ``slide_roll`` event). Default 1e-5 m/s.
    A ball driven by its own spin into another ball or a cushion bounces off it ever more
    softly, ever faster (an inelastic collapse: infinitely many events in a finite time); in
    reality the two stay in contact while the cloth wears the slip away. Once the bounces are
    this slow the collapse is over in all but name, and settling the slip at once ends it; the
    bounces before that are simulated, so outcomes do not jump at the threshold (0.02 m/s, the
    old default, moved a ball by up to 7 mm as the approach crossed it; at 1e-5 a collapse
    takes at most about 50 events). Below 1e-6 m/s (a push that starts while two balls touch)
    the settling always happens, whatever this value, and the impact is perfectly inelastic
    (see docs/physics.md, "Resting contact and pushes")."""

    e_slate: float = 0.5
    """Coefficient of restitution of a ball bouncing on the slate (dimensionless). Default 0.5
    (Dr. Dave Alciatore's jump-shot analyses and physical-properties page: a ball bounces off the
    bed with about half its incoming vertical speed)."""

    hop_below: float = 0.25
    """Upward speed in m/s below which a ball does not leave the cloth. Default 0.25 m/s (engine
    policy): such a hop would rise at most 3.2 mm (v^2 / 2g) for at most 51 ms, far too low to
    clear a ball (2R = 57 mm) or a cushion nose (36 mm), and the cloth's compliance absorbs it.
    The vertical speed an impact gives a ball on the cloth (ball-ball friction with follow or
    draw stays below about 0.22 m/s at 8 m/s) and the slate's rebound of a cue stroke with a
    nearly level cue are absorbed, so ordinary shots stay planar; a slower rebound of a
    bouncing ball ends its flight (it lands)."""

    cue_endmass: float = 0.008
    """Effective end mass of the cue shaft in kg, for squirt. Default 0.008 kg (Dr. Dave's squirt
    measurements: typical shafts 5-10 g; TP A.31)."""

    miscue_limit: float = 0.5
    """Largest tip offset from the ball's centre, as a fraction of R, before a miscue.
    Default 0.5 (Dr. Dave: the miscue limit is about half the radius with a chalked tip)."""

    def __post_init__(self) -> None:
        """Validate every field.

        Raises:
            InvalidInputError: a value is not a finite number or is out of its range.
        """
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "ball_friction" and value == "default":
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidInputError(f"param {f.name!r} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise InvalidInputError(f"param {f.name!r} must be finite, got {value!r}")
        positive = ("mass", "radius", "g", "mu_slide", "mu_roll", "spin_decel", "cue_endmass")
        if self.settle_below < 0.0:
            raise InvalidInputError(f"param 'settle_below' must be >= 0, got {self.settle_below!r}")
        for name in positive:
            if getattr(self, name) <= 0.0:
                raise InvalidInputError(f"param {name!r} must be > 0, got {getattr(self, name)!r}")
        if self.hop_below <= 0.0:
            raise InvalidInputError(f"param 'hop_below' must be > 0, got {self.hop_below!r}")
        for name in ("e_ball", "e_cushion", "e_slate"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise InvalidInputError(
                    f"param {name!r} must be in [0, 1], got {getattr(self, name)!r}"
                )
        for name in ("mu_cushion",):
            if getattr(self, name) < 0.0:
                raise InvalidInputError(f"param {name!r} must be >= 0, got {getattr(self, name)!r}")
        if self.ball_friction != "default" and float(self.ball_friction) < 0.0:
            raise InvalidInputError(
                f"param 'ball_friction' must be >= 0, got {self.ball_friction!r}"
            )
        for name, top in _UPPER.items():
            if getattr(self, name) > top:
                raise InvalidInputError(
                    f"param {name!r} must be at most {top!r}, got {getattr(self, name)!r}"
                )
        if not 0.0 < self.miscue_limit < 1.0:
            raise InvalidInputError(
                f"param 'miscue_limit' must be in (0, 1), got {self.miscue_limit!r}"
            )

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The parameter names, as the protocol's ``params`` object accepts them."""
        return tuple(sorted(f.name for f in fields(cls)))

    def with_overrides(self, overrides: dict[str, object]) -> PhysicsParams:
        """Return a copy with the named parameters replaced.

        Args:
            overrides: parameter name to value (numbers, or ``"default"`` for ``ball_friction``).

        Raises:
            InvalidInputError: an unknown name or a bad value.
        """
        known = set(self.names())
        for name in overrides:
            if name not in known:
                raise InvalidInputError(
                    f"unknown param {name!r}; known params: {', '.join(sorted(known))}"
                )
        return replace(self, **overrides)  # type: ignore[arg-type]

    def ball_friction_coefficients(self) -> tuple[float, float, float]:
        """The ball-ball friction law as (a, b, c) in mu(v) = a + b exp(-c v)."""
        if self.ball_friction == "default":
            return ALCIATORE_FIT
        return (float(self.ball_friction), 0.0, 0.0)

    def ball_friction_at(self, slip_speed: float) -> float:
        """The ball-ball friction coefficient at a contact sliding speed in m/s."""
        a, b, c = self.ball_friction_coefficients()
        return a + b * math.exp(-c * slip_speed)
