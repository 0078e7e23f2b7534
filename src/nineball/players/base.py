"""The Player protocol: a computer player sees what a person sees and acts as one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from nineball.equipment import Point
from nineball.game import Choice, Stroke
from nineball.game.noise import ExecutionNoise
from nineball.game.position import Position

__all__ = ["Decision", "Player"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """A stroke a player chose, with where the cue ball goes when it is in hand."""

    stroke: Stroke
    cue_ball: Point | None = None
    """Where to place the cue ball in hand (None: where it lies)."""
    push_out: bool = False
    safety: bool = False
    lost: bool = False
    """A shot lost by a fault of the player (a program's bad or late answer, docs/engine-
    protocol.md): ``stroke`` is a stroke at zero speed, played without execution noise, so the
    cue ball touches nothing and the referee calls the foul (clause 7; clause 3 on the break)."""


class Player(Protocol):
    """A computer player. Randomness only through the ``rng`` it is given."""

    name: str
    """A short name for tables and records."""

    noise: ExecutionNoise | None
    """The execution noise the game applies to this player's strokes (None: none)."""

    def decide(self, view: Position, rng: np.random.Generator) -> Decision:
        """The stroke to play now (the break in the break phase)."""
        ...

    def answer_push_out(self, view: Position, rng: np.random.Generator) -> Choice:
        """After the opponent's legal push out: shoot from here, or pass it back."""
        ...

    def lag(self, view: Position, rng: np.random.Generator) -> Stroke:
        """The lag stroke for the cue ball in ``view.layout`` (alone on the table)."""
        ...
