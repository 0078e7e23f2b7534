"""Match records: a versioned, documented JSON format for a whole match (what PGN is to chess).

A record holds who played, under which rules, the seed, every rack and every stroke with its
parameters, the facts the physics saw and the referee's ruling. Replaying a record through the
physics reproduces every ball position bit for bit (floats are written with ``repr``, which
round-trips exactly). The format is described field by field in ``docs/record-format.md``.

:func:`read_record` is lenient: it reads as much as it can and reports every problem with its
place in the file (a JSON path such as ``$.games[0].shots[3].stroke.speed``), the way
python-chess's PGN reader collects errors. :func:`load_record` is strict: it raises
:class:`InvalidRecordError` naming every problem.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from nineball.equipment import BallId
from nineball.errors import InvalidInputError, NineballError
from nineball.rules import (
    VARIANTS,
    BreakRule,
    Choice,
    Foul,
    GameOver,
    MatchConfig,
    MatchState,
    Ruling,
    Seat,
    ShotFacts,
    Termination,
    choose,
    find_variant,
    forfeit,
    shoot,
    start_match,
)

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GameRecord",
    "InvalidRecordError",
    "MatchRecord",
    "RecordProblem",
    "RuledShot",
    "ShotKind",
    "ShotRecord",
    "StrokeRecord",
    "check_rulings",
    "dump_record",
    "iter_rulings",
    "load_record",
    "read_record",
    "record_to_json",
    "rule",
    "shot_to_json",
]

RECORD_FORMAT = "nineball-record"
"""The value of the ``format`` field of every record."""

RECORD_VERSION = 1
"""The version of the format this module writes (and the newest it reads)."""

Position = tuple[float, float]
"""A ball's centre on the table, (x, y) in m, in the frame of docs/simulate-protocol.md."""


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
    cue_ball: Position | None = None
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
    positions: Mapping[BallId, Position] | None = None
    """Every ball on the table after the stroke came to rest (None for a hand-typed shot)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """One game (rack) of a match."""

    number: int
    breaker: Seat
    rack: Mapping[BallId, Position] | None = None
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


def _position(p: Position) -> list[float]:
    return [float(p[0]), float(p[1])]


def _positions(balls: Mapping[BallId, Position]) -> dict[str, list[float]]:
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


def _result_json(over: GameOver | None) -> dict[str, Any] | None:
    return None if over is None else {"winner": int(over.winner), "reason": over.reason.value}


def record_to_json(record: MatchRecord) -> dict[str, Any]:
    """The record as a JSON-ready object."""
    config = record.config
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "event": record.event,
        "date": record.date,
        "players": list(config.players),
        "race_to": config.race_to,
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
                "result": _result_json(game.result),
            }
            for game in record.games
        ],
        "winner": None if record.winner is None else int(record.winner),
    }


def dump_record(record: MatchRecord) -> str:
    """The record as JSON text (UTF-8, two-space indent, floats exact)."""
    return json.dumps(record_to_json(record), ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------------------- reading

T = TypeVar("T")


class _Reader:
    """Walks a decoded record, collecting problems instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[RecordProblem] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(RecordProblem(path, message))

    def obj(self, value: object, path: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.problem(path, f"expected an object, got {json.dumps(value)[:40]}")
            return None
        return value

    def field(
        self,
        data: Mapping[str, Any],
        path: str,
        name: str,
        convert: Callable[[object, str], T | None],
        default: T | None = None,
        *,
        required: bool = False,
    ) -> T | None:
        if name not in data:
            if required:
                self.problem(path, f"missing field {name!r}")
            return default
        return convert(data[name], f"{path}.{name}")

    def unknown(self, data: Mapping[str, Any], path: str, known: set[str]) -> None:
        for name in sorted(set(data) - known):
            self.problem(f"{path}.{name}", "unknown field")

    # converters: each returns None (after reporting) on a bad value
    def string(self, value: object, path: str) -> str | None:
        if isinstance(value, str):
            return value
        self.problem(path, f"expected a string, got {json.dumps(value)[:40]}")
        return None

    def boolean(self, value: object, path: str) -> bool | None:
        if isinstance(value, bool):
            return value
        self.problem(path, f"expected true or false, got {json.dumps(value)[:40]}")
        return None

    def integer(self, value: object, path: str) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        self.problem(path, f"expected an integer, got {json.dumps(value)[:40]}")
        return None

    def number(self, value: object, path: str) -> float | None:
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
        self.problem(path, f"expected a finite number, got {json.dumps(value)[:40]}")
        return None

    def seat(self, value: object, path: str) -> Seat | None:
        if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            return Seat(value)
        self.problem(path, f"expected a player 0 or 1, got {json.dumps(value)[:40]}")
        return None

    def enum(self, kind: type[Any], value: object, path: str) -> Any:
        try:
            return kind(value)
        except ValueError:
            known = ", ".join(m.value for m in kind)
            self.problem(path, f"expected one of {known}, got {json.dumps(value)[:40]}")
            return None

    def position(self, value: object, path: str) -> Position | None:
        if (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in value)
            and all(math.isfinite(c) for c in value)
        ):
            return (float(value[0]), float(value[1]))
        self.problem(path, f"expected a position [x, y] in m, got {json.dumps(value)[:40]}")
        return None

    def positions(self, value: object, path: str) -> dict[BallId, Position] | None:
        data = self.obj(value, path)
        if data is None:
            return None
        out: dict[BallId, Position] = {}
        for key, item in data.items():
            if not (key.isdigit() and 0 <= int(key) <= 9):
                self.problem(f"{path}.{key}", f"{key!r} is not a ball (0-9)")
                continue
            position = self.position(item, f"{path}.{key}")
            if position is not None:
                out[BallId(int(key))] = position
        return out

    def balls(self, value: object, path: str) -> list[int] | None:
        if not isinstance(value, list):
            self.problem(path, f"expected a list of balls, got {json.dumps(value)[:40]}")
            return None
        good: list[int] = []
        for i, item in enumerate(value):
            if isinstance(item, int) and not isinstance(item, bool) and 0 <= item <= 9:
                good.append(item)
            else:
                self.problem(f"{path}[{i}]", f"{json.dumps(item)[:40]} is not a ball (0-9)")
        return good

    def stroke(self, value: object, path: str) -> StrokeRecord | None:
        data = self.obj(value, path)
        if data is None:
            return None
        names = ("speed", "aim_deg", "elevation_deg", "side", "height")
        self.unknown(data, path, set(names))
        values = {n: self.field(data, path, n, self.number, 0.0) for n in names}
        if "speed" not in data or "aim_deg" not in data:
            self.problem(path, "a stroke needs 'speed' and 'aim_deg'")
            return None
        if any(v is None for v in values.values()):
            return None
        return StrokeRecord(**{n: float(v or 0.0) for n, v in values.items()})

    def facts(self, value: object, path: str) -> ShotFacts | None:
        data = self.obj(value, path)
        if data is None:
            return None
        names = {"first_contact", "pocketed", "off_table", "rails", "obstruction_moved"}
        self.unknown(data, path, names)
        first = data.get("first_contact")
        if first is not None and not (
            isinstance(first, int) and not isinstance(first, bool) and 1 <= first <= 9
        ):
            self.problem(f"{path}.first_contact", f"{json.dumps(first)[:40]} is not an object ball")
            first = None
        lists: dict[str, list[int] | None] = {
            n: self.field(data, path, n, self.balls) for n in ("pocketed", "off_table", "rails")
        }
        moved = self.field(data, path, "obstruction_moved", self.boolean, False)
        try:
            return ShotFacts.of(
                first_contact=first,
                pocketed=lists["pocketed"] or [],
                off_table=lists["off_table"] or [],
                rails=lists["rails"] or [],
                obstruction_moved=bool(moved),
            )
        except NineballError as exc:
            self.problem(path, str(exc))
            return None

    def fouls(self, value: object, path: str) -> tuple[Foul, ...] | None:
        if not isinstance(value, list):
            self.problem(path, f"expected a list of foul codes, got {json.dumps(value)[:40]}")
            return None
        found = [self.enum(Foul, item, f"{path}[{i}]") for i, item in enumerate(value)]
        return tuple(f for f in found if f is not None)

    def shot(self, value: object, path: str) -> ShotRecord | None:
        data = self.obj(value, path)
        if data is None:
            return None
        kind = self.field(data, path, "kind", lambda v, p: self.enum(ShotKind, v, p), required=True)
        player = self.field(data, path, "player", self.seat, required=True)
        if kind is None or player is None:
            return None
        if kind is ShotKind.STROKE:
            self.unknown(
                data,
                path,
                {
                    "kind",
                    "player",
                    "push_out",
                    "cue_ball",
                    "stroke",
                    "intended",
                    "facts",
                    "fouls",
                    "positions",
                    "safety",
                },
            )
            return ShotRecord(
                kind=kind,
                player=player,
                push_out=bool(self.field(data, path, "push_out", self.boolean, False)),
                cue_ball=self.field(data, path, "cue_ball", self.position),
                stroke=self.field(data, path, "stroke", self.stroke),
                intended=self.field(data, path, "intended", self.stroke),
                facts=self.field(data, path, "facts", self.facts, required=True),
                fouls=self.field(data, path, "fouls", self.fouls, ()) or (),
                positions=self.field(data, path, "positions", self.positions),
                safety=bool(self.field(data, path, "safety", self.boolean, False)),
            )
        if kind is ShotKind.CHOICE:
            self.unknown(data, path, {"kind", "player", "choice"})
            choice = self.field(
                data, path, "choice", lambda v, p: self.enum(Choice, v, p), required=True
            )
            return ShotRecord(kind=kind, player=player, choice=choice)
        self.unknown(data, path, {"kind", "player"})
        return ShotRecord(kind=kind, player=player)

    def result(self, value: object, path: str, number: int, breaker: Seat) -> GameOver | None:
        if value is None:
            return None
        data = self.obj(value, path)
        if data is None:
            return None
        self.unknown(data, path, {"winner", "reason"})
        winner = self.field(data, path, "winner", self.seat, required=True)
        reason = self.field(
            data, path, "reason", lambda v, p: self.enum(Termination, v, p), required=True
        )
        if winner is None or reason is None:
            return None
        return GameOver(game=number, winner=winner, reason=reason, breaker=breaker)

    def game(self, value: object, path: str, expected_number: int) -> GameRecord | None:
        data = self.obj(value, path)
        if data is None:
            return None
        self.unknown(data, path, {"number", "breaker", "rack", "shots", "result"})
        number = self.field(data, path, "number", self.integer, required=True)
        if number is not None and number != expected_number:
            self.problem(f"{path}.number", f"expected game {expected_number}, got {number}")
        breaker = self.field(data, path, "breaker", self.seat, required=True)
        rack = self.field(
            data, path, "rack", lambda v, p: None if v is None else self.positions(v, p)
        )
        raw_shots = data.get("shots", [])
        shots: list[ShotRecord] = []
        if not isinstance(raw_shots, list):
            self.problem(f"{path}.shots", "expected a list of shots")
        else:
            for i, item in enumerate(raw_shots):
                shot = self.shot(item, f"{path}.shots[{i}]")
                if shot is not None:
                    shots.append(shot)
        if breaker is None:
            return None
        result = self.result(data.get("result"), f"{path}.result", expected_number, breaker)
        return GameRecord(
            number=expected_number, breaker=breaker, rack=rack, shots=tuple(shots), result=result
        )

    def match(self, value: object) -> MatchRecord | None:
        data = self.obj(value, "$")
        if data is None:
            return None
        known = {
            "format",
            "version",
            "event",
            "date",
            "players",
            "race_to",
            "breaks",
            "first_breaker",
            "rules",
            "refereed",
            "seed",
            "table",
            "params",
            "agents",
            "games",
            "winner",
        }
        if data.get("format") != RECORD_FORMAT:
            self.problem(
                "$.format", f"expected {RECORD_FORMAT!r}, got {json.dumps(data.get('format'))[:40]}"
            )
        version = data.get("version")
        if not (
            isinstance(version, int)
            and not isinstance(version, bool)
            and 1 <= version <= RECORD_VERSION
        ):
            self.problem(
                "$.version",
                f"expected a version from 1 to {RECORD_VERSION}, got {json.dumps(version)[:40]}",
            )
            return None
        self.unknown(data, "$", known)
        players = data.get("players")
        if not (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(p, str) for p in players)
        ):
            self.problem("$.players", f"expected two names, got {json.dumps(players)[:60]}")
            players = ["Player 1", "Player 2"]
        race_to = self.field(data, "$", "race_to", self.integer, 5)
        breaks = self.field(
            data, "$", "breaks", lambda v, p: self.enum(BreakRule, v, p), BreakRule.ALTERNATE
        )
        first = self.field(data, "$", "first_breaker", self.seat, Seat.FIRST)
        rules_name = self.field(data, "$", "rules", self.string, "seed")
        rules = None
        if rules_name is not None:
            try:
                rules = find_variant(rules_name)
            except ValueError:
                known_rules = ", ".join(v.name for v in VARIANTS)
                self.problem("$.rules", f"expected one of {known_rules}, got {rules_name!r}")
        refereed = self.field(data, "$", "refereed", self.boolean, True)
        seed = self.field(data, "$", "seed", lambda v, p: None if v is None else self.integer(v, p))
        table = self.field(data, "$", "table", self.string, "9ft")
        params_data: dict[str, Any] = self.field(data, "$", "params", self.obj) or {}
        params: dict[str, float] = {}
        for key, item in params_data.items():
            number = self.number(item, f"$.params.{key}")
            if number is not None:
                params[key] = number
        agents = data.get("agents")
        if agents is not None and not (
            isinstance(agents, list)
            and len(agents) == 2
            and all(isinstance(a, str) for a in agents)
        ):
            self.problem("$.agents", f"expected two player kinds, got {json.dumps(agents)[:60]}")
            agents = None
        event = self.field(data, "$", "event", self.string, "")
        date = self.field(data, "$", "date", self.string, "")
        winner = self.field(
            data, "$", "winner", lambda v, p: None if v is None else self.seat(v, p)
        )
        config = None
        if None not in (race_to, breaks, first, rules, refereed):
            try:
                config = MatchConfig(
                    players=(players[0], players[1]),
                    race_to=race_to or 5,
                    breaks=breaks or BreakRule.ALTERNATE,
                    first_breaker=first or Seat.FIRST,
                    rules=rules or VARIANTS[0],
                    refereed=bool(refereed),
                )
            except InvalidInputError as exc:
                self.problem("$", str(exc))
        raw_games = data.get("games", [])
        games: list[GameRecord] = []
        if not isinstance(raw_games, list):
            self.problem("$.games", "expected a list of games")
        else:
            for i, item in enumerate(raw_games):
                game = self.game(item, f"$.games[{i}]", i + 1)
                if game is not None:
                    games.append(game)
        if config is None:
            return None
        return MatchRecord(
            config=config,
            seed=seed,
            table=table or "9ft",
            params=params,
            event=event or "",
            date=date or "",
            agents=None if agents is None else (agents[0], agents[1]),
            games=tuple(games),
            winner=winner,
        )


def read_record(text: str, *, check: bool = True) -> tuple[MatchRecord | None, list[RecordProblem]]:
    """Read a record leniently: what could be read, and every problem with its place.

    The record is None when its top level could not be read at all. A non-empty problem list
    means the record is not valid, even if something was read.

    Args:
        text: the JSON text.
        check: also replay the referee over the record (:func:`check_rulings`); turn it off to
            read a match cut short in the middle of a shot.
    """
    try:
        value = json.loads(text)
    except ValueError as exc:
        lineno = getattr(exc, "lineno", 0)
        colno = getattr(exc, "colno", 0)
        return None, [RecordProblem(f"line {lineno}, column {colno}", f"bad JSON: {exc}")]
    reader = _Reader()
    record = reader.match(value)
    if check and record is not None and not reader.problems:
        reader.problems.extend(check_rulings(record))
    return record, reader.problems


@dataclass(frozen=True, slots=True, kw_only=True)
class RuledShot:
    """One entry of a record with the position before it and the referee's ruling on it."""

    game: int
    """Index of the game in the record (0-based)."""
    index: int
    """Index of the shot in its game (0-based)."""
    shot: ShotRecord
    before: MatchState
    ruling: Ruling


def rule(state: MatchState, shot: ShotRecord) -> Ruling:
    """The referee's ruling on one entry of a record, from the state before it.

    Raises:
        NineballError: the referee refuses the entry.
    """
    if shot.kind is ShotKind.STROKE:
        return shoot(state, shot.facts or ShotFacts(), push_out=shot.push_out)
    if shot.kind is ShotKind.CHOICE:
        return choose(state, shot.choice or Choice.SHOOT)
    return forfeit(state, shot.player)


def iter_rulings(record: MatchRecord) -> Iterator[RuledShot]:
    """Replay the referee over every entry of a record, in order.

    Raises:
        InvalidRecordError: an entry the referee refuses (see :func:`check_rulings`).
    """
    state = start_match(record.config)
    for g, game in enumerate(record.games):
        for i, shot in enumerate(game.shots):
            try:
                ruling = rule(state, shot)
            except NineballError as exc:
                place = f"$.games[{g}].shots[{i}]"
                raise InvalidRecordError([RecordProblem(place, str(exc))]) from exc
            yield RuledShot(game=g, index=i, shot=shot, before=state, ruling=ruling)
            state = ruling.state


def check_rulings(record: MatchRecord) -> list[RecordProblem]:
    """Replay the referee over a record and report where it disagrees with what is written.

    Each stroke's facts must fit the position (no ball that is already down), its fouls must be
    the referee's, every game's result must be the referee's, and the match winner too.
    """
    problems: list[RecordProblem] = []
    state = start_match(record.config)
    for g, game in enumerate(record.games):
        path = f"$.games[{g}]"
        if state.is_over:
            problems.append(RecordProblem(path, "a game after the end of the match"))
            break
        if game.breaker is not state.game.breaker:
            expected = int(state.game.breaker)
            problems.append(
                RecordProblem(f"{path}.breaker", f"expected {expected}, got {int(game.breaker)}")
            )
        result: GameOver | None = None
        for s, shot in enumerate(game.shots):
            where = f"{path}.shots[{s}]"
            if result is not None:
                problems.append(RecordProblem(where, "a shot after the end of the game"))
                break
            if shot.kind is not ShotKind.FORFEIT and shot.player is not state.to_act:
                problems.append(
                    RecordProblem(
                        f"{where}.player",
                        f"expected player {int(state.to_act)} to act, got {int(shot.player)}",
                    )
                )
                return problems
            try:
                ruling = rule(state, shot)
            except NineballError as exc:
                problems.append(RecordProblem(where, str(exc)))
                return problems
            if shot.kind is ShotKind.STROKE and ruling.fouls != shot.fouls:
                written = [f.value for f in shot.fouls]
                ruled = [f.value for f in ruling.fouls]
                problems.append(
                    RecordProblem(
                        f"{where}.fouls", f"the referee rules {ruled}, the record says {written}"
                    )
                )
            state = ruling.state
            result = ruling.game_over
        if result != game.result:
            problems.append(
                RecordProblem(
                    f"{path}.result",
                    f"the referee ends this game with {_result_json(result)}, "
                    f"the record says {_result_json(game.result)}",
                )
            )
            return problems
    if record.winner is not state.winner:
        winner = None if state.winner is None else int(state.winner)
        problems.append(RecordProblem("$.winner", f"the referee gives {winner}"))
    return problems


def load_record(text: str, *, check: bool = True) -> MatchRecord:
    """Read a record strictly (``check`` as for :func:`read_record`).

    Raises:
        InvalidRecordError: the record has at least one problem; all of them are listed.
    """
    record, problems = read_record(text, check=check)
    if problems or record is None:
        raise InvalidRecordError(problems or [RecordProblem("$", "no record")])
    return record
