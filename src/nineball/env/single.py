"""``nineball/NineBall-v0``: one learning agent against a built-in computer player."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from nineball.env.spaces import (
    EnvPhase,
    Turns,
    action_space,
    check_action,
    check_count,
    encode,
    observation_space,
)
from nineball.errors import InvalidInputError, NineballError
from nineball.game import MatchConfig, Seat
from nineball.game.match import Match
from nineball.game.noise import TOURNAMENT_NOISE, ExecutionNoise
from nineball.players.play import play_turn
from nineball.players.registry import PLAYERS, make_player

__all__ = ["MAX_RACKS", "NineBallEnv"]

Observation = dict[str, NDArray[Any]]

MAX_RACKS = 100
"""How many matches a reset racks, at most, to find one the opponent has not won already."""


class NineBallEnv(gym.Env[Observation | NDArray[np.float32], NDArray[np.float32]]):
    """Nine-ball against a built-in computer player, under the full rules and physics.

    ## Description
    The agent plays a match (a race to ``race_to`` games, one game by default) against a
    computer player on the simulated 9-ft table; the referee rules on every stroke, and the
    agent acts whenever it is its turn: strokes (with ball in hand when it has it), the push-out
    declaration right after a break and the shoot-or-pass answer to the opponent's push out.

    ## Action Space
    ``Box(-1, 1, (8,), float32)``; the meaning of each component depends on the phase, see
    :mod:`nineball.env.spaces`. The observation's ``action_parts`` says which components matter.
    A finite action outside the box is clipped into it, as Gymnasium's ``ClipAction`` would
    (a Gaussian policy such as PPO's samples outside the box); an action of the wrong shape or
    with a NaN or an infinity is refused with :class:`~nineball.errors.InvalidInputError`, and
    the episode goes on as if it had not been sent.

    ## Observation Space
    A ``Dict`` of ball positions, the lowest ball, the phase, ball in hand, consecutive fouls,
    the score and the action mask (:mod:`nineball.env.spaces`). With ``flat=True`` (the
    registered ``nineball/NineBallFlat-v0``) it is one ``Box`` of 57 float32 numbers, the
    Dict's parts flattened in :attr:`dict_observation_space`'s (sorted) key order by
    ``gymnasium.spaces.flatten`` (``gymnasium.spaces.unflatten(env.dict_observation_space, obs)``
    gives the Dict back), for libraries that take no Dict.

    ## Rewards
    +1 when the agent wins the match, -1 when it loses, 0 otherwise. With
    ``shaping=True``, also +0.1 per object ball the agent pockets legally and -0.1 per foul.

    ## Starting State
    A fresh rack; who breaks is drawn from the episode's seeded generator, or fixed with
    ``breaker="agent"`` or ``"opponent"``. When the opponent breaks it plays until the agent has
    to act; should it win the whole match before that (a break and run out in a race to one),
    the match is thrown away and a new one, with the same breaker, is racked from the next draw
    of the episode's generator, up to :data:`MAX_RACKS` times, so a reset never hands back a
    finished episode and the same seed still gives the same episode. ``info["discarded"]``
    says how many matches were thrown away.

    ## Episode End
    Terminated when the match is over. Truncated after ``max_strokes`` of the agent's actions.

    ## Arguments
    ``opponent`` (a computer player's name, default ``"club"``), ``race_to`` (1),
    ``noise`` (the agent's execution noise: ``"tournament"`` by default, or None),
    ``shaping`` (False), ``max_strokes`` (200), ``breaker`` (``"random"``), ``flat`` (False),
    ``render_mode`` (``"ansi"`` or ``"rgb_array"``, which needs Pillow: the ``[png]`` extra).

    ## Version History
    * v0: first version; a reset racks again rather than hand back a match the opponent won
      before the agent acted, out-of-box actions are clipped, ``flat`` added.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        *,
        opponent: str = "club",
        race_to: int = 1,
        noise: str | None = "tournament",
        shaping: bool = False,
        max_strokes: int = 200,
        breaker: str = "random",
        flat: bool = False,
        render_mode: str | None = None,
    ) -> None:
        """Set the opponent and the rules of the episode.

        Raises:
            InvalidInputError: an unknown opponent, noise, breaker or render mode, a race or a
                stroke cap that is not a positive whole number.
        """
        check_count(race_to, "race_to", 99)
        check_count(max_strokes, "max_strokes", 10**9)
        if not isinstance(opponent, str) or opponent not in PLAYERS:
            raise InvalidInputError(f"unknown opponent {opponent!r} (known: {', '.join(PLAYERS)})")
        if noise not in ("tournament", None):
            raise InvalidInputError(f"noise is 'tournament' or None, got {noise!r}")
        for name, value in (("shaping", shaping), ("flat", flat)):
            if not isinstance(value, bool):
                raise InvalidInputError(f"{name} is True or False, got {value!r}")
        if breaker not in ("random", "agent", "opponent"):
            raise InvalidInputError(f"breaker is random, agent or opponent, got {breaker!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidInputError(f"unknown render mode {render_mode!r}")
        self.opponent_name = opponent
        self.race_to = race_to
        self.noise: ExecutionNoise | None = TOURNAMENT_NOISE if noise == "tournament" else None
        self.shaping = shaping
        self.max_strokes = max_strokes
        self.breaker = breaker
        self.flat = flat
        self.render_mode = render_mode
        self.action_space = action_space()  # type: ignore[assignment]
        self.dict_observation_space = observation_space()
        """The observation Dict (what a flat observation unflattens to)."""
        observations: spaces.Space[Any] = (
            spaces.flatten_space(self.dict_observation_space)
            if self.flat
            else self.dict_observation_space
        )
        self.observation_space = observations
        self._match: Match | None = None
        self._turns = Turns()
        self._strokes = 0
        self._last = ""

    # ------------------------------------------------------------------ helpers

    @property
    def match(self) -> Match:
        """The match being played (after :meth:`reset`)."""
        if self._match is None:
            raise InvalidInputError("call reset() before step()")
        return self._match

    def _phase(self) -> EnvPhase:
        return self._turns.phase(self.match)

    def _observe(self) -> Observation | NDArray[np.float32]:
        observation = encode(self.match, Seat.FIRST, self._phase())
        if self.flat:
            flat = spaces.flatten(self.dict_observation_space, observation)
            return np.asarray(flat, dtype=np.float32)
        return observation

    def _info(self) -> dict[str, Any]:
        state = self.match.state
        return {"phase": self._phase().name.lower(), "score": state.score, "ruling": self._last}

    def _opponent_moves(self) -> None:
        """Let the computer play until it is the agent's turn (or the match is over)."""
        match = self.match
        opponent = make_player(self.opponent_name)
        while not match.state.is_over and match.state.to_act is Seat.SECOND:
            turn = play_turn(match, opponent)
            self._last = turn.ruling.explanation.en
        self._turns = Turns()

    # ------------------------------------------------------------------ Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation | NDArray[np.float32], dict[str, Any]]:
        """Rack a new match; the opponent plays first if it breaks.

        A match the opponent wins before the agent acts is thrown away and another racked from
        the episode's generator (see the class docstring), so the episode returned is never
        over.

        Raises:
            NineballError: the opponent won :data:`MAX_RACKS` matches in a row before the agent
                could act (no real player does).
        """
        super().reset(seed=seed)
        if self.breaker == "random":
            first = Seat(int(self.np_random.integers(2)))
        else:
            first = Seat.FIRST if self.breaker == "agent" else Seat.SECOND
        config = MatchConfig(
            players=("agent", self.opponent_name), race_to=self.race_to, first_breaker=first
        )
        for discarded in range(MAX_RACKS):
            match_seed = int(self.np_random.integers(0, 2**62))
            self._match = Match(config, seed=match_seed, agents=("agent", self.opponent_name))
            self._strokes = 0
            self._last = ""
            self._opponent_moves()
            if not self._match.state.is_over:
                return self._observe(), self._info() | {"discarded": discarded}
        raise NineballError(
            f"the opponent {self.opponent_name!r} won {MAX_RACKS} matches in a row "
            "before the agent could act"
        )

    def step(
        self, action: NDArray[np.float32]
    ) -> tuple[Observation | NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        """Act for the agent, then let the opponent play until it is the agent's turn again.

        A finite action outside the box is clipped into it.

        Raises:
            InvalidInputError: an action of the wrong shape or not finite (nothing changes), or
                a step after the episode ended.
        """
        a = check_action(action)
        match = self.match
        if match.state.is_over:
            raise InvalidInputError("the episode is over: call reset()")
        reward = 0.0
        self._strokes += 1
        self._last, report = self._turns.act(match, a, self.noise)
        if report is not None:
            if self.shaping:
                if report.ruling.fouls:
                    reward -= 0.1
                elif not report.shot.push_out:
                    reward += 0.1 * len(report.facts.pocketed_object_balls)
            if match.state.to_act is Seat.SECOND:
                self._opponent_moves()
        terminated = match.state.is_over
        if terminated:
            reward += 1.0 if match.state.winner is Seat.FIRST else -1.0
        truncated = not terminated and self._strokes >= self.max_strokes
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | NDArray[np.uint8] | None:
        """Text (``ansi``) or an RGB image (``rgb_array``) of the table."""
        if self.render_mode is None or self._match is None:
            return None
        match = self._match
        if self.render_mode == "ansi":
            state = match.state
            balls = " ".join(
                f"{int(b)}@({x:.2f},{y:.2f})" for b, (x, y) in sorted(match.layout.items())
            )
            return f"score {state.score} to act {int(state.to_act)} | {balls} | {self._last}\n"
        import io

        from nineball.render import table_png

        # table_png raises an ImportError naming the [png] extra when Pillow is missing.
        png = table_png(
            {int(b): p for b, p in match.layout.items()}, table=match.table, params=match.params
        )
        from PIL import Image

        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.uint8)

    def close(self) -> None:
        """Nothing to release (harmless to call twice)."""
        self._match = None
