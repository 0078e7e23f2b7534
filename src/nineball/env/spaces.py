"""Normalised encodings shared by the single-agent and two-agent environments.

Actions are a Box of 8 numbers in [-1, 1] (a finite action outside it is clipped into it, see
:func:`check_action`); what they mean depends on the phase:

========  =================================================================================
phase     meaning of the action
========  =================================================================================
stroke    a[0] aim (-1..1 -> -pi..pi), a[1] elevation (-1..1 -> 0..30 deg), a[2] speed
          (-1..1 -> 0.3 m/s..the player's limit, 12 m/s), a[3] side and a[4] height (the
          square squeezed into a disc of 0.9 times the miscue limit, 0.45 R by default);
          with the cue ball in hand a[5], a[6] place it (-1..1 across the kitchen on the
          break, across the whole surface after a foul; moved to the nearest free spot if it
          would touch a ball)
declare   right after the break: a[7] > 0 declares a push out for the next stroke
choice    after the opponent's legal push out: a[0] > 0 shoots, otherwise pass
========  =================================================================================

Observations are a Dict: ``balls`` (10 x 3: x and y normalised to [-1, 1] and 1 when the ball is
on the table, ball 0 the cue ball), ``lowest`` (one-hot over the nine object balls), ``phase``
(one-hot: stroke, declare, choice), ``in_hand`` (one-hot: in place, kitchen, anywhere), ``fouls``
(consecutive fouls of the agent and the opponent, 0-2, divided by 2), ``score`` (games won by the
agent and the opponent, divided by the race) and ``action_parts``, the action mask: which of the 8
action components matter now (named so that samplers do not mistake it for a mask over a discrete
action space).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from nineball.equipment import BallId, Point
from nineball.errors import InvalidInputError, InvalidPlacementError
from nineball.game import (
    Choice,
    CueBall,
    Phase,
    Ruling,
    Seat,
    Stroke,
    StrokeLimits,
    stroke_limits,
)
from nineball.game.layout import check_cue_placement
from nineball.game.match import Match, ShotReport
from nineball.game.noise import ExecutionNoise

__all__ = [
    "ACTION_SIZE",
    "EnvPhase",
    "Turns",
    "action_space",
    "check_action",
    "check_count",
    "decode_placement",
    "decode_stroke",
    "encode",
    "env_phase",
    "observation_space",
]

ACTION_SIZE = 8
MIN_SPEED = 0.3
"""The softest stroke an action encodes, m/s (the fastest is the player's limit)."""
MAX_ELEVATION = math.radians(30.0)
"""The steepest cue an action encodes: jumps and swerves, not massés."""
TIP_MARGIN = 0.9
"""The tip offsets an action encodes fill this share of the miscue limit's disc."""


class EnvPhase(IntEnum):
    """What the agent to act decides now."""

    STROKE = 0
    DECLARE = 1
    CHOICE = 2


def action_space() -> spaces.Box:
    """The normalised action Box."""
    return spaces.Box(-1.0, 1.0, shape=(ACTION_SIZE,), dtype=np.float32)


def observation_space() -> spaces.Dict:
    """The observation Dict."""
    return spaces.Dict(
        {
            "balls": spaces.Box(-1.0, 1.0, shape=(10, 3), dtype=np.float32),
            "lowest": spaces.Box(0.0, 1.0, shape=(9,), dtype=np.float32),
            "phase": spaces.Box(0.0, 1.0, shape=(3,), dtype=np.float32),
            "in_hand": spaces.Box(0.0, 1.0, shape=(3,), dtype=np.float32),
            "fouls": spaces.Box(0.0, 1.0, shape=(2,), dtype=np.float32),
            "score": spaces.Box(0.0, 1.0, shape=(2,), dtype=np.float32),
            "action_parts": spaces.MultiBinary(ACTION_SIZE),
        }
    )


def check_action(action: object) -> NDArray[np.float64]:
    """The action as a float array clipped into the box [-1, 1], or a clear error.

    A finite value outside the box is clipped, the convention of Gymnasium's ``ClipAction``
    and of the libraries that sample from a Gaussian policy (Stable-Baselines3's PPO clips
    too, RLlib and CleanRL leave it to the environment or a wrapper): a component beyond 1
    means "as far as it goes". What cannot be clipped is refused.

    Raises:
        InvalidInputError: not numbers, the wrong shape, or a NaN or an infinity.
    """
    try:
        array = np.asarray(action, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidInputError(
            f"an action is {ACTION_SIZE} numbers in [-1, 1], got {action!r}"
        ) from None
    if array.shape != (ACTION_SIZE,):
        raise InvalidInputError(
            f"an action is {ACTION_SIZE} numbers in [-1, 1], got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise InvalidInputError(f"an action must be finite, got {array.tolist()}")
    return np.clip(array, -1.0, 1.0)


def check_count(value: object, name: str, most: int) -> None:
    """Refuse anything but a whole number from 1 to ``most`` (booleans included).

    Raises:
        InvalidInputError: naming the argument and the value.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise InvalidInputError(f"{name} is a whole number from 1 to {most}, got {value!r}")


def decode_stroke(action: NDArray[np.float64], limits: StrokeLimits) -> Stroke:
    """The stroke encoded by a[0:5] (the tip offset squeezed inside the miscue limit)."""
    side, height = float(action[3]), float(action[4])
    squeeze = TIP_MARGIN * limits.miscue_limit / max(1.0, math.hypot(side, height))
    return Stroke(
        speed=MIN_SPEED + (limits.max_speed - MIN_SPEED) * (action[2] + 1.0) / 2.0,
        aim=math.pi * float(action[0]),
        elevation=MAX_ELEVATION * (action[1] + 1.0) / 2.0,
        side=side * squeeze,
        height=height * squeeze,
    )


def decode_placement(action: NDArray[np.float64], match: Match) -> Point:
    """Where a[5:7] put the cue ball in hand, moved to the nearest free spot if it must be."""
    table, r = match.table, match.params.radius
    kitchen = match.state.cue_ball is CueBall.KITCHEN
    top = (table.head_string - 1e-4) if kitchen else table.length - r
    x = r + (table.width - 2 * r) * (action[5] + 1.0) / 2.0
    y = r + (top - r) * (action[6] + 1.0) / 2.0
    try:
        match.check_cue_ball((x, y))
        return (x, y)
    except InvalidPlacementError:
        pass
    others: dict[BallId, Point] = {b: p for b, p in match.layout.items() if b is not BallId.CUE}
    region = match.state.cue_ball
    spots = _grid(r, table.width - r, top, kitchen)
    # The nearest free spot of the grid (the first in grid order among equals): the spots
    # visited nearest first, each checked by the game's own rule, until the first free one;
    # then its equals within rounding, measured again exactly.
    order = np.argsort(np.hypot(spots[:, 0] - x, spots[:, 1] - y), kind="stable")
    best: tuple[float, int] | None = None
    for index in order.tolist():
        spot = (float(spots[index, 0]), float(spots[index, 1]))
        distance = math.hypot(spot[0] - x, spot[1] - y)
        if best is not None and distance > best[0] + 1e-9:
            break
        try:
            check_cue_placement(spot, others, region, table, match.params)
        except InvalidPlacementError:
            continue
        if best is None or (distance, index) < best:
            best = (distance, index)
    if best is None:  # pragma: no cover - a table with no free spot cannot happen in nine-ball
        raise InvalidPlacementError("no free spot for the cue ball")
    return (float(spots[best[1], 0]), float(spots[best[1], 1]))


@functools.lru_cache(maxsize=8)
def _grid(low: float, right: float, top: float, kitchen: bool) -> NDArray[np.float64]:
    """The spots tried for a cue ball in hand: shape (n, 2), in the order x then y.

    41 across, 61 along (21 in the kitchen).
    """
    xs = np.linspace(low, right, 41)
    ys = np.linspace(low, top, 61 if not kitchen else 21)
    grid = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
    grid.flags.writeable = False
    return grid


def env_phase(match: Match, declared: bool) -> EnvPhase:
    """The phase of the agent to act (``declared``: it already answered the declare step)."""
    if match.state.phase is Phase.PUSH_OUT_CHOICE:
        return EnvPhase.CHOICE
    if match.state.push_out_allowed and not declared:
        return EnvPhase.DECLARE
    return EnvPhase.STROKE


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))


def encode(
    match: Match, me: Seat, phase: EnvPhase
) -> dict[str, NDArray[np.float32] | NDArray[np.int8]]:
    """The observation of the table for the agent in seat ``me``."""
    table = match.table
    balls = np.zeros((10, 3), dtype=np.float32)
    for ball, (x, y) in match.layout.items():
        row = balls[int(ball)]
        row[0] = min(1.0, max(-1.0, 2.0 * x / table.width - 1.0))  # scalars: no np.clip calls
        row[1] = min(1.0, max(-1.0, 2.0 * y / table.length - 1.0))
        row[2] = 1.0
    state = match.state
    lowest = np.zeros(9, dtype=np.float32)
    if state.game.on_table:
        lowest[int(state.game.lowest) - 1] = 1.0
    phase_hot = np.zeros(3, dtype=np.float32)
    phase_hot[int(phase)] = 1.0
    in_hand = np.zeros(3, dtype=np.float32)
    in_hand[{CueBall.IN_PLACE: 0, CueBall.KITCHEN: 1, CueBall.ANYWHERE: 2}[state.cue_ball]] = 1.0
    fouls = np.array(
        [_unit(state.game.consecutive_fouls[s] / 2.0) for s in (me, me.other)], dtype=np.float32
    )
    race = state.config.race_to
    score = np.array([_unit(state.score[s] / race) for s in (me, me.other)], dtype=np.float32)
    mask = np.zeros(ACTION_SIZE, dtype=np.int8)
    if phase is EnvPhase.STROKE:
        mask[:5] = 1
        if state.cue_ball is not CueBall.IN_PLACE:
            mask[5:7] = 1
    elif phase is EnvPhase.DECLARE:
        mask[7] = 1
    else:
        mask[0] = 1
    return {
        "balls": balls,
        "lowest": lowest,
        "phase": phase_hot,
        "in_hand": in_hand,
        "fouls": fouls,
        "score": score,
        "action_parts": mask,
    }


@dataclass(slots=True)
class Turns:
    """The phases of the agent to act: a push out is declared in a step of its own."""

    declared: bool = False
    """The agent to act has answered the declaration step."""
    push: bool = False
    """It declared a push out for its next stroke."""

    def phase(self, match: Match) -> EnvPhase:
        """What the agent to act decides now."""
        return env_phase(match, self.declared)

    def stroke_of(
        self, match: Match, action: NDArray[np.float64]
    ) -> tuple[Stroke, bool] | Ruling | None:
        """Apply a checked action up to its stroke.

        Returns the stroke and whether it is a declared push out (the cue ball in hand is
        placed first), or, for an action that plays no stroke, its ruling (None for the
        declaration of a push out, which the referee does not rule on).
        """
        phase = self.phase(match)
        if phase is EnvPhase.CHOICE:
            return match.choose(Choice.SHOOT if action[0] > 0 else Choice.PASS)
        if phase is EnvPhase.DECLARE:
            self.declared = True
            self.push = bool(action[7] > 0)
            return None
        if match.cue_ball_in_hand:
            match.place_cue_ball(decode_placement(action, match))
        stroke = decode_stroke(action, stroke_limits(match.params))
        push = self.push
        self.push = False
        self.declared = False
        return stroke, push

    def act(
        self, match: Match, action: NDArray[np.float64], noise: ExecutionNoise | None
    ) -> tuple[str, ShotReport | None]:
        """Apply a checked action: its explanation (:func:`explained`); a stroke's report."""
        got = self.stroke_of(match, action)
        if not isinstance(got, tuple):
            return explained(got), None
        stroke, push = got
        report = match.strike(stroke, push_out=push, noise=noise)
        return explained(report.ruling), report


def explained(ruling: Ruling | None) -> str:
    """A ruling's explanation in English, as the environments report it ("" for none)."""
    return "" if ruling is None else ruling.explanation.en
