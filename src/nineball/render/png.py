"""Table diagrams as PNG images, drawn with Pillow from the same scene as the SVG.

Pillow is the ``[png]`` extra, imported only when a PNG is drawn: without it the SVG diagrams
still work and a PNG raises an :class:`ImportError` that says what to install.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from nineball.game import PhysicsParams, TableSpec
from nineball.render.scene import Circle, Line, Polygon, Scene, Text, build_scene

__all__ = ["PNG_EXTRA_MESSAGE", "scene_png", "table_png"]

PNG_EXTRA_MESSAGE = "PNG diagrams need Pillow, the [png] extra: pip install 'nineball[png]'"
"""What to say when Pillow is missing."""


def scene_png(scene: Scene, *, supersample: int = 2) -> bytes:
    """The scene as PNG bytes (drawn ``supersample`` times larger, then reduced: smooth edges).

    Raises:
        ImportError: Pillow (the ``[png]`` extra) is not installed.
    """
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as exc:
        raise ImportError(PNG_EXTRA_MESSAGE, name="PIL") from exc
    k = supersample
    image = Image.new("RGB", (scene.width * k, scene.height * k), "#ffffff")
    draw = ImageDraw.Draw(image)
    for shape in scene.shapes:
        if isinstance(shape, Circle):
            box = [
                (shape.x - shape.r) * k,
                (shape.y - shape.r) * k,
                (shape.x + shape.r) * k,
                (shape.y + shape.r) * k,
            ]
            draw.ellipse(
                box,
                fill=shape.fill,
                outline=shape.stroke,
                width=max(1, round(shape.width * k)) if shape.stroke else 0,
            )
        elif isinstance(shape, Polygon):
            draw.polygon([(x * k, y * k) for x, y in shape.points], fill=shape.fill)
        elif isinstance(shape, Line):
            draw.line(
                [(x * k, y * k) for x, y in shape.points],
                fill=shape.colour,
                width=max(1, round(shape.width * k)),
                joint="curve",
            )
        elif isinstance(shape, Text):
            font = ImageFont.load_default(size=shape.size * k)
            draw.text(
                (shape.x * k, (shape.y - shape.size * 0.38) * k),
                shape.text,
                fill=shape.colour,
                font=font,
                anchor="mm",
            )
    image = image.resize((scene.width, scene.height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def table_png(
    balls: Mapping[int, tuple[float, float]],
    *,
    table: TableSpec,
    params: PhysicsParams,
    paths: Mapping[int, Sequence[tuple[float, float]]] | None = None,
    title: str | None = None,
) -> bytes:
    """A diagram of the table as PNG bytes (see :func:`nineball.render.svg.table_svg`).

    Raises:
        ImportError: Pillow (the ``[png]`` extra) is not installed.
    """
    return scene_png(build_scene(balls, table=table, params=params, paths=paths, title=title))
