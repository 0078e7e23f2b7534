"""Reinforcement-learning environments (extra ``[rl]``): Gymnasium and PettingZoo.

Importing this package registers ``nineball/NineBall-v0`` (a Dict observation) and
``nineball/NineBallFlat-v0`` (the same environment with ``flat=True``: one Box, for libraries
that take no Dict, such as Stable-Baselines3's ``MlpPolicy``)::

    import gymnasium as gym
    import nineball.env
    env = gym.make("nineball/NineBall-v0", opponent="club")
    flat = gym.make("nineball/NineBallFlat-v0", opponent="club")
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from nineball.env.aec import NineBallAEC, aec_env
from nineball.env.single import NineBallEnv

__all__ = ["ENV_ID", "FLAT_ENV_ID", "NineBallAEC", "NineBallEnv", "aec_env"]

ENV_ID = "nineball/NineBall-v0"
"""The Gymnasium id of the single-agent environment."""

FLAT_ENV_ID = "nineball/NineBallFlat-v0"
"""The Gymnasium id of the single-agent environment with a flat Box observation."""

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="nineball.env.single:NineBallEnv")
if FLAT_ENV_ID not in registry:
    register(id=FLAT_ENV_ID, entry_point="nineball.env.single:NineBallEnv", kwargs={"flat": True})
