"""``python -m nineball.game.warm``: compile every kernel a game runs into the numba cache now.

The physics' kernels (:mod:`nineball.physics.warm`) and the game's one, the hash that makes an
entry's random stream (:func:`nineball.game.streams.Streams.entry`): with an empty cache each
would compile on first use (the physics about 25 s on two cores, the stream's hash about 1 s).
The install runs this once, so the first ``make play`` starts at once and no player's first
stroke pays a compile; it prints how long it took.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from nineball.game.streams import Purpose, Streams
from nineball.physics import warm as physics_warm

__all__ = ["main", "warm"]


def warm() -> None:
    """The physics' warm-up, then one entry's stream."""
    physics_warm.warm()
    Streams(0).entry(1, 0, Purpose.NOISE)


def main(warm_up: Callable[[], None] = warm) -> int:
    """Run ``warm_up`` and say how long it took (the physics' report); the exit status."""
    return physics_warm.main(warm_up, "kernels")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
