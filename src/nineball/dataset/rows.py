"""A match record (and its strokes' trajectories) as dataset rows, one per entry of a game.

The referee's state before each entry comes from replaying the referee over the record
(:func:`nineball.game.iter_rulings`), the layouts from the record (the rack, then each stroke's
``positions``), and the pockets, durations and event counts from the strokes' trajectories (as
the match played them, or as :func:`nineball.game.replay` plays the record again). Rows are
columns of plain Python values (:data:`nineball.dataset.schema.COLUMNS` order), ready to become an
Arrow table; no pyarrow is needed here, so worker processes build them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from nineball.dataset.schema import column_names
from nineball.equipment import BallId, Point
from nineball.game import (
    MatchRecord,
    MatchState,
    Ruling,
    ShotKind,
    ShotRecord,
    StrokeRecord,
    Trajectory,
    iter_rulings,
)

__all__ = ["Rows", "match_rows"]

Rows = dict[str, list[object]]
"""Columns by name, each a list of one value per row."""


def _stroke(prefix: str, stroke: StrokeRecord | None) -> dict[str, object]:
    if stroke is None:
        return {
            f"{prefix}_{k}": None for k in ("speed", "aim_deg", "elevation_deg", "side", "height")
        }
    return {
        f"{prefix}_speed": stroke.speed,
        f"{prefix}_aim_deg": stroke.aim_deg,
        f"{prefix}_elevation_deg": stroke.elevation_deg,
        f"{prefix}_side": stroke.side,
        f"{prefix}_height": stroke.height,
    }


def _layout(prefix: str, layout: Mapping[BallId, Point]) -> dict[str, object]:
    out: dict[str, object] = {}
    for ball in BallId:
        point = layout.get(ball)
        out[f"{prefix}{int(ball)}_x"] = None if point is None else float(point[0])
        out[f"{prefix}{int(ball)}_y"] = None if point is None else float(point[1])
    return out


def _entries(
    record: MatchRecord, rulings: Sequence[Ruling] | None
) -> Iterator[tuple[int, int, ShotRecord, MatchState, Ruling]]:
    """Each entry with the match before it and its ruling: the rulings given, or the referee's."""
    if rulings is None:
        for entry in iter_rulings(record):
            yield entry.game, entry.index, entry.shot, entry.before, entry.ruling
        return
    state = MatchState.start(record.config)
    k = 0
    for g, game in enumerate(record.games):
        for i, shot in enumerate(game.shots):
            if k >= len(rulings):
                raise ValueError(f"{len(rulings)} rulings for more entries")
            yield g, i, shot, state, rulings[k]
            state = rulings[k].state
            k += 1


def match_rows(
    record: MatchRecord,
    trajectories: Sequence[Trajectory | None],
    *,
    match: int,
    players: tuple[str, str],
    rulings: Sequence[Ruling] | None = None,
    chances: Sequence[float] | None = None,
) -> Rows:
    """The rows of every entry of a simulated match.

    Args:
        record: the match's record (with its seed, racks and positions).
        trajectories: each entry's trajectory in record order (None for a choice).
        match: the match's index in the dataset.
        players: the computer players in seats 0 and 1.
        rulings: each entry's ruling as the match made it (None: the referee rules every
            entry of the record again, as :func:`nineball.game.iter_rulings` does).
        chances: each entry's ``win_probability``, the chance that the player to act wins the
            game (None: null in every row).

    Raises:
        ValueError: a record without seed or racks, or trajectories (or rulings) that do not
            match it.
    """
    if record.seed is None:
        raise ValueError("a dataset holds simulated matches: this record has no seed")
    names = column_names()
    rows: Rows = {name: [] for name in names}
    winners: dict[int, int | None] = {g: None if game.result is None else int(game.result.winner)
                                       for g, game in enumerate(record.games)}  # fmt: skip
    match_winner = None if record.winner is None else int(record.winner)
    layout: dict[BallId, Point] = {}
    for k, (g, index, shot, before, ruling) in enumerate(_entries(record, rulings)):
        game = record.games[g]
        if index == 0:
            if game.rack is None:
                raise ValueError(f"game {game.number} has no rack: not a simulated match")
            layout = dict(game.rack)
        if k >= len(trajectories):
            raise ValueError(f"{len(trajectories)} trajectories for more entries")
        if chances is not None and k >= len(chances):
            raise ValueError(f"{len(chances)} chances for more entries")
        state = before.game
        stroke = shot.kind is ShotKind.STROKE and shot.stroke is not None
        trajectory = trajectories[k]
        if stroke != (trajectory is not None):
            raise ValueError(f"entry {k}: a trajectory must go with each stroke and only then")
        facts = shot.facts
        after = dict(shot.positions) if stroke and shot.positions is not None else layout
        pockets: list[object] = []
        if trajectory is not None and facts is not None:
            final = trajectory.final_states()
            pockets = [str(final[int(b)].pocket) for b in sorted(facts.pocketed)]
        row: dict[str, object] = {
            "match": match,
            "match_seed": record.seed,
            "game": game.number,
            "shot": index + 1,
            "player_0": players[0],
            "player_1": players[1],
            "kind": shot.kind.value,
            "phase": state.phase.value,
            "shooter": int(before.to_act),
            "breaker": int(state.breaker),
            "ball_on": int(state.lowest),
            "cue_ball": state.cue_ball.value,
            "push_out_allowed": before.push_out_allowed,
            "fouls_0": state.consecutive_fouls[0],
            "fouls_1": state.consecutive_fouls[1],
            "warned": state.consecutive_fouls[int(before.to_act)] >= 2,
            "score_0": before.score[0],
            "score_1": before.score[1],
            "race_to": record.config.race_to,
            "rules": record.config.rules.name,
            **_layout("ball", layout),
            "cue_x": None if shot.cue_ball is None else float(shot.cue_ball[0]),
            "cue_y": None if shot.cue_ball is None else float(shot.cue_ball[1]),
            **_stroke("chosen", (shot.intended or shot.stroke) if stroke else None),
            **_stroke("played", shot.stroke if stroke else None),
            "push_out": shot.push_out,
            "safety": shot.safety,
            "choice": None if shot.choice is None else shot.choice.value,
            "ruling": ruling.kind.value,
            "legal": ruling.legal,
            "fouls": [f.value for f in ruling.fouls],
            "first_contact": None if facts is None or facts.first_contact is None
            else int(facts.first_contact),
            "pocketed": [] if facts is None else sorted(int(b) for b in facts.pocketed),
            "pockets": pockets,
            "rails": [] if facts is None else sorted(int(b) for b in facts.rails),
            "off_table": [] if facts is None else sorted(int(b) for b in facts.off_table),
            "respotted": bool(ruling.respotted),
            "warning": ruling.warning,
            "game_over": None if ruling.game_over is None else ruling.game_over.reason.value,
            "next_to_act": None if ruling.state.is_over else int(ruling.next_to_act),
            "duration": None if trajectory is None else trajectory.duration,
            "events": None if trajectory is None else int(trajectory.times.shape[0]),
            **_layout("after", after),
            "game_winner": winners[g],
            "match_winner": match_winner,
            "win_probability": None if chances is None else chances[k],
        }  # fmt: skip
        for name in names:
            rows[name].append(row[name])
        if stroke:
            layout = after
    entries = len(rows["match"])
    if len(trajectories) != entries or (rulings is not None and len(rulings) != entries):
        raise ValueError(f"{len(trajectories)} trajectories for {entries} entries")
    if chances is not None and len(chances) != entries:
        raise ValueError(f"{len(chances)} chances for {entries} entries")
    return rows
