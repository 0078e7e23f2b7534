"""Past matches for the page: a stored match replayed and reviewed, and statistics by opponent.

:func:`replay_json` plays a stored record again through the game layer
(:func:`nineball.game.replay`: the physics from the record's racks and cue-ball placements)
beside the referee's rulings on it (:func:`nineball.game.iter_rulings`), and gives each entry
as the page animates a live shot: the layout before, the trajectory's pieces
(:func:`nineball.web.segments.trajectory_json`), the ruling and the state after.

:func:`review_json` is the game review of a stored match (:func:`nineball.players.review.review`:
every entry's chances before and after it, by the learned model, with its mark), one entry for
each of the replay's, in the same order.

:func:`stats_by_opponent` groups the statistics of :func:`nineball.game.compute_stats` by whom
each player faced: each computer level, or a person (``"human"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields

from nineball.equipment import BallId
from nineball.game import (
    TABLES,
    InvalidRecordError,
    MatchRecord,
    PhysicsParams,
    PlayerStats,
    RecordProblem,
    Trajectory,
    compute_stats,
    iter_rulings,
    replay,
)
from nineball.players.registry import PLAYERS
from nineball.players.review import review
from nineball.web.segments import trajectory_json
from nineball.web.views import layout_json, ruling_json, state_json, table_json

__all__ = [
    "HUMAN",
    "history_stats",
    "replay_json",
    "review_json",
    "start_json",
    "stats_by_opponent",
]

HUMAN = "human"
"""The agent of a seat a person plays (as match records name it)."""


def start_json(trajectory: Trajectory) -> dict[str, list[float]]:
    """The balls where a trajectory starts, as the page keys them (m)."""
    return layout_json(
        {
            BallId(b): (float(r[0]), float(r[1]))
            for b, r in zip(trajectory.ball_ids, trajectory.initial[:, 0], strict=True)
        }
    )


def replay_json(record: MatchRecord) -> dict[str, object]:
    """A stored match for the page's replay: its table, players and every entry in order.

    Each entry is ``{"type": "shot" | "ruling", "game": n (1-based), "shot": n (1-based in
    its game), "ruling", "state" (after it), "start" (the layout before, m), "layout" (after,
    when recorded), "trajectory" (a stroke of a simulated match only)}``.

    Raises:
        InvalidRecordError: a record the referee or the physics cannot play again.
    """
    if record.table not in TABLES:
        raise InvalidRecordError(
            [
                RecordProblem(
                    "$.table", f"unknown table {record.table!r} (known: {', '.join(TABLES)})"
                )
            ]
        )
    params = PhysicsParams(**dict(record.params))
    simulated = record.seed is not None
    motions = replay(record) if simulated else None
    shots: list[dict[str, object]] = []
    layout: dict[str, list[float]] = {}
    for entry in iter_rulings(record):
        trajectory = None
        if motions is not None:
            game, index, trajectory, _ = next(motions)
            if (game, index) != (entry.game, entry.index):  # pragma: no cover - same order
                raise InvalidRecordError([RecordProblem("$.games", "the entries are out of step")])
        if entry.index == 0:
            rack = record.games[entry.game].rack
            layout = layout_json(dict(rack)) if rack else {}
        item: dict[str, object] = {
            "type": "ruling" if trajectory is None else "shot",
            "game": entry.game + 1,
            "shot": entry.index + 1,
            "ruling": ruling_json(entry.ruling, entry.game + 1),
            "state": state_json(entry.ruling.state),
            "start": layout if trajectory is None else start_json(trajectory),
        }
        if trajectory is not None:
            item["trajectory"] = trajectory_json(trajectory)
        if entry.shot.positions is not None:
            layout = layout_json(dict(entry.shot.positions))
            item["layout"] = layout
        shots.append(item)
    return {
        "players": list(record.config.players),
        "race_to": record.config.race_to,
        "agents": None if record.agents is None else list(record.agents),
        "table": table_json(TABLES[record.table](), params.radius),
        "shots": shots,
    }


def review_json(record: MatchRecord, level: str | None = None) -> dict[str, object]:
    """The review of a stored match for the page: :meth:`Review.to_json` and the race.

    ``shots[k]`` is the replay's entry ``k`` (:func:`replay_json`) valued: ``game``, ``shot``,
    ``player`` (the seat that acted), ``name``, ``kind``, ``before`` and ``after`` (that
    player's chance of the game), ``change``, ``match_before``, ``match_after``, ``fouls``,
    ``pocketed``, ``mark`` (``"mistake"``, ``"blunder"`` or None) and ``alternative`` (with a
    ``level``: for a stroke, the best shot that level finds in its place and what the choice
    cost, :class:`nineball.players.review.Alternative`; else None); ``mistake`` and
    ``blunder`` are the losses that earn them.

    Raises:
        InvalidRecordError: a record without the balls' layouts (a match kept by hand at a real
            table), or an entry the referee refuses.
        InvalidInputError: an unknown level (:func:`nineball.players.review.review`).
    """
    if any(game.rack is None for game in record.games):
        problem = "no layouts: a match kept by hand records no balls, and a review reads them"
        raise InvalidRecordError([RecordProblem("$.games", problem)])
    return {**review(record, level=level).to_json(), "race_to": record.config.race_to,
            "level": level}  # fmt: skip


def _add(total: PlayerStats, more: PlayerStats) -> None:
    for f in fields(PlayerStats):
        if f.name == "name":
            continue
        if f.name == "fouls_by_clause":
            for clause, n in more.fouls_by_clause.items():
                total.fouls_by_clause[clause] = total.fouls_by_clause.get(clause, 0) + n
        else:
            setattr(total, f.name, getattr(total, f.name) + getattr(more, f.name))


def stats_by_opponent(records: Iterable[MatchRecord]) -> list[dict[str, object]]:
    """The players' statistics summed by the opponent they faced.

    A seat's statistics in a match count under the other seat's agent: a computer level, or
    :data:`HUMAN` (a record that does not say who played counts as two people). Rows are in
    order: people first, then the computer levels as :data:`nineball.players.registry.PLAYERS`
    lists them, then any other agent by name; each is ``{"opponent": agent, **counters,
    "balls_per_inning", "break_success"}`` (:meth:`PlayerStats.as_row`, without ``name``).

    Raises:
        InvalidRecordError: a record the referee cannot replay.
    """
    return _by_opponent([(record, compute_stats([record])) for record in records])


def history_stats(records: Iterable[MatchRecord]) -> dict[str, object]:
    """The history page's statistics: per player, and by opponent (:func:`stats_by_opponent`).

    Each record is replayed by the referee once, for both tables (the totals per player equal
    :func:`nineball.game.compute_stats` over all the records).

    Raises:
        InvalidRecordError: a record the referee cannot replay.
    """
    tables = [(record, compute_stats([record])) for record in records]
    totals: dict[str, PlayerStats] = {}
    for _, table in tables:
        for name, stats in table.items():
            _add(totals.setdefault(name, PlayerStats(name=name)), stats)
    return {
        "players": [
            {**s.as_row(), "balls_per_inning": s.balls_per_inning}
            for s in sorted(totals.values(), key=lambda s: s.name)
        ],
        "by_opponent": _by_opponent(tables),
    }


def _by_opponent(
    tables: list[tuple[MatchRecord, dict[str, PlayerStats]]],
) -> list[dict[str, object]]:
    groups: dict[str, PlayerStats] = {}
    for record, table in tables:
        agents = record.agents or (HUMAN, HUMAN)
        for seat, name in enumerate(record.config.players):
            opponent = agents[1 - seat]
            _add(groups.setdefault(opponent, PlayerStats(name=opponent)), table[name])
    order = [HUMAN, *PLAYERS]
    rows = sorted(
        groups.values(),
        key=lambda s: (order.index(s.name) if s.name in order else len(order), s.name),
    )
    out = []
    for stats in rows:
        row = stats.as_row()
        row.pop("name")
        out.append({"opponent": stats.name, **row})
    return out
