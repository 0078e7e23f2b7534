"""Reinforcement-learning environments (extra ``[rl]``): Gymnasium and PettingZoo.

Importing this package registers ``nineball/NineBall-v0`` (a Dict observation) and
``nineball/NineBallFlat-v0`` (the same environment with ``flat=True``: one Box, for libraries
that take no Dict, such as Stable-Baselines3's ``MlpPolicy``), and the research tasks
``nineball/Pot-v0``, ``nineball/RunOut-v0`` and ``nineball/Break-v0`` (:class:`TaskEnv`).
Each id has a native vector environment (:class:`NineBallVectorEnv`, the strokes of all its
tables simulated in one batch), which ``gymnasium.make_vec`` builds::

    import gymnasium as gym
    import nineball.env
    env = gym.make("nineball/NineBall-v0", opponent="club")
    flat = gym.make("nineball/NineBallFlat-v0", opponent="club")
    envs = gym.make_vec("nineball/Pot-v0", num_envs=64)
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from nineball.env.aec import NineBallAEC, aec_env
from nineball.env.single import NineBallEnv
from nineball.env.task import TaskEnv
from nineball.env.vector import NineBallVectorEnv

__all__ = [
    "BREAK_ENV_ID",
    "ENV_ID",
    "FLAT_ENV_ID",
    "POT_ENV_ID",
    "RUN_OUT_ENV_ID",
    "NineBallAEC",
    "NineBallEnv",
    "NineBallVectorEnv",
    "TaskEnv",
    "aec_env",
]

ENV_ID = "nineball/NineBall-v0"
"""The Gymnasium id of the single-agent environment."""

FLAT_ENV_ID = "nineball/NineBallFlat-v0"
"""The Gymnasium id of the single-agent environment with a flat Box observation."""

POT_ENV_ID = "nineball/Pot-v0"
"""The research task: pot the lowest ball from a random layout in one stroke."""

RUN_OUT_ENV_ID = "nineball/RunOut-v0"
"""The research task: run out the nine balls from ball in hand."""

BREAK_ENV_ID = "nineball/Break-v0"
"""The research task: break a rack and keep the table."""

_VECTOR = "nineball.env.vector:NineBallVectorEnv"

for _id, _entry, _kwargs in (
    (ENV_ID, "nineball.env.single:NineBallEnv", {}),
    (FLAT_ENV_ID, "nineball.env.single:NineBallEnv", {"flat": True}),
    (POT_ENV_ID, "nineball.env.task:TaskEnv", {"task": "pot"}),
    (RUN_OUT_ENV_ID, "nineball.env.task:TaskEnv", {"task": "runout"}),
    (BREAK_ENV_ID, "nineball.env.task:TaskEnv", {"task": "break"}),
):
    if _id not in registry:
        register(id=_id, entry_point=_entry, vector_entry_point=_VECTOR, kwargs=_kwargs)
