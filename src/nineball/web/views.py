"""The JSON views the page reads: the table, the referee's state, a ruling, the balls, paths.

Pure functions of game values; nothing here changes a match. Lengths are in m.
"""

from __future__ import annotations

from nineball.equipment import BallId, PocketId
from nineball.game import Point, TableSpec, Trajectory
from nineball.game.rulings import ruling_json, state_json

__all__ = ["layout_json", "paths_json", "ruling_json", "state_json", "table_json"]


def table_json(table: TableSpec, radius: float) -> dict[str, object]:
    """The table's geometry for drawing it to scale (m)."""
    return {
        "width": table.width,
        "length": table.length,
        "radius": radius,
        "head_string": table.head_string,
        "foot_spot": list(table.foot_spot),
        "segments": [[float(v) for v in row[:4]] for row in table.segments],
        "jaws": [[float(v) for v in row] for row in table.jaws],
        "points": [[[float(p[0]), float(p[1])] for p in pair] for pair in table.points],
        "pockets": {p.value: list(table.pocket_centre(p)) for p in PocketId},
    }


def layout_json(layout: dict[BallId, Point]) -> dict[str, list[float]]:
    """The balls as the page keys them: ``{"0": [x, y], ...}`` (m)."""
    return {str(int(b)): [p[0], p[1]] for b, p in sorted(layout.items())}


def paths_json(trajectory: Trajectory, points: int = 40) -> dict[str, list[list[float]]]:
    """The cue ball's path and the first ball it hits, as polylines (m) for the page."""
    first = trajectory.facts().first_contact
    wanted = {0} if first is None else {0, first}
    times = [trajectory.duration * k / (points - 1) for k in range(points)]
    where = trajectory.positions_at(times)
    return {
        str(ball): [[round(float(p[0]), 4), round(float(p[1]), 4)] for p in where[:, index, :2]]
        for index, ball in enumerate(trajectory.ball_ids)
        if int(ball) in wanted
    }
