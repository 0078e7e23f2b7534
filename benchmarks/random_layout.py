"""Seeded ball spots for the cross-engine suite (imported by both sides: standard library only)."""

from __future__ import annotations

import math
from typing import Any


def spots(rng: Any, count: int, radius: float) -> list[tuple[float, float]]:
    """``count`` ball centres on a 9-ft table, at least 2.5 radii apart, from ``rng`` (numpy)."""
    out: list[tuple[float, float]] = []
    while len(out) < count:
        xy = (float(rng.uniform(0.08, 1.19)), float(rng.uniform(0.08, 2.46)))
        if all(math.dist(xy, other) > 2.5 * radius for other in out):
            out.append(xy)
    return out
