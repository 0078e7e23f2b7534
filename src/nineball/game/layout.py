"""Where the balls are between strokes: racks, the cue ball in hand, the respotted 9.

Racking follows clause 2, placing the cue ball in hand clauses 2 and 9, respotting the 9 D3.

A layout maps each ball on the table to its centre (x, y) in m, in the table frame of
``docs/simulate-protocol.md``. The cue ball is absent from a layout while it is in hand.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from nineball.equipment import BallId, Point
from nineball.errors import InvalidPlacementError
from nineball.physics import PhysicsParams, TableSpec, diamond_rack
from nineball.rules import CueBall

__all__ = [
    "PLACEMENT_CLEARANCE",
    "Layout",
    "Point",
    "check_cue_placement",
    "check_placement",
    "rack",
    "respot_nine",
]

Layout = Mapping[BallId, Point]
"""The balls on the table and their centres."""

PLACEMENT_CLEARANCE = 1e-6
"""Smallest gap (m) between a cue ball placed by hand and any other ball: clause 9 forbids
touching, and a gap of a micrometre is "not touching" for the physics as for the eye."""

SPOT_CLEARANCE = 1e-6
"""Gap (m) left between a respotted 9 and a ball it is spotted against (frozen to the eye)."""


def rack(rng: np.random.Generator, table: TableSpec, params: PhysicsParams) -> dict[BallId, Point]:
    """A nine-ball rack (clause 2), with seeded micrometre gaps.

    The 1 sits on the foot spot at the apex, the 9 in the centre, the other seven in an order
    drawn from ``rng``.
    """
    others = [int(b) for b in rng.permutation([2, 3, 4, 5, 6, 7, 8])]
    order = [1, *others[:3], 9, *others[3:]]
    return diamond_rack(order, rng, table=table, params=params)


def check_placement(
    ball: BallId,
    point: Point,
    layout: Layout,
    region: CueBall,
    table: TableSpec,
    params: PhysicsParams,
) -> None:
    """Check a ball put on the table by hand: the cue ball in hand, or any ball in practice.

    Args:
        ball: the ball placed.
        point: its centre (x, y) in m.
        layout: the other balls on the table (``ball`` itself in it is ignored).
        region: ``KITCHEN`` (the break: centre strictly behind the head string) or
            ``ANYWHERE`` (clause 9).
        table: the table.
        params: for the ball radius.

    Raises:
        InvalidPlacementError: the ball is not in hand (``region`` ``IN_PLACE``), lies off the
            playing surface, in front of the head string on the break, or touches another
            ball; the message names the ball and says which and by how much.
    """
    name = "the cue ball" if ball is BallId.CUE else f"the {int(ball)}"
    if region is CueBall.IN_PLACE:
        raise InvalidPlacementError(f"{name} is not in hand: it is played where it lies")
    x, y = point
    r = params.radius
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InvalidPlacementError(f"{name} position must be finite, got {point!r}")
    if not (r <= x <= table.width - r and r <= y <= table.length - r):
        raise InvalidPlacementError(
            f"{name} at ({x:.4f}, {y:.4f}) m is off the playing surface: its centre must "
            f"lie in [{r:.4f}, {table.width - r:.4f}] x [{r:.4f}, {table.length - r:.4f}] m"
        )
    if region is CueBall.KITCHEN and not y < table.head_string:
        raise InvalidPlacementError(
            f"on the break {name} must be behind the head string (y < "
            f"{table.head_string:.4f} m), got y = {y:.4f} m"
        )
    for other, (bx, by) in sorted(layout.items()):
        if other is ball:
            continue
        gap = math.hypot(x - bx, y - by) - 2.0 * r
        if gap < PLACEMENT_CLEARANCE:
            what = "overlaps" if gap < 0 else "touches"
            touched = "the cue ball" if other is BallId.CUE else f"the {int(other)}"
            raise InvalidPlacementError(
                f"{name} at ({x:.4f}, {y:.4f}) m {what} {touched} "
                f"(gap {gap * 1000:.2f} mm): it may not touch another ball (clause 9)"
            )


def check_cue_placement(
    point: Point,
    layout: Layout,
    region: CueBall,
    table: TableSpec,
    params: PhysicsParams,
) -> None:
    """Check the cue ball placed by hand (:func:`check_placement` of the cue ball).

    Raises:
        InvalidPlacementError: see :func:`check_placement`.
    """
    check_placement(BallId.CUE, point, layout, region, table, params)


def respot_nine(layout: Layout, table: TableSpec, params: PhysicsParams) -> Point:
    """Where the 9 goes back on the table (D3).

    On the foot spot if it is free; otherwise on the long string (x = W/2) behind the spot,
    toward the foot rail, as close to the spot as possible; if there is no room behind, in
    front of the spot, as close as possible.
    """
    r = params.radius
    d = 2.0 * r + SPOT_CLEARANCE
    x0, y0 = table.foot_spot
    blocked: list[tuple[float, float]] = []
    for ball, (bx, by) in layout.items():
        if ball is BallId.NINE:
            continue
        dx = abs(bx - x0)
        if dx < d:
            half = math.sqrt(d * d - dx * dx)
            blocked.append((by - half, by + half))
    blocked.sort()

    def free(y: float) -> bool:
        return all(not (lo < y < hi) for lo, hi in blocked)

    # Candidates: the spot, then the ends of blocked intervals, nearest first on each side.
    behind = sorted({y0, *(hi for lo, hi in blocked if hi >= y0)})
    for y in behind:
        if y <= table.length - r and free(y):
            return (x0, y)
    in_front = sorted({lo for lo, hi in blocked if lo <= y0}, reverse=True)
    for y in in_front:
        if y >= r and free(y):
            return (x0, y)
    raise InvalidPlacementError("there is no room on the long string to respot the 9")
