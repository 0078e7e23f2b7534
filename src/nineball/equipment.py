"""The names of the equipment shared by every layer: balls, pockets and points on the table.

Standard library only: the referee and the physics both import this module.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = ["BALLS", "OBJECT_BALLS", "BallId", "PocketId", "Point"]

Point = tuple[float, float]
"""A point of the table, a ball's centre: (x, y) in m, in the table frame of
docs/simulate-protocol.md (origin at the head-left corner of the cushion noses)."""


class BallId(IntEnum):
    """A ball of a nine-ball set: 0 is the cue ball, 1-9 the object balls."""

    CUE = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9

    @property
    def is_object_ball(self) -> bool:
        """True for the numbered balls 1-9."""
        return self is not BallId.CUE


BALLS: tuple[BallId, ...] = tuple(sorted(BallId))
"""The ten balls by number: ``BALLS[n]`` is ``BallId(n)`` for n in 0-9, a lookup where the
enum's call costs a microsecond (every ball of every stroke a search or an environment plays)."""

OBJECT_BALLS: tuple[BallId, ...] = BALLS[1:]
"""The nine object balls, in numerical order."""


class PocketId(StrEnum):
    """The six pockets, named from the head of the table (the breaking end) looking down it."""

    HEAD_LEFT = "head_left"
    HEAD_RIGHT = "head_right"
    SIDE_LEFT = "side_left"
    SIDE_RIGHT = "side_right"
    FOOT_LEFT = "foot_left"
    FOOT_RIGHT = "foot_right"
