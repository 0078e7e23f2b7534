"""``simulate``: run a shot from initial ball states (and an optional stroke) to rest.

The whole event loop runs in one compiled kernel (:mod:`nineball.physics._kernels.loop`); this
module validates the input, packs it into arrays, and wraps the kernel's output arrays in a
:class:`Trajectory`. The input is never mutated, and identical input gives identical output.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import BallId, PocketId
from nineball.errors import EngineError, InvalidInputError, InvalidPlacementError, NineballError
from nineball.physics._kernels import constants as k
from nineball.physics._kernels import warm
from nineball.physics._kernels.constants import (
    MAX_SPEED,
    MAX_SPIN,
    PLACEMENT_TOLERANCE,
    ROLLING_INPUT_TOLERANCE,
)
from nineball.physics._kernels.shot import shot
from nineball.physics.kit import Kit, param_vector
from nineball.physics.kit import kit as prepared
from nineball.physics.params import PhysicsParams
from nineball.physics.stroke import Stroke
from nineball.physics.table import TableSpec, nine_foot
from nineball.physics.trajectory import Trajectory

__all__ = [
    "MAX_SPIN",
    "PLACEMENT_TOLERANCE",
    "ROLLING_INPUT_TOLERANCE",
    "BallInput",
    "PreparedBalls",
    "PreparedShot",
    "Trajectory",
    "param_vector",
    "simulate",
]


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


_DEFAULT_PARAMS = PhysicsParams()


def _numbers(value: object, size: int, what: str, b: BallInput) -> tuple[float, ...]:
    """``value`` as ``size`` finite floats, or the error naming it."""
    if isinstance(value, tuple | list) and len(value) == size:
        out = []
        for x in value:
            if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
                break
            out.append(float(x))
        else:
            return tuple(out)
        raise InvalidInputError(f"ball {b.id} {what} must be {size} finite numbers, got {value!r}")
    raise InvalidInputError(f"ball {b.id} {what} must be {size} numbers, got {value!r}")


def _pack(
    balls: Sequence[BallInput], R: float
) -> tuple[tuple[int, ...], NDArray[np.float64], tuple[BallInput, ...]]:
    """The balls' ids in ascending order, their states (shape (n, 3, 3)) and the balls in order.

    The balls are put in ascending id order, so the result does not depend on the order of the
    input, and "the lowest ball index" of the tie rule is the lowest ball id. Only the types
    and counts are checked here; the values (finite, within the limits, on the table, apart)
    are checked by the engine (``shot.shot``).

    Raises:
        InvalidInputError: a bad id, a ball listed twice or a bad vector.
    """
    ordered = tuple(balls)  # in id order already, as callers usually give them
    for b, c in itertools.pairwise(ordered):
        if not (type(b.id) is int and type(c.id) is int and b.id < c.id):
            try:
                ordered = tuple(sorted(balls, key=_ident))
            except TypeError:
                ordered = ()  # ids that do not compare: the careful path says which
            break
    flat: list[float] = []
    last = -1
    for b in ordered:
        # the common case, checked fast: int ids in order, tuples of plain numbers
        ident = b.id
        r, v, w = b.r, b.v, b.w
        if not (
            type(ident) is int
            and last < ident <= 9
            and type(r) is tuple
            and len(r) == 2
            and type(v) is tuple
            and len(v) == 2
            and type(w) is tuple
            and len(w) == 3
        ):
            break
        x, y = r
        vx, vy = v
        wx, wy, wz = w
        f = float  # floats only here; ints and the rest take the careful path
        if not (
            type(x) is f
            and type(y) is f
            and type(vx) is f
            and type(vy) is f
            and type(wx) is f
            and type(wy) is f
            and type(wz) is f
        ):
            break
        flat += (x, y, R, vx, vy, 0.0, wx, wy, wz)
        last = ident
    else:
        if ordered:
            ids = tuple(b.id for b in ordered)
            return ids, np.array(flat, dtype=np.float64).reshape(len(ids), 3, 3), ordered
    return _pack_carefully(balls, R)


def _pack_carefully(
    balls: Sequence[BallInput], R: float
) -> tuple[tuple[int, ...], NDArray[np.float64], tuple[BallInput, ...]]:
    """:func:`_pack` for any input: each fault named (ids, duplicates, vectors, finite values)."""
    for b in balls:
        ident = b.id
        if isinstance(ident, bool) or not isinstance(ident, int) or not 0 <= ident <= 9:
            raise InvalidInputError(f"ball id must be an integer 0-9, got {ident!r}")
    ordered = tuple(sorted(balls, key=_ident))
    flat: list[float] = []
    last = -1
    for b in ordered:
        if b.id == last:
            raise InvalidInputError(f"ball {b.id!r} is listed twice")
        last = b.id
        x, y = _numbers(b.r, 2, "r", b)
        vx, vy = _numbers(b.v, 2, "v", b)
        flat += (x, y, R, vx, vy, 0.0, *_numbers(b.w, 3, "w", b))
    ids = tuple(b.id for b in ordered)
    return ids, np.array(flat).reshape(len(ids), 3, 3), ordered


def _ident(b: BallInput) -> int:
    return b.id


def _pack_resting(
    points: Sequence[tuple[int, tuple[float, float]]], R: float
) -> tuple[tuple[int, ...], NDArray[np.float64]] | None:
    """Balls at rest at ``points`` ((id, (x, y)), ids ascending): their ids and states.

    None unless every id is an int in ascending order and every coordinate a float (the
    caller then takes :func:`_pack`'s careful path). No :class:`BallInput` is made: a
    learning environment or a search packs a position for every stroke it plays.
    """
    flat: list[float] = []
    ids: list[int] = []
    last = -1
    f = float
    for ident, point in points:
        if not (
            type(ident) is int and last < ident <= 9 and type(point) is tuple and len(point) == 2
        ):
            return None
        x, y = point
        if not (type(x) is f and type(y) is f):
            return None
        flat += (x, y, R, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        ids.append(ident)
        last = ident
    if not ids:
        return None
    return tuple(ids), np.array(flat, dtype=np.float64).reshape(len(ids), 3, 3)


def _at_rest(ids: tuple[int, ...], rvw: NDArray[np.float64]) -> tuple[BallInput, ...]:
    """The balls packed by :func:`_pack_resting` as inputs again (for an error's message)."""
    where = rvw[:, 0, :2].tolist()
    return tuple(BallInput(id=ball, r=(where[i][0], where[i][1])) for i, ball in enumerate(ids))


def _stroke_args(
    stroke: Stroke | None, ids: tuple[int, ...], params: PhysicsParams
) -> tuple[int, float, float, float, float, float]:
    """The kernel's stroke arguments: the cue ball's index (-1: no stroke) and the stroke.

    Raises:
        InvalidInputError: no cue ball for a stroke, or a tip offset beyond the miscue limit.
    """
    if stroke is None:
        return -1, 0.0, 0.0, 0.0, 0.0, 0.0
    if not ids or ids[0] != BallId.CUE:
        raise InvalidInputError("a stroke needs the cue ball (id 0) on the table")
    if stroke.offset > params.miscue_limit:
        stroke.ball_velocities(params)  # raises the miscue, with its message
    # floats always (a Stroke takes ints too): one compiled signature of the engine
    f = float
    return 0, f(stroke.speed), f(stroke.aim), f(stroke.elevation), f(stroke.side), f(stroke.height)


def _fault(
    status: int,
    a: int,
    b: int,
    balls: tuple[BallInput, ...],
    rvw: NDArray[np.float64],
    kit: Kit,
    stroke: Stroke | None,
) -> NineballError:
    """The error for a status of :func:`loop.shot` (other than ST_OK and ST_OUTSIDE)."""
    ids = [ball.id for ball in balls]
    if status == k.ST_NOT_FINITE:
        try:
            _pack_carefully(balls, kit.params.radius)
        except InvalidInputError as error:
            return error
    if status == k.ST_SPEED:
        v = balls[a].v
        return InvalidInputError(f"ball {ids[a]} speed must be at most {MAX_SPEED} m/s: {v!r}")
    if status == k.ST_SPIN:
        w = balls[a].w
        return InvalidInputError(f"ball {ids[a]} spin must be at most {MAX_SPIN} rad/s: {w!r}")
    if status == k.ST_OVERLAP:
        d = math.hypot(rvw[a, 0, 0] - rvw[b, 0, 0], rvw[a, 0, 1] - rvw[b, 0, 1])
        R = kit.params.radius
        return InvalidPlacementError(
            f"balls {ids[a]} and {ids[b]} overlap: centres {d!r} m apart, "
            f"less than 2R = {2 * R!r} m"
        )
    if status == k.ST_SCOOP and stroke is not None:
        try:
            stroke.ball_velocities(kit.params)
        except InvalidInputError as error:
            return error
    return EngineError(f"the engine refused its input with status {status}")  # pragma: no cover


def _outside(x: float, y: float, b: int, kit: Kit) -> InvalidPlacementError:
    R = kit.params.radius
    table = kit.table
    return InvalidPlacementError(
        f"ball {b} at ({x!r}, {y!r}) is outside the playing surface "
        f"[{R:.6f}, {table.width - R:.6f}] x [{R:.6f}, {table.length - R:.6f}] m"
    )


def _call(
    kit: Kit,
    balls: tuple[BallInput, ...],
    ids: tuple[int, ...],
    rvw: NDArray[np.float64],
    checked: bool,
    stroke: Stroke | None,
    max_events: int,
) -> tuple[int, bool, NDArray[np.float64], NDArray[np.int64]]:
    """Check (if ``checked``) and simulate: (count, truncated, floats, ints) of ``shot.shot``.

    ``max_events`` 0 checks only. Raises what :func:`simulate` raises.
    """
    cue, speed, aim, elevation, side, height = _stroke_args(stroke, ids, kit.params)
    checks = 0 if checked else -1
    warm.join()
    n = len(ids)
    room = min(max_events, _ROOM + 8 * n)
    while True:
        floats = np.empty(18 * n + 19 * room)
        ints = np.empty(6 + 3 * n + 5 * room, dtype=np.int64)
        shot(rvw, checks, cue, speed, aim, elevation, side, height, kit.tab, max_events,
             floats, ints)  # fmt: skip
        status, a, b, count, truncated, astray = ints[:6].tolist()
        if status == k.ST_ROOM:  # a long shot: again, with room for all of its events
            room = count
            continue
        if status != k.ST_OUTSIDE:
            break
        # outside the rectangle: resting in a pocket's throat is allowed (then checked again,
        # all but that ball's place)
        x, y = float(rvw[a, 0, 0]), float(rvw[a, 0, 1])
        if not _in_pocket_throat(x, y, kit.params.radius, kit.table):
            raise _outside(x, y, ids[a], kit)
        checks |= 1 << a
    if status != k.ST_OK:
        raise _fault(status, a, b, balls or _at_rest(ids, rvw), rvw, kit, stroke)
    if astray >= 0:
        final = floats[9 * n + 19 * count : 18 * n + 19 * count].reshape(n, 3, 3)
        raise EngineError(
            f"ball {ids[astray]} ended at {final[astray, 0].tolist()!r}, off the playing surface "
            f"with no event taking it there (a physics bug); input states {rvw.tolist()!r}, "
            f"stroke {stroke!r}, table {kit.table.name!r}, params {kit.params!r}"
        )
    return count, bool(truncated), floats, ints


_ROOM = 32
"""The events the results' arrays have room for, plus 8 per ball; a shot with more events is
simulated again with room for all (a shot has tens of events, a break about a hundred)."""


def _run(
    kit: Kit,
    balls: tuple[BallInput, ...],
    ids: tuple[int, ...],
    rvw: NDArray[np.float64],
    checked: bool,
    stroke: Stroke | None,
    max_events: int,
) -> Trajectory:
    """:func:`_call` with ``max_events`` >= 1, its results as a :class:`Trajectory`."""
    count, truncated, floats, ints = _call(kit, balls, ids, rvw, checked, stroke, max_events)
    return Trajectory._wrap(
        ids, count, floats, ints, truncated, stroke is not None, kit.names, kit.params
    )


def _max_events(max_events: object) -> int:
    if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
        raise InvalidInputError(f"max_events must be a positive integer, got {max_events!r}")
    return max_events


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

    __slots__ = ("_balls", "_ids", "_kit", "_rvw", "_unchecked")

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
        self._kit = prepared(params or _DEFAULT_PARAMS, table or nine_foot())
        self._ids, self._rvw, self._balls = _pack(balls, self._kit.params.radius)
        self._unchecked = True
        self.check()

    @classmethod
    def resting(
        cls,
        points: Sequence[tuple[int, tuple[float, float]]],
        *,
        params: PhysicsParams | None = None,
        table: TableSpec | None = None,
    ) -> PreparedBalls:
        """Balls at rest at ``points`` ((id, (x, y)) pairs), checked later, not now.

        The checks run with the first strike, in the same compiled call (or with
        :meth:`check`): a position played once, as a game's or a learning environment's, is
        checked and struck in one call instead of two. The first strike raises what
        ``PreparedBalls(balls)`` would have.

        Raises:
            InvalidInputError: a bad id or point (the checks of the values come later).
        """
        self = cls.__new__(cls)
        self._kit = prepared(params or _DEFAULT_PARAMS, table or nine_foot())
        packed = _pack_resting(points, self._kit.params.radius)
        if packed is None:  # not plain ints and floats in order: the careful path
            balls = [BallInput(id=ident, r=point) for ident, point in points]
            self._ids, self._rvw, self._balls = _pack(balls, self._kit.params.radius)
        else:
            (self._ids, self._rvw), self._balls = packed, ()
        self._unchecked = True
        return self

    def check(self) -> None:
        """Check the balls now, if they have not been (as :func:`simulate` does).

        Raises:
            InvalidInputError: a bad value.
            InvalidPlacementError: overlapping balls or a ball outside the playing surface.
        """
        if self._unchecked:
            _call(self._kit, self._balls, self._ids, self._rvw, True, None, 0)
            self._unchecked = False

    def strike(self, stroke: Stroke, *, max_events: int = 10000) -> Trajectory:
        """Simulate ``stroke`` on the cue ball (see :func:`simulate`).

        Raises:
            InvalidInputError: no cue ball, a miscue, or a bad ``max_events``.
            InvalidPlacementError: balls not yet checked (:meth:`resting`) that overlap or lie
                outside the playing surface.
        """
        out = _run(
            self._kit,
            self._balls,
            self._ids,
            self._rvw,
            self._unchecked,
            stroke,
            _max_events(max_events),
        )
        self._unchecked = False
        return out


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
    kit = prepared(params or _DEFAULT_PARAMS, table or nine_foot())
    max_events = _max_events(max_events)
    ids, rvw, ordered = _pack(balls, kit.params.radius)
    out = _run(kit, ordered, ids, rvw, True, stroke, max_events)
    return out


class PreparedShot:
    """A shot checked once and simulated on demand (the simulate protocol's timed repeats)."""

    __slots__ = ("_balls", "_ids", "_kit", "_rvw", "_stroke")

    def __init__(
        self,
        balls: Sequence[BallInput],
        stroke: Stroke | None,
        params: PhysicsParams,
        table: TableSpec,
    ) -> None:
        """Check the balls and the stroke (as :func:`simulate` does).

        Raises:
            InvalidInputError, InvalidPlacementError: as :func:`simulate`.
        """
        self._kit = prepared(params, table)
        self._ids, self._rvw, self._balls = _pack(balls, params.radius)
        self._stroke = stroke
        _call(self._kit, self._balls, self._ids, self._rvw, True, stroke, 0)

    def run(self, max_events: int) -> Trajectory:
        """Simulate the shot (no checks: they were made once)."""
        return _run(
            self._kit,
            self._balls,
            self._ids,
            self._rvw,
            False,
            self._stroke,
            _max_events(max_events),
        )


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
