"""Table geometry: playing surface, cushion noses, pocket facings, rounded points and capture.

The frame is the simulation protocol's: origin where the head cushion's nose line meets the left
long cushion's nose line, x across (0..W), y along (0..L), z up.

Geometry of a pocket. Each pocket has two *points*: the sharp corners where a cushion's nose line
meets the pocket facing. The mouth is the distance between the two points (WPA spec §9 measures
it between the points of the facings at the nose). The facing leaves the nose line at the WPA
facing angle (142 deg corner, 104 deg side, measured inside the rubber between the nose line and
the facing), so the throat narrows toward the back of the pocket. Each point is rounded by a
circle of radius ``jaw_radius`` tangent to the nose line and the facing (the *jaw*). A ball is
*pocketed* when its centre passes the capture line: the line parallel to the mouth, set back from
the mouth line by the shelf depth, where the ball's centre leaves the slate and it falls. Until
then it can hit the facings and the rounded points and rattle out.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import PocketId
from nineball.errors import InvalidInputError
from nineball.physics._kernels.detect import inside

__all__ = ["TableSpec", "eight_foot", "nine_foot", "seven_foot"]

INCH = 0.0254
"""One inch in m."""

BALL_RADIUS = 0.028575
"""Ball radius in m used for the default nose height (WPA spec 16: 2.25 in ball)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSpec:
    """A pool table's playing geometry (m, rad).

    Use the presets :func:`nine_foot` (default), :func:`eight_foot` and :func:`seven_foot`.
    """

    length: float = 2.540
    """Playing length L nose to nose in m. Default 2.540 m (100 in; WPA spec §5, 9-ft table)."""

    width: float = 1.270
    """Playing width W nose to nose in m. Default 1.270 m (50 in; WPA spec §5)."""

    corner_mouth: float = 4.5625 * INCH
    """Corner pocket mouth between the points in m. Default 4.5625 in (WPA §9: 4.5-4.625 in)."""

    side_mouth: float = 5.0625 * INCH
    """Side pocket mouth between the points in m. Default 5.0625 in (WPA §9: 5-5.125 in)."""

    corner_facing: float = math.radians(142.0)
    """Corner facing angle in rad. Default 142 deg (WPA §9: 142 +- 1 deg)."""

    side_facing: float = math.radians(104.0)
    """Side facing angle in rad. Default 104 deg (WPA §9: 104 +- 1 deg)."""

    corner_shelf: float = 1.625 * INCH
    """Corner shelf depth (mouth line to slate edge) in m. Default 1.625 in (WPA §9: 1-2.25 in)."""

    side_shelf: float = 0.1875 * INCH
    """Side shelf depth in m. Default 0.1875 in (WPA §9: 0-0.375 in)."""

    jaw_radius: float = 0.25 * INCH
    """Radius of the rounded point of each jaw in m. Default 0.25 in (an assumption: rubber
    profiles are cut with a small round on the point; WPA does not specify it)."""

    side_jaw_radius: float | None = None
    """Radius of the rounded points of the side pockets in m, when it differs from
    :attr:`jaw_radius` (None, the default: the same). pooltool's tables round their side points
    less than their corners (7.95 against 20.95 mm)."""

    facing_length: float = 3.0 * INCH
    """Length of each straight facing from its point toward the back of the pocket, in m.
    Default 3 in (deep enough that a ball is captured before its end)."""

    nose_height: float = 0.635 * 2.0 * BALL_RADIUS
    """Height of the cushion nose above the cloth in m. Default 63.5% of the ball diameter,
    36.29 mm (WPA §8: 62.5-64.5%)."""

    name: str = "9-ft"
    """A label for the table."""

    segments: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    """Straight cushion noses and facings, shape (n, 6): x1, y1, x2, y2, nx, ny (unit normal
    pointing to the side a ball comes from). Read-only, like every array of the table."""

    segment_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Name of each segment (``"foot"``, ``"foot_left_facing_a"``, ...)."""

    jaws: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    """Rounded points, shape (n, 3): centre x, y and radius in m."""

    jaw_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Name of each jaw (``"foot_left_jaw_a"``, ...)."""

    captures: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    """Capture line of each pocket in :class:`PocketId` order, shape (6, 6): ox, oy, c, mx, my,
    half. A ball whose centre r crosses o . r = c (o points into the pocket) within ``half`` m
    (half the mouth) of the line's midpoint (mx, my) is pocketed."""

    points: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    """The two sharp points of each pocket, shape (6, 2, 2), in :class:`PocketId` order."""
    boundary: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    """The edge of the playing surface as a closed polygon of 24 edges, shape (24, 7): x1, y1,
    x2, y2, nx, ny (unit normal into the table) and the pocket index (:class:`PocketId` order)
    of a capture edge, -1 for the other edges. Going round: each cushion's nose line from point
    to point, then at each pocket the facing from its point to the capture line, the capture
    line between the facings, and the other facing back to its point. A ball's centre stays
    inside it on the cloth; one in flight that crosses it has left the table (a nose or facing
    edge) or falls into a pocket (a capture edge, if low enough). See :meth:`contains`."""

    def __post_init__(self) -> None:
        """Validate the dimensions and build the cushion geometry.

        Raises:
            InvalidInputError: a dimension is not positive or a pocket does not fit.
        """
        for name in ("length", "width", "corner_mouth", "side_mouth", "jaw_radius"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0.0):
                raise InvalidInputError(f"table {name!r} must be > 0, got {value!r}")
        if self.side_jaw_radius is not None:
            value = self.side_jaw_radius
            if isinstance(value, bool) or not (math.isfinite(value) and value > 0.0):
                raise InvalidInputError(f"table 'side_jaw_radius' must be > 0, got {value!r}")
        for name in ("corner_facing", "side_facing"):
            value = getattr(self, name)
            if not math.pi / 2 <= value < math.pi:
                raise InvalidInputError(f"table {name!r} must be in [90, 180) deg, got {value!r}")
        segs, seg_names, jaws, jaw_names, caps, pts = _build(self)
        edges = _boundary(segs, seg_names, caps, pts)
        for array in (segs, jaws, caps, pts, edges):
            array.setflags(write=False)
        object.__setattr__(self, "segments", segs)
        object.__setattr__(self, "segment_names", seg_names)
        object.__setattr__(self, "jaws", jaws)
        object.__setattr__(self, "jaw_names", jaw_names)
        object.__setattr__(self, "captures", caps)
        object.__setattr__(self, "points", pts)
        object.__setattr__(self, "boundary", edges)

    @property
    def head_string(self) -> float:
        """The head string's y in m (L/4)."""
        return self.length / 4.0

    @property
    def foot_spot(self) -> tuple[float, float]:
        """The foot spot (W/2, 3L/4) in m."""
        return (self.width / 2.0, 0.75 * self.length)

    @property
    def centre_spot(self) -> tuple[float, float]:
        """The centre spot (W/2, L/2) in m."""
        return (self.width / 2.0, self.length / 2.0)

    def pocket_centre(self, pocket: PocketId) -> tuple[float, float]:
        """The nominal pocket position of the protocol (a corner or a side of the rectangle)."""
        return {
            PocketId.HEAD_LEFT: (0.0, 0.0),
            PocketId.HEAD_RIGHT: (self.width, 0.0),
            PocketId.SIDE_LEFT: (0.0, self.length / 2.0),
            PocketId.SIDE_RIGHT: (self.width, self.length / 2.0),
            PocketId.FOOT_LEFT: (0.0, self.length),
            PocketId.FOOT_RIGHT: (self.width, self.length),
        }[pocket]

    def mouth(self, pocket: PocketId) -> float:
        """The distance between the two points of a pocket in m."""
        p = self.points[list(PocketId).index(pocket)]
        return float(np.hypot(*(p[0] - p[1])))

    def contains(self, x: float, y: float) -> bool:
        """Whether a ball's centre at (x, y) (m) is inside :attr:`boundary` (crossing number).

        The engine's own test (``detect.inside``, the invariant checked after every shot), run
        in Python.
        """
        return bool(cast(Any, inside).py_func(self.boundary, x, y))  # the kernel's Python source

    def cushion_names(self) -> tuple[str, ...]:
        """All cushion names: segments then jaws (the kernel's cushion index order)."""
        return self.segment_names + self.jaw_names


@functools.cache
def nine_foot(*, pro_pockets: bool = False) -> TableSpec:
    """The WPA 9-ft table (2.540 x 1.270 m), optionally with tighter pro pockets.

    Args:
        pro_pockets: 4.25 in corners and 4.875 in sides with a 1.875 in corner shelf, as on
            the tight tables of pro events (docs/players.md: 4-4.5 in corners).
    """
    if pro_pockets:
        return TableSpec(
            corner_mouth=4.25 * INCH,
            side_mouth=4.875 * INCH,
            corner_shelf=1.875 * INCH,
            name="9-ft pro",
        )
    return TableSpec()


@functools.cache
def eight_foot() -> TableSpec:
    """An 8-ft table: 88 x 44 in playing surface (2.235 x 1.118 m), WPA pockets."""
    return TableSpec(length=88 * INCH, width=44 * INCH, name="8-ft")


@functools.cache
def seven_foot() -> TableSpec:
    """A 7-ft table: 78 x 39 in playing surface (1.981 x 0.991 m), WPA pockets."""
    return TableSpec(length=78 * INCH, width=39 * INCH, name="7-ft")


def _unit(x: float, y: float) -> tuple[float, float]:
    n = math.hypot(x, y)
    return (x / n, y / n)


def _build(
    t: TableSpec,
) -> tuple[
    NDArray[np.float64],
    tuple[str, ...],
    NDArray[np.float64],
    tuple[str, ...],
    NDArray[np.float64],
    NDArray[np.float64],
]:
    w, length = t.width, t.length
    half_c = t.corner_mouth / math.sqrt(2.0)
    half_s = t.side_mouth / 2.0
    # Each point: (pocket, tag, P, a = along the rail away from the pocket, n = into the table).
    pts: list[tuple[PocketId, str, tuple[float, float], tuple[float, float], tuple[float, float]]]
    pts = [
        (PocketId.HEAD_LEFT, "a", (half_c, 0.0), (1.0, 0.0), (0.0, 1.0)),
        (PocketId.HEAD_LEFT, "b", (0.0, half_c), (0.0, 1.0), (1.0, 0.0)),
        (PocketId.HEAD_RIGHT, "a", (w - half_c, 0.0), (-1.0, 0.0), (0.0, 1.0)),
        (PocketId.HEAD_RIGHT, "b", (w, half_c), (0.0, 1.0), (-1.0, 0.0)),
        (PocketId.SIDE_LEFT, "a", (0.0, length / 2 - half_s), (0.0, -1.0), (1.0, 0.0)),
        (PocketId.SIDE_LEFT, "b", (0.0, length / 2 + half_s), (0.0, 1.0), (1.0, 0.0)),
        (PocketId.SIDE_RIGHT, "a", (w, length / 2 - half_s), (0.0, -1.0), (-1.0, 0.0)),
        (PocketId.SIDE_RIGHT, "b", (w, length / 2 + half_s), (0.0, 1.0), (-1.0, 0.0)),
        (PocketId.FOOT_LEFT, "a", (half_c, length), (1.0, 0.0), (0.0, -1.0)),
        (PocketId.FOOT_LEFT, "b", (0.0, length - half_c), (0.0, -1.0), (1.0, 0.0)),
        (PocketId.FOOT_RIGHT, "a", (w - half_c, length), (-1.0, 0.0), (0.0, -1.0)),
        (PocketId.FOOT_RIGHT, "b", (w, length - half_c), (0.0, -1.0), (-1.0, 0.0)),
    ]
    tangent: dict[tuple[PocketId, str], tuple[float, float]] = {}
    facings: list[list[float]] = []
    facing_names: list[str] = []
    jaws: list[list[float]] = []
    jaw_names: list[str] = []
    for pocket, tag, p, a, n in pts:
        side = pocket in (PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT)
        rho = t.side_jaw_radius if side and t.side_jaw_radius is not None else t.jaw_radius
        alpha = t.side_facing if side else t.corner_facing
        f = (
            math.cos(alpha) * a[0] - math.sin(alpha) * n[0],
            math.cos(alpha) * a[1] - math.sin(alpha) * n[1],
        )
        bis = _unit(a[0] + f[0], a[1] + f[1])
        d_t = rho / math.tan(alpha / 2.0)
        d_c = rho / math.sin(alpha / 2.0)
        tangent[(pocket, tag)] = (p[0] + a[0] * d_t, p[1] + a[1] * d_t)
        start = (p[0] + f[0] * d_t, p[1] + f[1] * d_t)
        end = (p[0] + f[0] * t.facing_length, p[1] + f[1] * t.facing_length)
        nf = (-f[1], f[0])
        if nf[0] * a[0] + nf[1] * a[1] > 0.0:
            nf = (f[1], -f[0])
        facings.append([start[0], start[1], end[0], end[1], nf[0], nf[1]])
        facing_names.append(f"{pocket.value}_facing_{tag}")
        jaws.append([p[0] + bis[0] * d_c, p[1] + bis[1] * d_c, rho])
        jaw_names.append(f"{pocket.value}_jaw_{tag}")
    hl, hr = PocketId.HEAD_LEFT, PocketId.HEAD_RIGHT
    sl, sr = PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT
    fl, fr = PocketId.FOOT_LEFT, PocketId.FOOT_RIGHT
    rails = [
        ("head", tangent[(hl, "a")], tangent[(hr, "a")], (0.0, 1.0)),
        ("foot", tangent[(fl, "a")], tangent[(fr, "a")], (0.0, -1.0)),
        ("left_head", tangent[(hl, "b")], tangent[(sl, "a")], (1.0, 0.0)),
        ("left_foot", tangent[(sl, "b")], tangent[(fl, "b")], (1.0, 0.0)),
        ("right_head", tangent[(hr, "b")], tangent[(sr, "a")], (-1.0, 0.0)),
        ("right_foot", tangent[(sr, "b")], tangent[(fr, "b")], (-1.0, 0.0)),
    ]
    for name, p1, p2, _ in rails:
        if (p2[0] - p1[0]) * (1 if name in ("head", "foot") else 0) + (p2[1] - p1[1]) * (
            0 if name in ("head", "foot") else 1
        ) <= 0.0:
            raise InvalidInputError(f"the pockets do not fit on the {name!r} cushion")
    segs = [[p1[0], p1[1], p2[0], p2[1], nn[0], nn[1]] for _, p1, p2, nn in rails] + facings
    seg_names = tuple(r[0] for r in rails) + tuple(facing_names)
    caps: list[list[float]] = []
    points = np.zeros((6, 2, 2))
    for k, pocket in enumerate(PocketId):
        (pa, _, ppa, _, na), (_, _, ppb, _, nb) = [x for x in pts if x[0] is pocket]
        del pa
        o = _unit(-(na[0] + nb[0]), -(na[1] + nb[1]))
        mid = ((ppa[0] + ppb[0]) / 2.0, (ppa[1] + ppb[1]) / 2.0)
        side = pocket in (PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT)
        shelf = t.side_shelf if side else t.corner_shelf
        cap_mid = (mid[0] + o[0] * shelf, mid[1] + o[1] * shelf)
        mouth = math.hypot(ppa[0] - ppb[0], ppa[1] - ppb[1])
        caps.append(
            [o[0], o[1], o[0] * mid[0] + o[1] * mid[1] + shelf, cap_mid[0], cap_mid[1], mouth / 2]
        )
        points[k, 0] = ppa
        points[k, 1] = ppb
    return (
        np.array(segs, dtype=np.float64),
        seg_names,
        np.array(jaws, dtype=np.float64),
        tuple(jaw_names),
        np.array(caps, dtype=np.float64),
        points,
    )


def _boundary(
    segs: NDArray[np.float64],
    seg_names: tuple[str, ...],
    caps: NDArray[np.float64],
    points: NDArray[np.float64],
) -> NDArray[np.float64]:
    """The closed polygon of the playing surface (see :attr:`TableSpec.boundary`)."""
    pockets = list(PocketId)
    # the sharp point of each (pocket, tag) and the facing's direction from it
    edges: list[list[float]] = []
    # the nose lines, from sharp point to sharp point (extended over the rounded points)
    ends = {
        "head": ((PocketId.HEAD_LEFT, 0), (PocketId.HEAD_RIGHT, 0)),
        "foot": ((PocketId.FOOT_LEFT, 0), (PocketId.FOOT_RIGHT, 0)),
        "left_head": ((PocketId.HEAD_LEFT, 1), (PocketId.SIDE_LEFT, 0)),
        "left_foot": ((PocketId.SIDE_LEFT, 1), (PocketId.FOOT_LEFT, 1)),
        "right_head": ((PocketId.HEAD_RIGHT, 1), (PocketId.SIDE_RIGHT, 0)),
        "right_foot": ((PocketId.SIDE_RIGHT, 1), (PocketId.FOOT_RIGHT, 1)),
    }
    for name, ((p1, t1), (p2, t2)) in ends.items():
        seg = segs[seg_names.index(name)]
        a = points[pockets.index(p1), t1]
        b = points[pockets.index(p2), t2]
        edges.append([a[0], a[1], b[0], b[1], seg[4], seg[5], -1.0])
    for k, pocket in enumerate(pockets):
        ox, oy, c = caps[k, 0], caps[k, 1], caps[k, 2]
        meet = []
        for q, tag in enumerate(("a", "b")):
            seg = segs[seg_names.index(f"{pocket.value}_facing_{tag}")]
            p = points[k, q]
            fx, fy = seg[2] - seg[0], seg[3] - seg[1]
            s = (c - ox * p[0] - oy * p[1]) / (ox * fx + oy * fy)
            end = (p[0] + s * fx, p[1] + s * fy)
            edges.append([p[0], p[1], end[0], end[1], seg[4], seg[5], -1.0])
            meet.append(end)
        (ax, ay), (bx, by) = meet
        edges.append([ax, ay, bx, by, -ox, -oy, float(k)])
    return np.array(edges, dtype=np.float64)
