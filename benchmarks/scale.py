"""Throughput of the RL environment and of tournaments on 1 and 2 workers, and Ray's overhead.

    python benchmarks/scale.py [--games 24]

Reports environment steps per second for a random agent against the ``beginner`` player, games
per second of a ghost-v-beginner round robin on the process pool with 1 and 2 workers (the aim:
2 workers at least 1.7x one) and on a local Ray instance with 2 CPUs (its start-up included).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from nineball.env import NineBallEnv
from nineball.players.ladder import round_robin


def env_steps_per_second(steps: int) -> float:
    """A random agent's steps per second (resets included)."""
    env = NineBallEnv(opponent="beginner")
    env.reset(seed=0)
    env.action_space.seed(0)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)


def games_per_second(games: int, workers: int, backend: str) -> float:
    """Games per second of a round robin ghost v beginner."""
    start = time.perf_counter()
    round_robin(["ghost", "beginner"], games, seed=1, workers=workers, backend=backend)
    return games / (time.perf_counter() - start)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description="environment and tournament throughput")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    np.random.default_rng(0)
    env_steps_per_second(20)  # warm the compiled kernels
    print(f"env steps/s (random agent v beginner): {env_steps_per_second(args.steps):.1f}")
    one = games_per_second(args.games, 1, "process")
    two = games_per_second(args.games, 2, "process")
    ray = games_per_second(args.games, 2, "ray")
    print(
        f"tournament games/s: 1 worker {one:.2f}, 2 workers {two:.2f} ({two / one:.2f}x), "
        f"Ray 2 CPUs {ray:.2f} ({ray / two:.2f}x the pool, start-up included)"
    )


if __name__ == "__main__":
    main()
