"""Ball states: the MotionState enum and the (n, 3, 3) state arrays (r, v, w)."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["MotionState"]


class MotionState(IntEnum):
    """How a ball moves between events (Leckie & Greenspan's states, plus pocketed and flight)."""

    STATIONARY = 0
    """At rest: no translation and no spin."""
    SPINNING = 1
    """Not translating, spinning about the vertical axis only."""
    SLIDING = 2
    """Translating with its contact point slipping on the cloth."""
    ROLLING = 3
    """Translating without slip at the cloth."""
    POCKETED = 4
    """Captured by a pocket; no longer on the table."""
    AIRBORNE = 5
    """In flight above the cloth (falling freely, spin constant)."""
    OFF_TABLE = 6
    """Left the table (over a cushion or a pocket's rail); no longer in play."""

    @property
    def wire_name(self) -> str:
        """The protocol's name of the state (``"stationary"``, ...)."""
        return self.name.lower()

    @property
    def is_moving(self) -> bool:
        """True for sliding, rolling and airborne balls (the ones that translate)."""
        return self in (MotionState.SLIDING, MotionState.ROLLING, MotionState.AIRBORNE)
