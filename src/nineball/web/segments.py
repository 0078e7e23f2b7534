"""A trajectory as the browser draws it: per ball, pieces of constant-acceleration motion.

Between two events of a ball, the engine moves it in closed form (Leckie & Greenspan): a sliding
ball decelerates at mu_s g against its slip, a rolling ball at mu_r g against its velocity, and a
spinning or resting ball does not translate. Each piece is therefore exactly

    x(t) = x0 + vx (t - t0) + ax (t - t0)^2 / 2        (the same for y)

for t0 <= t <= t1, and the browser evaluates it without simulating anything. A pocketed ball
stays where it crossed the capture line (as :meth:`Trajectory.positions_at` says); the page then
shows it sinking into its pocket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import PocketId
from nineball.game import EventKind, MotionState, Trajectory

__all__ = ["Piece", "ball_pieces", "position_at", "trajectory_json"]

_POCKETS = tuple(PocketId)


@dataclass(frozen=True, slots=True, kw_only=True)
class Piece:
    """One ball's motion from ``t0`` to ``t1`` (s), with constant acceleration (m, m/s, m/s^2)."""

    t0: float
    t1: float
    x0: float
    y0: float
    vx: float
    vy: float
    ax: float
    ay: float
    z0: float = 0.0
    """Height of the ball's centre above the cloth's centre height (0 on the cloth), m."""
    vz: float = 0.0
    az: float = 0.0
    """-g in flight, else 0."""

    def as_list(self) -> list[float]:
        """The piece as the page reads it: ``[t0, t1, x0, y0, vx, vy, ax, ay, z0, vz, az]``."""
        return [
            self.t0, self.t1, self.x0, self.y0, self.vx, self.vy, self.ax, self.ay,
            self.z0, self.vz, self.az,
        ]  # fmt: skip


def _acceleration(
    rvw: NDArray[np.float64], motion: int, trajectory: Trajectory
) -> tuple[float, float]:
    """The constant acceleration (m/s^2) of a ball in ``motion`` from state ``rvw``."""
    params = trajectory.params
    if motion == MotionState.SLIDING:
        r = params.radius
        dx = float(rvw[1, 0] - r * rvw[2, 1])
        dy = float(rvw[1, 1] + r * rvw[2, 0])
        a = params.mu_slide * params.g
    elif motion == MotionState.ROLLING:
        dx, dy = float(rvw[1, 0]), float(rvw[1, 1])
        a = params.mu_roll * params.g
    else:
        return (0.0, 0.0)
    norm = math.sqrt(dx * dx + dy * dy)
    if norm == 0.0:
        return (0.0, 0.0)
    return (-a * dx / norm, -a * dy / norm)


def ball_pieces(trajectory: Trajectory, index: int) -> list[Piece]:
    """The pieces of motion of the ball at array ``index``, from 0 to the trajectory's end.

    Pieces of zero length (several events at one instant) are kept: the page skips them.
    """
    starts: list[tuple[float, NDArray[np.float64], int]] = [
        (0.0, trajectory.initial[index], int(trajectory.initial_motion[index]))
    ]
    for e in range(trajectory.times.shape[0]):
        if trajectory.first[e] == index:
            slot = 0
        elif trajectory.kinds[e] == _BALL_BALL and trajectory.second[e] == index:
            slot = 1
        else:
            continue
        starts.append(
            (float(trajectory.times[e]), trajectory.after[e, slot],
             int(trajectory.after_motion[e, slot]))
        )  # fmt: skip
    end = trajectory.duration
    pieces = []
    for q, (t0, rvw, motion) in enumerate(starts):
        t1 = starts[q + 1][0] if q + 1 < len(starts) else max(end, t0)
        moving = motion in (MotionState.SLIDING, MotionState.ROLLING, MotionState.AIRBORNE)
        flying = motion == MotionState.AIRBORNE
        ax, ay = _acceleration(rvw, motion, trajectory)
        pieces.append(
            Piece(
                t0=t0,
                t1=t1,
                x0=float(rvw[0, 0]),
                y0=float(rvw[0, 1]),
                vx=float(rvw[1, 0]) if moving else 0.0,
                vy=float(rvw[1, 1]) if moving else 0.0,
                ax=ax,
                ay=ay,
                z0=float(rvw[0, 2]) - trajectory.params.radius if flying else 0.0,
                vz=float(rvw[1, 2]) if flying else 0.0,
                az=-trajectory.params.g if flying else 0.0,
            )
        )
    return pieces


_BALL_BALL = list(EventKind).index(EventKind.BALL_BALL)


def position_at(pieces: list[Piece], t: float) -> tuple[float, float]:
    """Where the pieces put the ball at time ``t`` (s): the page's formula, in Python."""
    piece = pieces[0]
    for p in pieces:
        if p.t0 <= t:
            piece = p
        else:
            break
    dt = max(t - piece.t0, 0.0)
    return (
        piece.x0 + piece.vx * dt + piece.ax * dt * dt / 2.0,
        piece.y0 + piece.vy * dt + piece.ay * dt * dt / 2.0,
    )


def trajectory_json(trajectory: Trajectory) -> dict[str, object]:
    """The trajectory for the page: duration, pieces per ball, pockets and the events' times.

    ``balls`` maps each ball id (as a string) to ``{"pieces": [[t0, t1, x0, y0, vx, vy, ax,
    ay, z0, vz, az], ...], "pocket": name or None, "pocketed_at": s or None, "off_table_at": s
    or None}`` (z0: the centre's height above where it sits on the cloth).
    """
    balls: dict[str, object] = {}
    pocket_time: dict[int, float] = {}
    off_time: dict[int, float] = {}
    events = []
    for event in trajectory.events():
        if event.kind is EventKind.POCKET:
            pocket_time[event.balls[0]] = event.time
        if event.kind is EventKind.OFF_TABLE:
            off_time[event.balls[0]] = event.time
        if event.kind in (EventKind.BALL_BALL, EventKind.CUSHION, EventKind.POCKET):
            events.append({"t": event.time, "kind": event.kind.value, "balls": list(event.balls)})
    for index, ball in enumerate(trajectory.ball_ids):
        pocket = int(trajectory.pocket_of[index])
        balls[str(ball)] = {
            "pieces": [p.as_list() for p in ball_pieces(trajectory, index)],
            "pocket": _POCKETS[pocket].value if pocket >= 0 else None,
            "pocketed_at": pocket_time.get(ball),
            "off_table_at": off_time.get(ball),
        }
    return {"duration": trajectory.duration, "balls": balls, "events": events}
