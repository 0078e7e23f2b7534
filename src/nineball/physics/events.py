"""Events of a simulated shot, with the protocol's names."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from nineball.equipment import PocketId
from nineball.physics.state import MotionState

__all__ = ["BallState", "Event", "EventKind"]


class EventKind(StrEnum):
    """The kind of an event, named as on the wire (docs/simulate-protocol.md)."""

    STROKE = "stroke"
    """The cue strikes the cue ball at t = 0."""
    BALL_BALL = "ball_ball"
    """Two balls collide."""
    CUSHION = "cushion"
    """A ball hits a cushion nose, a pocket facing or a rounded point (jaw)."""
    POCKET = "pocket"
    """A ball's centre crosses a pocket's capture line: the ball drops."""
    SLIDE_ROLL = "slide_roll"
    """A sliding ball starts rolling."""
    ROLL_SPIN = "roll_spin"
    """A rolling ball stops translating but keeps spinning about the vertical."""
    ROLL_STOP = "roll_stop"
    """A rolling ball comes to rest."""
    SPIN_STOP = "spin_stop"
    """A spinning ball stops spinning."""
    AIRBORNE = "airborne"
    """A ball leaves the cloth: lifted by the stroke or an impact, or bouncing on the slate."""
    LAND = "land"
    """A ball in flight comes back to the cloth to stay (its rebound is below ``hop_below``)."""
    OFF_TABLE = "off_table"
    """A ball in flight passes over a cushion's nose or a pocket's rail: it has left the table."""

    @classmethod
    def from_code(cls, code: int) -> EventKind:
        """The kind for a kernel event code (the declaration order, from 0)."""
        return _ORDER[code]

    def is_collision(self) -> bool:
        """True for ball-ball and ball-cushion contacts."""
        return self in (EventKind.BALL_BALL, EventKind.CUSHION)

    def is_transition(self) -> bool:
        """True for changes of motion state without contact."""
        return self in (
            EventKind.SLIDE_ROLL,
            EventKind.ROLL_SPIN,
            EventKind.ROLL_STOP,
            EventKind.SPIN_STOP,
        )


_ORDER: tuple[EventKind, ...] = tuple(EventKind)


@dataclass(frozen=True, slots=True, kw_only=True)
class BallState:
    """A ball's state at one instant (table frame, SI units)."""

    r: tuple[float, float, float]
    """Centre position in m."""
    v: tuple[float, float, float]
    """Velocity in m/s."""
    w: tuple[float, float, float]
    """Angular velocity in rad/s."""
    motion: MotionState
    """Motion state."""
    pocket: PocketId | None = None
    """The pocket that holds the ball, if pocketed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One event of a shot and the states of the balls involved right after it."""

    time: float
    """Time since the stroke, in s."""
    kind: EventKind
    """What happened."""
    balls: tuple[int, ...]
    """The ball ids involved (one, or two for a ball-ball collision)."""
    states: tuple[BallState, ...]
    """The state of each ball of ``balls`` right after the event was resolved."""
    cushion: str | None = None
    """The cushion, facing or jaw hit (cushion events only)."""
    pocket: PocketId | None = None
    """The pocket (pocket events only)."""

    def has_ball(self, ball: int) -> bool:
        """True if ``ball`` is involved in the event."""
        return ball in self.balls
