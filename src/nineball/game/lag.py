"""The lag for the first break (D12).

Each player drives a cue ball from behind the head string to the foot cushion and back; the ball
that stops nearer the head cushion wins the choice of the first break.
"""

from __future__ import annotations

from dataclasses import dataclass

from nineball.equipment import BallId
from nineball.game.layout import Point
from nineball.physics import (
    BallInput,
    EventKind,
    MotionState,
    PhysicsParams,
    Stroke,
    TableSpec,
    simulate,
)
from nineball.rules import Seat

__all__ = ["LAG_SPOTS", "LagResult", "lag", "lag_spot"]

LAG_SPOTS = (0.3, 0.97)
"""x (m) of each player's lag ball, seats 0 and 1, behind the head string at y = 0.5 m."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LagResult:
    """How a lag went."""

    winner: Seat | None
    """Who won it (None: a tie or both failed; lag again)."""
    distances: tuple[float | None, float | None]
    """Each ball's distance (m) from the head cushion, None for a failed lag."""


def lag_spot(seat: Seat) -> Point:
    """Where the player in ``seat`` lags from."""
    return (LAG_SPOTS[seat], 0.5)


def _one(stroke: Stroke, start: Point, table: TableSpec, params: PhysicsParams) -> float | None:
    trajectory = simulate([BallInput(id=0, r=start)], stroke=stroke, table=table, params=params)
    final = trajectory.final_states()[int(BallId.CUE)]
    touched_foot = any(
        e.kind is EventKind.CUSHION and e.cushion == "foot" for e in trajectory.events()
    )
    if final.motion in (MotionState.POCKETED, MotionState.OFF_TABLE) or not touched_foot:
        return None
    return final.r[1] - params.radius


def lag(strokes: tuple[Stroke, Stroke], table: TableSpec, params: PhysicsParams) -> LagResult:
    """Simulate both lag strokes (each ball alone on the table) and say who won.

    A ball fails when it does not reach the foot cushion or ends in a pocket.
    """
    a, b = (
        _one(stroke, lag_spot(seat), table, params)
        for seat, stroke in zip(Seat, strokes, strict=True)
    )
    winner: Seat | None
    if (a is None and b is None) or a == b:
        winner = None
    elif b is None or (a is not None and a < b):
        winner = Seat.FIRST
    else:
        winner = Seat.SECOND
    return LagResult(winner=winner, distances=(a, b))
