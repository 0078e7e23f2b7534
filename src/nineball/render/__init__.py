"""Diagrams of the table: pure functions that return SVG text or PNG bytes, no I/O."""

from __future__ import annotations

from nineball.render.png import scene_png, table_png
from nineball.render.scene import BALL_COLOURS, Scene, build_scene
from nineball.render.svg import scene_svg, table_svg

__all__ = [
    "BALL_COLOURS",
    "Scene",
    "build_scene",
    "scene_png",
    "scene_svg",
    "table_png",
    "table_svg",
]
