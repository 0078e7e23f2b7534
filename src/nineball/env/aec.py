"""A PettingZoo AEC environment: two learning agents play a match of nine-ball.

The agent to act is the one whose turn it is under the rules, so the same agent keeps acting
while it keeps the table. Actions, observations and phases are those of
:mod:`nineball.env.spaces`; each agent observes the table from its own side (its fouls and score
first). Rewards: +1 to the winner and -1 to the loser of the match, when it ends.

A reset plays nothing (both seats are learners), so the episode it hands back is never over: the
agent to act is the breaker. A finite action outside the box is clipped into it; one of the wrong
shape or not finite is refused with :class:`~nineball.errors.InvalidInputError` and changes
nothing, the same agent still to act.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from nineball.env.spaces import (
    Turns,
    action_space,
    check_action,
    check_count,
    encode,
    observation_space,
)
from nineball.errors import InvalidInputError
from nineball.game import MatchConfig, Seat
from nineball.game.match import Match
from nineball.game.noise import TOURNAMENT_NOISE, ExecutionNoise

__all__ = ["NineBallAEC", "aec_env"]

AGENTS = ("player_0", "player_1")


class NineBallAEC(AECEnv):  # type: ignore[misc]
    """Two agents, one table, the full rules (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "nineball_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        *,
        race_to: int = 1,
        noise: str | None = "tournament",
        max_strokes: int = 400,
        render_mode: str | None = None,
    ) -> None:
        """Set the race length, the execution noise and the stroke cap.

        Raises:
            InvalidInputError: a race or a stroke cap that is not a positive whole number, an
                unknown noise or render mode.
        """
        super().__init__()
        check_count(race_to, "race_to", 99)
        check_count(max_strokes, "max_strokes", 10**9)
        if render_mode not in (None, "ansi"):
            raise InvalidInputError(f"unknown render mode {render_mode!r}")
        if noise not in ("tournament", None):
            raise InvalidInputError(f"noise is 'tournament' or None, got {noise!r}")
        self.race_to = race_to
        self.noise: ExecutionNoise | None = TOURNAMENT_NOISE if noise == "tournament" else None
        self.max_strokes = max_strokes
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._action_space = action_space()
        self._observation_space = observation_space()
        # Deterministic until seeded: an unseeded run (a checker's) is reproducible too.
        self._action_space.seed(0)
        self._match: Match | None = None
        self._rng = np.random.default_rng(0)
        self._turns = Turns()
        self._strokes = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict for both agents."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same Box for both agents."""
        return self._action_space

    @property
    def match(self) -> Match:
        """The match being played (after :meth:`reset`)."""
        if self._match is None:
            raise InvalidInputError("call reset() first")
        return self._match

    def _seat(self, agent: str) -> Seat:
        return Seat(AGENTS.index(agent))

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """The table from ``agent``'s side."""
        return encode(self.match, self._seat(agent), self._turns.phase(self.match))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; who breaks first is drawn from the seeded generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        first = Seat(int(self._rng.integers(2)))
        config = MatchConfig(players=AGENTS, race_to=self.race_to, first_breaker=first)
        self._match = Match(config, seed=int(self._rng.integers(0, 2**62)), agents=AGENTS)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._turns = Turns()
        self._strokes = 0
        self.agent_selection = AGENTS[self.match.state.to_act]

    def step(self, action: NDArray[np.float32] | None) -> None:
        """Act for ``agent_selection``.

        A finite action outside the box is clipped into it.

        Raises:
            InvalidInputError: an action of the wrong shape or not finite (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = check_action(action)
        match = self.match
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        text, report = self._turns.act(match, a, self.noise)
        if report is not None:
            self._strokes += 1
            self.infos = {x: {"ruling": text} for x in self.agents}
        elif text:
            self.infos[agent] = {"ruling": text}
        if match.state.is_over:
            winner = AGENTS[match.state.winner or 0]
            for x in self.agents:
                self.rewards[x] = 1.0 if x == winner else -1.0
                self.terminations[x] = True
        elif self._strokes >= self.max_strokes:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = AGENTS[match.state.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """A line of text about the table (``ansi``)."""
        if self.render_mode != "ansi" or self._match is None:
            return None
        state = self._match.state
        return f"score {state.score}, {self.agent_selection} to act, lowest {int(state.lowest)}\n"

    def close(self) -> None:
        """Nothing to release."""


def aec_env(**kwargs: Any) -> Any:
    """The AEC environment wrapped as PettingZoo recommends (order enforced)."""
    return wrappers.OrderEnforcingWrapper(NineBallAEC(**kwargs))
