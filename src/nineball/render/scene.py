"""A diagram of the table as plain shapes, in pixels, shared by the SVG and PNG renderers.

The table is drawn lengthwise across the picture: the head rail on the left, the foot rail on the
right, the table's x axis (across) pointing up the picture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from nineball.equipment import BallId, PocketId
from nineball.game import PhysicsParams, TableSpec

__all__ = ["BALL_COLOURS", "Circle", "Line", "Polygon", "Scene", "Text", "build_scene"]

BALL_COLOURS: dict[int, str] = {
    0: "#f8f8f0",
    1: "#f2c200",
    2: "#1f4fbf",
    3: "#d8262a",
    4: "#5b2a86",
    5: "#f07a12",
    6: "#1b8a3a",
    7: "#7a1c1c",
    8: "#161616",
    9: "#f2c200",
}
"""The usual colours of a pool set (the 9 is a yellow stripe)."""

RAIL = "#5a3a1e"
CLOTH = "#1d6b45"
CUSHION = "#155837"
POCKET = "#0b0b0b"
LINE = "#d8e8dc"


@dataclass(frozen=True, slots=True)
class Circle:
    """A filled circle, optionally outlined."""

    x: float
    y: float
    r: float
    fill: str
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True, slots=True)
class Polygon:
    """A filled polygon."""

    points: tuple[tuple[float, float], ...]
    fill: str


@dataclass(frozen=True, slots=True)
class Line:
    """A polyline."""

    points: tuple[tuple[float, float], ...]
    colour: str
    width: float
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text centred on (x, y) (y is the baseline)."""

    x: float
    y: float
    text: str
    size: float
    colour: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Scene:
    """Shapes to draw in order, on a canvas of ``width`` x ``height`` pixels."""

    width: int
    height: int
    shapes: tuple[Circle | Polygon | Line | Text, ...] = field(default=())


def build_scene(
    balls: Mapping[int, tuple[float, float]],
    *,
    table: TableSpec,
    params: PhysicsParams,
    paths: Mapping[int, Sequence[tuple[float, float]]] | None = None,
    title: str | None = None,
    scale: float = 400.0,
) -> Scene:
    """The shapes of a diagram: table, pockets, balls with numbers, and the balls' paths.

    Args:
        balls: ball id to centre (x, y) in m (table frame).
        table: the table.
        params: for the ball radius.
        paths: ball id to the points (m) it travelled through, drawn under the balls.
        title: a line of text above the table.
        scale: pixels per metre.
    """
    rail = 0.1
    top = 28.0 if title else 0.0
    width = round((table.length + 2 * rail) * scale)
    height = round((table.width + 2 * rail) * scale + top)

    def px(x: float, y: float) -> tuple[float, float]:
        return ((y + rail) * scale, top + (table.width - x + rail) * scale)

    shapes: list[Circle | Polygon | Line | Text] = []
    if title:
        shapes.append(Text(width / 2, 19.0, title, 15.0, "#202020"))
    far_x, far_y = table.width + rail, table.length + rail
    corners = ((-rail, -rail), (far_x, -rail), (far_x, far_y), (-rail, far_y))
    shapes.append(Polygon(tuple(px(x, y) for x, y in corners), RAIL))
    cloth = ((0.0, 0.0), (table.width, 0.0), (table.width, table.length), (0.0, table.length))
    shapes.append(Polygon(tuple(px(x, y) for x, y in cloth), CLOTH))
    # Diamonds on the rails: 8 spaces along, 4 across.
    for i in range(1, 8):
        for x in (-rail / 2, table.width + rail / 2):
            cx, cy = px(x, table.length * i / 8)
            shapes.append(Circle(cx, cy, 0.006 * scale, "#e8e0c8"))
    for i in range(1, 4):
        for y in (-rail / 2, table.length + rail / 2):
            cx, cy = px(table.width * i / 4, y)
            shapes.append(Circle(cx, cy, 0.006 * scale, "#e8e0c8"))
    for k, pocket in enumerate(PocketId):
        cx, cy = table.pocket_centre(pocket)
        (ax, ay), (bx, by) = table.points[k]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        radius = table.mouth(pocket) / 2 * 1.05
        x, y = px((mx + cx) / 2, (my + cy) / 2)
        shapes.append(Circle(x, y, radius * scale, POCKET))
    for x1, y1, x2, y2, nx, ny in table.segments:
        depth = 0.035
        quad = (
            (x1, y1),
            (x2, y2),
            (x2 - nx * depth, y2 - ny * depth),
            (x1 - nx * depth, y1 - ny * depth),
        )
        shapes.append(Polygon(tuple(px(x, y) for x, y in quad), CUSHION))
    for jx, jy, rho in table.jaws:
        x, y = px(jx, jy)
        shapes.append(Circle(x, y, rho * scale, CUSHION))
    shapes.append(
        Line((px(0.0, table.head_string), px(table.width, table.head_string)), LINE, 1.0, True)
    )
    fx, fy = px(*table.foot_spot)
    shapes.append(Circle(fx, fy, 3.0, LINE))
    for ball, path in sorted((paths or {}).items()):
        if len(path) > 1:
            colour = "#ffffff" if ball == 0 else BALL_COLOURS[ball]
            shapes.append(Line(tuple(px(x, y) for x, y in path), colour, 1.6, ball != 0))
    r = params.radius * scale
    for ball, (x, y) in sorted(balls.items()):
        cx, cy = px(x, y)
        if ball == BallId.NINE:
            shapes.append(Circle(cx, cy, r, "#fbfbf4", "#303030", 0.8))
            band = r * math.sqrt(1 - 0.45**2)
            shapes.append(
                Polygon(
                    (
                        (cx - band, cy - 0.45 * r),
                        (cx + band, cy - 0.45 * r),
                        (cx + band, cy + 0.45 * r),
                        (cx - band, cy + 0.45 * r),
                    ),
                    BALL_COLOURS[9],
                )
            )
        else:
            shapes.append(Circle(cx, cy, r, BALL_COLOURS[ball], "#303030", 0.8))
        if ball != 0:
            shapes.append(Circle(cx, cy, r * 0.52, "#fbfbf4"))
            shapes.append(Text(cx, cy + r * 0.3, str(ball), r * 0.8, "#111111"))
    return Scene(width=width, height=height, shapes=tuple(shapes))
