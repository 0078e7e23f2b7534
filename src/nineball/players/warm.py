"""``python -m nineball.players.warm``: compile every kernel a game with the computer runs.

The game's kernels (:mod:`nineball.game.warm`: the physics and the random streams' hash), then
the players' own (:mod:`nineball.players._kernels`: the learned win probability's forest walk,
the table's open lines and clear paths, about 2 s to compile with an empty cache). The install
runs this once, so no computer player's first decision pays a compile; it prints how long it
took.
"""

from __future__ import annotations

import sys

import numpy as np

from nineball.game import warm as game_warm
from nineball.players._kernels import (
    cluster_pairs,
    forest_leaves,
    near_segment,
    open_lines,
    segments_clear,
)

__all__ = ["main", "warm"]


def warm() -> None:
    """The game's warm-up, then each of the players' kernels once on small arrays."""
    game_warm.warm()
    points = np.array([[0.5, 0.5], [0.6, 0.9]])
    open_lines(points, np.array([[0.0, 0.0], [1.0, 2.0]]), 0.028)
    cluster_pairs(points, 0.08)
    segments_clear(np.array([[0.1, 0.1, 1.0, 2.0]]), points, 0.056)
    near_segment(np.array([0.1, 0.1, 1.0, 2.0]), points, 0.056)
    one = np.zeros(1, dtype=np.int64)
    forest_leaves(np.zeros((1, 1)), one, one, np.full(1, np.inf), one, one, np.zeros(1), 1)


def main() -> int:
    """Warm the kernels and say how long it took; the exit status."""
    return game_warm.main(warm)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
