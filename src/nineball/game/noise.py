"""Execution noise: the gap between the stroke a player chooses and the stroke it plays.

The computational-pool model (docs/players.md; the FastFiz tournament setting): independent
Gaussian errors on the aim, the cue elevation, the cue speed and both tip offsets. The game
applies it, not the player, so every player is held to the same physics.

The noise classes (:data:`NOISE_CLASSES`) are those of the computational-pool olympiads: the
tournament noise of the 2006-2008 olympiads (the "low noise" of the 2011 championships), the
2011 "high noise" (five times the deviations) and the 2011 "variable noise" (a multiple drawn
between 0 and 5 for every two games), and no noise at all (docs/engine-protocol.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nineball.errors import InvalidInputError
from nineball.game.streams import Streams
from nineball.physics import PhysicsParams, Stroke
from nineball.physics.stroke import MAX_ELEVATION, MAX_SPEED

__all__ = [
    "HIGH_NOISE",
    "NOISE_CLASSES",
    "PLAYER_NOISE_GROWTH",
    "REFERENCE_SPEED",
    "TOURNAMENT_NOISE",
    "ExecutionNoise",
    "NoiseClass",
    "find_noise_class",
]


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
    growth: float = 0.0
    """How the deviations of the aim, the speed and the tip offsets grow with the stroke's
    speed v (a player's hand is less exact when it moves faster): each is multiplied by
    ``1 + growth * (v - REFERENCE_SPEED) / REFERENCE_SPEED`` (:meth:`factor`), from
    ``1 - growth`` for a stroke at rest to 1 at the reference speed and more above it; the
    elevation (set by the bridge, not the stroke) does not grow. From 0 (the olympiads'
    constant deviations) to 1."""

    def __post_init__(self) -> None:
        """Check the deviations.

        Raises:
            InvalidInputError: a negative or non-finite deviation, or a growth outside [0, 1].
        """
        for name in ("aim", "elevation", "speed", "side", "height"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise InvalidInputError(
                    f"noise {name!r} must be a finite number >= 0, got {value!r}"
                )
        growth = self.growth
        if not (isinstance(growth, int | float) and 0.0 <= growth <= 1.0):
            raise InvalidInputError(f"noise 'growth' must be a number in [0, 1], got {growth!r}")

    def factor(self, speed: float) -> float:
        """The multiple of the aim, speed and tip deviations for a stroke at ``speed`` m/s.

        >>> TOURNAMENT_NOISE.factor(8.0)
        1.0
        >>> grows = ExecutionNoise(aim=0.002, elevation=0, speed=0.05, side=0, height=0, growth=0.5)
        >>> grows.factor(0.5), grows.factor(2.0), grows.factor(8.0)
        (0.625, 1.0, 2.5)
        """
        return 1.0 + self.growth * (speed - REFERENCE_SPEED) / REFERENCE_SPEED

    def scaled(self, factor: float) -> ExecutionNoise:
        """Every deviation times ``factor`` (the 2011 "high noise" event used 5)."""
        return ExecutionNoise(
            aim=self.aim * factor,
            elevation=self.elevation * factor,
            speed=self.speed * factor,
            side=self.side * factor,
            height=self.height * factor,
            growth=self.growth,
        )

    def apply(self, stroke: Stroke, rng: np.random.Generator, params: PhysicsParams) -> Stroke:
        """The stroke as played: ``stroke`` plus one draw of the errors from ``rng``.

        Speed and elevation stay in range, and the tip offset inside the miscue limit (a player
        whose hand wobbles past it still strikes the ball, at the edge of the tip's grip).
        """
        # as Python floats: the same values, and arithmetic without numpy's scalar overhead
        d_aim, d_elev, d_speed, d_side, d_height = rng.standard_normal(5).tolist()
        if self.growth != 0.0:
            grown = self.factor(stroke.speed)
            d_aim, d_speed, d_side, d_height = (
                d_aim * grown,
                d_speed * grown,
                d_side * grown,
                d_height * grown,
            )
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

REFERENCE_SPEED = 2.0
"""m/s: the speed at which a noise that grows with speed has its stated deviations (a medium
stroke: the speed of most pots)."""

PLAYER_NOISE_GROWTH = 0.5
"""The growth of the computer players' noise with the stroke's speed
(:attr:`ExecutionNoise.growth`): deviations 0.625 times the stated ones at 0.5 m/s, 2.5 times
at 8 m/s (a break). Schmidt's law of rapid aimed movements (Schmidt et al. 1979): the spread of
where a fast movement ends grows linearly with its speed, from a floor."""


HIGH_NOISE = TOURNAMENT_NOISE.scaled(5.0)
"""The 2011 championships' high noise: five times every tournament deviation."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NoiseClass:
    """A named execution noise for a whole match: a multiple of :data:`TOURNAMENT_NOISE`.

    >>> NOISE_CLASSES["high"].noise_for_game(seed=1, game=3) == HIGH_NOISE
    True
    """

    name: str
    """The class's name on the command line and the wire."""
    factor: float | None
    """The multiple of the tournament deviations (None: drawn per pair of games)."""
    low: float = 0.0
    """The smallest multiple a variable class draws."""
    high: float = 5.0
    """The largest multiple a variable class draws."""
    description: str = ""

    def factor_for_game(self, *, seed: int, game: int) -> float:
        """The multiple of the tournament noise in game ``game`` (from 1) of the match ``seed``.

        A variable class draws one multiple, uniformly in [low, high], for each pair of games
        (1-2, 3-4, ...: with alternating breaks each player breaks once at each level, as in
        the 2011 variable-noise competition) from the match's stream
        :meth:`nineball.game.Streams.noise_level`.
        """
        if self.factor is not None:
            return self.factor
        pair = (game + 1) // 2
        return float(Streams(seed).noise_level(pair).uniform(self.low, self.high))

    def noise_for_game(self, *, seed: int, game: int) -> ExecutionNoise:
        """The execution noise of game ``game`` of the match ``seed``."""
        return TOURNAMENT_NOISE.scaled(self.factor_for_game(seed=seed, game=game))


NOISE_CLASSES: dict[str, NoiseClass] = {
    each.name: each
    for each in (
        NoiseClass(
            name="tournament",
            factor=1.0,
            description="the olympiads' tournament noise (2011: low noise): 0.125 deg aim, "
            "0.1 deg elevation, 0.075 m/s, 0.5 mm tip offsets",
        ),
        NoiseClass(name="high", factor=5.0, description="the 2011 high noise: 5x tournament"),
        NoiseClass(
            name="variable",
            factor=None,
            description="the 2011 variable noise: 0-5x tournament, drawn for every two games",
        ),
        NoiseClass(name="none", factor=0.0, description="no execution noise"),
    )
}
"""The noise classes by name, the default (``tournament``) first."""


def find_noise_class(name: str) -> NoiseClass:
    """The noise class called ``name``.

    Raises:
        InvalidInputError: no class has that name.
    """
    try:
        return NOISE_CLASSES[name]
    except (KeyError, TypeError):
        known = ", ".join(NOISE_CLASSES)
        raise InvalidInputError(f"unknown noise class {name!r} (known: {known})") from None
