"""``python -m nineball.physics.warm``: compile the physics' kernels into the numba cache now.

With an empty cache the first simulation compiles every kernel (about 25 s on two cores). The
install step runs this once, so the first ``make play`` starts at once; it prints how long it
took. Nothing is compiled again when the cache is already filled (then it takes a second).
"""

from __future__ import annotations

import math
import sys
import time

from nineball.physics import BallInput, Stroke, simulate

__all__ = ["main", "warm"]


def warm() -> None:
    """One stroke with the cue into another ball: every kernel of a simulation runs once."""
    simulate(
        [BallInput(id=0, r=(0.6, 0.5)), BallInput(id=1, r=(0.6, 1.9))],
        stroke=Stroke(speed=3.0, aim=math.pi / 2),
    )


def main() -> int:
    """Warm the kernels and say how long it took; returns the exit status."""
    start = time.perf_counter()
    warm()
    print(f"nineball: physics kernels ready ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
