"""``nineball render``: a shot of a recorded match as an SVG or PNG diagram."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from rich.console import Console

from nineball.cli.records import load_or_report
from nineball.errors import NineballError
from nineball.game import PhysicsParams, Trajectory
from nineball.game.match import TABLES, replay
from nineball.render import table_png, table_svg

__all__ = ["render_shot"]

_FORMATS = (".svg", ".png")
"""The extensions ``nineball render`` draws to."""


def _paths(trajectory: Trajectory, samples: int = 240) -> dict[int, list[tuple[float, float]]]:
    times = np.linspace(0.0, max(trajectory.duration, 1e-9), samples)
    positions = trajectory.positions_at(times)
    paths: dict[int, list[tuple[float, float]]] = {}
    for i, ball in enumerate(trajectory.ball_ids):
        points = [(float(p[0]), float(p[1])) for p in positions[:, i]]
        if points[0] != points[-1]:
            paths[ball] = points
    return paths


def render_shot(
    console: Console,
    record_path: Path,
    output: Path,
    *,
    game: int | None,
    shot: int | None,
    paths: bool,
) -> int:
    """Draw one stroke of a record (default: the last) with the paths of the balls.

    The format is the output's extension: ``.svg`` or ``.png``; any other is refused before
    anything is read or written.
    """
    if output.suffix.lower() not in _FORMATS:
        console.print(
            f"cannot draw to {str(output)!r}: the extension {output.suffix!r} is not one of "
            f"{', '.join(_FORMATS)}",
            style="red",
            markup=False,
        )
        return 1
    if output.is_dir():
        console.print(f"cannot write {str(output)!r}: it is a directory", style="red")
        return 1
    record = load_or_report(console, record_path)
    if record is None:
        return 1
    strokes = [
        (g, i)
        for g, gr in enumerate(record.games)
        for i, s in enumerate(gr.shots)
        if s.stroke is not None
    ]
    if not strokes:
        console.print("the record has no stroke to draw", style="red")
        return 1
    g = strokes[-1][0] if game is None else game - 1
    in_game = [i for gg, i in strokes if gg == g]
    if not in_game:
        console.print(f"game {g + 1} has no stroke to draw", style="red")
        return 1
    i = in_game[-1] if shot is None else shot - 1
    if i not in in_game:
        console.print(f"game {g + 1} has no stroke number {i + 1}", style="red")
        return 1
    try:
        found = next(t for gg, ii, t, _ in replay(record) if (gg, ii) == (g, i))
    except NineballError as exc:
        console.print(str(exc), style="red")
        return 1
    if found is None:  # pragma: no cover - a stroke always has a trajectory
        return 1
    balls = {
        b: (float(found.initial[k, 0, 0]), float(found.initial[k, 0, 1]))
        for k, b in enumerate(found.ball_ids)
    }
    a, b = record.config.players
    player = record.config.players[record.games[g].shots[i].player]
    title = f"{a} v {b} - game {g + 1}, stroke {i + 1}: {player}"
    table = TABLES.get(record.table, TABLES["9ft"])()
    params = PhysicsParams(**dict(record.params))
    drawn = _paths(found) if paths else None
    try:
        if output.suffix.lower() == ".png":
            data = table_png(balls, table=table, params=params, paths=drawn, title=title)
            output.write_bytes(data)
        else:
            svg = table_svg(balls, table=table, params=params, paths=drawn, title=title)
            output.write_text(svg, encoding="utf-8")
    except OSError as exc:
        console.print(f"cannot write {str(output)!r}: {exc.strerror or exc}", style="red")
        return 1
    console.print(f"wrote {output}", markup=False)
    return 0
