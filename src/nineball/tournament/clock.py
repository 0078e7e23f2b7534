"""The shot clock of a table: a count per shot, and extensions each player may call per rack.

A value: every change returns a new :class:`ShotClock`, given the time it happens (seconds from
any origin, e.g. ``time.monotonic()``), so it is tested without waiting. The scorer starts the
count when the balls stop, a player may call an extension (``ShotClockRule.extensions`` per rack
each), and the count can be stopped; a new rack gives both players their extensions back.

>>> from nineball.tournament.config import ShotClockRule
>>> clock = ShotClock(rule=ShotClockRule(seconds=30, extension=30, extensions=1))
>>> clock = clock.start(now=100.0, rack=1).extend(0, now=110.0)
>>> clock.remaining(now=112.0), clock.extensions_left
(48.0, (0, 1))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from nineball.errors import IllegalActionError, InvalidInputError
from nineball.tournament.config import ShotClockRule

__all__ = ["ShotClock"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotClock:
    """The shot clock of one table."""

    rule: ShotClockRule
    rack: int = 0
    """The rack whose extensions are counted."""
    started: float | None = None
    """When the running count started (None: stopped)."""
    allowed: float = 0.0
    """The seconds the current shot is allowed, extensions included."""
    left_when_stopped: float | None = None
    """The seconds left when the count was stopped (None: never started)."""
    used: tuple[int, int] = (0, 0)
    """The extensions each player called in this rack."""

    @property
    def running(self) -> bool:
        """True while the count runs."""
        return self.started is not None

    @property
    def extensions_left(self) -> tuple[int, int]:
        """The extensions each player may still call in this rack."""
        return (self.rule.extensions - self.used[0], self.rule.extensions - self.used[1])

    def remaining(self, *, now: float) -> float:
        """Seconds left for the shot (negative once the time is up)."""
        if self.started is None:
            return self.rule.seconds if self.left_when_stopped is None else self.left_when_stopped
        return self.allowed - (now - self.started)

    def start(self, *, now: float, rack: int) -> ShotClock:
        """A new shot's count from ``now``; a new ``rack`` gives the extensions back."""
        used = self.used if rack == self.rack else (0, 0)
        return replace(
            self,
            rack=rack,
            started=now,
            allowed=float(self.rule.seconds),
            used=used,
            left_when_stopped=None,
        )

    def extend(self, seat: int, *, now: float) -> ShotClock:
        """The player in ``seat`` (0 or 1) calls an extension.

        Raises:
            InvalidInputError: a seat other than 0 or 1.
            IllegalActionError: the count is not running, or the player has none left.
        """
        if seat not in (0, 1) or isinstance(seat, bool):
            raise InvalidInputError(f"a player is 0 or 1, got {seat!r}")
        if self.started is None:
            raise IllegalActionError("the shot clock is not running: start it first")
        if self.extensions_left[seat] <= 0:
            raise IllegalActionError(
                f"player {seat + 1} has no extension left in this rack "
                f"({self.rule.extensions} a rack)"
            )
        used = (self.used[0] + (seat == 0), self.used[1] + (seat == 1))
        return replace(self, allowed=self.allowed + self.rule.extension, used=used)

    def stop(self, *, now: float) -> ShotClock:
        """Stop the count where it is."""
        return replace(self, started=None, left_when_stopped=self.remaining(now=now))

    def to_json(self, *, now: float) -> dict[str, object]:
        """What a page shows: the seconds left, whether it runs, the extensions left."""
        return {
            "seconds": self.rule.seconds,
            "extension": self.rule.extension,
            "running": self.running,
            "remaining": round(self.remaining(now=now), 2),
            "extensions_left": list(self.extensions_left),
        }
