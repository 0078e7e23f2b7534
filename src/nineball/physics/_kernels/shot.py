"""The engine's entry point: check a shot's balls, strike the cue ball, run the event loop.

:func:`shot` is the one call from Python per simulation (``physics/simulate.py``): the table
and the parameters come packed in one array (:func:`pack_table`), the results go back packed
in two, so that a call costs few conversions. The loop itself keeps, per ball, the absolute
time of its next transition, cushion or jaw contact and pocket capture, and per pair the next
ball-ball contact; after an event only the entries of the balls involved are recomputed
(``loop._update``), and the event is resolved by ``loop._handle`` (or ``cluster.impact``).
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.cluster import MAX_CONTACTS, impact
from nineball.physics._kernels.constants import (
    EV_AIRBORNE,
    EV_BALL_BALL,
    EV_CUSHION,
    EV_POCKET,
    MAX_SPEED,
    MAX_SPIN,
    NPRM,
    P_LENGTH,
    P_R,
    P_WIDTH,
    PLACEMENT_TOLERANCE,
    ROLLING_INPUT_TOLERANCE,
    S_AIRBORNE,
    ST_NOT_FINITE,
    ST_OK,
    ST_OUTSIDE,
    ST_OVERLAP,
    ST_ROOM,
    ST_SCOOP,
    ST_SPEED,
    ST_SPIN,
)
from nineball.physics._kernels.cull import table_boxes
from nineball.physics._kernels.jit import entry, internal
from nineball.physics._kernels.loop import _astray, _handle, _update
from nineball.physics._kernels.motion import classify, transition_time
from nineball.physics._kernels.record import record
from nineball.physics._kernels.strike import strike

__all__ = ["pack_table", "shot"]


@internal
def _check(rvw: np.ndarray, checks: int, prm: np.ndarray) -> tuple[int, int, int]:
    """The input's first fault, in ball order (finite, speed, spin, place), then overlaps.

    Returns (status, a, b): constants.ST_* and the balls it names.

    ``checks``: -1 trusts the balls (no check); otherwise every ball is checked, but for the
    place of the balls whose bit is set (balls the caller found resting in a pocket's throat,
    outside the rectangle).
    """
    n = rvw.shape[0]
    if checks < 0:
        return ST_OK, -1, -1
    R = prm[P_R]
    tol = PLACEMENT_TOLERANCE
    for q in range(n):
        for r in range(3):
            for c in range(3):
                if not math.isfinite(rvw[q, r, c]):
                    return ST_NOT_FINITE, q, -1
        if math.sqrt(rvw[q, 1, 0] ** 2 + rvw[q, 1, 1] ** 2) > MAX_SPEED:
            return ST_SPEED, q, -1
        if math.sqrt(rvw[q, 2, 0] ** 2 + rvw[q, 2, 1] ** 2 + rvw[q, 2, 2] ** 2) > MAX_SPIN:
            return ST_SPIN, q, -1
        x = rvw[q, 0, 0]
        y = rvw[q, 0, 1]
        if (checks >> q) & 1 == 0 and not (
            R - tol <= x <= prm[P_WIDTH] - R + tol and R - tol <= y <= prm[P_LENGTH] - R + tol
        ):
            return ST_OUTSIDE, q, -1
    for p in range(n):
        for q in range(p + 1, n):
            dx = rvw[p, 0, 0] - rvw[q, 0, 0]
            dy = rvw[p, 0, 1] - rvw[q, 0, 1]
            if math.sqrt(dx * dx + dy * dy) < 2.0 * R - tol:
                return ST_OVERLAP, p, q
    return ST_OK, -1, -1


@internal
def _classify_input(state: np.ndarray, prm: np.ndarray) -> int:
    """A ball's motion state at t = 0; a spin within tolerance of rolling is snapped to it."""
    if state[1, 2] != 0.0:  # lifted off the cloth by the stroke: airborne, spin as struck
        return classify(state, prm)
    R = prm[P_R]
    speed = math.sqrt(state[1, 0] ** 2 + state[1, 1] ** 2)
    sx = state[1, 0] - R * state[2, 1]
    sy = state[1, 1] + R * state[2, 0]
    if math.sqrt(sx * sx + sy * sy) <= ROLLING_INPUT_TOLERANCE * speed:
        state[2, 0] = -state[1, 1] / R
        state[2, 1] = state[1, 0] / R
    return classify(state, prm)


_DONE = 0
_TRUNCATED = 1
_ROOM = 2
"""How the event loop of :func:`shot` ended a turn: every ball at rest, ``max_events`` ran
out, or (before a turn, nothing of it done) the event arrays may not hold the turn, and
:func:`shot` grows them and goes on."""


def pack_table(
    segs: np.ndarray, jaws: np.ndarray, caps: np.ndarray, edges: np.ndarray, prm: np.ndarray
) -> np.ndarray:
    """The table and the parameters in one array, as :func:`shot` takes them.

    Plain Python and numpy (not compiled): it runs once per (parameters, table) pair
    (``physics/kit.py``), and compiling it cost more than a second of every cold start.

    Layout: the parameters (``NPRM``), the numbers of segments, jaws, capture lines and edges,
    then each of those arrays flattened, then the culling rows of :func:`.cull.table_boxes`.
    """
    counts = np.array([segs.shape[0], jaws.shape[0], caps.shape[0], edges.shape[0]], float)
    parts = (prm, counts, segs, jaws, caps, edges, table_boxes(segs, jaws, caps, edges))
    return np.concatenate([np.asarray(part, dtype=np.float64).reshape(-1) for part in parts])


@entry
def shot(
    rvw0: np.ndarray,
    checks: int,
    cue: int,
    speed: float,
    aim: float,
    elevation: float,
    side: float,
    height: float,
    tab: np.ndarray,
    max_events: int,
    floats: np.ndarray,
    ints: np.ndarray,
) -> None:
    """Check a shot's balls, strike the cue ball, and simulate until every ball is at rest.

    Args:
        rvw0: the balls' states, shape (n, 3, 3) (not modified; z of each centre is R).
        checks: -1 to trust the balls (already checked); else check them all, but for the place
            of the balls whose bit is set (see :func:`_check`).
        cue: the index of the cue ball to strike, -1 for no stroke.
        speed: the stroke's speed (:mod:`.strike`), m/s.
        aim: its direction, rad.
        elevation: the cue's elevation, rad.
        side: the tip's offset to the right, a fraction of R.
        height: the tip's offset up, a fraction of R.
        tab: the table and the parameters (:func:`pack_table`).
        max_events: the most events to record (0: only check and strike, simulate nothing).
        floats: where the results' floats go: at least 18 n + 19 room (room for that many
            events), written from the start.
        ints: where the results' integers go, at least 6 + 3 n + 5 room (the same room).

    The results, written into the arrays given (returned arrays would cost the caller more
    than the simulation of a short shot). ``ints`` starts with a header of six: the input's
    status (constants.ST_*) and the balls a and b it names (nothing else is meaningful unless
    it is ST_OK; ST_ROOM: the events did not fit, their number is in the header), the number
    of events, whether ``max_events`` ran out before every ball came to rest (1) or not (0),
    the first ball that ended off the playing surface without an event saying so (-1 if
    none: the invariant of :func:`_astray`, checked when the events did not run out). Then:
    the motion states at t = 0 (n), the event codes, first balls and second indices (count
    each; -1 if none), the motions after each event (2 count), the final motions (n) and each
    ball's pocket (n, -1 if none). ``floats``: the states at t = 0 after the stroke (9 n), the
    event times (count), the states after each event (18 count, (count, 2, 3, 3)), the final
    states (9 n).
    """
    n = rvw0.shape[0]
    # the table's views (contiguous, no copy)
    o = NPRM
    prm = tab[:o]
    nseg = int(tab[o])
    njaw = int(tab[o + 1])
    ncap = int(tab[o + 2])
    nedge = int(tab[o + 3])
    o += 4
    segs = tab[o : o + 6 * nseg].reshape(nseg, 6)
    o += 6 * nseg
    jaws = tab[o : o + 3 * njaw].reshape(njaw, 3)
    o += 3 * njaw
    caps = tab[o : o + 6 * ncap].reshape(ncap, 6)
    o += 6 * ncap
    edges = tab[o : o + 7 * nedge].reshape(nedge, 7)
    o += 7 * nedge
    ng = nseg + njaw + ncap + nedge
    gbox = tab[o : o + 7 * ng].reshape(ng, 7)
    rvw = rvw0.copy()
    status, bad_a, bad_b = _check(rvw, checks, prm)
    if status == ST_OK and cue >= 0:
        low = strike(speed, aim, elevation, side, height, prm, rvw[cue])
        if low < 0.0:
            status = ST_SCOOP
            bad_a = cue
    ints[0] = status
    ints[1] = bad_a
    ints[2] = bad_b
    ints[3] = 0
    ints[4] = 0
    ints[5] = -1
    if status != ST_OK:
        return
    # per-ball tables, a row each (one allocation per kind)
    ib = np.empty((7, n), dtype=np.int64)
    mot = ib[0]
    mot_initial = ib[1]
    cush_id = ib[2]
    pock_id = ib[3]
    pocket_of = ib[4]
    dirty = ib[5]  # balls whose cached event times must be recomputed
    launch = ib[6]  # balls just lifted off the cloth (an airborne event)
    fb = np.empty((4, n))
    tref = fb[0]
    trans = fb[1]
    cush_t = fb[2]
    pock_t = fb[3]
    for i in range(n):
        mot[i] = _classify_input(rvw[i], prm)
        mot_initial[i] = mot[i]
    initial = rvw.copy()
    pair = np.empty((n, n))
    for i in range(n):
        tref[i] = 0.0
        trans[i] = np.inf
        cush_t[i] = np.inf
        pock_t[i] = np.inf
        cush_id[i] = -1
        pock_id[i] = -1
        pocket_of[i] = -1
        for j in range(n):
            pair[i, j] = np.inf
    # The event blocks start small and grow (_grow) while fewer than max_events fit: a shot
    # has tens of events, a break a hundred. Uninitialised: every recorded event writes all of
    # its fields, and only [:count] is read.
    room = max_events if max_events < 64 else 64
    evf = np.empty(19 * room)
    evi = np.empty(5 * room, dtype=np.int64)
    ev_t = evf[:room]
    ev_s = evf[room:].reshape(room, 2, 3, 3)
    ev_k = evi[:room]
    ev_i = evi[room : 2 * room]
    ev_j = evi[2 * room : 3 * room]
    ev_m = evi[3 * room :].reshape(room, 2)
    box = np.empty((n, 9))  # where each ball's centre stays during its motion piece
    for i in range(n):
        box[i, 0] = -np.inf
        box[i, 1] = np.inf
        box[i, 2] = -np.inf
        box[i, 3] = np.inf
        box[i, 8] = 0.0
    work = np.empty((3, 3, 3))  # scratch of _update
    hw = np.empty((2, 3, 3))  # scratch of _handle
    for i in range(n):
        trans[i] = transition_time(rvw[i], mot[i], prm)
        dirty[i] = 1
        launch[i] = 1 if mot[i] == S_AIRBORNE else 0
    count = n - n  # a non-literal integer for numba (one compiled signature)
    truncated = max_events == 0
    no_ball = count - 1
    t = 0.0
    airborne = no_ball + 1 + EV_AIRBORNE  # a non-literal code: no second compiled record
    while not truncated:
        # The event loop, written here rather than in a kernel of its own: a kernel is
        # optimised and turned into machine code with everything it calls, so a separate loop
        # cost the cold start about a second (measured); the loop allocates nothing, and
        # numba's reference counts stay out of it (it only passes whole arrays on)
        code = _DONE
        while True:
            if room < max_events and count + n + MAX_CONTACTS + 2 > room:
                code = _ROOM
                break
            for i in range(n):
                if launch[i] != 0 and count < max_events:
                    record(ev_t, ev_k, ev_i, ev_j, ev_s, ev_m, count, t, airborne, i, no_ball,
                            rvw[i], mot[i], rvw[i], no_ball)  # fmt: skip
                    count += 1
                launch[i] = 0
            # one call site for the update and one for the record keep the compiled loop small
            for i in range(n):
                if dirty[i] != 0:
                    _update(i, t, rvw, mot, tref, trans, cush_t, cush_id, pock_t, pock_id, pair,
                            segs, jaws, caps, edges, prm, box, gbox, work)  # fmt: skip
                    dirty[i] = 0
            best = np.inf
            kind = no_ball
            bi = no_ball
            bj = no_ball
            for i in range(n):
                if trans[i] < best:
                    best = trans[i]
                    kind = 0
                    bi = i
            for i in range(n):
                if pock_t[i] < best:
                    best = pock_t[i]
                    kind = EV_POCKET
                    bi = i
                    bj = pock_id[i]
            for i in range(n):
                if cush_t[i] < best:
                    best = cush_t[i]
                    kind = EV_CUSHION
                    bi = i
                    bj = cush_id[i]
            for i in range(n):
                for j in range(i + 1, n):
                    if pair[i, j] < best:
                        best = pair[i, j]
                        kind = EV_BALL_BALL
                        bi = i
                        bj = j
            if best == np.inf:
                code = _DONE
                break
            if count >= max_events:
                code = _TRUNCATED
                break
            t = best
            added = _handle(t, kind, bi, bj, count, rvw, mot, tref, segs, jaws, prm, launch, dirty,
                            pocket_of, ev_t, ev_k, ev_i, ev_j, ev_s, ev_m, hw)  # fmt: skip
            if added == -2:
                added = impact(t, bi, bj, count, rvw, mot, tref, prm, launch, dirty,
                                ev_t, ev_k, ev_i, ev_j, ev_s, ev_m)  # fmt: skip
            if added < 0:
                code = _TRUNCATED
                break
            count += added

        if code != _ROOM:
            truncated = code == _TRUNCATED
            break
        # room for the next turn's airborne records and the largest simultaneous impact
        need = count + n + MAX_CONTACTS + 2
        old = room
        while room < need:
            room *= 2
        room = room if room < max_events else max_events
        # the blocks keep each array's rows together: copy them array by array
        evf2 = np.empty(19 * room)
        evi2 = np.empty(5 * room, dtype=np.int64)
        for e in range(count):
            evf2[e] = ev_t[e]
            for q in range(18):
                evf2[room + 18 * e + q] = evf[old + 18 * e + q]
            for c in range(3):
                evi2[c * room + e] = evi[c * old + e]
            evi2[3 * room + 2 * e] = evi[3 * old + 2 * e]
            evi2[3 * room + 2 * e + 1] = evi[3 * old + 2 * e + 1]
        evf = evf2
        evi = evi2
        ev_t = evf[:room]
        ev_s = evf[room:].reshape(room, 2, 3, 3)
        ev_k = evi[:room]
        ev_i = evi[room : 2 * room]
        ev_j = evi[2 * room : 3 * room]
        ev_m = evi[3 * room :].reshape(room, 2)
    astray = no_ball if truncated else _astray(rvw, mot, edges, prm)
    if max_events == 0:
        truncated = False
    # pack the results (the layout in the docstring)
    ints[3] = count
    if floats.shape[0] < 18 * n + 19 * count or ints.shape[0] < 6 + 3 * n + 5 * count:
        ints[0] = ST_ROOM
        return
    ints[0] = ST_OK
    ints[1] = -1
    ints[2] = -1
    ints[3] = count
    ints[4] = 1 if truncated else 0
    ints[5] = astray
    f = 0
    for i in range(n):
        for r in range(3):
            for c in range(3):
                floats[f] = initial[i, r, c]
                floats[f + 9 * n + 19 * count] = rvw[i, r, c]
                f += 1
    for e in range(count):
        floats[f] = ev_t[e]
        f += 1
    for e in range(count):
        for q in range(2):
            for r in range(3):
                for c in range(3):
                    floats[f] = ev_s[e, q, r, c]
                    f += 1
    g = 6
    for i in range(n):
        ints[g] = mot_initial[i]
        ints[g + n + 5 * count] = mot[i]
        ints[g + 2 * n + 5 * count] = pocket_of[i]
        g += 1
    for e in range(count):
        ints[g] = ev_k[e]
        ints[g + count] = ev_i[e]
        ints[g + 2 * count] = ev_j[e]
        ints[g + 3 * count + e] = ev_m[e, 0]
        ints[g + 3 * count + e + 1] = ev_m[e, 1]
        g += 1
