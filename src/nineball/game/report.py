"""What a stroke of a match did (:class:`ShotReport`), and a stroke on its way to the table."""

from __future__ import annotations

from dataclasses import dataclass

from nineball.equipment import BallId, Point
from nineball.game.position import Position
from nineball.game.record import ShotRecord, StrokeRecord
from nineball.game.step import ShotOutcome
from nineball.physics import Stroke, Trajectory
from nineball.rules import Ruling, ShotFacts

__all__ = ["PendingStroke", "ShotReport"]


@dataclass(frozen=True, slots=True)
class ShotReport:
    """What one stroke of a match did, and how the record keeps it."""

    outcome: ShotOutcome
    """The step's outcome: the trajectory, the facts, the ruling, the position after."""
    shot: ShotRecord
    """The entry as recorded."""

    @property
    def trajectory(self) -> Trajectory:
        """Every event and state, for animation and analysis."""
        return self.outcome.trajectory

    @property
    def facts(self) -> ShotFacts:
        """What the referee was told."""
        return self.outcome.facts

    @property
    def ruling(self) -> Ruling:
        """The referee's decision."""
        return self.outcome.ruling

    @property
    def layout(self) -> dict[BallId, Point]:
        """The balls on the table afterwards (9 respotted; a new rack when a game ended)."""
        return dict(self.outcome.after.layout)


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingStroke:
    """A stroke of a match checked and noised, to be played (``Match.strike``'s middle)."""

    position: Position
    stroke: Stroke
    recorded: StrokeRecord
    intended: StrokeRecord | None
    push_out: bool
    safety: bool
