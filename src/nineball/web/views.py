"""The JSON views the page reads: the table, the referee's state, a ruling, the balls, paths.

Pure functions of game values; nothing here changes a match. Lengths are in m.
"""

from __future__ import annotations

from nineball.equipment import BallId, PocketId
from nineball.game import MatchState, Point, Ruling, TableSpec, Trajectory

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


def state_json(state: MatchState) -> dict[str, object]:
    """The referee's state as the page shows it."""
    game = state.game
    return {
        "phase": state.phase.value,
        "to_act": int(state.to_act),
        "cue_ball": state.cue_ball.value,
        "push_out_allowed": state.push_out_allowed,
        "lowest": int(min(game.on_table)) if game.on_table else None,
        "on_table": sorted(int(b) for b in game.on_table),
        "score": list(state.score),
        "race_to": state.config.race_to,
        "players": list(state.config.players),
        "game": game.number,
        "breaker": int(game.breaker),
        "consecutive_fouls": list(game.consecutive_fouls),
        "winner": None if state.winner is None else int(state.winner),
    }


def ruling_json(ruling: Ruling, game: int) -> dict[str, object]:
    """A ruling with its explanation in every language and the clause of each foul."""
    over = ruling.game_over
    return {
        "game": game,
        "kind": ruling.kind.value,
        "shooter": int(ruling.shooter),
        "legal": ruling.legal,
        "fouls": [{"code": f.value, "clause": f.clause} for f in ruling.fouls],
        "warning": ruling.warning,
        "respotted": [int(b) for b in ruling.respotted],
        "game_over": None
        if over is None
        else {"game": over.game, "winner": int(over.winner), "reason": over.reason.value},
        "match_winner": None if ruling.match_winner is None else int(ruling.match_winner),
        "explanation": {
            "en": ruling.explanation.en,
            "fr": ruling.explanation.fr,
            "pl": ruling.explanation.pl,
        },
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
