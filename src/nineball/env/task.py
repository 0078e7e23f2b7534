"""``nineball/Pot-v0``, ``nineball/RunOut-v0``, ``nineball/Break-v0``: research tasks, one table."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from nineball.env.spaces import action_space, check_action, observation_space
from nineball.env.tables import Observation, make_table
from nineball.errors import InvalidInputError

__all__ = ["TaskEnv"]


class TaskEnv(gym.Env[Observation | NDArray[np.float32], NDArray[np.float32]]):
    """A research task on one table: potting a ball, running out, breaking (no opponent).

    ## Description
    Short episodes on the full physics and rules, each a skill of the game alone
    (:mod:`nineball.env.tables` has each task's layout): ``pot`` (the cue ball and one or more
    object balls at random; pot the lowest in one stroke), ``runout`` (the nine object balls
    at random and the cue ball in hand; pocket them all in turn) and ``break`` (a fresh rack;
    break it and keep the table). ``task="match"`` is the full match of
    :class:`~nineball.env.NineBallEnv`, with its options.

    ## Action Space
    As :class:`~nineball.env.NineBallEnv`: ``Box(-1, 1, (8,), float32)``
    (:mod:`nineball.env.spaces`); a ball in hand is placed by a[5:7].

    ## Observation Space
    As :class:`~nineball.env.NineBallEnv` (a Dict, or with ``flat=True`` one Box of 57).

    ## Rewards
    ``pot``: +1 when the stroke is legal and pockets the lowest ball, else 0. ``runout``: +0.1
    per object ball pocketed on a legal stroke, +1 more for the 9 (the game won). ``break``:
    +1 when the agent keeps the table (or pockets the 9), -1 for a foul, 0 otherwise.

    ## Starting State
    Drawn from the episode's seeded generator: the balls at random, uniformly over the playing
    surface and clear of each other (``pot``, ``runout``), or a rack (``break``).

    ## Episode End
    ``pot`` and ``break``: terminated after the one stroke. ``runout``: terminated when the
    game is won or the agent's turn ends (a miss or a foul); truncated after ``max_strokes``
    (20).

    ## Arguments
    ``task`` (``"pot"``, ``"runout"``, ``"break"`` or ``"match"``), ``flat`` (False), and the
    task's options: ``noise`` (``"tournament"`` or None), ``max_strokes``, and for ``pot``
    ``balls`` (1-9 object balls, default 1: the 9 alone).

    ## Version History
    * v0: first version.
    """

    metadata = {"render_modes": [], "render_fps": 2}  # noqa: RUF012

    def __init__(self, *, task: str = "pot", flat: bool = False, **options: Any) -> None:
        """Set the task and its options.

        Raises:
            InvalidInputError: an unknown task or option, or a bad value.
        """
        if not isinstance(flat, bool):
            raise InvalidInputError(f"flat is True or False, got {flat!r}")
        self._table = make_table(task, **options)
        self.task = task
        self.flat = flat
        self.action_space = action_space()  # type: ignore[assignment]
        self.dict_observation_space = observation_space()
        """The observation Dict (what a flat observation unflattens to)."""
        observations: spaces.Space[Any] = (
            spaces.flatten_space(self.dict_observation_space)
            if flat
            else self.dict_observation_space
        )
        self.observation_space = observations
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation | NDArray[np.float32], dict[str, Any]]:
        """Start an episode of the task."""
        super().reset(seed=seed)
        info = self._table.reset(self.np_random)
        self._started = True
        return self._table.observe(self.flat), info

    def step(
        self, action: NDArray[np.float32]
    ) -> tuple[Observation | NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's action.

        Raises:
            InvalidInputError: an action of the wrong shape or not finite (nothing changes), a
                step before :meth:`reset` or after the episode ended.
        """
        a = check_action(action)
        if not self._started:
            raise InvalidInputError("call reset() before step()")
        table = self._table
        stroke = table.begin(a)
        report = None
        if stroke is not None:
            report = table.match.strike(stroke[0], push_out=stroke[1], noise=table.noise)
        reward, terminated, truncated = table.end(report)
        return table.observe(self.flat), reward, terminated, truncated, table.info()

    def close(self) -> None:
        """Nothing to release (harmless to call twice)."""
        self._started = False
