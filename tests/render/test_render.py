"""Diagrams: SVG and PNG of the same scene, to scale, with balls, numbers and paths."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

from PIL import Image

from nineball.physics import PhysicsParams, nine_foot
from nineball.render import build_scene, table_png, table_svg
from nineball.render.scene import BALL_COLOURS, Circle, Line, Text

TABLE = nine_foot()
PARAMS = PhysicsParams()
BALLS = {0: (0.635, 0.4), 1: (0.635, 1.905), 9: (0.635, 2.004)}
PATHS = {0: [(0.635, 0.4), (0.635, 1.8)], 1: [(0.635, 1.905)]}

SVG = "{http://www.w3.org/2000/svg}"


def test_scene_is_to_scale() -> None:
    scene = build_scene(BALLS, table=TABLE, params=PARAMS, scale=400.0)
    assert scene.width == round((2.54 + 0.2) * 400)
    assert scene.height == round((1.27 + 0.2) * 400)
    balls = [s for s in scene.shapes if isinstance(s, Circle) and s.r == PARAMS.radius * 400]
    assert len(balls) == 3
    assert {s.fill for s in balls} >= {BALL_COLOURS[0], BALL_COLOURS[1]}
    assert {s.text for s in scene.shapes if isinstance(s, Text)} == {"1", "9"}


def test_svg() -> None:
    text = table_svg(BALLS, table=TABLE, params=PARAMS, paths=PATHS, title="Ann & Bob")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts[0] == "Ann & Bob"
    assert "1" in texts
    assert "9" in texts
    assert len(list(root.iter(f"{SVG}polyline"))) == 2  # the head string and the cue ball's path


def test_png() -> None:
    data = table_png(BALLS, table=TABLE, params=PARAMS, paths=PATHS, title="t")
    image = Image.open(io.BytesIO(data))
    scene = build_scene(BALLS, table=TABLE, params=PARAMS, paths=PATHS, title="t")
    assert image.size == (scene.width, scene.height)
    line = next(s for s in scene.shapes if isinstance(s, Line) and not s.dashed)
    x, y = line.points[0]
    # The centre of the cue ball is drawn in the cue ball's colour.
    r, g, b = image.convert("RGB").getpixel((round(x), round(y)))
    assert min(r, g, b) > 200
