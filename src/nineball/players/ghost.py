"""The naive ghost-ball player: the baseline every other level is rated against.

It aims the cue ball at the ghost-ball position for the lowest ball into the pocket with the
smallest cut among those with a clear path, at a speed that grows with the distances, with no
spin, no throw correction and no thought for the next shot (its strokes carry the tournament
execution noise unless told otherwise). With the cue ball in hand it puts it
straight behind the lowest ball on the line to the easiest pocket. It breaks from the middle of
the kitchen at 9 m/s, never pushes out and always shoots after a push out.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.equipment import BallId, PocketId, Point
from nineball.errors import InvalidPlacementError
from nineball.game import BallInput, Choice, CueBall, Stroke, simulate
from nineball.game.layout import check_cue_placement
from nineball.game.noise import TOURNAMENT_NOISE, ExecutionNoise
from nineball.game.position import Position
from nineball.players.aim import cut_angle, ghost_ball, is_path_clear, pocket_aim, routes_clear
from nineball.players.base import Decision

__all__ = ["GhostBallPlayer"]

BREAK_SPEED = 9.0
"""m/s: a firm amateur break (pros break at 9.8-11.6 m/s, docs/players.md)."""


class GhostBallPlayer:
    """Aims by the ghost ball at the easiest pocket for the lowest ball."""

    name = "ghost"

    def __init__(self, noise: ExecutionNoise | None = TOURNAMENT_NOISE) -> None:
        """A ghost-ball player whose strokes the game spoils with ``noise``.

        The default is the tournament noise of computational pool: hands about as steady as
        the ``advanced`` level's (1.2 times that noise), so that the two differ mostly in what
        they choose to play.
        """
        self.noise = noise

    def _shot(self, view: Position, cue: Point) -> Stroke | None:
        """The direct pot with the least cut and distance (None: none is open)."""
        r = view.params.radius
        target = view.state.lowest
        ball = view.layout[target]
        best: tuple[float, float, float] | None = None  # (score, speed, aim)
        makeable: list[tuple[Point, Point, float, float]] = []  # the lines not yet checked
        for pocket in PocketId:
            aim = pocket_aim(view.table, pocket)
            ghost = ghost_ball(ball, aim, r)
            dist_cb = math.dist(cue, ghost)
            if dist_cb < 1e-9:
                continue
            cut = cut_angle(cue, ghost, ball, aim)
            if cut <= math.radians(80):
                makeable.append((aim, ghost, dist_cb, cut))
        clear = routes_clear(
            [((cue, ghost), (ball, aim)) for aim, ghost, _, _ in makeable],
            view.layout,
            (BallId.CUE, target),
            r,
        )
        for (aim, ghost, dist_cb, cut), ok in zip(makeable, clear, strict=True):
            if not ok:
                continue
            distance = dist_cb + math.dist(ball, aim)
            speed = min(7.0, 1.2 + 1.0 * distance / max(math.cos(cut), 0.2))
            score = cut + 0.1 * distance
            if best is None or score < best[0]:  # the first of equals, as a stable sort
                best = (score, speed, math.atan2(ghost[1] - cue[1], ghost[0] - cue[0]))
        return None if best is None else Stroke(speed=best[1], aim=best[2])

    def _place(self, view: Position) -> Point:
        """Straight behind the lowest ball on the line to the first pocket that allows it."""
        r = view.params.radius
        region = view.in_hand or CueBall.ANYWHERE
        bx, by = view.layout[view.state.lowest]
        others: dict[BallId, Point] = {b: p for b, p in view.layout.items() if b is not BallId.CUE}
        for back in (0.3, 0.2, 0.45, 0.6):
            for pocket in PocketId:
                px, py = pocket_aim(view.table, pocket)
                d = math.hypot(px - bx, py - by)
                spot = (bx - back * (px - bx) / d, by - back * (py - by) / d)
                try:
                    check_cue_placement(spot, others, region, view.table, view.params)
                except InvalidPlacementError:
                    continue
                if is_path_clear(spot, (bx, by), view.layout, {BallId.CUE, view.state.lowest}, r):
                    return spot
        # Nowhere straight: anywhere legal, scanning the table.
        for y in np.linspace(r * 2, view.table.length - r * 2, 40):
            for x in np.linspace(r * 2, view.table.width - r * 2, 20):
                try:
                    check_cue_placement(
                        (float(x), float(y)), others, region, view.table, view.params
                    )
                except InvalidPlacementError:
                    continue
                return (float(x), float(y))
        raise InvalidPlacementError("no legal place for the cue ball")  # pragma: no cover

    def decide(self, view: Position, rng: np.random.Generator) -> Decision:
        """Break, or pot the lowest ball by the ghost ball (or just hit it)."""
        if view.in_hand is CueBall.KITCHEN:
            cue = (view.table.width / 2.0 + 0.05, view.table.head_string - 0.15)
            one = view.layout[BallId.ONE]
            aim = math.atan2(one[1] - cue[1], one[0] - cue[0])
            return Decision(stroke=Stroke(speed=BREAK_SPEED, aim=aim), cue_ball=cue)
        placed = None
        if view.in_hand is not None:
            placed = self._place(view)
            cue = placed
        else:
            cue = view.layout[BallId.CUE]
        shot = self._shot(view, cue)
        if shot is not None:
            return Decision(stroke=shot, cue_ball=placed)
        # No pot: hit the lowest ball full, firmly enough to reach a rail.
        bx, by = view.layout[view.state.lowest]
        aim = math.atan2(by - cue[1], bx - cue[0])
        return Decision(stroke=Stroke(speed=3.0, aim=aim), cue_ball=placed)

    def answer_push_out(self, view: Position, rng: np.random.Generator) -> Choice:
        """Always shoot."""
        return Choice.SHOOT

    def lag(self, view: Position, rng: np.random.Generator) -> Stroke:
        """Straight up the table, at the speed that brings the ball back to the head cushion.

        The speed is found by bisection on simulated lags (a player who has felt the table).
        """
        start = view.layout[BallId.CUE]
        low, high = 0.5, 6.0
        for _ in range(14):
            speed = (low + high) / 2.0
            stroke = Stroke(speed=speed, aim=math.pi / 2)
            trajectory = simulate(
                [BallInput(id=0, r=start)], stroke=stroke, table=view.table, params=view.params
            )
            if any(e.cushion == "head" for e in trajectory.events()):
                high = speed  # too hard: it came all the way back to the head cushion
            else:
                low = speed
        return Stroke(speed=low, aim=math.pi / 2)
