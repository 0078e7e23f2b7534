"""The result of a simulation: :class:`Trajectory`, its events, facts and states at any time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import PocketId
from nineball.physics._kernels import constants as k
from nineball.physics._kernels.motion import evolve
from nineball.physics.events import BallState, Event, EventKind
from nineball.physics.facts import TrajectoryFacts, array_facts
from nineball.physics.kit import param_vector
from nineball.physics.params import PhysicsParams
from nineball.physics.state import MotionState
from nineball.physics.table import nine_foot

__all__ = ["Trajectory"]

_POCKETS: tuple[PocketId, ...] = tuple(PocketId)


class Trajectory:
    """The result of a simulation: events, final states and analytic positions in between.

    Arrays are read-only views of the engine's two result arrays, made when first asked for.
    Ball indices in the arrays follow ``ball_ids``. Immutable.
    """

    __slots__ = ("_d",)

    _d: list[Any]
    """ball_ids, the event count, the floats and ints arrays, truncated, stroked, the cushion
    names, the parameters, and the views made so far (a list of eleven, None until asked)."""

    def __init__(
        self,
        *,
        ball_ids: tuple[int, ...],
        count: int,
        floats: NDArray[np.float64],
        ints: NDArray[np.int64],
        truncated: bool,
        stroked: bool,
        cushion_names: tuple[str, ...],
        params: PhysicsParams,
    ) -> None:
        """Wrap the engine's results (``shot.shot``'s layout), which become read-only."""
        object.__setattr__(
            self,
            "_d",
            [ball_ids, count, floats, ints, truncated, stroked, cushion_names, params, None],
        )

    @classmethod
    def _wrap(
        cls,
        ball_ids: tuple[int, ...],
        count: int,
        floats: NDArray[np.float64],
        ints: NDArray[np.int64],
        truncated: bool,
        stroked: bool,
        cushion_names: tuple[str, ...],
        params: PhysicsParams,
    ) -> Trajectory:
        """:meth:`__init__`, positional and without its call's keyword handling (hot path)."""
        out = object.__new__(cls)
        object.__setattr__(
            out,
            "_d",
            [ball_ids, count, floats, ints, truncated, stroked, cushion_names, params, None],
        )
        return out

    def __setattr__(self, name: str, value: object) -> None:
        """Refuse: a trajectory is immutable."""
        raise AttributeError(f"a Trajectory is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        """Refuse: a trajectory is immutable."""
        raise AttributeError(f"a Trajectory is immutable: cannot delete {name!r}")

    @property
    def ball_ids(self) -> tuple[int, ...]:
        """The ids of the balls on the table, in array order."""
        ids: tuple[int, ...] = self._d[0]
        return ids

    @property
    def truncated(self) -> bool:
        """True if ``max_events`` ran out before every ball came to rest."""
        return bool(self._d[4])

    @property
    def stroked(self) -> bool:
        """True if a stroke started the shot (a ``stroke`` event at t = 0)."""
        return bool(self._d[5])

    @property
    def cushion_names(self) -> tuple[str, ...]:
        """Names of the cushion indices (segments, then jaws)."""
        names: tuple[str, ...] = self._d[6]
        return names

    @property
    def params(self) -> PhysicsParams:
        """The parameters used."""
        params: PhysicsParams = self._d[7]
        return params

    def _view(self, k: int) -> NDArray[Any]:
        """View k of the results (the order of the array properties below), made once."""
        d = self._d
        views = d[8]
        if views is None:
            # the results become read-only when first looked at
            d[2].setflags(write=False)
            d[3].setflags(write=False)
            views = d[8] = [None] * 11
        view: NDArray[Any] | None = views[k]
        if view is None:
            view = views[k] = _make_view(k, len(d[0]), d[1], d[2], d[3])
        return view

    @property
    def initial(self) -> NDArray[np.float64]:
        """States just after the stroke at t = 0, shape (n, 3, 3)."""
        return self._view(0)

    @property
    def initial_motion(self) -> NDArray[np.int64]:
        """Motion states at t = 0, shape (n,)."""
        return self._view(1)

    @property
    def times(self) -> NDArray[np.float64]:
        """Event times in s, shape (e,) (kernel events only, without the stroke)."""
        return self._view(2)

    @property
    def kinds(self) -> NDArray[np.int64]:
        """Event codes, shape (e,)."""
        return self._view(3)

    @property
    def first(self) -> NDArray[np.int64]:
        """Index of the (first) ball of each event, shape (e,)."""
        return self._view(4)

    @property
    def second(self) -> NDArray[np.int64]:
        """Second ball index, cushion index or pocket index of each event (-1 if none)."""
        return self._view(5)

    @property
    def after(self) -> NDArray[np.float64]:
        """States of the involved balls after each event, shape (e, 2, 3, 3)."""
        return self._view(6)

    @property
    def after_motion(self) -> NDArray[np.int64]:
        """Motion states of the involved balls after each event, shape (e, 2)."""
        return self._view(7)

    @property
    def final(self) -> NDArray[np.float64]:
        """Final states, shape (n, 3, 3)."""
        return self._view(8)

    @property
    def final_motion(self) -> NDArray[np.int64]:
        """Final motion states, shape (n,)."""
        return self._view(9)

    @property
    def pocket_of(self) -> NDArray[np.int64]:
        """Pocket index (PocketId order) of each ball, -1 if on the table, shape (n,)."""
        return self._view(10)

    def __repr__(self) -> str:
        """A short description (the arrays are left out)."""
        return (
            f"Trajectory(ball_ids={self.ball_ids!r}, events={self._d[1]}, "
            f"truncated={self.truncated!r}, stroked={self.stroked!r})"
        )

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
        ids, count, floats, ints = self._d[:4]
        n = len(ids)
        # straight from the packed results (the layout of _make_view): no views, two copies
        events = ints[6 + n : 6 + n + 3 * count].tolist()  # kinds, first, second in a row
        times = floats[9 * n : 9 * n + count].tolist()
        kinds, first, second = events[:count], events[count : 2 * count], events[2 * count :]
        return array_facts(ids, times, kinds, first, second)

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

    def first_collision(self, ball: int) -> tuple[int, tuple[float, float]] | None:
        """Ball ``ball``'s first collision with another ball: the other's id, ``ball``'s velocity.

        The velocity (vx, vy) is the one just after the collision; None when the ball met no
        ball or is not on the table. The same figures as the first ball-ball :class:`Event` of
        :meth:`events` that names ``ball``, read from the event arrays without building the
        events (a search asks this of every stroke it tries on an object ball).
        """
        ids = self.ball_ids
        if ball not in ids:
            return None
        index = ids.index(ball)
        kinds = self.kinds.tolist()
        firsts = self.first.tolist()
        seconds = self.second.tolist()
        for e, kind in enumerate(kinds):
            if kind != k.EV_BALL_BALL or index not in (firsts[e], seconds[e]):
                continue
            slot, other = (0, seconds[e]) if firsts[e] == index else (1, firsts[e])
            vx, vy = self.after[e, slot, 1, :2].tolist()
            return ids[other], (vx, vy)
        return None

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


def _make_view(
    k: int, n: int, c: int, f: NDArray[np.float64], ints: NDArray[np.int64]
) -> NDArray[Any]:
    """View k of the packed results of ``shot.shot`` (n balls, c events; the layout there)."""
    i = ints[6:]  # after the kernel's header
    e = 9 * n + c
    if k == 0:
        return f[: 9 * n].reshape(n, 3, 3)
    if k == 1:
        return i[:n]
    if k == 2:
        return f[9 * n : e]
    if k == 3:
        return i[n : n + c]
    if k == 4:
        return i[n + c : n + 2 * c]
    if k == 5:
        return i[n + 2 * c : n + 3 * c]
    if k == 6:
        return f[e : e + 18 * c].reshape(c, 2, 3, 3)
    if k == 7:
        return i[n + 3 * c : n + 5 * c].reshape(c, 2)
    if k == 8:
        return f[e + 18 * c : e + 18 * c + 9 * n].reshape(n, 3, 3)
    if k == 9:
        return i[n + 5 * c : 2 * n + 5 * c]
    return i[2 * n + 5 * c : 3 * n + 5 * c]
