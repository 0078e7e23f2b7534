"""A pooltool pocket table's geometry read into a :class:`TableSpec`, and written from one.

pooltool saves a table as its geometry, not as the specifications it was built from: 18 straight
cushion segments (``"1"`` to ``"18"``), 12 circular ones (the rounded points of the jaws, ``"1t"``,
``"2t"``...) and 6 pockets (``"lb"``, ``"lc"``, ``"lt"``, ``"rb"``, ``"rc"``, ``"rt"``: left or
right, bottom, centre or top), each a circle that captures a ball whose centre enters it. Its
``create_pocket_table`` numbers them the same way on every table, and puts the cushion noses of the
head and left rails on the lines y = 0 and x = 0: the frame of ``docs/simulate-protocol.md``
(pooltool's "bottom" is our head, where the cue ball breaks from).

Reading measures what nineball's :class:`TableSpec` is made of: the playing area between the noses,
each pocket's mouth between its two sharp points (where a facing's line meets the nose line), the
facing angles, the jaws' radius, the nose height, and the shelf (from the mouth line to the front
of the pocket's capture circle, along the pocket's axis). nineball's table has four equal corners
and two equal sides, the corner points all rounded alike and the side points alike; where
pooltool's differ, the mean is used and a note says so. Writing does the reverse: nineball's
noses, facings and jaws as pooltool's segments, and each pocket as a circle of half the mouth's
radius whose front lies on nineball's capture line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from nineball.equipment import PocketId
from nineball.errors import InvalidInputError
from nineball.game import TableSpec
from nineball.interop.pooltool.fields import get, inside, number, vector
from nineball.interop.pooltool.file import PooltoolFileError

__all__ = ["POCKET_IDS", "PooltoolTable", "table_from_pooltool", "table_to_pooltool"]

POCKET_IDS: dict[str, PocketId] = {
    "lb": PocketId.HEAD_LEFT,
    "rb": PocketId.HEAD_RIGHT,
    "lc": PocketId.SIDE_LEFT,
    "rc": PocketId.SIDE_RIGHT,
    "lt": PocketId.FOOT_LEFT,
    "rt": PocketId.FOOT_RIGHT,
}
"""pooltool's pocket ids and nineball's pockets."""

_RAILS: dict[str, str] = {
    "18": "head",
    "9": "foot",
    "3": "left_head",
    "6": "left_foot",
    "15": "right_head",
    "12": "right_foot",
}
"""pooltool's straight segments along the rails, by nineball's cushion names."""

_FACINGS: dict[str, tuple[PocketId, str, str]] = {
    "1": (PocketId.HEAD_LEFT, "a", "18"),
    "2": (PocketId.HEAD_LEFT, "b", "3"),
    "4": (PocketId.SIDE_LEFT, "a", "3"),
    "5": (PocketId.SIDE_LEFT, "b", "6"),
    "7": (PocketId.FOOT_LEFT, "b", "6"),
    "8": (PocketId.FOOT_LEFT, "a", "9"),
    "10": (PocketId.FOOT_RIGHT, "a", "9"),
    "11": (PocketId.FOOT_RIGHT, "b", "12"),
    "13": (PocketId.SIDE_RIGHT, "b", "12"),
    "14": (PocketId.SIDE_RIGHT, "a", "15"),
    "16": (PocketId.HEAD_RIGHT, "b", "15"),
    "17": (PocketId.HEAD_RIGHT, "a", "18"),
}
"""pooltool's facing segments: the pocket, nineball's tag for the point, the rail it meets."""

_SIDES = (PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT)

TOLERANCE = 1e-6
"""Lengths (m) and angles (rad) that differ by less are equal: pooltool builds its pockets from
one set of numbers, so its four corners agree to rounding."""

POCKET_DEPTH = 0.08
"""pooltool's pocket depth, m (its default; only its viewer uses it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PooltoolTable:
    """A pooltool table in nineball's terms."""

    table: TableSpec
    """nineball's table."""
    offset: tuple[float, float]
    """Where pooltool's head-left nose corner is in its frame, m: subtracted from its positions
    ((0, 0) for every table pooltool builds)."""
    notes: tuple[str, ...]
    """What did not map exactly."""


def _point(value: object, where: str) -> tuple[float, float, float]:
    x, y, z = vector(value, where, 3, "x, y, z in m")
    return x, y, z


def _line_meet(
    p: tuple[float, float], d: tuple[float, float], q: tuple[float, float], e: tuple[float, float]
) -> tuple[float, float] | None:
    """Where the line p + s d meets the line q + t e (None when parallel)."""
    det = d[0] * -e[1] - d[1] * -e[0]
    if abs(det) < 1e-12:
        return None
    s = ((q[0] - p[0]) * -e[1] - (q[1] - p[1]) * -e[0]) / det
    return p[0] + s * d[0], p[1] + s * d[1]


def table_from_pooltool(raw: object, where: str = "$.table") -> PooltoolTable:
    """The table of nineball measured from a pooltool table's saved geometry.

    Raises:
        PooltoolFileError: not a pocket table, a segment or pocket missing or malformed, or a
            geometry that makes no pool table (a rail not along an axis, a pocket that does not
            fit).
    """
    kind = get(raw, "table_type", where)
    if kind != "pocket":
        raise PooltoolFileError(
            inside(where, "table_type"), f"is {kind!r}: only pocket tables map to nine-ball"
        )
    segments = get(raw, "cushion_segments", where)
    seg_at = inside(where, "cushion_segments")
    linear = get(segments, "linear", seg_at)
    circular = get(segments, "circular", seg_at)
    lin_at, circ_at = inside(seg_at, "linear"), inside(seg_at, "circular")
    ends: dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]] = {}
    for sid in [*_RAILS, *_FACINGS]:
        seg = get(linear, sid, lin_at)
        at = inside(lin_at, sid)
        ends[sid] = (
            _point(get(seg, "p1", at), inside(at, "p1")),
            _point(get(seg, "p2", at), inside(at, "p2")),
        )
    # the rails' nose lines
    lines: dict[str, float] = {}
    for sid, name in _RAILS.items():
        (x1, y1, _), (x2, y2, _) = ends[sid]
        across = name in ("head", "foot")
        if abs((y2 - y1) if across else (x2 - x1)) > TOLERANCE:
            axis = "x" if across else "y"
            raise PooltoolFileError(
                inside(lin_at, sid), f"the {name} rail must run along the {axis} axis"
            )
        lines[name] = (y1 + y2) / 2 if across else (x1 + x2) / 2
    notes: list[str] = []
    for a, b in (("left_head", "left_foot"), ("right_head", "right_foot")):
        if abs(lines[a] - lines[b]) > TOLERANCE:
            raise PooltoolFileError(lin_at, f"the two halves of the {a.split('_')[0]} rail differ")
    x0, y0 = lines["left_head"], lines["head"]
    width, length = lines["right_head"] - x0, lines["foot"] - y0
    if not (0.1 < width < 10 and 0.1 < length < 20):
        raise PooltoolFileError(lin_at, f"a playing area of {width!r} x {length!r} m is no table")
    heights = {round(p[2], 9) for pair in ends.values() for p in pair}
    nose = float(np.mean([p[2] for pair in ends.values() for p in pair]))
    if max(heights) - min(heights) > TOLERANCE:
        notes.append(
            f"the cushion heights differ ({min(heights):.4g}-{max(heights):.4g} m): "
            f"nineball's cushions have one height, the mean {nose:.4g} m"
        )
    points, angles, jaws = _facings(ends, lines, circular, circ_at, where)
    pockets = get(raw, "pockets", where)
    pock_at = inside(where, "pockets")
    mouths: dict[PocketId, float] = {}
    shelves: dict[PocketId, float] = {}
    for pid, pocket in POCKET_IDS.items():
        at = inside(pock_at, pid)
        entry = get(pockets, pid, pock_at)
        centre = _point(get(entry, "center", at), inside(at, "center"))
        radius = number(get(entry, "radius", at), inside(at, "radius"))
        if radius <= 0:
            raise PooltoolFileError(inside(at, "radius"), f"must be > 0, got {radius!r}")
        pa, pb = points[(pocket, "a")], points[(pocket, "b")]
        mouths[pocket] = math.dist(pa, pb)
        mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
        # the pocket's axis: perpendicular to the mouth, away from the table's centre
        ux, uy = (pb[0] - pa[0]) / mouths[pocket], (pb[1] - pa[1]) / mouths[pocket]
        ox, oy = -uy, ux
        cx, cy = x0 + width / 2, y0 + length / 2
        if ox * (mid[0] - cx) + oy * (mid[1] - cy) < 0:
            ox, oy = -ox, -oy
        shelves[pocket] = (centre[0] - mid[0]) * ox + (centre[1] - mid[1]) * oy - radius
    spec, more = _spec(width, length, nose, mouths, angles, jaws, shelves)
    return PooltoolTable(table=spec, offset=(x0, y0), notes=(*notes, *more))


def _facings(
    ends: Mapping[str, tuple[tuple[float, float, float], tuple[float, float, float]]],
    lines: Mapping[str, float],
    circular: object,
    circ_at: str,
    where: str,
) -> tuple[
    dict[tuple[PocketId, str], tuple[float, float]],
    dict[tuple[PocketId, str], float],
    dict[tuple[PocketId, str], float],
]:
    """Each facing's sharp point, its angle to the nose (rad) and its jaw's radius (m)."""
    points: dict[tuple[PocketId, str], tuple[float, float]] = {}
    angles: dict[tuple[PocketId, str], float] = {}
    jaws: dict[tuple[PocketId, str], float] = {}
    rail_of = {sid: name for sid, name in _RAILS.items()}
    for sid, (pocket, tag, rail) in _FACINGS.items():
        (x1, y1, _), (x2, y2, _) = ends[sid]
        name = rail_of[rail]
        across = name in ("head", "foot")
        # the nose line: a point on it and its direction
        q = (0.0, lines[name]) if across else (lines[name], 0.0)
        e = (1.0, 0.0) if across else (0.0, 1.0)
        meet = _line_meet((x1, y1), (x2 - x1, y2 - y1), q, e)
        at = f"{where}.cushion_segments.linear[{sid!r}]"
        if meet is None or math.hypot(x2 - x1, y2 - y1) < 1e-6:
            raise PooltoolFileError(at, f"the facing never meets the {name} rail's nose")
        far = (x1, y1) if math.dist((x1, y1), meet) > math.dist((x2, y2), meet) else (x2, y2)
        f = (far[0] - meet[0], far[1] - meet[1])
        n = math.hypot(*f)
        # along the rail, away from the pocket: toward the rail's middle
        rx1, ry1, _ = ends[rail][0]
        rx2, ry2, _ = ends[rail][1]
        middle = ((rx1 + rx2) / 2, (ry1 + ry2) / 2)
        a = (middle[0] - meet[0], middle[1] - meet[1])
        m = math.hypot(*a)
        if n < 1e-9 or m < 1e-9:
            raise PooltoolFileError(at, "the facing starts at its own point: no pocket throat")
        cos = (a[0] * f[0] + a[1] * f[1]) / (m * n)
        points[(pocket, tag)] = meet
        angles[(pocket, tag)] = math.acos(max(-1.0, min(1.0, cos)))
        jaw = get(circular, f"{sid}t", circ_at)
        jaws[(pocket, tag)] = number(
            get(jaw, "radius", f"{circ_at}[{sid + 't'!r}]"), f"{circ_at}[{sid + 't'!r}].radius"
        )
    return points, angles, jaws


def _agree(
    values: list[float], what: str, unit: str, notes: list[str], scale: float = 1.0
) -> float:
    mean = float(np.mean(values))
    if max(values) - min(values) > TOLERANCE:
        shown = ", ".join(f"{v * scale:.4g}" for v in values)
        notes.append(
            f"the {what} differ ({shown} {unit}): nineball's are equal, the mean "
            f"{mean * scale:.4g} {unit} is used"
        )
    return mean


def _spec(
    width: float,
    length: float,
    nose: float,
    mouths: Mapping[PocketId, float],
    angles: Mapping[tuple[PocketId, str], float],
    jaws: Mapping[tuple[PocketId, str], float],
    shelves: Mapping[PocketId, float],
) -> tuple[TableSpec, list[str]]:
    notes: list[str] = []
    corners = [p for p in PocketId if p not in _SIDES]
    corner_jaws = [r for (p, _), r in jaws.items() if p not in _SIDES]
    side_jaws = [r for (p, _), r in jaws.items() if p in _SIDES]
    jaw = _agree(corner_jaws, "corner jaws' radii", "mm", notes, 1000)
    side_jaw = _agree(side_jaws, "side jaws' radii", "mm", notes, 1000)
    shelf = {}
    for name, group in (("corner", corners), ("side", list(_SIDES))):
        value = _agree([shelves[p] for p in group], f"{name} pockets' shelves", "mm", notes, 1000)
        if value < 0:
            notes.append(
                f"the {name} pockets' capture circles reach {-value * 1000:.3g} mm onto the "
                "table: nineball's capture line is put on the mouth"
            )
            value = 0.0
        shelf[name] = value
    try:
        spec = TableSpec(
            length=length,
            width=width,
            corner_mouth=_agree([mouths[p] for p in corners], "corner mouths", "mm", notes, 1000),
            side_mouth=_agree([mouths[p] for p in _SIDES], "side mouths", "mm", notes, 1000),
            corner_facing=_agree(
                [a for (p, _), a in angles.items() if p not in _SIDES],
                "corner facing angles",
                "deg",
                notes,
                180 / math.pi,
            ),
            side_facing=_agree(
                [a for (p, _), a in angles.items() if p in _SIDES],
                "side facing angles",
                "deg",
                notes,
                180 / math.pi,
            ),
            corner_shelf=shelf["corner"],
            side_shelf=shelf["side"],
            jaw_radius=jaw,
            side_jaw_radius=None if abs(side_jaw - jaw) <= TOLERANCE else side_jaw,
            nose_height=nose,
            name="pooltool",
        )
    except InvalidInputError as exc:
        raise PooltoolFileError("$.table", f"no nineball table has this geometry: {exc}") from None
    return spec, notes


def _direction(
    p1: tuple[float, float], p2: tuple[float, float], normal: tuple[float, float]
) -> int:
    """The ``direction`` pooltool gives a segment from the side a ball meets it on.

    1 when that side is where pooltool's line function l_x x + l_y y + l_0 is positive, else 0.
    """
    lx, ly = (1.0, 0.0) if p2[0] == p1[0] else (-(p2[1] - p1[1]) / (p2[0] - p1[0]), 1.0)
    return 1 if normal[0] * lx + normal[1] * ly > 0 else 0


def table_to_pooltool(table: TableSpec) -> dict[str, Any]:
    """A pooltool pocket table (its saved form, arrays as numpy arrays) with nineball's geometry."""
    z = table.nose_height
    linear: dict[str, Any] = {}
    names = list(table.segment_names)
    ids = {name: sid for sid, name in _RAILS.items()}
    ids |= {f"{p.value}_facing_{tag}": sid for sid, (p, tag, _) in _FACINGS.items()}
    for sid in sorted({*_RAILS, *_FACINGS}, key=int):
        name = _RAILS.get(sid) or next(n for n, i in ids.items() if i == sid)
        x1, y1, x2, y2, nx, ny = (float(v) for v in table.segments[names.index(name)])
        linear[sid] = {
            "id": sid,
            "p1": np.array([x1, y1, z]),
            "p2": np.array([x2, y2, z]),
            "direction": _direction((x1, y1), (x2, y2), (nx, ny)),
        }
    circular: dict[str, Any] = {}
    jaw_names = list(table.jaw_names)
    for sid, (pocket, tag, _) in sorted(_FACINGS.items(), key=lambda kv: int(kv[0])):
        cx, cy, radius = (
            float(v) for v in table.jaws[jaw_names.index(f"{pocket.value}_jaw_{tag}")]
        )
        circular[f"{sid}t"] = {"id": f"{sid}t", "center": np.array([cx, cy, z]), "radius": radius}
    pockets: dict[str, Any] = {}
    order = list(PocketId)
    for pid, pocket in POCKET_IDS.items():
        ox, oy, _, mx, my, half = (float(v) for v in table.captures[order.index(pocket)])
        # the circle's front on the capture line (mx, my), its centre half a mouth behind it
        pockets[pid] = {
            "id": pid,
            "center": np.array([mx + ox * half, my + oy * half, 0.0]),
            "radius": half,
            "depth": POCKET_DEPTH,
            "contains": [],
        }
    return {
        "cushion_segments": {"linear": linear, "circular": circular},
        "pockets": pockets,
        "table_type": "pocket",
        "model_descr": None,
        "height": 0.708,
        "lights_height": 1.99,
    }
