"""Match records: a versioned, documented JSON format for a whole match (what PGN is to chess).

A record holds who played, under which rules, the seed, every rack and every stroke with its
parameters, the facts the physics saw and the referee's ruling. Replaying a record through the
physics reproduces every ball position bit for bit (floats are written with ``repr``, which
round-trips exactly). The format is described field by field in ``docs/record-format.md`` and
published as a JSON Schema in ``docs/record.schema.json``.

This module holds the record's values (frozen dataclasses that the rest of the code uses) and
the writer. The rest of the record lives beside it:

* :mod:`nineball.game.record_models`: the pydantic models of the JSON record, the JSON Schema
  made from them, and the translation of their errors into :class:`RecordProblem`;
* :mod:`nineball.game.record_read`: :func:`~nineball.game.record_read.read_record` (lenient:
  every problem with its place in the file, a JSON path such as
  ``$.games[0].shots[3].stroke.speed``) and :func:`~nineball.game.record_read.load_record`
  (strict: raises :class:`InvalidRecordError` naming every problem);
* :mod:`nineball.game.rulings`: the referee replayed over a record.

The names that moved out (``read_record``, ``load_record``, ``rule``, ``iter_rulings``,
``RuledShot``, ``check_rulings``) can still be imported from here, for the modules that have
not moved with them; new code imports them from :mod:`nineball.game` or their own module.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from nineball.equipment import BallId, Point
from nineball.errors import NineballError
from nineball.rules import Choice, Foul, GameOver, MatchConfig, Seat, ShotFacts

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GameRecord",
    "InvalidRecordError",
    "MatchRecord",
    "RecordProblem",
    "ShotKind",
    "ShotRecord",
    "StrokeRecord",
    "dump_record",
    "record_to_json",
    "result_to_json",
    "shot_to_json",
]

RECORD_FORMAT = "nineball-record"
"""The value of the ``format`` field of every record."""

RECORD_VERSION = 1
"""The version of the format this module writes (and the newest it reads)."""


class InvalidRecordError(NineballError, ValueError):
    """A record that cannot be read; ``problems`` lists every problem with its place."""

    def __init__(self, problems: list[RecordProblem]) -> None:
        """Keep the problems and summarise them in the message."""
        self.problems = problems
        lines = "; ".join(f"{p.path}: {p.message}" for p in problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        super().__init__(f"invalid record, {len(problems)} problem(s): {lines}{more}")


@dataclass(frozen=True, slots=True)
class RecordProblem:
    """One problem in a record and where it is."""

    path: str
    """A JSON path to the bad value, e.g. ``$.games[0].shots[3].stroke.speed``."""
    message: str
    """What is wrong, naming the bad value."""


class ShotKind(StrEnum):
    """What one entry of a game's shot list is."""

    STROKE = "stroke"
    """A stroke of the cue (the break, a shot or a push out)."""
    CHOICE = "choice"
    """The answer to a legal push out."""
    FORFEIT = "forfeit"
    """A player forfeits the game."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StrokeRecord:
    """The parameters of a stroke as the record stores them (degrees at this edge)."""

    speed: float
    """The cue ball's speed just after the stroke, m/s."""
    aim_deg: float
    """The cue's direction in the table plane, degrees counter-clockwise from +x."""
    elevation_deg: float = 0.0
    """The cue's elevation, degrees."""
    side: float = 0.0
    """Tip offset right of centre, fraction of R."""
    height: float = 0.0
    """Tip offset above centre, fraction of R."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotRecord:
    """One entry of a game: a stroke, a push-out choice or a forfeit."""

    kind: ShotKind
    player: Seat
    """Who struck, chose or forfeited."""
    push_out: bool = False
    """The stroke was declared a push out."""
    cue_ball: Point | None = None
    """Where the cue ball was placed by hand before the stroke, if it was in hand."""
    stroke: StrokeRecord | None = None
    """The stroke as executed (after execution noise)."""
    intended: StrokeRecord | None = None
    """The stroke as the player chose it, when it differs from the executed one."""
    facts: ShotFacts | None = None
    """What the physics saw (or the scorer typed)."""
    fouls: tuple[Foul, ...] = ()
    """The referee's fouls, as ruled when the shot was played."""
    choice: Choice | None = None
    """The answer, for a choice."""
    safety: bool = False
    """The player meant the stroke as a safety (a declared intent, for statistics only)."""
    positions: Mapping[BallId, Point] | None = None
    """Every ball on the table after the stroke came to rest (None for a hand-typed shot)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """One game (rack) of a match."""

    number: int
    breaker: Seat
    rack: Mapping[BallId, Point] | None = None
    """The object balls as racked (None when the match was scored by hand)."""
    shots: tuple[ShotRecord, ...] = ()
    result: GameOver | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRecord:
    """A whole match."""

    config: MatchConfig
    seed: int | None = None
    """The seed of the match's random generator (racks, noise), when it was simulated."""
    table: str = "9ft"
    """The table preset."""
    params: Mapping[str, float] = field(default_factory=dict)
    """Physics parameters that differ from the engine's defaults."""
    event: str = ""
    """Free text: where and why the match was played."""
    date: str = ""
    """ISO 8601 date (and time) the match started."""
    agents: tuple[str, str] | None = None
    """Who plays each seat: ``"human"`` or the name of a computer player (None: not said)."""
    games: tuple[GameRecord, ...] = ()
    winner: Seat | None = None


# ---------------------------------------------------------------------------------- writing


def _position(p: Point) -> list[float]:
    return [float(p[0]), float(p[1])]


def _positions(balls: Mapping[BallId, Point]) -> dict[str, list[float]]:
    return {str(int(b)): _position(balls[b]) for b in sorted(balls)}


def _stroke_json(s: StrokeRecord) -> dict[str, float]:
    return {
        "speed": s.speed,
        "aim_deg": s.aim_deg,
        "elevation_deg": s.elevation_deg,
        "side": s.side,
        "height": s.height,
    }


def _facts_json(f: ShotFacts) -> dict[str, Any]:
    return {
        "first_contact": None if f.first_contact is None else int(f.first_contact),
        "pocketed": sorted(int(b) for b in f.pocketed),
        "off_table": sorted(int(b) for b in f.off_table),
        "rails": sorted(int(b) for b in f.rails),
        "obstruction_moved": f.obstruction_moved,
    }


def shot_to_json(shot: ShotRecord) -> dict[str, Any]:
    """One shot as a JSON-ready object (one entry of a game's ``shots``)."""
    out: dict[str, Any] = {"kind": shot.kind.value, "player": int(shot.player)}
    if shot.kind is ShotKind.STROKE:
        out["push_out"] = shot.push_out
        if shot.cue_ball is not None:
            out["cue_ball"] = _position(shot.cue_ball)
        if shot.stroke is not None:
            out["stroke"] = _stroke_json(shot.stroke)
        if shot.intended is not None:
            out["intended"] = _stroke_json(shot.intended)
        if shot.facts is not None:
            out["facts"] = _facts_json(shot.facts)
        out["fouls"] = [f.value for f in shot.fouls]
        if shot.safety:
            out["safety"] = True
        if shot.positions is not None:
            out["positions"] = _positions(shot.positions)
    elif shot.kind is ShotKind.CHOICE and shot.choice is not None:
        out["choice"] = shot.choice.value
    return out


def result_to_json(over: GameOver | None) -> dict[str, Any] | None:
    """A game's result as a JSON-ready object (a game's ``result``; None while it is unfinished)."""
    return None if over is None else {"winner": int(over.winner), "reason": over.reason.value}


def record_to_json(record: MatchRecord) -> dict[str, Any]:
    """The record as a JSON-ready object."""
    config = record.config
    races = {} if config.races is None else {"races": list(config.races)}
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "event": record.event,
        "date": record.date,
        "players": list(config.players),
        "race_to": config.race_to,
        **races,
        "breaks": config.breaks.value,
        "first_breaker": int(config.first_breaker),
        "rules": config.rules.name,
        "refereed": config.refereed,
        "seed": record.seed,
        "table": record.table,
        "params": dict(record.params),
        "agents": None if record.agents is None else list(record.agents),
        "games": [
            {
                "number": game.number,
                "breaker": int(game.breaker),
                "rack": None if game.rack is None else _positions(game.rack),
                "shots": [shot_to_json(s) for s in game.shots],
                "result": result_to_json(game.result),
            }
            for game in record.games
        ],
        "winner": None if record.winner is None else int(record.winner),
    }


def dump_record(record: MatchRecord) -> str:
    """The record as JSON text (UTF-8, two-space indent, floats exact)."""
    return json.dumps(record_to_json(record), ensure_ascii=False, indent=2) + "\n"
