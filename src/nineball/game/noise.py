"""Execution noise: the gap between the stroke a player chooses and the stroke it plays.

The computational-pool model (docs/players.md; the FastFiz tournament setting): independent
Gaussian errors on the aim, the cue elevation, the cue speed and both tip offsets. The game
applies it, not the player, so every player is held to the same physics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nineball.errors import InvalidInputError
from nineball.physics import PhysicsParams, Stroke
from nineball.physics.stroke import MAX_ELEVATION, MAX_SPEED

__all__ = ["TOURNAMENT_NOISE", "ExecutionNoise"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ExecutionNoise:
    """Standard deviations of the execution errors."""

    aim: float
    """Of the aim, rad."""
    elevation: float
    """Of the cue elevation, rad."""
    speed: float
    """Of the cue ball's speed, m/s."""
    side: float
    """Of the side tip offset, fraction of R."""
    height: float
    """Of the height tip offset, fraction of R."""

    def __post_init__(self) -> None:
        """Check the deviations.

        Raises:
            InvalidInputError: a negative or non-finite deviation.
        """
        for name in ("aim", "elevation", "speed", "side", "height"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise InvalidInputError(
                    f"noise {name!r} must be a finite number >= 0, got {value!r}"
                )

    def scaled(self, factor: float) -> ExecutionNoise:
        """Every deviation times ``factor`` (the 2011 "high noise" event used 5)."""
        return ExecutionNoise(
            aim=self.aim * factor,
            elevation=self.elevation * factor,
            speed=self.speed * factor,
            side=self.side * factor,
            height=self.height * factor,
        )

    def apply(self, stroke: Stroke, rng: np.random.Generator, params: PhysicsParams) -> Stroke:
        """The stroke as played: ``stroke`` plus one draw of the errors from ``rng``.

        Speed and elevation stay in range, and the tip offset inside the miscue limit (a player
        whose hand wobbles past it still strikes the ball, at the edge of the tip's grip).
        """
        d_aim, d_elev, d_speed, d_side, d_height = rng.standard_normal(5)
        side = stroke.side + self.side * d_side
        height = stroke.height + self.height * d_height
        limit = params.miscue_limit * (1.0 - 1e-9)
        offset = math.hypot(side, height)
        if offset > limit:
            side, height = side * limit / offset, height * limit / offset
        return Stroke(
            speed=min(MAX_SPEED, max(0.0, stroke.speed + self.speed * d_speed)),
            aim=stroke.aim + self.aim * d_aim,
            elevation=min(MAX_ELEVATION, max(0.0, stroke.elevation + self.elevation * d_elev)),
            side=side,
            height=height,
        )


TOURNAMENT_NOISE = ExecutionNoise(
    aim=math.radians(0.125),
    elevation=math.radians(0.1),
    speed=0.075,
    side=0.0005 / 0.028575,
    height=0.0005 / 0.028575,
)
"""The computational-pool tournament noise: 0.125 deg, 0.1 deg, 0.075 m/s, 0.5 mm, 0.5 mm."""
