"""A trajectory's motion between events, as the engine moves the balls: polynomial pieces.

Between two events of a ball, the engine moves it in closed form (:mod:`._kernels.motion`): its
centre is a polynomial of degree two in time. :func:`motion_pieces` hands out those polynomials,
per ball, with the interval each holds on, so that a consumer (the web page's animation) draws
the shot without restating the equations of motion. The coefficients come from the kernels' own
``coefficients`` (run as its Python source, the very code the compiled engine runs).

Each piece carries the ball's angular velocity too: between events it is linear in time (sliding,
rolling and spinning change it at a constant rate; in flight it is constant), except that the
z-spin stops at zero without reversing, which may happen inside a sliding or rolling piece
(:attr:`MotionPiece.spin_stop`). Its value at the start is the engine's state there, and its rate
comes from the kernels' own ``evolve``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.physics._kernels.motion import coefficients_into, evolve
from nineball.physics.kit import param_vector
from nineball.physics.state import MotionState
from nineball.physics.table import nine_foot
from nineball.physics.trajectory import Trajectory

__all__ = ["MotionPiece", "motion_pieces"]

_INTO: Callable[[NDArray[np.float64], int, NDArray[np.float64], NDArray[np.float64]], None] = (
    getattr(coefficients_into, "py_func", coefficients_into)
)


def _coefficients(
    rvw: NDArray[np.float64], state: int, prm: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The kernel's polynomial, computed in Python (an internal kernel has no Python entry)."""
    c = np.empty((3, 3))
    _INTO(rvw, state, prm, c)
    return c


@dataclass(frozen=True, slots=True, kw_only=True)
class MotionPiece:
    """One ball's motion from ``start`` to ``end`` (s): ``r(t) = c[0] + c[1] dt + c[2] dt^2``.

    ``dt = t - start``; ``c`` is :attr:`coefficients` (rows: the constant, linear and quadratic
    terms; columns x, y, z; m, m/s, m/s^2). The piece of a resting, spinning, pocketed or
    off-table ball is constant.
    """

    start: float
    """When the piece begins, s: 0 or the time of one of the ball's events."""
    end: float
    """When the next piece begins (or the trajectory ends), s; ``end == start`` for pieces of
    zero length (several events of the ball at one instant)."""
    motion: MotionState
    """How the ball moves during the piece."""
    coefficients: NDArray[np.float64]
    """Shape (3, 3), read-only."""
    spin: NDArray[np.float64]
    """Shape (2, 3), read-only: the angular velocity (wx, wy, wz) at ``start`` (rad/s) and its
    constant rate of change (rad/s^2): ``w(t) = spin[0] + spin[1] dt`` until :attr:`spin_stop`."""
    spin_stop: float
    """When the z-spin reaches zero inside the piece (after that ``w_z = 0`` and only x, y keep
    changing), s; ``end`` when it does not."""

    def position(self, t: float) -> NDArray[np.float64]:
        """The centre (x, y, z) at time ``t`` (s), m; clamped to ``start`` before it."""
        dt = max(t - self.start, 0.0)
        c = self.coefficients
        return np.asarray(c[0] + c[1] * dt + c[2] * (dt * dt))

    def angular_velocity(self, t: float) -> NDArray[np.float64]:
        """The angular velocity (wx, wy, wz) at time ``t`` (s), rad/s; clamped to ``start``."""
        dt = max(t - self.start, 0.0)
        w = self.spin[0] + self.spin[1] * dt
        if t >= self.spin_stop and self.spin_stop < self.end:
            w[2] = 0.0
        return np.asarray(w)


def _spin(
    rvw: NDArray[np.float64], motion: int, length: float, prm: NDArray[np.float64]
) -> tuple[NDArray[np.float64], float]:
    """The angular velocity at the piece's start and its rate (2, 3), and the z-spin's stop.

    The stop is a time after the start, s; ``length`` when the z-spin does not stop inside.
    """
    w0 = np.array(rvw[2], dtype=np.float64)
    rate = np.zeros(3)
    stop = length
    if length > 0.0:
        w1 = evolve(np.ascontiguousarray(rvw), motion, length, prm)[2]
        rate = (w1 - w0) / length
        if w0[2] != 0.0 and w1[2] == 0.0:  # stopped on the way: its rate from before the stop
            h = length
            while h > 0.0 and w1[2] == 0.0:
                h /= 2.0
                w1 = evolve(np.ascontiguousarray(rvw), motion, h, prm)[2]
            rate[2] = (w1[2] - w0[2]) / h if h > 0.0 else 0.0
            stop = min(length, -w0[2] / rate[2]) if rate[2] != 0.0 else length
    out = np.vstack([w0, rate])
    out.flags.writeable = False
    return out, stop


def motion_pieces(trajectory: Trajectory) -> tuple[tuple[MotionPiece, ...], ...]:
    """Every ball's pieces of motion from 0 to the trajectory's end, by array index.

    A piece starts at 0 and at each event of the ball, from its state after that event
    (:meth:`Trajectory.starts`, the states :meth:`Trajectory.states_at` evolves from too), so a
    piece evaluated at any time gives the engine's position then.
    """
    prm = param_vector(trajectory.params, nine_foot())
    end = trajectory.duration
    out = []
    for index in range(len(trajectory.ball_ids)):
        starts = trajectory.starts(index)
        pieces = []
        for q, (t0, rvw, motion) in enumerate(starts):
            c = np.array(_coefficients(np.ascontiguousarray(rvw), motion, prm))
            c.flags.writeable = False
            t1 = starts[q + 1][0] if q + 1 < len(starts) else max(end, t0)
            spin, stop = _spin(rvw, motion, t1 - t0, prm)
            pieces.append(
                MotionPiece(
                    start=t0,
                    end=t1,
                    motion=MotionState(motion),
                    coefficients=c,
                    spin=spin,
                    spin_stop=t1 if stop >= t1 - t0 else t0 + stop,
                )
            )
        out.append(tuple(pieces))
    return tuple(out)
