"""``simulate``: run a shot from initial ball states (and an optional stroke) to rest.

The whole event loop runs in one compiled kernel (:mod:`nineball.physics._kernels.loop`); this
module validates the input, packs it into arrays, and wraps the kernel's output arrays in a
:class:`Trajectory`. The input is never mutated, and identical input gives identical output.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import BallId, PocketId
from nineball.errors import EngineError, InvalidInputError, InvalidPlacementError
from nineball.physics._kernels import constants as k
from nineball.physics._kernels import warm
from nineball.physics._kernels.loop import run
from nineball.physics._kernels.motion import classify, evolve
from nineball.physics.events import BallState, Event, EventKind
from nineball.physics.facts import TrajectoryFacts, array_facts
from nineball.physics.params import PhysicsParams
from nineball.physics.state import MotionState
from nineball.physics.stroke import MAX_SPEED, Stroke
from nineball.physics.table import TableSpec, nine_foot

__all__ = [
    "MAX_SPIN",
    "PLACEMENT_TOLERANCE",
    "ROLLING_INPUT_TOLERANCE",
    "BallInput",
    "PreparedBalls",
    "Trajectory",
    "simulate",
]

MAX_SPIN = 2000.0
"""Largest angular speed in rad/s accepted for a ball given in motion (a ball rolling at the
largest stroke speed spins at 700 rad/s)."""

PLACEMENT_TOLERANCE = 1e-9
"""Overlap (m) tolerated between balls, or past the cushion noses, when checking input."""

ROLLING_INPUT_TOLERANCE = 1e-3
"""An input ball whose cloth slip is at most this fraction of its speed is taken as rolling, and
its spin is set to roll exactly (inputs such as v = 1.0, w = -35.0 are rounded rolling states)."""

_POCKETS: tuple[PocketId, ...] = tuple(PocketId)


@dataclass(frozen=True, slots=True, kw_only=True)
class BallInput:
    """A ball on the table at t = 0 (table frame, SI units)."""

    id: int
    """Ball id: 0 the cue ball, 1-9 the object balls."""
    r: tuple[float, float]
    """Centre (x, y) in m; z is R."""
    v: tuple[float, float] = (0.0, 0.0)
    """Velocity (vx, vy) in m/s."""
    w: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Angular velocity in rad/s."""


@functools.lru_cache(maxsize=64)
def param_vector(params: PhysicsParams, table: TableSpec) -> NDArray[np.float64]:
    """The kernels' parameter vector (layout in :mod:`._kernels.constants`), read-only."""
    prm = np.zeros(k.NPRM)
    fa, fb, fc = params.ball_friction_coefficients()
    prm[k.P_R] = params.radius
    prm[k.P_M] = params.mass
    prm[k.P_G] = params.g
    prm[k.P_MUS] = params.mu_slide
    prm[k.P_MUR] = params.mu_roll
    prm[k.P_ALPHA] = params.spin_decel
    prm[k.P_EB] = params.e_ball
    prm[k.P_FA] = fa
    prm[k.P_FB] = fb
    prm[k.P_FC] = fc
    prm[k.P_EC] = params.e_cushion
    prm[k.P_MUC] = params.mu_cushion
    prm[k.P_SLOW] = params.settle_below
    prm[k.P_H] = min(max(table.nose_height, params.radius), 2.0 * params.radius)
    prm[k.P_ES] = params.e_slate
    prm[k.P_HOP] = params.hop_below
    prm.setflags(write=False)
    return prm


@dataclass(frozen=True, slots=True, kw_only=True)
class Trajectory:
    """The result of a simulation: events, final states and analytic positions in between.

    Arrays are read-only. Ball indices in the arrays follow ``ball_ids``.
    """

    ball_ids: tuple[int, ...]
    """The ids of the balls on the table, in array order."""
    initial: NDArray[np.float64]
    """States just after the stroke at t = 0, shape (n, 3, 3)."""
    initial_motion: NDArray[np.int64]
    """Motion states at t = 0, shape (n,)."""
    times: NDArray[np.float64]
    """Event times in s, shape (e,) (kernel events only, without the stroke)."""
    kinds: NDArray[np.int64]
    """Event codes, shape (e,)."""
    first: NDArray[np.int64]
    """Index of the (first) ball of each event, shape (e,)."""
    second: NDArray[np.int64]
    """Second ball index, cushion index or pocket index of each event (-1 if none)."""
    after: NDArray[np.float64]
    """States of the involved balls after each event, shape (e, 2, 3, 3)."""
    after_motion: NDArray[np.int64]
    """Motion states of the involved balls after each event, shape (e, 2)."""
    final: NDArray[np.float64]
    """Final states, shape (n, 3, 3)."""
    final_motion: NDArray[np.int64]
    """Final motion states, shape (n,)."""
    pocket_of: NDArray[np.int64]
    """Pocket index (PocketId order) of each ball, -1 if on the table, shape (n,)."""
    truncated: bool
    """True if ``max_events`` ran out before every ball came to rest."""
    stroked: bool
    """True if a stroke started the shot (a ``stroke`` event at t = 0)."""
    cushion_names: tuple[str, ...]
    """Names of the cushion indices (segments, then jaws)."""
    params: PhysicsParams
    """The parameters used."""

    def events(self) -> tuple[Event, ...]:
        """Every event in time order, the stroke first if there was one."""
        out: list[Event] = []
        if self.stroked:
            i0 = self.ball_ids.index(0)
            out.append(
                Event(
                    time=0.0,
                    kind=EventKind.STROKE,
                    balls=(0,),
                    states=(self._state(self.initial[i0], int(self.initial_motion[i0])),),
                )
            )
        for e in range(self.times.shape[0]):
            kind = EventKind.from_code(int(self.kinds[e]))
            i = int(self.first[e])
            j = int(self.second[e])
            pocket = _POCKETS[j] if kind is EventKind.POCKET else None
            states = [self._state(self.after[e, 0], int(self.after_motion[e, 0]), pocket)]
            balls = [self.ball_ids[i]]
            if kind is EventKind.BALL_BALL:
                balls.append(self.ball_ids[j])
                states.append(self._state(self.after[e, 1], int(self.after_motion[e, 1])))
            out.append(
                Event(
                    time=float(self.times[e]),
                    kind=kind,
                    balls=tuple(balls),
                    states=tuple(states),
                    cushion=self.cushion_names[j] if kind is EventKind.CUSHION else None,
                    pocket=pocket,
                )
            )
        return tuple(out)

    @staticmethod
    def _state(rvw: NDArray[np.float64], motion: int, pocket: PocketId | None = None) -> BallState:
        return BallState(
            r=(float(rvw[0, 0]), float(rvw[0, 1]), float(rvw[0, 2])),
            v=(float(rvw[1, 0]), float(rvw[1, 1]), float(rvw[1, 2])),
            w=(float(rvw[2, 0]), float(rvw[2, 1]), float(rvw[2, 2])),
            motion=MotionState(motion),
            pocket=pocket,
        )

    def final_states(self) -> dict[int, BallState]:
        """The state of every ball at the end, by ball id."""
        return {
            b: self._state(
                self.final[i],
                int(self.final_motion[i]),
                _POCKETS[int(self.pocket_of[i])] if self.pocket_of[i] >= 0 else None,
            )
            for i, b in enumerate(self.ball_ids)
        }

    def facts(self) -> TrajectoryFacts:
        """The referee's facts of the shot (first contact, pocketed, off table, rails).

        Read directly from the event arrays (:func:`array_facts`); the same facts as
        ``shot_facts(self.events())``, without building the Event objects.
        """
        return array_facts(self.ball_ids, self.times, self.kinds, self.first, self.second)

    @property
    def duration(self) -> float:
        """Time of the last event in s (0 if none)."""
        return float(self.times[-1]) if self.times.shape[0] else 0.0

    def positions_at(self, times: Sequence[float] | NDArray[np.float64]) -> NDArray[np.float64]:
        """Every ball's centre at the given times, shape (len(times), n, 3), in m.

        Positions are evaluated in closed form from the last event of each ball at or before
        each time (z included: a ball in flight follows its parabola); a pocketed ball stays at
        the point where it was captured, and a ball off the table where it left it.
        """
        return self.states_at(times)[:, :, 0, :]

    def starts(self, index: int) -> list[tuple[float, NDArray[np.float64], int]]:
        """Where ball ``index``'s motion begins afresh: at 0 and after each of its events.

        Returns:
            ``(time, state, motion)`` for each piece of the ball's motion, in time order: the
            state (r, v, w) and motion state the engine moves it from until its next event.
        """
        out = [(0.0, self.initial[index], int(self.initial_motion[index]))]
        for e in range(self.times.shape[0]):
            if self.first[e] == index:
                slot = 0
            elif self.kinds[e] == k.EV_BALL_BALL and self.second[e] == index:
                slot = 1
            else:
                continue
            out.append((float(self.times[e]), self.after[e, slot], int(self.after_motion[e, slot])))
        return out

    def states_at(self, times: Sequence[float] | NDArray[np.float64]) -> NDArray[np.float64]:
        """Every ball's state (r, v, w) at the given times, shape (len(times), n, 3, 3).

        At an event time the state is the one after the events at that time.
        """
        ts = np.asarray(times, dtype=np.float64)
        n = len(self.ball_ids)
        out = np.zeros((ts.shape[0], n, 3, 3))
        prm = param_vector(self.params, _TABLE_FOR_PARAMS)
        for b in range(n):
            starts = self.starts(b)
            seg_t = np.asarray([t for t, _, _ in starts])
            idx = np.searchsorted(seg_t, ts, side="right") - 1
            for q in range(ts.shape[0]):
                s = max(int(idx[q]), 0)
                t0, state, motion = starts[s]
                dt = max(float(ts[q]) - t0, 0.0)
                out[q, b] = evolve(state, motion, dt, prm)
        return out


_TABLE_FOR_PARAMS = nine_foot()
_DEFAULT_PARAMS = PhysicsParams()


def _vec(value: object, size: int, what: str) -> tuple[float, ...]:
    if not isinstance(value, tuple | list) or len(value) != size:
        raise InvalidInputError(f"{what} must be {size} numbers, got {value!r}")
    out = []
    for x in value:
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            raise InvalidInputError(f"{what} must be {size} finite numbers, got {value!r}")
        out.append(float(x))
    return tuple(out)


def _in_pocket_throat(x: float, y: float, R: float, table: TableSpec) -> bool:
    """Whether a ball at (x, y) rests in a pocket's throat.

    That is past the cushion noses, clear of the facings and the rounded points, and not yet
    over the capture line: a ball can come to rest in the jaws, and is accepted as input there.
    """
    tol = PLACEMENT_TOLERANCE
    names = table.segment_names
    for q, pocket in enumerate(PocketId):
        ox, oy, c = table.captures[q, 0], table.captures[q, 1], table.captures[q, 2]
        if ox * x + oy * y >= c:
            continue
        (ax, ay), (bx, by) = table.points[q]
        mouth = math.hypot(ax - bx, ay - by)
        if math.hypot(x - (ax + bx) / 2.0, y - (ay + by) / 2.0) > mouth + R:
            continue
        clear = True
        for tag in ("a", "b"):
            sx, sy, ex, ey, nx, ny = table.segments[names.index(f"{pocket.value}_facing_{tag}")]
            dx, dy = ex - sx, ey - sy
            u = ((x - sx) * dx + (y - sy) * dy) / (dx * dx + dy * dy)
            if 0.0 <= u <= 1.0:  # beside the facing: on its playing side, a radius away
                clear &= nx * (x - sx) + ny * (y - sy) >= R - tol
            else:  # past an end: clear of the end point (the rounded point covers the rest)
                px, py = (sx, sy) if u < 0.0 else (ex, ey)
                clear &= math.hypot(x - px, y - py) >= R - tol
            jx, jy, rho = table.jaws[table.jaw_names.index(f"{pocket.value}_jaw_{tag}")]
            clear &= math.hypot(x - jx, y - jy) >= R + rho - tol
        if clear:
            return True
    return False


def prepare(
    balls: Sequence[BallInput],
    stroke: Stroke | None,
    params: PhysicsParams,
    table: TableSpec,
) -> tuple[tuple[int, ...], NDArray[np.float64], NDArray[np.int64]]:
    """Validate the balls and apply the stroke: ids, states (n, 3, 3) and motion states.

    The balls are put in ascending id order, so the result does not depend on the order of the
    input, and "the lowest ball index" of the tie rule is the lowest ball id.

    Raises:
        InvalidInputError: a bad id, vector or stroke (a miscue).
        InvalidPlacementError: a ball overlaps another or lies outside the playing surface.
    """
    for b in balls:
        if isinstance(b.id, bool) or not isinstance(b.id, int) or not 0 <= b.id <= 9:
            raise InvalidInputError(f"ball id must be an integer 0-9, got {b.id!r}")
    balls = sorted(balls, key=lambda b: b.id)
    ids: list[int] = []
    R = params.radius
    n = len(balls)
    rvw = np.zeros((n, 3, 3))
    for q, b in enumerate(balls):
        if b.id in ids:
            raise InvalidInputError(f"ball {b.id!r} is listed twice")
        ids.append(b.id)
        x, y = _vec(b.r, 2, f"ball {b.id} r")
        rvw[q, 0] = (x, y, R)
        rvw[q, 1, :2] = _vec(b.v, 2, f"ball {b.id} v")
        rvw[q, 2] = _vec(b.w, 3, f"ball {b.id} w")
        if math.hypot(*b.v) > MAX_SPEED:
            raise InvalidInputError(f"ball {b.id} speed must be at most {MAX_SPEED} m/s: {b.v!r}")
        if math.hypot(*b.w) > MAX_SPIN:
            raise InvalidInputError(f"ball {b.id} spin must be at most {MAX_SPIN} rad/s: {b.w!r}")
        tol = PLACEMENT_TOLERANCE
        inside = R - tol <= x <= table.width - R + tol and R - tol <= y <= table.length - R + tol
        if not inside and not _in_pocket_throat(x, y, R, table):
            raise InvalidPlacementError(
                f"ball {b.id} at ({x!r}, {y!r}) is outside the playing surface "
                f"[{R:.6f}, {table.width - R:.6f}] x [{R:.6f}, {table.length - R:.6f}] m"
            )
    for p in range(n):
        for q in range(p + 1, n):
            d = math.hypot(rvw[p, 0, 0] - rvw[q, 0, 0], rvw[p, 0, 1] - rvw[q, 0, 1])
            if d < 2.0 * R - PLACEMENT_TOLERANCE:
                raise InvalidPlacementError(
                    f"balls {ids[p]} and {ids[q]} overlap: centres {d!r} m apart, "
                    f"less than 2R = {2 * R!r} m"
                )
    if stroke is not None:
        if BallId.CUE not in ids:
            raise InvalidInputError("a stroke needs the cue ball (id 0) on the table")
        v, w = stroke.ball_velocities(params)
        q = ids.index(0)
        rvw[q, 1] = v
        rvw[q, 2] = w
    prm = param_vector(params, table)
    motion = np.zeros(n, dtype=np.int64)
    for q in range(n):
        motion[q] = _classify_input(rvw[q], R, prm)
    return tuple(ids), rvw, motion


def _classify_input(state: NDArray[np.float64], R: float, prm: NDArray[np.float64]) -> int:
    """A ball's motion state at t = 0; a spin within tolerance of rolling is snapped to it."""
    if state[1, 2] != 0.0:  # lifted off the cloth by the stroke: airborne, spin as struck
        return int(classify(state, prm))
    speed = math.hypot(state[1, 0], state[1, 1])
    slip = math.hypot(state[1, 0] - R * state[2, 1], state[1, 1] + R * state[2, 0])
    if slip <= ROLLING_INPUT_TOLERANCE * speed:
        state[2, 0] = -state[1, 1] / R
        state[2, 1] = state[1, 0] / R
    return int(classify(state, prm))


class PreparedBalls:
    """Balls checked once, to be struck many times.

    A player's search tries many strokes on one position; this skips the checks of
    :func:`simulate` for every one of them.

    ``PreparedBalls(balls).strike(stroke)`` gives exactly what
    ``simulate(balls, stroke=stroke)`` gives.

    >>> balls = PreparedBalls([BallInput(id=0, r=(0.635, 0.6)), BallInput(id=1, r=(0.635, 1.9))])
    >>> balls.strike(Stroke(speed=2.0, aim=1.5707963)).facts().first_contact
    1
    """

    __slots__ = ("_cue", "_ids", "_motion", "_params", "_prm", "_rvw", "_table")

    def __init__(
        self,
        balls: Sequence[BallInput],
        *,
        params: PhysicsParams | None = None,
        table: TableSpec | None = None,
    ) -> None:
        """Check the balls (as :func:`simulate` does).

        Raises:
            InvalidInputError: a bad id or vector.
            InvalidPlacementError: overlapping balls or a ball outside the playing surface.
        """
        self._params = params or _DEFAULT_PARAMS
        self._table = table or nine_foot()
        self._ids, self._rvw, self._motion = prepare(balls, None, self._params, self._table)
        self._prm = param_vector(self._params, self._table)
        self._cue = self._ids.index(0) if 0 in self._ids else None

    def strike(self, stroke: Stroke, *, max_events: int = 10000) -> Trajectory:
        """Simulate ``stroke`` on the cue ball (see :func:`simulate`).

        Raises:
            InvalidInputError: no cue ball, a miscue, or a bad ``max_events``.
        """
        if self._cue is None:
            raise InvalidInputError("a stroke needs the cue ball (id 0) on the table")
        if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
            raise InvalidInputError(f"max_events must be a positive integer, got {max_events!r}")
        v, w = stroke.ball_velocities(self._params)
        rvw = self._rvw.copy()
        motion = self._motion.copy()
        q = self._cue
        rvw[q, 1] = v
        rvw[q, 2] = w
        motion[q] = _classify_input(rvw[q], self._params.radius, self._prm)
        return run_prepared(
            self._ids, rvw, motion, self._params, self._table, max_events, stroked=True
        )


def simulate(
    balls: Sequence[BallInput],
    *,
    stroke: Stroke | None = None,
    params: PhysicsParams | None = None,
    table: TableSpec | None = None,
    max_events: int = 10000,
) -> Trajectory:
    """Simulate a shot until every ball is at rest or pocketed.

    Args:
        balls: every ball on the table at t = 0.
        stroke: an optional cue strike on ball 0 at t = 0 (it replaces ball 0's v and w).
        params: physical parameters (default :class:`PhysicsParams`).
        table: the table (default the WPA 9-ft table).
        max_events: the most events to compute; the trajectory says if they ran out.

    Returns:
        The trajectory (events, final states, facts, positions between events).

    Raises:
        InvalidInputError: bad values (ids, vectors, a miscue, max_events).
        InvalidPlacementError: overlapping balls or a ball outside the playing surface.
        EngineError: the engine broke its own invariant (a ball left the playing surface
            with no event saying so): a bug, reported with the input that reproduces it.
    """
    params = params or _DEFAULT_PARAMS
    table = table or nine_foot()
    if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
        raise InvalidInputError(f"max_events must be a positive integer, got {max_events!r}")
    ids, rvw, motion = prepare(balls, stroke, params, table)
    return run_prepared(ids, rvw, motion, params, table, max_events, stroked=stroke is not None)


def run_prepared(
    ids: tuple[int, ...],
    rvw: NDArray[np.float64],
    motion: NDArray[np.int64],
    params: PhysicsParams,
    table: TableSpec,
    max_events: int,
    *,
    stroked: bool,
) -> Trajectory:
    """Run the compiled event loop on validated arrays (see :func:`prepare`)."""
    prm = param_vector(params, table)
    warm.prepare(table.segments, table.jaws, table.captures, table.boundary, prm)
    out = run(
        rvw, motion, table.segments, table.jaws, table.captures, table.boundary, prm, max_events
    )
    (count, ev_t, ev_k, ev_i, ev_j, ev_s, ev_m, final, fmot, _tref, pocket_of, trunc, astray) = out
    if astray >= 0:
        raise EngineError(
            f"ball {ids[astray]} ended at {final[astray, 0].tolist()!r}, off the playing surface "
            f"with no event taking it there (a physics bug); input states {rvw.tolist()!r}, "
            f"motions {motion.tolist()!r}, table {table.name!r}, params {params!r}"
        )
    arrays = [
        rvw.copy(),
        motion.copy(),
        ev_t[:count].copy(),
        ev_k[:count].copy(),
        ev_i[:count].copy(),
        ev_j[:count].copy(),
        ev_s[:count].copy(),
        ev_m[:count].copy(),
        final,
        fmot,
        pocket_of,
    ]
    for a in arrays:
        a.setflags(write=False)
    return Trajectory(
        ball_ids=ids,
        initial=arrays[0],
        initial_motion=arrays[1],
        times=arrays[2],
        kinds=arrays[3],
        first=arrays[4],
        second=arrays[5],
        after=arrays[6],
        after_motion=arrays[7],
        final=arrays[8],
        final_motion=arrays[9],
        pocket_of=arrays[10],
        truncated=bool(trunc),
        stroked=stroked,
        cushion_names=table.cushion_names(),
        params=params,
    )
