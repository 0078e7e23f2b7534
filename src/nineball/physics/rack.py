"""The nine-ball diamond rack: geometry with seeded micrometre gaps."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from nineball.equipment import BallId
from nineball.errors import InvalidInputError
from nineball.physics.params import PhysicsParams
from nineball.physics.table import TableSpec, nine_foot

__all__ = ["DIAMOND_ROWS", "RACK_GAP", "RACK_JITTER", "diamond_rack"]

DIAMOND_ROWS: tuple[int, ...] = (1, 2, 3, 2, 1)
"""Balls per row of the diamond, from the apex (on the foot spot) toward the foot rail."""

RACK_GAP = 2e-6
"""Nominal gap between adjacent balls of a rack, in m (2 micrometres)."""

RACK_JITTER = 0.9e-6
"""Largest random displacement of each ball but the apex, in m: gaps stay in 0.2-3.8 um."""


def diamond_rack(
    order: Sequence[int],
    rng: np.random.Generator,
    *,
    table: TableSpec | None = None,
    params: PhysicsParams | None = None,
) -> dict[BallId, tuple[float, float]]:
    """Centres of a nine-ball diamond rack.

    The apex ball sits exactly on the foot spot; rows are a hexagonal packing with centres
    2R + RACK_GAP apart, and every other ball is moved by a random vector of length at most
    RACK_JITTER drawn from ``rng`` (seeded micrometre gaps: no two balls touch or overlap, and
    the break does not depend on a perfectly frozen rack).

    Args:
        order: the nine ball ids by position, apex first, then row by row, left (small x) to
            right. The 1 must be at the apex and the 9 in the centre (position 4).
        rng: the random generator for the gaps.
        table: the table (default 9-ft WPA).
        params: physical parameters (for the radius).

    Returns:
        The centre (x, y) in m of each ball.

    Raises:
        InvalidInputError: the order is not the nine object balls, 1 at the apex, 9 in the centre.
    """
    table = table or nine_foot()
    params = params or PhysicsParams()
    ids = [BallId(b) for b in order] if all(0 < int(b) <= 9 for b in order) else []
    if sorted(ids) != list(range(1, 10)) or ids[0] != BallId.ONE or ids[4] != BallId.NINE:
        raise InvalidInputError(
            f"a nine-ball rack needs balls 1-9 with the 1 at the apex and the 9 in the centre, "
            f"got {list(order)!r}"
        )
    d = 2.0 * params.radius + RACK_GAP
    fx, fy = table.foot_spot
    out: dict[BallId, tuple[float, float]] = {}
    # an angle and a radius for each ball but the apex, drawn in that order in one call: the
    # same numbers as rng.uniform(0, 2 pi) and rng.uniform(0, 1) one at a time, bit for bit
    draws = rng.random(2 * (len(ids) - 1)).tolist()
    k = 0
    for row, count in enumerate(DIAMOND_ROWS):
        y = fy + row * d * math.sqrt(3.0) / 2.0
        for col in range(count):
            x = fx + (col - (count - 1) / 2.0) * d
            if k > 0:
                angle = 2.0 * math.pi * draws[2 * k - 2]
                radius = RACK_JITTER * math.sqrt(draws[2 * k - 1])
                x += radius * math.cos(angle)
                y_k = y + radius * math.sin(angle)
            else:
                y_k = y
            out[ids[k]] = (x, y_k)
            k += 1
    return out
