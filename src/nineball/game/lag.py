"""The lag for the first break (D12).

Each player drives a cue ball from behind the head string to the foot cushion and back; the ball
that stops nearer the head cushion wins the choice of the first break.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from nineball.equipment import BallId, Point
from nineball.game.position import Position
from nineball.physics import (
    BallInput,
    EventKind,
    MotionState,
    PhysicsParams,
    Stroke,
    TableSpec,
    simulate,
)
from nineball.rules import MatchState, Seat

__all__ = ["LAG_SPOTS", "LagResult", "Lagger", "lag", "lag_for_break", "lag_spot"]

Lagger = Callable[[Position, np.random.Generator], Stroke]
"""Who lags: the stroke for the cue ball of the position (alone on the table), from a
generator (a computer player's ``lag`` method)."""

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


def lag_for_break(
    laggers: Sequence[Lagger],
    table: TableSpec,
    params: PhysicsParams,
    rng: np.random.Generator,
    *,
    attempts: int = 3,
) -> tuple[Seat, list[LagResult]]:
    """Lag for the first break (D12): up to ``attempts`` lags, then a coin toss from ``rng``.

    ``laggers[0]`` lags for seat 0 from :func:`lag_spot`, ``laggers[1]`` for seat 1.

    Returns:
        The winner of the lag and every lag played.
    """
    results: list[LagResult] = []
    for _ in range(attempts):
        strokes = tuple(
            laggers[seat](
                Position(
                    state=MatchState.start(),
                    layout={BallId.CUE: lag_spot(seat)},
                    table=table,
                    params=params,
                ),
                rng,
            )
            for seat in Seat
        )
        result = lag((strokes[0], strokes[1]), table, params)
        results.append(result)
        if result.winner is not None:
            return result.winner, results
    return Seat(int(rng.integers(2))), results
