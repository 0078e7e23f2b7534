"""Reading a match record: a lenient reader that names every problem with its place.

:func:`read_record` is lenient: it reads as much as it can and reports every problem with its
place in the file (a JSON path such as ``$.games[0].shots[3].stroke.speed``), the way
python-chess's PGN reader collects errors. :func:`load_record` is strict: it raises
:class:`~nineball.game.record.InvalidRecordError` naming every problem.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from nineball.equipment import BallId
from nineball.errors import InvalidInputError, NineballError
from nineball.game.record import (
    RECORD_FORMAT,
    RECORD_VERSION,
    GameRecord,
    InvalidRecordError,
    MatchRecord,
    Position,
    RecordProblem,
    ShotKind,
    ShotRecord,
    StrokeRecord,
)
from nineball.game.rulings import check_rulings
from nineball.rules import (
    VARIANTS,
    BreakRule,
    Choice,
    Foul,
    GameOver,
    MatchConfig,
    Seat,
    ShotFacts,
    Termination,
    find_variant,
)

__all__ = ["load_record", "read_record"]

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


def load_record(text: str, *, check: bool = True) -> MatchRecord:
    """Read a record strictly (``check`` as for :func:`read_record`).

    Raises:
        InvalidRecordError: the record has at least one problem; all of them are listed.
    """
    record, problems = read_record(text, check=check)
    if problems or record is None:
        raise InvalidRecordError(problems or [RecordProblem("$", "no record")])
    return record
