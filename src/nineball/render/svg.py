"""Table diagrams as SVG text (pure functions, like python-chess's ``chess.svg``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from nineball.game import PhysicsParams, TableSpec
from nineball.render.scene import Circle, Line, Polygon, Scene, Text, build_scene

__all__ = ["scene_svg", "table_svg"]


def _f(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def scene_svg(scene: Scene) -> str:
    """The scene as an SVG document."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}" font-family="DejaVu Sans, sans-serif">'
    ]
    for shape in scene.shapes:
        if isinstance(shape, Circle):
            stroke = (
                f' stroke="{shape.stroke}" stroke-width="{_f(shape.width)}"' if shape.stroke else ""
            )
            out.append(
                f'<circle cx="{_f(shape.x)}" cy="{_f(shape.y)}" r="{_f(shape.r)}" '
                f'fill="{shape.fill}"{stroke}/>'
            )
        elif isinstance(shape, Polygon):
            points = " ".join(f"{_f(x)},{_f(y)}" for x, y in shape.points)
            out.append(f'<polygon points="{points}" fill="{shape.fill}"/>')
        elif isinstance(shape, Line):
            points = " ".join(f"{_f(x)},{_f(y)}" for x, y in shape.points)
            dash = ' stroke-dasharray="6 4"' if shape.dashed else ""
            out.append(
                f'<polyline points="{points}" fill="none" stroke="{shape.colour}" '
                f'stroke-width="{_f(shape.width)}"{dash} stroke-linejoin="round"/>'
            )
        elif isinstance(shape, Text):
            out.append(
                f'<text x="{_f(shape.x)}" y="{_f(shape.y)}" font-size="{_f(shape.size)}" '
                f'text-anchor="middle" fill="{shape.colour}" font-weight="bold">'
                f"{escape(shape.text)}</text>"
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def table_svg(
    balls: Mapping[int, tuple[float, float]],
    *,
    table: TableSpec,
    params: PhysicsParams,
    paths: Mapping[int, Sequence[tuple[float, float]]] | None = None,
    title: str | None = None,
) -> str:
    """A diagram of the table with ``balls`` (id to centre in m) and their ``paths``."""
    return scene_svg(build_scene(balls, table=table, params=params, paths=paths, title=title))
