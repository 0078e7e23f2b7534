"""Stable-Baselines3's PPO trains on ``nineball/NineBallFlat-v0``: a smoke test, not a result.

Needs the ``[sb3]`` extra (Stable-Baselines3 and torch; the CPU wheel is enough) and is not part
of ``make test``::

    pip install 'nineball[sb3]'
    python benchmarks/sb3_smoke.py --steps 4096 --opponent ghost

It runs Stable-Baselines3's own environment checker on the flat environment, trains PPO's
``MlpPolicy`` for ``--steps`` environment steps (one step is one decision of the agent: a
stroke, a push-out declaration or the answer to a push out, followed by the opponent's turn),
evaluates the policy before and after on the same seeded episodes, and prints the figures as
one JSON object. Out-of-box actions from the Gaussian policy are clipped by PPO and, were they
not, by the environment. Everything is seeded: the same arguments give the same figures on the
same machine (torch's CPU kernels are deterministic with one thread).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def main() -> int:
    """Check, train and evaluate; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4096, help="environment steps to train")
    parser.add_argument("--opponent", default="ghost", help="the built-in computer player")
    parser.add_argument("--episodes", type=int, default=10, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        import gymnasium as gym
        import torch
        from stable_baselines3 import PPO
        from stable_baselines3.common.env_checker import check_env
        from stable_baselines3.common.evaluation import evaluate_policy
        from stable_baselines3.common.monitor import Monitor
    except ImportError as exc:
        sys.stderr.write(f"needs the [sb3] extra ({exc.name}): pip install 'nineball[sb3]'\n")
        return 2

    import nineball.env  # registers the environments

    torch.set_num_threads(1)  # two cores: torch's pool would fight the simulation
    kwargs: dict[str, Any] = {"opponent": args.opponent, "shaping": True, "max_strokes": 40}
    check_env(gym.make(nineball.env.FLAT_ENV_ID, **kwargs).unwrapped, warn=True)

    env = Monitor(gym.make(nineball.env.FLAT_ENV_ID, **kwargs))
    env.reset(seed=args.seed)
    env.action_space.seed(args.seed)
    model = PPO(
        "MlpPolicy", env, n_steps=512, batch_size=128, seed=args.seed, device="cpu", verbose=0
    )
    evaluation = Monitor(gym.make(nineball.env.FLAT_ENV_ID, **kwargs))

    def evaluate() -> tuple[float, float]:
        evaluation.reset(seed=args.seed + 1)
        mean, std = evaluate_policy(
            model, evaluation, n_eval_episodes=args.episodes, deterministic=True
        )
        return float(mean), float(std)

    before = evaluate()
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - started
    after = evaluate()
    rewards = env.get_episode_rewards()
    figures = {
        "opponent": args.opponent,
        "steps": int(model.num_timesteps),
        "train_seconds": round(seconds, 1),
        "steps_per_second": round(model.num_timesteps / seconds, 1),
        "train_episodes": len(rewards),
        "train_mean_episode_reward": round(sum(rewards) / max(1, len(rewards)), 3),
        "eval_before": [round(x, 3) for x in before],
        "eval_after": [round(x, 3) for x in after],
        "torch": torch.__version__,
    }
    sys.stdout.write(json.dumps(figures) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
