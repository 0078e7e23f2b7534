"""Culling by bounds: which cushions, jaws, pockets, edges and balls a moving ball can reach.

Each ball's centre stays in a box while it follows one piece of motion (:func:`path_box`); the
table's elements have boxes or strips of their own (:func:`table_boxes`). An element that no
contact can reach from a ball's box is not solved for (``loop._update``): its time is inf, as
its solver would give, so culling changes no result, only the work done.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.detect import TOUCH
from nineball.physics._kernels.jit import lean

__all__ = ["CULL", "apart", "path_box", "point_gap", "segment_gap", "table_boxes"]

CULL = 1e-6
"""Margin in m added to every culling box: far above the rounding of positions (about 1e-15 m)
and of the contact tolerance ``TOUCH``, so a culled element could never have had an event."""


@lean
def path_box(c: np.ndarray, h: float, box: np.ndarray, i: int, straight: bool) -> None:
    """Where r(s) = c[0] + c[1] s + c[2] s^2, s in [0, h], stays: ``box[i]``, a row of nine.

    (x min, x max, y min, y max): each coordinate is a quadratic, whose extremes are at the
    ends or at its vertex; the box is widened by ``CULL`` on every side. Then the path's ends
    (x0, y0, x1, y1) and whether it is a straight segment between them (1.0) or not (0.0):
    ``straight`` says that c[2] is along c[1] in the table plane (a rolling ball, which moves
    on along its velocity until it stops at s = h; a ball in flight; a ball at rest, h = 0).
    """
    for q in range(2):
        box[i, 4 + q] = c[0, q]
        box[i, 6 + q] = c[0, q] + c[1, q] * h + c[2, q] * h * h if h > 0.0 else c[0, q]
    box[i, 8] = 1.0 if straight else 0.0
    for q in range(2):
        lo = c[0, q]
        hi = lo
        if h > 0.0:
            end = c[0, q] + c[1, q] * h + c[2, q] * h * h
            lo = end if end < lo else lo
            hi = end if end > hi else hi
            if c[2, q] != 0.0:
                s = -c[1, q] / (2.0 * c[2, q])
                if 0.0 < s < h:
                    top = c[0, q] + c[1, q] * s + c[2, q] * s * s
                    lo = top if top < lo else lo
                    hi = top if top > hi else hi
        box[i, 2 * q] = lo - CULL
        box[i, 2 * q + 1] = hi + CULL


@lean
def _point_segment2(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The squared distance from (px, py) to the segment from (ax, ay) to (bx, by)."""
    dx = bx - ax
    dy = by - ay
    length2 = dx * dx + dy * dy
    u = 0.0
    if length2 > 0.0:
        u = ((px - ax) * dx + (py - ay) * dy) / length2
        u = 0.0 if u < 0.0 else (1.0 if u > 1.0 else u)
    ex = ax + u * dx - px
    ey = ay + u * dy - py
    d2: float = ex * ex + ey * ey
    return d2


@lean
def _segments(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float
) -> float:
    """The distance between the segments AB and CD (0 where they cross)."""
    o1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    o2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
    o3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
    o4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
    if ((o1 > 0.0 and o2 < 0.0) or (o1 < 0.0 and o2 > 0.0)) and (
        (o3 > 0.0 and o4 < 0.0) or (o3 < 0.0 and o4 > 0.0)
    ):
        return 0.0
    d = _point_segment2(ax, ay, cx, cy, dx, dy)
    e = _point_segment2(bx, by, cx, cy, dx, dy)
    d = e if e < d else d
    e = _point_segment2(cx, cy, ax, ay, bx, by)
    d = e if e < d else d
    e = _point_segment2(dx, dy, ax, ay, bx, by)
    d = e if e < d else d
    gap: float = math.sqrt(d)
    return gap


@lean
def segment_gap(box: np.ndarray, i: int, ax: float, ay: float, bx: float, by: float) -> float:
    """How near ball i's straight path (``box[i]``) comes to the segment AB; 0 if it curves."""
    if box[i, 8] == 0.0:
        return 0.0
    return _segments(box[i, 4], box[i, 5], box[i, 6], box[i, 7], ax, ay, bx, by)


@lean
def point_gap(box: np.ndarray, i: int, px: float, py: float) -> float:
    """How near ball i's straight path (``box[i]``) comes to the point P; 0 if it curves."""
    if box[i, 8] == 0.0:
        return 0.0
    gap: float = math.sqrt(_point_segment2(px, py, box[i, 4], box[i, 5], box[i, 6], box[i, 7]))
    return gap


def table_boxes(
    segs: np.ndarray, jaws: np.ndarray, caps: np.ndarray, edges: np.ndarray
) -> np.ndarray:
    """The culling data of the table's elements, a row each: segments, jaws, captures, edges.

    Plain Python, run once per table (:func:`.shot.pack_table`): compiling it cost more than
    a second of every cold start, running it takes well under a millisecond.

    A segment's row starts with its box (x min, x max, y min, y max). A capture line's or a
    boundary edge's row is (nx, ny, offset, ux, uy, lo, hi): a ball's centre crosses it where
    q = n . r - offset falls to 0 (n into the table), with its tangential coordinate u . r
    within [lo, hi] (:func:`apart`). Jaws are tested from their own rows.
    """
    nseg = segs.shape[0]
    nsj = nseg + jaws.shape[0]
    ncap = caps.shape[0]
    out = np.zeros((nsj + ncap + edges.shape[0], 7))
    for k in range(nseg):
        out[k, 0] = segs[k, 0] if segs[k, 0] < segs[k, 2] else segs[k, 2]
        out[k, 1] = segs[k, 2] if segs[k, 0] < segs[k, 2] else segs[k, 0]
        out[k, 2] = segs[k, 1] if segs[k, 1] < segs[k, 3] else segs[k, 3]
        out[k, 3] = segs[k, 3] if segs[k, 1] < segs[k, 3] else segs[k, 1]
    for k in range(ncap):
        # capture_time: o . r = c crossed going out (o = caps[k, :2] points out of the table)
        # within caps[k, 5] of the midpoint (caps[k, 3], caps[k, 4]) along the line
        row = nsj + k
        ux = -caps[k, 1]
        uy = caps[k, 0]
        mid = ux * caps[k, 3] + uy * caps[k, 4]
        out[row, 0] = -caps[k, 0]
        out[row, 1] = -caps[k, 1]
        out[row, 2] = -caps[k, 2]
        out[row, 3] = ux
        out[row, 4] = uy
        out[row, 5] = mid - caps[k, 5]
        out[row, 6] = mid + caps[k, 5]
    for k in range(edges.shape[0]):
        # cross_time: n . (r - e0) falls to 0, the crossing within [-TOUCH, length + TOUCH] of
        # e0 along the edge
        row = nsj + ncap + k
        ex = edges[k, 2] - edges[k, 0]
        ey = edges[k, 3] - edges[k, 1]
        length = math.sqrt(ex * ex + ey * ey)
        ux = ex / length
        uy = ey / length
        start = ux * edges[k, 0] + uy * edges[k, 1]
        out[row, 0] = edges[k, 4]
        out[row, 1] = edges[k, 5]
        out[row, 2] = edges[k, 4] * edges[k, 0] + edges[k, 5] * edges[k, 1]
        out[row, 3] = ux
        out[row, 4] = uy
        out[row, 5] = start - TOUCH
        out[row, 6] = start + length + TOUCH
    return out


@lean
def _low(a: float, b: float, box: np.ndarray, i: int) -> float:
    """The least value of a x + b y over the box ``box[i]``."""
    low: float = (a * box[i, 0] if a > 0.0 else a * box[i, 1]) + (
        b * box[i, 2] if b > 0.0 else b * box[i, 3]
    )
    return low


@lean
def apart(gbox: np.ndarray, g: int, box: np.ndarray, i: int) -> bool:
    """Whether no centre in ``box[i]`` can cross the line of row ``g`` of :func:`table_boxes`.

    That is: the whole box is more than ``CULL`` inside the table, or its tangential range is
    outside the line's window (widened by ``CULL``).
    """
    if _low(gbox[g, 0], gbox[g, 1], box, i) - gbox[g, 2] > CULL:
        return True  # the whole box is inside the table, clear of the line
    if _low(gbox[g, 3], gbox[g, 4], box, i) > gbox[g, 6] + CULL:
        return True
    below: bool = -_low(-gbox[g, 3], -gbox[g, 4], box, i) < gbox[g, 5] - CULL
    return below
