"""What the referee needs to see of a shot, read from the event list (no rules imported)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.physics._kernels.constants import EV_BALL_BALL, EV_CUSHION, EV_OFF_TABLE, EV_POCKET
from nineball.physics.events import Event, EventKind

__all__ = ["FIRST_CONTACT_TIE", "TrajectoryFacts", "array_facts", "shot_facts"]

FIRST_CONTACT_TIE = 1e-9
"""Time resolution in s: cue-ball contacts within this of the first one are a tie, which goes
to the lowest ball (docs/rules.md, D8)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TrajectoryFacts:
    """The facts of a shot as the referee protocol's ``shot`` request names them."""

    first_contact: int | None
    """The first object ball the cue ball touched, or None."""
    pocketed: tuple[int, ...]
    """Balls that ended in a pocket (0 for a scratch), ascending."""
    off_table: tuple[int, ...]
    """Balls that left the table in flight (over a cushion or a pocket's rail), ascending."""
    rails: tuple[int, ...]
    """Balls (0 included) that touched a cushion or jaw after the first contact, ascending."""


def shot_facts(events: Sequence[Event]) -> TrajectoryFacts:
    """Read the facts of a shot from its events (in time order)."""
    first: int | None = None
    t_first = float("inf")
    for e in events:
        if e.kind is EventKind.BALL_BALL and 0 in e.balls:
            if first is None:
                t_first = e.time
                first = e.balls[1] if e.balls[0] == 0 else e.balls[0]
            elif e.time - t_first <= FIRST_CONTACT_TIE:
                other = e.balls[1] if e.balls[0] == 0 else e.balls[0]
                first = min(first, other)
            else:
                break
    pocketed = sorted({e.balls[0] for e in events if e.kind is EventKind.POCKET})
    off_table = sorted({e.balls[0] for e in events if e.kind is EventKind.OFF_TABLE})
    rails: set[int] = set()
    if first is not None:
        rails = {e.balls[0] for e in events if e.kind is EventKind.CUSHION and e.time >= t_first}
    return TrajectoryFacts(
        first_contact=first,
        pocketed=tuple(pocketed),
        off_table=tuple(off_table),
        rails=tuple(sorted(rails)),
    )


def array_facts(
    ball_ids: Sequence[int],
    times: NDArray[np.float64] | list[float],
    kinds: NDArray[np.int64] | list[int],
    first: NDArray[np.int64] | list[int],
    second: NDArray[np.int64] | list[int],
) -> TrajectoryFacts:
    """The same facts as :func:`shot_facts`, read directly from a trajectory's event arrays.

    ``times``, ``kinds``, ``first`` and ``second`` are the kernel's events in time order (without
    the stroke, which is no fact), as arrays or lists; ball indices refer to ``ball_ids``. No
    Event objects are built, and one pass over the events as Python lists: a shot has tens of
    events, for which numpy's per-call cost was most of the time (165 us a shot against about
    25).
    """
    ids = list(ball_ids)
    t = times if isinstance(times, list) else times.tolist()
    k = kinds if isinstance(kinds, list) else kinds.tolist()
    a = first if isinstance(first, list) else first.tolist()
    b = second if isinstance(second, list) else second.tolist()
    cue = ids.index(0) if 0 in ids else -1
    t_first = math.inf
    contacts: list[int] = []  # the balls the cue ball met first (ties within the tolerance)
    pocketed: set[int] = set()
    off_table: set[int] = set()
    for e, kind in enumerate(k):
        if kind == EV_BALL_BALL and cue >= 0 and (a[e] == cue or b[e] == cue):
            if not contacts:
                t_first = t[e]
            if t[e] - t_first <= FIRST_CONTACT_TIE:
                contacts.append(ids[b[e] if a[e] == cue else a[e]])
        elif kind == EV_POCKET:
            pocketed.add(ids[a[e]])
        elif kind == EV_OFF_TABLE:
            off_table.add(ids[a[e]])
    # cushions from the first contact's time on (one at that very time counts, wherever the
    # events list it)
    rails = {ids[a[e]] for e, kind in enumerate(k) if kind == EV_CUSHION and t[e] >= t_first}
    return TrajectoryFacts(
        first_contact=min(contacts) if contacts else None,
        pocketed=tuple(sorted(pocketed)),
        off_table=tuple(sorted(off_table)),
        rails=tuple(sorted(rails)),
    )
