"""Aiming geometry shared by the computer players: pockets, ghost balls, cut angles, pot chances."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import BallId, PocketId, Point
from nineball.game import TableSpec
from nineball.game.position import Position
from nineball.players._kernels import near_segment, segments_clear

__all__ = [
    "POCKET_SLACK",
    "balls_in_path",
    "cut_angle",
    "ghost_ball",
    "is_path_clear",
    "paths_clear",
    "pocket_aim",
    "pot_chances",
    "pot_quality",
    "routes_clear",
]

AIM_DEPTH = 0.35
"""How far from the middle of a pocket's mouth toward its centre the players aim (fraction)."""


class _Pocket(NamedTuple):
    """A pocket's figures the players use, worked out once per table."""

    aim: Point
    """Where the players send an object ball (:func:`pocket_aim`)."""
    centre: Point
    """The nominal pocket position (``TableSpec.pocket_centre``)."""
    half_mouth: float
    """Half the distance between the pocket's points (m)."""
    side: bool
    """A side pocket."""


_POCKETS: dict[int, tuple[TableSpec, dict[PocketId, _Pocket]]] = {}
"""Pocket figures per table (keyed by identity; the table is kept so that its id stays its
own): a search asks for them for every pocket of every leaf it values."""


def _pockets(table: TableSpec) -> dict[PocketId, _Pocket]:
    cached = _POCKETS.get(id(table))
    if cached is None or cached[0] is not table:
        pockets: dict[PocketId, _Pocket] = {}
        for q, each in enumerate(PocketId):
            (x1, y1), (x2, y2) = table.points[q]
            mx, my = (x1 + x2) / 2.0, (y1 + y2) / 2.0
            cx, cy = table.pocket_centre(each)
            aim = (mx + AIM_DEPTH * (cx - mx), my + AIM_DEPTH * (cy - my))
            side = each in (PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT)
            pockets[each] = _Pocket(aim, (cx, cy), table.mouth(each) / 2.0, side)
        if len(_POCKETS) > 64:  # tables are few; never let the cache grow without bound
            _POCKETS.clear()
        cached = _POCKETS[id(table)] = (table, pockets)
    return cached[1]


def pocket_aim(table: TableSpec, pocket: PocketId) -> Point:
    """The point a player sends an object ball to: a little inside the middle of the mouth."""
    return _pockets(table)[pocket].aim


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
    return paths_clear([(start, end)], layout, skip, radius)[0]


def paths_clear(
    segments: Sequence[tuple[Point, Point]],
    layout: Mapping[BallId, Point],
    skip: Iterable[BallId],
    radius: float,
) -> list[bool]:
    """:func:`is_path_clear` for each (start, end) of ``segments``, in one compiled call."""
    if not segments:
        return []
    skipped = skip if isinstance(skip, tuple | frozenset | set) else set(skip)
    points = [p for ball, p in layout.items() if ball not in skipped]
    rows = np.array([(*a, *b) for a, b in segments], dtype=np.float64)
    balls = np.array(points, dtype=np.float64).reshape(-1, 2)
    clear: list[bool] = segments_clear(rows, balls, _reach(radius)).tolist()
    return clear


def routes_clear(
    routes: Sequence[Sequence[tuple[Point, Point]]],
    layout: Mapping[BallId, Point],
    skip: Iterable[BallId],
    radius: float,
) -> list[bool]:
    """Whether each route is clear: every one of its segments (:func:`paths_clear`).

    A route is a shot's lines, the cue ball's to the ghost ball and the object ball's on; all
    the routes' segments are checked in one compiled call.
    """
    clear = iter(paths_clear([line for route in routes for line in route], layout, skip, radius))
    return [all([next(clear) for _ in route]) for route in routes]  # a list: each answer read


def balls_in_path(start: Point, end: Point, points: NDArray[np.float64], radius: float) -> int:
    """How many of the centres ``points`` (n, 2) would block the path (as :func:`paths_clear`)."""
    return int(near_segment(np.array((*start, *end), dtype=np.float64), points, _reach(radius)))


def _reach(radius: float) -> float:
    """How near a path a ball's centre blocks it: 2R, less 1 nm (balls that touch do not)."""
    return 2.0 * radius - 1e-9


POCKET_SLACK = 1.35
"""How much wider than the mouth less a ball a pocket plays: a ball that grazes a point or a
facing can still drop (measured against the physics on cuts of 0-45 degrees)."""


def pot_quality(
    view: Position, cue: Point, target: BallId, aim_sd: float = math.radians(0.125)
) -> float:
    """The chance in [0, 1] of the best direct pot on ``target`` from ``cue``.

    For a player whose aim errs by ``aim_sd`` (rad, one standard deviation); geometry alone, no
    simulation.

    An aim error turns the object ball's line by about d / (2R cos(cut)) times as much (d: the
    cue ball's travel to the ghost ball); the pot is made when the object ball reaches the
    pocket within its tolerance, the mouth less a ball, narrowed as the ball comes in off the
    pocket's axis (sharply for a side pocket), widened by :data:`POCKET_SLACK`. The error is
    Gaussian, so the chance is an erf.
    """
    return max(pot_chances(view, cue, target, aim_sd).values(), default=0.0)


def pot_chances(view: Position, cue: Point, target: BallId, aim_sd: float) -> dict[PocketId, float]:
    """:func:`pot_quality` pocket by pocket (the pockets with a clear, makeable line)."""
    r = view.params.radius
    ball = view.layout[target]
    chances: dict[PocketId, float] = {}
    open_: list[tuple[PocketId, _Pocket, Point, float]] = []  # makeable cuts, lines not checked
    for pocket, each in _pockets(view.table).items():
        ghost = ghost_ball(ball, each.aim, r)
        cut = cut_angle(cue, ghost, ball, each.aim)
        if cut <= math.radians(80):
            open_.append((pocket, each, ghost, cut))
    clear = routes_clear(
        [((cue, ghost), (ball, each.aim)) for _, each, ghost, _ in open_],
        view.layout,
        (BallId.CUE, target),
        r,
    )
    for (pocket, (aim, (cx, cy), half_mouth, side), ghost, cut), ok in zip(
        open_, clear, strict=True
    ):
        if not ok:
            continue
        d1 = math.hypot(ghost[0] - cue[0], ghost[1] - cue[1])
        d2 = math.hypot(aim[0] - ball[0], aim[1] - ball[1])
        # The object ball's angular error: the aim's, magnified; and a floor for throw and
        # squirt that the aim cannot see.
        sd = math.hypot(aim_sd * d1 / (2.0 * r * max(math.cos(cut), 0.2)), 0.2 * aim_sd)
        axis = math.atan2(cy - aim[1], cx - aim[0])
        off = abs(math.remainder(math.atan2(aim[1] - ball[1], aim[0] - ball[0]) - axis, math.pi))
        narrowing = math.cos(off) ** (3.0 if side else 1.0)
        if narrowing <= 0.0:
            continue
        half = POCKET_SLACK * max(half_mouth - r, 1e-3) * narrowing
        tolerance = math.atan2(half, d2)
        chances[pocket] = math.erf(tolerance / (sd * math.sqrt(2.0)))
    return chances
