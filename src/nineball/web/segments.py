"""A trajectory as the browser draws it: per ball, the engine's pieces of motion, as JSON.

The physics hands out each ball's motion between events as polynomials
(:func:`nineball.physics.pieces.motion_pieces`, from the kernels' own motion code); this module
only writes them in the page's form,

    x(t) = x0 + vx (t - t0) + ax (t - t0)^2 / 2        (the same for y, and z in flight)
    w(t) = w0 + aw (t - t0)                            (the angular velocity, each component)

for t0 <= t <= t1, which the browser evaluates without simulating anything. Where the z-spin
stops inside one of the engine's pieces (it stops at zero without reversing), the page gets that
piece in two, cut at the stop. A pocketed ball
stays where it crossed the capture line (as :meth:`Trajectory.positions_at` says); the page then
shows it sinking into its pocket.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from nineball.equipment import PocketId
from nineball.game import EventKind, MotionPiece, MotionState, Trajectory, motion_pieces

__all__ = ["Piece", "ball_pieces", "impact_speeds", "position_at", "trajectory_json"]

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
    wx: float = 0.0
    """Angular velocity at ``t0`` (table frame), rad/s."""
    wy: float = 0.0
    wz: float = 0.0
    awx: float = 0.0
    """Its constant rate of change, rad/s^2."""
    awy: float = 0.0
    awz: float = 0.0

    def as_list(self) -> list[float]:
        """The piece as the page reads it, 17 numbers.

        ``[t0, t1, x0, y0, vx, vy, ax, ay, z0, vz, az, wx, wy, wz, awx, awy, awz]``.
        """
        return [
            self.t0, self.t1, self.x0, self.y0, self.vx, self.vy, self.ax, self.ay,
            self.z0, self.vz, self.az, self.wx, self.wy, self.wz, self.awx, self.awy, self.awz,
        ]  # fmt: skip


def _pieces(piece: MotionPiece, radius: float) -> list[Piece]:
    """The engine's piece in the page's terms (accelerations, heights above the cloth, spin).

    One piece, or two when the z-spin stops inside it.
    """
    c = piece.coefficients
    flying = piece.motion is MotionState.AIRBORNE
    w, aw = piece.spin
    first = Piece(
        t0=piece.start,
        t1=piece.spin_stop,
        x0=float(c[0, 0]),
        y0=float(c[0, 1]),
        vx=float(c[1, 0]),
        vy=float(c[1, 1]),
        ax=2.0 * float(c[2, 0]),
        ay=2.0 * float(c[2, 1]),
        z0=float(c[0, 2]) - radius if flying else 0.0,
        vz=float(c[1, 2]) if flying else 0.0,
        az=2.0 * float(c[2, 2]) if flying else 0.0,
        wx=float(w[0]),
        wy=float(w[1]),
        wz=float(w[2]),
        awx=float(aw[0]),
        awy=float(aw[1]),
        awz=float(aw[2]),
    )
    if piece.spin_stop >= piece.end:
        return [first]
    dt = piece.spin_stop - piece.start
    x, y, z = piece.position(piece.spin_stop)
    w_then = piece.angular_velocity(piece.spin_stop)
    second = replace(
        first,
        t0=piece.spin_stop,
        t1=piece.end,
        x0=float(x),
        y0=float(y),
        vx=first.vx + first.ax * dt,
        vy=first.vy + first.ay * dt,
        z0=float(z) - radius if flying else 0.0,
        vz=first.vz + first.az * dt,
        wx=float(w_then[0]),
        wy=float(w_then[1]),
        wz=0.0,
        awz=0.0,
    )
    return [first, second]


def ball_pieces(trajectory: Trajectory, index: int) -> list[Piece]:
    """The pieces of motion of the ball at array ``index``, from 0 to the trajectory's end.

    Pieces of zero length (several events at one instant) are kept: the page skips them.
    """
    radius = trajectory.params.radius
    return [q for p in motion_pieces(trajectory)[index] for q in _pieces(p, radius)]


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


def _velocity_at_end(piece: MotionPiece) -> np.ndarray:
    """The ball's velocity (vx, vy, vz) at the piece's end: just before the event that ends it."""
    c = piece.coefficients
    return np.asarray(c[1] + 2.0 * c[2] * (piece.end - piece.start))


def impact_speeds(
    trajectory: Trajectory, pieces: tuple[tuple[MotionPiece, ...], ...] | None = None
) -> list[float]:
    """For each kernel event, in order, how hard it was (m/s, >= 0), from the states around it.

    ``ball_ball``: the relative normal speed at impact, ``(v1 - v2) . n`` just before, ``n``
    from the first ball's centre to the second's. ``cushion``: the ball's speed into the
    cushion, along its change of velocity (the cushion's normal, up to the cushion's friction).
    ``pocket``: the ball's speed as it drops. Other events: the ball's speed just before.
    ``pieces``: the trajectory's :func:`motion_pieces`, when the caller has them already.
    """
    pieces = motion_pieces(trajectory) if pieces is None else pieces
    cursor = [0] * len(trajectory.ball_ids)  # piece q + 1 starts at the ball's q-th event
    out: list[float] = []
    for e in range(trajectory.times.shape[0]):
        kind = EventKind.from_code(int(trajectory.kinds[e]))
        i, j = int(trajectory.first[e]), int(trajectory.second[e])
        involved = [i, j] if kind is EventKind.BALL_BALL else [i]
        before, after = [], []
        for index in involved:
            q = cursor[index]
            before.append(_velocity_at_end(pieces[index][q]))
            after.append(np.asarray(pieces[index][q + 1].coefficients[1]))
            cursor[index] = q + 1
        if kind is EventKind.BALL_BALL:
            n = trajectory.after[e, 1, 0, :2] - trajectory.after[e, 0, 0, :2]
            n = n / max(float(np.hypot(n[0], n[1])), 1e-12)
            speed = float(np.dot(before[0][:2] - before[1][:2], n))
        elif kind is EventKind.CUSHION:
            dv = after[0] - before[0]
            size = float(np.linalg.norm(dv))
            speed = -float(np.dot(before[0], dv)) / size if size > 0.0 else 0.0
        else:
            speed = float(np.linalg.norm(before[0][:2]))
        out.append(max(speed, 0.0))
    return out


def trajectory_json(trajectory: Trajectory) -> dict[str, object]:
    """The trajectory for the page: duration, pieces per ball, pockets and the events' times.

    ``events`` lists the sounding events in time order, ``{"t": s, "kind": "stroke" |
    "ball_ball" | "cushion" | "pocket", "balls": [ids], "speed": m/s}``: ``speed`` is the cue
    ball's speed for the stroke, else :func:`impact_speeds`' (the page's loudness).

    ``balls`` maps each ball id (as a string) to ``{"pieces": [[t0, t1, x0, y0, vx, vy, ax,
    ay, z0, vz, az, wx, wy, wz, awx, awy, awz], ...], "pocket": name or None, "pocketed_at": s
    or None, "off_table_at": s or None}`` (z0: the centre's height above where it sits on the
    cloth; w: the angular velocity at t0, rad/s, and aw its rate of change, rad/s^2).
    """
    balls: dict[str, object] = {}
    pocket_time: dict[int, float] = {}
    off_time: dict[int, float] = {}
    events: list[dict[str, object]] = []
    every = motion_pieces(trajectory)  # once: the speeds and the page's pieces both use them
    all_events = trajectory.events()
    if trajectory.stroked:
        v = all_events[0].states[0].v
        events.append(
            {"t": 0.0, "kind": "stroke", "balls": [0], "speed": float(np.linalg.norm(v[:2]))}
        )
        all_events = all_events[1:]
    for event, speed in zip(all_events, impact_speeds(trajectory, every), strict=True):
        if event.kind is EventKind.POCKET:
            pocket_time[event.balls[0]] = event.time
        if event.kind is EventKind.OFF_TABLE:
            off_time[event.balls[0]] = event.time
        if event.kind in (EventKind.BALL_BALL, EventKind.CUSHION, EventKind.POCKET):
            events.append(
                {"t": event.time, "kind": event.kind.value, "balls": list(event.balls),
                 "speed": speed}
            )  # fmt: skip
    radius = trajectory.params.radius
    for index, (ball, pieces) in enumerate(zip(trajectory.ball_ids, every, strict=True)):
        pocket = int(trajectory.pocket_of[index])
        balls[str(ball)] = {
            "pieces": [q.as_list() for p in pieces for q in _pieces(p, radius)],
            "pocket": _POCKETS[pocket].value if pocket >= 0 else None,
            "pocketed_at": pocket_time.get(ball),
            "off_table_at": off_time.get(ball),
        }
    return {"duration": trajectory.duration, "balls": balls, "events": events}
