"""``nineball/NineBall-v0``: one learning agent against a built-in computer player."""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
from numpy.typing import NDArray

from nineball.env.tables import MAX_RACKS, Observation
from nineball.env.task import TaskEnv
from nineball.errors import InvalidInputError
from nineball.game.match import Match
from nineball.game.noise import ExecutionNoise

__all__ = ["MAX_RACKS", "NineBallEnv"]


class NineBallEnv(TaskEnv):
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
        for name, value in (("shaping", shaping), ("flat", flat)):
            if not isinstance(value, bool):
                raise InvalidInputError(f"{name} is True or False, got {value!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidInputError(f"unknown render mode {render_mode!r}")
        super().__init__(
            task="match",
            flat=flat,
            opponent=opponent,
            race_to=race_to,
            noise=noise,
            shaping=shaping,
            max_strokes=max_strokes,
            breaker=breaker,
        )
        self.opponent_name = opponent
        self.race_to = race_to
        self.noise: ExecutionNoise | None = self._table.noise
        self.shaping = shaping
        self.max_strokes = max_strokes
        self.breaker = breaker
        self.render_mode = render_mode

    # ------------------------------------------------------------------ helpers

    @property
    def match(self) -> Match:
        """The match being played (after :meth:`reset`)."""
        if not self._started:
            raise InvalidInputError("call reset() before step()")
        return self._table.match

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
        return super().reset(seed=seed, options=options)

    def step(
        self, action: NDArray[np.float32]
    ) -> tuple[Observation | NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        """Act for the agent, then let the opponent play until it is the agent's turn again.

        A finite action outside the box is clipped into it.

        Raises:
            InvalidInputError: an action of the wrong shape or not finite (nothing changes), or
                a step after the episode ended.
        """
        return super().step(action)

    def render(self) -> str | NDArray[np.uint8] | None:
        """Text (``ansi``) or an RGB image (``rgb_array``) of the table."""
        if self.render_mode is None or not self._started:
            return None
        match = self.match
        if self.render_mode == "ansi":
            state = match.state
            balls = " ".join(
                f"{int(b)}@({x:.2f},{y:.2f})" for b, (x, y) in sorted(match.layout.items())
            )
            return (
                f"score {state.score} to act {int(state.to_act)} | {balls} | {self._table.last}\n"
            )
        import io

        from nineball.render import table_png

        # table_png raises an ImportError naming the [png] extra when Pillow is missing.
        png = table_png(
            {int(b): p for b, p in match.layout.items()}, table=match.table, params=match.params
        )
        from PIL import Image

        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.uint8)
