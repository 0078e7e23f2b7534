"""What a player's cue can do: the limits every interface offers and checks, written once.

The physics accepts any stroke it can model (up to :data:`nineball.physics.stroke.MAX_SPEED`);
a player's cue delivers less. The web page's controls, its protocol's checks and the
environments' action encodings all take their ranges from :func:`stroke_limits`, and the page
receives them from the server instead of restating them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from nineball.errors import InvalidInputError
from nineball.physics import PhysicsParams, Stroke
from nineball.physics.stroke import MAX_ELEVATION

__all__ = ["PLAYER_MAX_SPEED", "StrokeLimits", "stroke_limits"]

PLAYER_MAX_SPEED = 12.0
"""The fastest cue ball a player's stroke gives, m/s: the hardest breaks measured are 9.8-11.6
m/s (a pro break, Alciatore; high-speed video of tournament breaks)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StrokeLimits:
    """The ranges of a player's stroke (SI units; angles in rad)."""

    max_speed: float
    """The fastest cue ball, m/s."""
    max_elevation: float
    """The steepest cue, rad (a massé is played near vertical)."""
    miscue_limit: float
    """The largest tip offset from the ball's centre, a fraction of R: a disc, not a square
    (:attr:`nineball.physics.PhysicsParams.miscue_limit`)."""

    def check(self, stroke: Stroke) -> None:
        """Refuse a stroke outside the limits, naming the value.

        Raises:
            InvalidInputError: a speed, elevation or tip offset out of range.
        """
        if stroke.speed > self.max_speed:
            raise InvalidInputError(
                f"stroke 'speed' must be at most {self.max_speed} m/s, got {stroke.speed!r}"
            )
        if stroke.elevation > self.max_elevation:
            raise InvalidInputError(
                f"stroke 'elevation' must be at most {math.degrees(self.max_elevation):.0f} "
                f"deg, got {math.degrees(stroke.elevation)!r} deg"
            )
        if stroke.offset > self.miscue_limit:
            raise InvalidInputError(
                f"the tip offset ({stroke.side!r}, {stroke.height!r}) lies {stroke.offset:.3f} R "
                f"from the centre, beyond the miscue limit of {self.miscue_limit} R"
            )

    def as_json(self) -> dict[str, float]:
        """The limits as the page receives them (degrees at this edge)."""
        return {
            "max_speed": self.max_speed,
            "max_elevation_deg": math.degrees(self.max_elevation),
            "miscue_limit": self.miscue_limit,
        }


def stroke_limits(params: PhysicsParams | None = None) -> StrokeLimits:
    """The limits of a player's stroke on a table with ``params``."""
    params = params or PhysicsParams()
    return StrokeLimits(
        max_speed=PLAYER_MAX_SPEED, max_elevation=MAX_ELEVATION, miscue_limit=params.miscue_limit
    )
