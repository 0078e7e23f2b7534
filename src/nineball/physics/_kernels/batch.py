"""Many independent shots in one compiled call, spread over the cores: :func:`shots`.

Each shot is the very :func:`.shot.shot` a single simulation calls (the same compiled code for
the same argument types, linked in), run on its own slice of the batch's arrays, so a shot of a
batch gives the same results as the same shot alone, bit for bit. The shots are shared out
over numba's threads (``prange``); nothing in one shot reads or writes another's slices.

Compiled on the first batch (``parallel=True`` costs numba several seconds more than a plain
kernel), then cached on disk like the entry points; ``python -m nineball.physics.warm``, the
install's warm-up, simulates one batch, so no player's first decision compiles it.

numba's threads here are OpenMP's (its ``omp`` layer, the one this install gets), whose threads
by default spin for a while after each parallel loop, waiting for the next: on two cores they
took the core the caller's Python needed between batches (a ``pro`` decision, batches of tens of
strokes, cost 40% more CPU with two threads than with one). They are asked to sleep instead
(``OMP_WAIT_POLICY=PASSIVE``, unless the environment already says otherwise; read when OpenMP
starts, at the first batch): the same speed-up on large batches (1.6-1.7x on two cores for
128-512 shots) with no CPU lost (docs/physics.md, "Many shots in one call").
"""

from __future__ import annotations

import os

import numpy as np
from numba import prange

from nineball.physics._kernels.constants import ST_OK
from nineball.physics._kernels.jit import parallel_entry
from nineball.physics._kernels.shot import shot

__all__ = ["shots"]

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


@parallel_entry
def shots(
    rvw: np.ndarray,
    starts: np.ndarray,
    ids: np.ndarray,
    checks: np.ndarray,
    cues: np.ndarray,
    strokes: np.ndarray,
    tab: np.ndarray,
    max_events: int,
    floats: np.ndarray,
    fstarts: np.ndarray,
    ints: np.ndarray,
    istarts: np.ndarray,
    rows: np.ndarray,
    final: np.ndarray,
    final_motion: np.ndarray,
    pocket_of: np.ndarray,
) -> None:
    """Simulate shot s = 0 .. len(starts) - 2 of the batch, each as :func:`.shot.shot` would.

    Args:
        rvw: every shot's balls, flattened: shot s's are ``rvw[9 starts[s] : 9 starts[s + 1]]``
            (its (n, 3, 3) states, in ball-id order; not modified).
        starts: where each shot's balls begin (in balls), and the total at the end.
        ids: the id (0-9) of each ball of ``rvw``.
        checks: per shot, ``shot``'s ``checks`` (-1: trusted, 0: check every ball).
        cues: per shot, the cue ball's index to strike (-1: no stroke).
        strokes: per shot, the stroke's speed, aim, elevation, side and height (shape (b, 5)).
        tab: the table and the parameters (``shot.pack_table``), shared by every shot.
        max_events: the most events of each shot.
        floats: the results' floats, shot s's in ``floats[fstarts[s] : fstarts[s + 1]]``, in
            ``shot``'s layout.
        fstarts: where each shot's floats begin, and their total at the end.
        ints: the results' integers, shot s's in ``ints[istarts[s] : istarts[s + 1]]``, in
            ``shot``'s layout (its header first: a shot whose events did not fit says ST_ROOM
            there, with their number).
        istarts: where each shot's integers begin, and their total at the end.
        rows: per shot, its row in ``final``, ``final_motion`` and ``pocket_of``.
        final: (rows, 10, 3, 3), written for each shot that ended ST_OK: the final state of
            each ball by id (the rows of absent balls are left as they are).
        final_motion: (b, 10), likewise the final motion states.
        pocket_of: (b, 10), likewise each ball's pocket (-1: none).
    """
    b = starts.shape[0] - 1
    for s in prange(b):
        lo = starts[s]
        n = starts[s + 1] - lo
        balls = rvw[9 * lo : 9 * (lo + n)].reshape(n, 3, 3)
        f = floats[fstarts[s] : fstarts[s + 1]]
        g = ints[istarts[s] : istarts[s + 1]]
        shot(balls, checks[s], cues[s], strokes[s, 0], strokes[s, 1], strokes[s, 2],
             strokes[s, 3], strokes[s, 4], tab, max_events, f, g)  # fmt: skip
        if g[0] == ST_OK:
            count = g[3]
            o = 9 * n + 19 * count
            row = rows[s]
            for i in range(n):
                ball = ids[lo + i]
                for r in range(3):
                    for c in range(3):
                        final[row, ball, r, c] = f[o + 9 * i + 3 * r + c]
                final_motion[row, ball] = g[6 + n + 5 * count + i]
                pocket_of[row, ball] = g[6 + 2 * n + 5 * count + i]
