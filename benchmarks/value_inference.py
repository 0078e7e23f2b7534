"""How long the learned win probability takes per position (never a timed test).

Run: ``python benchmarks/value_inference.py [--games 20] [--repeat 20] [--seed 0]``. Plays a few
seeded ghost matches for real positions (breaks, ball in hand, runs), then times with
``time.process_time`` (CPU, this process only):

* the features of one position (:func:`nineball.players.features.features`);
* the shipped forest on one position's features, walked with numpy (the search's call, less
  the features);
* :meth:`ValueModel.game_win`: features and forest, one position at a time;
* :meth:`ValueModel.probability` on all the positions at once, per position;
* today's geometric value (:func:`nineball.players.evaluation.position_value`), for scale.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from nineball.dataset.selfplay import dataset_jobs, start_match
from nineball.dataset.value import match_positions
from nineball.game.position import Position
from nineball.players.evaluation import position_value
from nineball.players.features import AIM_SD, features
from nineball.players.value import shipped_value_model


def _positions(games: int, seed: int) -> list[Position]:
    jobs = dataset_jobs(("ghost", "ghost"), 0, games, seed=seed, race_to=1, rules="standard",
                        record=False)  # fmt: skip
    return [p for job in jobs for p in match_positions(*start_match(job))]


def _per_call(fn: Callable[[], object], calls: int, repeat: int) -> float:
    """The median over ``repeat`` runs of the CPU time per call, in microseconds."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description="value model inference time")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    model = shipped_value_model()
    positions = _positions(args.games, args.seed)
    x = np.array([features(p) for p in positions])
    n = len(positions)

    def forest_one() -> None:
        for row in x:
            nodes = model.roots
            for _ in range(model.depth):
                nodes = np.where(row[model.feature[nodes]] <= model.threshold[nodes],
                                 model.left[nodes], model.right[nodes])  # fmt: skip
            float(model.value[nodes].sum())

    figures = {
        "features": _per_call(lambda: [features(p) for p in positions], n, args.repeat),
        "forest, one position": _per_call(forest_one, n, args.repeat),
        "game_win (features + forest)": _per_call(
            lambda: [model.game_win(p) for p in positions], n, args.repeat
        ),
        "probability, all at once": _per_call(lambda: model.probability(x), n, args.repeat),
        "position_value (geometry)": _per_call(
            lambda: [position_value(p, p.state.to_act, AIM_SD) for p in positions], n, args.repeat
        ),
    }
    shape = f"{model.trees} trees, depth {model.depth}, {model.positions} training positions"
    print(f"{n} positions of {args.games} ghost games (seed {args.seed}); model: {shape}")
    for name, micro in figures.items():
        print(f"{name:32s} {micro:8.1f} us per position (CPU, median of {args.repeat})")


if __name__ == "__main__":
    main()
