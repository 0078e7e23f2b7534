"""``python -m nineball.physics.warm``: compile the physics' kernels into the numba cache now.

With an empty cache the first simulation compiles every kernel (about 25 s on two cores), and
the first batch of shots (``simulate_batch``, which the computer players' search uses) compiles
the batch kernel. The install step runs this once, so the first ``make play`` starts at once and
no player's first decision pays a compile (in a timed match it lost the shot); it prints how
long it took. Nothing is compiled again when the cache is already filled (then it takes a
second).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable

from nineball.physics import BallInput, Stroke, simulate, simulate_batch
from nineball.physics.batch import SMALL

__all__ = ["main", "warm"]


def warm() -> None:
    """One stroke with the cue into another ball, then a batch of them: every kernel runs once."""
    balls = [BallInput(id=0, r=(0.6, 0.5)), BallInput(id=1, r=(0.6, 1.9))]
    simulate(balls, stroke=Stroke(speed=3.0, aim=math.pi / 2))
    # a batch big enough for the compiled batch (smaller ones are simulated one at a time)
    strokes = [Stroke(speed=1.0 + 0.1 * k, aim=math.pi / 2) for k in range(SMALL)]
    simulate_batch([balls] * SMALL, strokes).check()


def main(warm_up: Callable[[], None] = warm, what: str = "physics kernels") -> int:
    """Run ``warm_up`` and say how long it took; returns the exit status."""
    start = time.perf_counter()
    warm_up()
    print(f"nineball: {what} ready ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
