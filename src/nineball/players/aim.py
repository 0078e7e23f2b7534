"""Aiming geometry shared by the computer players: pockets, ghost balls, cut angles, clear paths."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from nineball.equipment import BallId, PocketId, Point
from nineball.game import TableSpec

__all__ = ["cut_angle", "ghost_ball", "is_path_clear", "pocket_aim"]

AIM_DEPTH = 0.35
"""How far from the middle of a pocket's mouth toward its centre the players aim (fraction)."""


_AIMS: dict[int, tuple[TableSpec, dict[PocketId, Point]]] = {}
"""Aim points per table (keyed by identity; the table is kept so that its id stays its own)."""


def pocket_aim(table: TableSpec, pocket: PocketId) -> Point:
    """The point a player sends an object ball to: a little inside the middle of the mouth."""
    cached = _AIMS.get(id(table))
    if cached is None or cached[0] is not table:
        aims: dict[PocketId, Point] = {}
        for q, each in enumerate(PocketId):
            (x1, y1), (x2, y2) = table.points[q]
            mx, my = (x1 + x2) / 2.0, (y1 + y2) / 2.0
            cx, cy = table.pocket_centre(each)
            aims[each] = (mx + AIM_DEPTH * (cx - mx), my + AIM_DEPTH * (cy - my))
        if len(_AIMS) > 64:  # tables are few; never let the cache grow without bound
            _AIMS.clear()
        cached = _AIMS[id(table)] = (table, aims)
    return cached[1][pocket]


def ghost_ball(ball: Point, target: Point, radius: float) -> Point:
    """Where the cue ball's centre must be at impact to send ``ball`` toward ``target``."""
    d = math.hypot(target[0] - ball[0], target[1] - ball[1])
    return (
        ball[0] - 2.0 * radius * (target[0] - ball[0]) / d,
        ball[1] - 2.0 * radius * (target[1] - ball[1]) / d,
    )


def cut_angle(cue: Point, ghost: Point, ball: Point, target: Point) -> float:
    """The angle (rad) between the cue ball's path to the ghost ball and the object ball's path."""
    ux, uy = ghost[0] - cue[0], ghost[1] - cue[1]
    vx, vy = target[0] - ball[0], target[1] - ball[1]
    nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
    if nu < 1e-9 or nv < 1e-9:
        return math.pi
    return math.acos(max(-1.0, min(1.0, (ux * vx + uy * vy) / (nu * nv))))


def is_path_clear(
    start: Point,
    end: Point,
    layout: Mapping[BallId, Point],
    skip: Iterable[BallId],
    radius: float,
) -> bool:
    """No ball (but those in ``skip``) within 2R of the segment a moving ball's centre sweeps."""
    ax, ay = start
    dx, dy = end[0] - ax, end[1] - ay
    length2 = dx * dx + dy * dy
    skipped = set(skip)
    for ball, (px, py) in layout.items():
        if ball in skipped:
            continue
        t = 0.0 if length2 == 0 else ((px - ax) * dx + (py - ay) * dy) / length2
        t = min(1.0, max(0.0, t))
        if math.hypot(ax + t * dx - px, ay + t * dy - py) < 2.0 * radius - 1e-9:
            return False
    return True
