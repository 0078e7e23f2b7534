"""The JSON views the page reads: the table, the state, a ruling, the balls, paths, chances.

Pure functions of game values; nothing here changes a match. Lengths are in m.
"""

from __future__ import annotations

import logging

from nineball.equipment import BallId, PocketId
from nineball.game import Point, TableSpec, Trajectory
from nineball.game.position import Position
from nineball.game.rulings import ruling_json, state_json
from nineball.players.value import shipped_value_model

__all__ = ["chance_json", "layout_json", "paths_json", "ruling_json", "state_json", "table_json"]

_LOG = logging.getLogger(__name__)


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


def chance_json(position: Position | None) -> dict[str, list[float]] | None:
    """Each seat's chance of the game in progress and of the match, by the shipped model.

    ``{"game": [p0, p1], "match": [p0, p1]}`` (index 0: the first player), a function of the
    position every page already sees; None when there is no position (a match kept by hand),
    the match is over, or the model cannot value it. The chances are a page's extra: whatever
    the model raises is logged and answered None, never passed on to the session.
    """
    if position is None or position.state.is_over:
        return None
    try:
        return shipped_value_model().seat_chances(position).to_json()
    except Exception:  # a fault of the model must not cost a session its message
        _LOG.exception("the value model could not value the position")
        return None
