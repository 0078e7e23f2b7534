"""Many independent shots in one call: :func:`simulate_batch` and :func:`strike_batch`.

The shots of a batch are simulated in one compiled call (``_kernels.batch.shots``) that shares
them out over the cores, with no Python between shots; each runs the same kernel as
:func:`~nineball.physics.simulate` on its own slice of preallocated arrays, so each result is
the single call's, bit for bit. A shot whose events overflow its slice (a long break) is run
again alone with room for all of them, as :func:`~nineball.physics.simulate` does.

Errors are reported per shot: a shot the engine refuses (overlapping balls, a miscue...) does
not stop the others; its :attr:`ShotBatch.errors` entry holds the error :func:`simulate` would
have raised, and :meth:`ShotBatch.trajectory` raises it. :meth:`ShotBatch.check` raises the
first, naming the shot's index. Only a malformed call (the two sequences of different lengths,
a bad ``max_events``) is refused as a whole.

The results come as arrays indexed by shot and ball id (:attr:`ShotBatch.final`,
:attr:`ShotBatch.pocket_of`...), and each shot's :class:`Trajectory` is made when asked for.

The batch kernel is compiled on the first batch of a process with an empty numba cache (some
seconds), then loaded from the cache; threads: numba's (``NUMBA_NUM_THREADS``, all cores).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from nineball.errors import InvalidInputError, NineballError
from nineball.physics._kernels import constants as k
from nineball.physics._kernels import warm
from nineball.physics.kit import Kit
from nineball.physics.kit import kit as prepared_kit
from nineball.physics.params import PhysicsParams
from nineball.physics.simulate import (
    _DEFAULT_PARAMS,
    _ROOM,
    BallInput,
    PreparedBalls,
    PreparedShot,
    _call,
    _max_events,
    _pack,
    _stroke_args,
)
from nineball.physics.stroke import Stroke
from nineball.physics.table import TableSpec, nine_foot
from nineball.physics.trajectory import Trajectory

__all__ = ["BALL_SLOTS", "ShotBatch", "run_prepared", "simulate_batch", "strike_batch"]

BALL_SLOTS = 10
"""The rows per shot of the arrays by ball id: ids 0 (the cue ball) to 9."""


class _Shot(NamedTuple):
    """One shot of a batch, packed: what ``simulate._call`` takes."""

    kit: Kit
    balls: tuple[BallInput, ...]
    ids: tuple[int, ...]
    rvw: NDArray[np.float64]
    checked: bool
    stroke: Stroke | None
    args: tuple[int, float, float, float, float, float]
    max_events: int


_Parts = tuple[_Shot, int, NDArray[np.float64], NDArray[np.int64]]
"""A shot's results: the shot, its event count, its floats and its ints (``shot``'s layout)."""


class ShotBatch:
    """The results of a batch of shots, as arrays by shot and ball id, and trajectories.

    Arrays are read-only. A shot refused by the engine has its error in :attr:`errors`, no
    events, and NaN and -1 in the arrays by ball.
    """

    __slots__ = ("_arrays", "_late", "_made", "_parts", "errors")

    def __init__(
        self,
        errors: list[NineballError | None],
        parts: list[_Parts | None],
        arrays: tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]],
        late: list[int],
    ) -> None:
        """Wrap the results (``late``: shots whose arrays by ball are filled when asked for)."""
        self.errors: tuple[NineballError | None, ...] = tuple(errors)
        """Per shot, the error :func:`~nineball.physics.simulate` would raise (None: simulated)."""
        self._parts = parts
        self._made: list[Trajectory | None] = [None] * len(parts)
        self._arrays = arrays
        self._late = late

    def _by_ball(self) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
        """The arrays by ball, the late shots filled in (once), read-only."""
        if self._late is not None:
            final, motion, pocket = self._arrays
            for i in self._late:
                parts = self._parts[i]
                if parts is None:  # pragma: no cover - a late shot has its results
                    continue
                shot, count, f, n = parts
                m = len(shot.ids)
                ids = list(shot.ids)
                final[i, ids] = f[9 * m + 19 * count : 18 * m + 19 * count].reshape(m, 3, 3)
                motion[i, ids] = n[6 + m + 5 * count : 6 + 2 * m + 5 * count]
                pocket[i, ids] = n[6 + 2 * m + 5 * count : 6 + 3 * m + 5 * count]
            for array in self._arrays:
                array.setflags(write=False)
            self._late = None  # type: ignore[assignment]
        return self._arrays

    @property
    def event_counts(self) -> NDArray[np.int64]:
        """Per shot, the engine's events (the stroke not counted), shape (b,)."""
        return np.array([0 if p is None else p[1] for p in self._parts], dtype=np.int64)

    @property
    def truncated(self) -> NDArray[np.bool_]:
        """Per shot, whether ``max_events`` ran out before every ball came to rest, shape (b,)."""
        return np.array([p is not None and p[3][4] != 0 for p in self._parts], dtype=np.bool_)

    @property
    def final(self) -> NDArray[np.float64]:
        """The final state (r, v, w) of each ball by id, shape (b, 10, 3, 3); NaN: absent."""
        return self._by_ball()[0]

    @property
    def final_motion(self) -> NDArray[np.int64]:
        """The final motion state (:class:`MotionState` values) by id, shape (b, 10); -1 absent."""
        return self._by_ball()[1]

    @property
    def pocket_of(self) -> NDArray[np.int64]:
        """The pocket (:class:`PocketId` order) of each ball by id, shape (b, 10); -1: none."""
        return self._by_ball()[2]

    def __len__(self) -> int:
        """The number of shots."""
        return len(self.errors)

    def trajectory(self, index: int) -> Trajectory:
        """Shot ``index``'s trajectory, the one :func:`~nineball.physics.simulate` gives.

        Raises:
            NineballError: the shot's error, when the engine refused it.
            IndexError: no such shot.
        """
        error = self.errors[index]
        if error is not None:
            raise error
        made = self._made[index]
        if made is None:
            parts = self._parts[index]
            if parts is None:  # pragma: no cover - every shot without an error has its parts
                raise NineballError(f"shot {index} has no results")
            shot, count, floats, ints = parts
            made = Trajectory._wrap(
                shot.ids,
                count,
                floats,
                ints,
                bool(ints[4]),
                shot.stroke is not None,
                shot.kit.names,
                shot.kit.params,
            )
            self._made[index] = made
        return made

    def trajectories(self) -> tuple[Trajectory | None, ...]:
        """Every shot's trajectory, None for a shot refused (see :attr:`errors`)."""
        return tuple(
            None if error is not None else self.trajectory(i) for i, error in enumerate(self.errors)
        )

    def check(self) -> None:
        """Raise the first shot's error, if any, its message led by the shot's index.

        Raises:
            NineballError: of the same class as the shot's error: ``shot 3: balls 1 and 2
                overlap...``.
        """
        for i, error in enumerate(self.errors):
            if error is not None:
                raise type(error)(f"shot {i}: {error}") from error


def simulate_batch(
    layouts: Sequence[Sequence[BallInput]],
    strokes: Sequence[Stroke | None],
    *,
    params: PhysicsParams | None = None,
    table: TableSpec | None = None,
    max_events: int = 10000,
) -> ShotBatch:
    """Simulate shot i: the balls of ``layouts[i]`` struck by ``strokes[i]``, for every i.

    Each shot gives what ``simulate(layouts[i], stroke=strokes[i], ...)`` gives, bit for bit,
    or its error in :attr:`ShotBatch.errors`.

    >>> shots = simulate_batch(
    ...     [[BallInput(id=0, r=(0.635, 0.6)), BallInput(id=1, r=(0.635, 1.9))]] * 2,
    ...     [Stroke(speed=2.0, aim=1.5707963), Stroke(speed=0.5, aim=0.0)],
    ... )
    >>> shots.trajectory(0).facts().first_contact, int(shots.event_counts[1]) > 0
    (1, True)

    Args:
        layouts: each shot's balls at t = 0.
        strokes: each shot's stroke on the cue ball (None: no stroke).
        params: the physical parameters of every shot (default :class:`PhysicsParams`).
        table: the table of every shot (default the WPA 9-ft table).
        max_events: the most events of each shot.

    Raises:
        InvalidInputError: ``layouts`` and ``strokes`` of different lengths, or a bad
            ``max_events`` (the errors of single shots are in the results).
    """
    if len(layouts) != len(strokes):
        raise InvalidInputError(
            f"{len(layouts)} layouts and {len(strokes)} strokes: one stroke per layout"
        )
    kit = prepared_kit(params or _DEFAULT_PARAMS, table or nine_foot())
    bound = _max_events(max_events)
    items: list[_Shot | NineballError] = []
    for balls, stroke in zip(layouts, strokes, strict=True):
        try:
            ids, rvw, ordered = _pack(balls, kit.params.radius)
            args = _stroke_args(stroke, ids, kit.params)
        except NineballError as error:
            items.append(error)
            continue
        items.append(_Shot(kit, ordered, ids, rvw, True, stroke, args, bound))
    return _run(items)


def strike_batch(
    prepared: Sequence[PreparedBalls], strokes: Sequence[Stroke], *, max_events: int = 10000
) -> ShotBatch:
    """Strike ``prepared[i]`` with ``strokes[i]`` for every i: each :meth:`PreparedBalls.strike`.

    The balls were checked when prepared, or are checked with their strike (balls made by
    :meth:`PreparedBalls.resting`, whose errors are then the shot's), and each set keeps its
    own table and parameters (the shots on each pair of them go in one compiled call).

    Raises:
        InvalidInputError: sequences of different lengths, or a bad ``max_events``.
    """
    if len(prepared) != len(strokes):
        raise InvalidInputError(
            f"{len(prepared)} prepared layouts and {len(strokes)} strokes: one stroke each"
        )
    bound = _max_events(max_events)
    items: list[_Shot | NineballError] = []
    for balls, stroke in zip(prepared, strokes, strict=True):
        try:
            args = _stroke_args(stroke, balls._ids, balls._kit.params)
        except NineballError as error:
            items.append(error)
            continue
        items.append(
            _Shot(
                balls._kit,
                balls._balls,
                balls._ids,
                balls._rvw,
                balls._unchecked,
                stroke,
                args,
                bound,
            )
        )
    out = _run(items)
    for balls, refused in zip(prepared, out.errors, strict=True):
        if refused is None:
            balls._unchecked = False  # checked with its strike
    return out


def run_prepared(shots: Sequence[tuple[PreparedShot, int]]) -> ShotBatch:
    """Run each checked shot with its ``max_events`` (>= 1): each :meth:`PreparedShot.run`.

    The simulate protocol's array of requests, simulated together.
    """
    items: list[_Shot | NineballError] = []
    for shot, bound in shots:
        try:
            args = _stroke_args(shot._stroke, shot._ids, shot._kit.params)
        except NineballError as error:  # pragma: no cover - checked when it was prepared
            items.append(error)
            continue
        items.append(
            _Shot(shot._kit, shot._balls, shot._ids, shot._rvw, False, shot._stroke, args, bound)
        )
    return _run(items)


SMALL = 16
"""Batches of fewer shots (per table and parameters) are simulated one call at a time: the
compiled batch's fixed cost (its arrays, and waking numba's threads) is more than it saves."""


def _run(items: list[_Shot | NineballError]) -> ShotBatch:
    """Simulate the packed shots, a compiled call per (table and parameters, max_events)."""
    b = len(items)
    final = np.full((b, BALL_SLOTS, 3, 3), np.nan)
    final_motion = np.full((b, BALL_SLOTS), -1, dtype=np.int64)
    pocket_of = np.full((b, BALL_SLOTS), -1, dtype=np.int64)
    errors: list[NineballError | None] = [None] * b
    parts: list[_Parts | None] = [None] * b
    late: list[int] = []
    # one call per table and parameters (equal ones, if not the same objects) and max_events
    packed: dict[int, bytes] = {}
    groups: dict[tuple[bytes, int], list[int]] = {}
    for i, item in enumerate(items):
        if isinstance(item, NineballError):
            errors[i] = item
            continue
        key = packed.get(id(item.kit))
        if key is None:
            key = packed[id(item.kit)] = item.kit.tab.tobytes()
        groups.setdefault((key, item.max_events), []).append(i)
    for (_, max_events), members in groups.items():
        shots: list[_Shot] = [items[i] for i in members]  # type: ignore[misc]
        if len(members) < SMALL:
            late += members
            for i, shot in zip(members, shots, strict=True):
                _alone(i, shot, max_events, errors, parts)
        else:
            _group(
                members, shots, max_events, (final, final_motion, pocket_of), errors, parts, late
            )
    return ShotBatch(errors, parts, (final, final_motion, pocket_of), late)


def _alone(
    i: int,
    shot: _Shot,
    max_events: int,
    errors: list[NineballError | None],
    parts: list[_Parts | None],
) -> None:
    """Shot i simulated by itself, as :func:`~nineball.physics.simulate` does."""
    try:
        count, _, f, n = _call(
            shot.kit, shot.balls, shot.ids, shot.rvw, shot.checked, shot.stroke, max_events
        )
    except NineballError as error:
        errors[i] = error
        return
    parts[i] = (shot, count, f, n)


def _group(
    members: list[int],
    shots: list[_Shot],
    max_events: int,
    out: tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]],
    errors: list[NineballError | None],
    parts: list[_Parts | None],
    late: list[int],
) -> None:
    """Simulate shots on one table and parameters in one compiled call; fill the results.

    The shots run again alone go in ``late`` (their arrays by ball filled when asked for).
    """
    from nineball.physics._kernels.batch import shots as batch_kernel  # compiled on first use

    final, final_motion, pocket_of = out
    kit = shots[0].kit
    warm.join()
    g = len(shots)
    sizes = np.array([len(s.ids) for s in shots], dtype=np.int64)
    starts = np.zeros(g + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    rooms = np.minimum(max_events, _ROOM + 8 * sizes)
    fstarts = np.zeros(g + 1, dtype=np.int64)
    np.cumsum(18 * sizes + 19 * rooms, out=fstarts[1:])
    istarts = np.zeros(g + 1, dtype=np.int64)
    np.cumsum(6 + 3 * sizes + 5 * rooms, out=istarts[1:])
    rvw = np.concatenate([s.rvw for s in shots]).reshape(-1)
    ids = np.array([i for s in shots for i in s.ids], dtype=np.int64)
    checks = np.array([0 if s.checked else -1 for s in shots], dtype=np.int64)
    cues = np.array([s.args[0] for s in shots], dtype=np.int64)
    strokes = np.array([s.args[1:] for s in shots], dtype=np.float64).reshape(g, 5)
    rows = np.array(members, dtype=np.int64)
    floats = np.empty(int(fstarts[-1]))
    ints = np.empty(int(istarts[-1]), dtype=np.int64)
    batch_kernel(rvw, starts, ids, checks, cues, strokes, kit.tab, max_events, floats, fstarts,
                 ints, istarts, rows, final, final_motion, pocket_of)  # fmt: skip
    heads = istarts[:-1]
    good = ((ints[heads] == k.ST_OK) & (ints[heads + 5] < 0)).tolist()
    counts = ints[heads + 3].tolist()
    fs = fstarts.tolist()
    ins = istarts.tolist()
    for q in range(g):
        i = members[q]
        shot = shots[q]
        if good[q]:
            parts[i] = (shot, counts[q], floats[fs[q] : fs[q + 1]], ints[ins[q] : ins[q + 1]])
            continue
        # too many events for its slice, an input to look at closer, or an error: alone
        _alone(i, shot, max_events, errors, parts)
        final[i] = np.nan
        final_motion[i] = -1
        pocket_of[i] = -1
        late.append(i)
