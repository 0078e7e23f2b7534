"""Analysis of a position, as a chess engine offers it.

The best few shots, with how likely each is to succeed, the risk of a foul, and the value of what
it leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from nineball.equipment import BallId, Point
from nineball.game import Trajectory
from nineball.game.position import Position
from nineball.game.step import play_stroke
from nineball.players.search import LEVELS, Candidate, SearchPlayer

__all__ = ["Analysis", "analyse", "expected_path"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Analysis:
    """The best shots of a position."""

    level: str
    """The level whose noise and search produced it."""
    cue_ball: Point
    """Where the cue ball is, or where to place it when it is in hand."""
    candidates: tuple[Candidate, ...]
    """The best candidates, best first (compared on equal evidence), each as the player states
    it (:meth:`SearchPlayer.stated`: scored again on fresh noisy samples, so that the odds of
    the shots that came out best are not the luckiest estimates): value in [-1, 1], success and
    foul rates under noise."""


def analyse(
    view: Position, rng: np.random.Generator, *, level: str = "max", top: int = 5
) -> Analysis:
    """The ``top`` best shots for the player to act, searched at ``level``.

    Raises:
        KeyError: an unknown level.
        InvalidPlacementError: the cue ball is in hand and there is no legal spot for it.
    """
    player = SearchPlayer(LEVELS[level])
    if view.in_hand is None:
        cue = view.layout[BallId.CUE]
        ranked = player.evaluate(view, rng)
    else:
        decision = player.decide(view, rng)
        cue = decision.cue_ball or view.layout[BallId.CUE]
        ranked = player.last
    best = player.refine(view, rng, ranked[:top], cue)
    placed = view if view.in_hand is None else replace(view, placed=cue)
    stated = tuple(player.stated(placed, rng, cue, c) for c in best)
    return Analysis(level=level, cue_ball=cue, candidates=stated)


def expected_path(view: Position, cue: Point, candidate: Candidate) -> Trajectory:
    """The shot as intended (no noise): what a diagram of the analysis draws."""
    return play_stroke(replace(view, placed=cue), candidate.stroke).trajectory
