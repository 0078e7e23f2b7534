"""A position as a fixed-length vector of numbers, for the learned win probability.

:func:`features` turns a :class:`~nineball.game.position.Position` (the referee's state and the
balls) into :data:`FEATURE_COUNT` floats, seen from the player to act: the state of the game
(phase, ball in hand, push out, fouls), how the cue ball stands to the lowest ball (the chance of
the best pot under the tournament aim error, the cut, the balls in the way) and how the table
lies for a run out (open pockets for the next balls, clusters, the run's length). Each feature is
listed in :data:`FEATURES` with its unit and meaning (docs/players.md has the table).

Every feature is a distance, an angle's size, a count or a flag, never a coordinate, so the
vector does not change when the table is mirrored left for right or head for foot (the pockets
and cushions are symmetric); a test checks it. Features that need the cue ball where it lies are
:data:`NOT_APPLICABLE` while the cue ball is in hand (the break, or after a foul). Match score
and race are not features: the game's chance is learned, the match's follows from it
(:mod:`nineball.players.value`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import BallId, PocketId, Point
from nineball.errors import InvalidInputError
from nineball.game import CueBall, Phase
from nineball.game.position import Position
from nineball.players._kernels import cluster_pairs, open_lines
from nineball.players.aim import balls_in_path, cut_angle, ghost_ball, pocket_aim, pot_chances

__all__ = [
    "AIM_SD",
    "CLUSTER_GAP",
    "FEATURES",
    "FEATURE_COUNT",
    "NOT_APPLICABLE",
    "Feature",
    "feature_names",
    "features",
]

AIM_SD = math.radians(0.125)
"""The aim error (rad, one standard deviation) by which the pot chances are judged: the
tournament noise of computational pool, the ghost player's."""

NOT_APPLICABLE = -1.0
"""The value of a feature that does not apply (no cue ball in place, no next ball)."""

CLUSTER_GAP = 0.02
"""Two object balls closer than this (m, between their surfaces) count as a cluster pair."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Feature:
    """One number of the vector."""

    name: str
    unit: str
    """``m``, ``rad``, ``-`` (a count, a flag or a chance)."""
    meaning: str


FEATURES: tuple[Feature, ...] = (
    Feature(name="break", unit="-", meaning="1 when the player to act breaks"),
    Feature(name="push_out_choice", unit="-",
            meaning="1 when the player to act answers a push out (shoot or pass)"),
    Feature(name="in_hand", unit="-",
            meaning="1 when the cue ball is in hand anywhere (after a foul)"),
    Feature(name="push_out_allowed", unit="-", meaning="1 when the stroke may be a push out"),
    Feature(name="my_fouls", unit="-", meaning="the player to act's fouls in a row (0-2)"),
    Feature(name="their_fouls", unit="-", meaning="the opponent's fouls in a row (0-2)"),
    Feature(name="balls_left", unit="-", meaning="object balls on the table (1-9)"),
    Feature(name="lowest", unit="-", meaning="the number of the ball on (1-9)"),
    Feature(name="pot_chance", unit="-",
            meaning="chance of the best direct pot on the ball on from the cue ball, under the "
            "tournament aim error (`pot_quality`)"),
    Feature(name="good_pockets", unit="-",
            meaning="pockets the ball on goes in with a chance of 0.5 or more from the cue ball"),
    Feature(name="cue_distance", unit="m", meaning="from the cue ball to the ball on"),
    Feature(name="cut", unit="rad",
            meaning="the cut of the best pot (-1: no pocket with a clear, makeable line)"),
    Feature(name="blockers", unit="-",
            meaning="balls within 2R of the cue ball's straight path to the ball on"),
    Feature(name="cue_rail", unit="m", meaning="from the cue ball to the nearest cushion"),
    Feature(name="lowest_pockets", unit="-",
            meaning="pockets with a clear line from the ball on (what ball in hand can use)"),
    Feature(name="lowest_pocket_distance", unit="m",
            meaning="from the ball on to the nearest pocket with a clear line (else the nearest)"),
    Feature(name="lowest_rail", unit="m", meaning="from the ball on to the nearest cushion"),
    Feature(name="next_pockets", unit="-",
            meaning="pockets with a clear line from the next ball (-1 when the 9 is the ball on)"),
    Feature(name="next_pocket_distance", unit="m",
            meaning="from the next ball to its nearest pocket with a clear line"),
    Feature(name="next_distance", unit="m", meaning="from the ball on to the next ball"),
    Feature(name="run_length", unit="m",
            meaning="the balls' path in order: ball on to next, ..., to the 9"),
    Feature(name="blocked_balls", unit="-",
            meaning="object balls with no clear line to any pocket"),
    Feature(name="cluster_pairs", unit="-",
            meaning="pairs of object balls closer than 2 cm (surface to surface)"),
    Feature(name="nine_pocket_distance", unit="m",
            meaning="from the 9 to its nearest pocket with a clear line"),
)  # fmt: skip
"""The features, in the vector's order."""

FEATURE_COUNT = len(FEATURES)


def feature_names() -> tuple[str, ...]:
    """The features' names, in order."""
    return tuple(f.name for f in FEATURES)


def _rail(point: Point, width: float, length: float) -> float:
    return min(point[0], width - point[0], point[1], length - point[1])


def features(position: Position) -> NDArray[np.float64]:
    """The position as :data:`FEATURE_COUNT` floats, seen from the player to act.

    Raises:
        InvalidInputError: the match is over, or a ball of the referee's state is not on the
            table (a position that cannot be played).
    """
    state = position.state
    if state.is_over:
        raise InvalidInputError("a finished match has no position to value")
    game = state.game
    layout = position.layout
    balls = sorted(game.on_table)
    missing = [int(b) for b in balls if b not in layout]
    if missing:
        raise InvalidInputError(f"the balls {missing!r} are on the table but not in the layout")
    me = state.to_act
    table = position.table
    width, length = table.width, table.length
    r = position.params.radius
    aims = {p: pocket_aim(table, p) for p in PocketId}
    lowest = balls[0]
    at = layout[lowest]
    out = np.full(FEATURE_COUNT, NOT_APPLICABLE)
    out[0] = float(game.phase is Phase.BREAK)
    out[1] = float(game.phase is Phase.PUSH_OUT_CHOICE)
    out[2] = float(game.cue_ball is CueBall.ANYWHERE)
    out[3] = float(game.push_out_allowed)
    out[4] = float(game.consecutive_fouls[me])
    out[5] = float(game.consecutive_fouls[me.other])
    out[6] = float(len(balls))
    out[7] = float(int(lowest))
    points = np.array([layout[b] for b in balls], dtype=np.float64)  # not the cue ball: it moves
    cue = layout.get(BallId.CUE)
    if game.cue_ball is CueBall.IN_PLACE and cue is not None:
        chances = pot_chances(position, cue, lowest, AIM_SD)
        best = max(chances, key=lambda p: chances[p], default=None)
        out[8] = chances[best] if best is not None else 0.0
        out[9] = float(sum(1 for c in chances.values() if c >= 0.5))
        out[10] = math.dist(cue, at)
        if best is not None:
            aim = aims[best]
            out[11] = cut_angle(cue, ghost_ball(at, aim, r), at, aim)
        out[12] = float(balls_in_path(cue, at, points[1:], r))
        out[13] = _rail(cue, width, length)
    counts, nearest = open_lines(points, np.array(list(aims.values())), r)
    out[14], out[15] = counts[0], nearest[0]
    out[16] = _rail(at, width, length)
    if len(balls) > 1:
        out[17], out[18] = counts[1], nearest[1]
        out[19] = math.dist(at, layout[balls[1]])
    out[20] = sum(math.dist(layout[a], layout[b]) for a, b in itertools.pairwise(balls))
    out[21] = float((counts == 0).sum())
    out[22] = float(cluster_pairs(points, 2.0 * r + CLUSTER_GAP))
    out[23] = nearest[-1]  # the 9 is the highest ball on the table
    return out
