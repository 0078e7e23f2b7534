"""Reinforcement-learning environments (extra ``[rl]``): Gymnasium and PettingZoo.

Importing this package registers ``nineball/NineBall-v0``::

    import gymnasium as gym
    import nineball.env
    env = gym.make("nineball/NineBall-v0", opponent="club")
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from nineball.env.aec import NineBallAEC, aec_env
from nineball.env.single import NineBallEnv

__all__ = ["ENV_ID", "NineBallAEC", "NineBallEnv", "aec_env"]

ENV_ID = "nineball/NineBall-v0"
"""The Gymnasium id of the single-agent environment."""

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="nineball.env.single:NineBallEnv")
