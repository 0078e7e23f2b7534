"""The Player protocol: a computer player sees what a person sees and acts as one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from nineball.equipment import BallId
from nineball.game.layout import Position
from nineball.game.noise import ExecutionNoise
from nineball.physics import PhysicsParams, Stroke, TableSpec
from nineball.rules import Choice, CueBall, MatchState

__all__ = ["Decision", "Player", "TableView"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView:
    """What a player at the table sees before acting."""

    state: MatchState
    """The referee's state: whose turn, phase, lowest ball, push out allowed, score."""
    layout: dict[BallId, Position]
    """The balls on the table (the cue ball absent when it is in hand and off the table)."""
    table: TableSpec
    params: PhysicsParams

    @property
    def in_hand(self) -> CueBall | None:
        """``KITCHEN`` or ``ANYWHERE`` when the cue ball is in hand, else None."""
        cue = self.state.cue_ball
        return None if cue is CueBall.IN_PLACE else cue


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """A stroke a player chose, with where the cue ball goes when it is in hand."""

    stroke: Stroke
    cue_ball: Position | None = None
    """Where to place the cue ball in hand (None: where it lies)."""
    push_out: bool = False
    safety: bool = False


class Player(Protocol):
    """A computer player. Randomness only through the ``rng`` it is given."""

    name: str
    """A short name for tables and records."""

    noise: ExecutionNoise | None
    """The execution noise the game applies to this player's strokes (None: none)."""

    def decide(self, view: TableView, rng: np.random.Generator) -> Decision:
        """The stroke to play now (the break in the break phase)."""
        ...

    def answer_push_out(self, view: TableView, rng: np.random.Generator) -> Choice:
        """After the opponent's legal push out: shoot from here, or pass it back."""
        ...

    def lag(self, view: TableView, rng: np.random.Generator) -> Stroke:
        """The lag stroke for the cue ball in ``view.layout`` (alone on the table)."""
        ...
