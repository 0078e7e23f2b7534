"""The compiled loops of the players' geometry: the forest's walk, open lines, clear paths.

A search values thousands of leaves per decision (:meth:`nineball.players.evaluation.Search.leaf`),
and numpy's per-call cost on arrays of a few dozen numbers was most of a leaf's time. These
kernels take plain arrays and floats and give the same numbers, bit for bit, as the numpy
expressions they replace (tests/players/test_kernels.py holds those as references): the same
operations in the same order, no fused multiply-adds (numba's default, without ``fastmath``).
:func:`segments_clear` is the Python loop of a clear path compiled (the players test many lines
per decision): the same answers, but where a distance lies within a rounding step (about 1e-16
m) of the reach, as numba's ``hypot`` may differ from CPython's in the last bit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

__all__ = ["cluster_pairs", "forest_leaves", "near_segment", "open_lines", "segments_clear"]


@njit(cache=True, error_model="numpy")
def forest_leaves(
    rows: NDArray[np.float64],
    roots: NDArray[np.int64],
    feature: NDArray[np.int64],
    threshold: NDArray[np.float64],
    left: NDArray[np.int64],
    right: NDArray[np.int64],
    value: NDArray[np.float64],
    depth: int,
) -> NDArray[np.float64]:
    """The value of the leaf each tree sends each row of features to: shape (rows, trees).

    Each tree is walked ``depth`` steps from its root: left when the node's feature is at or
    below its threshold (a leaf points to itself, so every walk may take ``depth`` steps). The
    caller sums each row (numpy's sum: the order of a float sum is part of the result).
    """
    out = np.empty((rows.shape[0], roots.shape[0]), dtype=np.float64)
    for i in range(rows.shape[0]):
        for k in range(roots.shape[0]):
            node = roots[k]
            for _ in range(depth):
                node = left[node] if rows[i, feature[node]] <= threshold[node] else right[node]
            out[i, k] = value[node]
    return out


@njit(cache=True, error_model="numpy")
def open_lines(
    points: NDArray[np.float64], aims: NDArray[np.float64], radius: float
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Each ball of ``points`` (n, 2): its pockets with a clear line, the nearest one's distance.

    A line from a ball to a pocket's aim point (``aims``, (pockets, 2)) is clear when no other
    ball's centre comes within 2R of it; with no clear line the distance is the nearest pocket's.
    """
    n, pockets = points.shape[0], aims.shape[0]
    reach2 = (2.0 * radius - 1e-9) ** 2
    counts = np.zeros(n, dtype=np.int64)
    nearest = np.empty(n, dtype=np.float64)
    for b in range(n):
        bx, by = points[b, 0], points[b, 1]
        best = math.inf
        closest = math.inf
        for p in range(pockets):
            dx, dy = aims[p, 0] - bx, aims[p, 1] - by
            length2 = dx * dx + dy * dy
            clear = True
            for o in range(n):
                if o == b:
                    continue
                rx, ry = points[o, 0] - bx, points[o, 1] - by
                t = (rx * dx + ry * dy) / length2
                t = min(max(t, 0.0), 1.0)
                gx, gy = rx - t * dx, ry - t * dy
                if gx * gx + gy * gy < reach2:
                    clear = False
                    break
            distance = math.sqrt(length2)
            closest = min(closest, distance)
            if clear:
                counts[b] += 1
                best = min(best, distance)
        nearest[b] = best if best < math.inf else closest
    return counts, nearest


@njit(cache=True, error_model="numpy")
def cluster_pairs(points: NDArray[np.float64], within: float) -> int:
    """Pairs of ``points`` whose centres are closer than ``within``."""
    count = 0
    for i in range(points.shape[0]):
        for j in range(i + 1, points.shape[0]):
            dx, dy = points[i, 0] - points[j, 0], points[i, 1] - points[j, 1]
            if math.sqrt(dx * dx + dy * dy) < within:
                count += 1
    return count


@njit(cache=True, error_model="numpy")
def _near(ax: float, ay: float, dx: float, dy: float, px: float, py: float, reach: float) -> bool:
    """Whether (px, py) is closer than ``reach`` to the segment from (ax, ay) by (dx, dy)."""
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else ((px - ax) * dx + (py - ay) * dy) / length2
    t = min(1.0, max(0.0, t))
    return math.hypot(ax + t * dx - px, ay + t * dy - py) < reach


@njit(cache=True, error_model="numpy")
def segments_clear(
    segments: NDArray[np.float64], points: NDArray[np.float64], reach: float
) -> NDArray[np.bool_]:
    """Each segment (x0, y0, x1, y1) of ``segments`` (m, 4): no centre of ``points`` near it.

    A centre (a row of ``points``, (n, 2)) is near when its distance to the segment is less than
    ``reach``: the nearest point of the segment, then the distance to it by ``hypot``
    (:func:`nineball.players.aim.paths_clear` gives the reach and the balls).
    """
    out = np.ones(segments.shape[0], dtype=np.bool_)
    for s in range(segments.shape[0]):
        ax, ay = segments[s, 0], segments[s, 1]
        dx, dy = segments[s, 2] - ax, segments[s, 3] - ay
        for b in range(points.shape[0]):
            if _near(ax, ay, dx, dy, points[b, 0], points[b, 1], reach):
                out[s] = False
                break
    return out


@njit(cache=True, error_model="numpy")
def near_segment(segment: NDArray[np.float64], points: NDArray[np.float64], reach: float) -> int:
    """How many centres of ``points`` (n, 2) are near ``segment`` (x0, y0, x1, y1).

    Near as in :func:`segments_clear` (:func:`nineball.players.aim.balls_in_path` gives the reach).
    """
    ax, ay = segment[0], segment[1]
    dx, dy = segment[2] - ax, segment[3] - ay
    count = 0
    for b in range(points.shape[0]):
        if _near(ax, ay, dx, dy, points[b, 0], points[b, 1], reach):
            count += 1
    return count
