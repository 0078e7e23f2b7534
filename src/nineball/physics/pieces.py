"""A trajectory's motion between events, as the engine moves the balls: polynomial pieces.

Between two events of a ball, the engine moves it in closed form (:mod:`._kernels.motion`): its
centre is a polynomial of degree two in time. :func:`motion_pieces` hands out those polynomials,
per ball, with the interval each holds on, so that a consumer (the web page's animation) draws
the shot without restating the equations of motion. The coefficients come from the kernels' own
``coefficients`` (run as its Python source, the very code the compiled engine runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.physics._kernels.motion import coefficients
from nineball.physics.simulate import Trajectory, param_vector
from nineball.physics.state import MotionState
from nineball.physics.table import nine_foot

__all__ = ["MotionPiece", "motion_pieces"]

_COEFFICIENTS: Callable[[NDArray[np.float64], int, NDArray[np.float64]], NDArray[np.float64]] = (
    getattr(coefficients, "py_func", coefficients)
)
"""The kernel's polynomial, callable from Python (an internal kernel has no Python entry)."""


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

    def position(self, t: float) -> NDArray[np.float64]:
        """The centre (x, y, z) at time ``t`` (s), m; clamped to ``start`` before it."""
        dt = max(t - self.start, 0.0)
        c = self.coefficients
        return np.asarray(c[0] + c[1] * dt + c[2] * (dt * dt))


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
            c = np.array(_COEFFICIENTS(np.ascontiguousarray(rvw), motion, prm))
            c.flags.writeable = False
            t1 = starts[q + 1][0] if q + 1 < len(starts) else max(end, t0)
            pieces.append(MotionPiece(start=t0, end=t1, motion=MotionState(motion), coefficients=c))
        out.append(tuple(pieces))
    return tuple(out)
