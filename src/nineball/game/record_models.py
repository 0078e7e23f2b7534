"""The JSON record as pydantic models: what every field may hold, and the JSON Schema of it.

There is one model for each object of the format (``docs/record-format.md``): the match, a game,
an entry of each kind (stroke, choice, forfeit), a stroke, the facts and a result. The models are
strict. They never read a string as a number or a boolean as an integer, and they refuse NaN and
infinities. Ball numbers must be 0-9, players 0 or 1, and enums are spelled by value. Unknown
fields are refused, and so is ``null`` wherever the writer never writes one. The models only parse:
:mod:`nineball.game.record_read` turns them into the record's frozen values and makes the checks
that concern more than one field (game numbers in order, facts consistent, the referee replayed).

The input is what :func:`json.loads` gives (pydantic's Python mode), because the standard
library's floats round-trip ``repr`` exactly. Enums, tuples and the entry kind are read from JSON
values (strings, arrays), and every other leaf is strict.

:func:`problems_of` turns pydantic's errors into :class:`~nineball.game.record.RecordProblem`
entries: a JSON path to the bad value and a message that names the field or the value. The
format's own types (a player, a ball, a position, ...) carry their message in the model
(:class:`_Expect`, a pydantic custom error), so a bad position is reported once, at the
position, and not once for each coordinate.

:func:`record_schema` is the JSON Schema that the models define. ``docs/record.schema.json`` is
that schema, written by ``python tools/record_schema.py``; a test checks that the two are equal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, Strict
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import CoreSchema, ErrorDetails, core_schema

from nineball.game.record import RECORD_FORMAT, RECORD_VERSION, RecordProblem, ShotKind
from nineball.rules import RULE_NAMES, BreakRule, Choice, Foul, MatchConfig, Termination

__all__ = [
    "ChoiceEntryModel",
    "EntryModel",
    "FactsModel",
    "ForfeitEntryModel",
    "GameModel",
    "MatchModel",
    "ResultModel",
    "StrokeEntryModel",
    "StrokeModel",
    "dump_schema",
    "problems_of",
    "record_schema",
]

_PROBLEM = "record"
"""The type of the custom errors that carry the format's own message (see :class:`_Expect`)."""


@dataclass(frozen=True, slots=True)
class _Expect:
    """Annotation: report any error inside the annotated type as one problem, with this message.

    The message names the bad value as ``{got}`` (as JSON, cut to 40 characters) or as
    ``{name}`` (a string in Python's quotes, as a key or a name is shown; anything else as JSON).
    """

    message: str
    """The message of the problem, with ``{got}`` or ``{name}`` where the bad value goes."""

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """Wrap the type's schema in a custom error that carries the message."""
        return core_schema.custom_error_schema(
            handler(source),
            custom_error_type=_PROBLEM,
            custom_error_message=self.message,
            custom_error_context={"message": self.message},
        )


@dataclass(frozen=True, slots=True)
class _NotNull:
    """Annotation: the optional field may be left out, but not set to ``null``.

    Written on ``X | None = None``: the attribute keeps its honest type (None when the field is
    absent), and the validator keeps only the schema of ``X``, so an explicit ``null`` is refused.
    """

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The schema of ``X | None`` without its ``None``."""
        schema = handler(source)
        return schema["schema"] if schema["type"] == "nullable" else schema


_NOT_NULL = _NotNull()


def _one_of(kind: type[StrEnum]) -> _Expect:
    """The message for a bad member of ``kind``: its values, then the bad one."""
    return _Expect(f"expected one of {', '.join(m.value for m in kind)}, got {{got}}")


def _any_case(names: Iterable[str]) -> str:
    """A regular expression (ECMA 262 and Python alike) for ``names`` in any case."""
    spelled = (
        "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in name)
        for name in names
    )
    return f"^(?:{'|'.join(spelled)})$"


_Seat = Annotated[int, Field(ge=0, le=1), _Expect("expected a player 0 or 1, got {got}")]
_Ball = Annotated[int, Field(ge=0, le=9), _Expect("{got} is not a ball (0-9)")]
_ObjectBall = Annotated[int, Field(ge=1, le=9), _Expect("{got} is not an object ball")]
_BallKey = Annotated[str, Field(pattern=r"^[0-9]$"), _Expect("{name} is not a ball (0-9)")]
_Position = Annotated[
    tuple[float, float], Strict(False), _Expect("expected a position [x, y] in m, got {got}")
]
_BallsOnTable = dict[_BallKey, _Position]
_Balls = list[_Ball]
_Names = Annotated[tuple[str, str], Strict(False), _Expect("expected two names, got {got}")]
_Agents = Annotated[tuple[str, str], Strict(False), _Expect("expected two player kinds, got {got}")]
_Race = Annotated[int, Field(ge=1, le=99)]
_Races = Annotated[
    tuple[_Race, _Race], Strict(False), _Expect("expected two races of 1-99 games, got {got}")
]
_RuleName = Annotated[
    str,
    Field(pattern=_any_case(RULE_NAMES)),
    _Expect(f"expected one of {', '.join(RULE_NAMES)}, got {{name}}"),
]
_DEFAULT = MatchConfig()
"""The defaults of the match's fields are those of :class:`~nineball.rules.MatchConfig`."""


class _Model(BaseModel):
    """What every model of the record shares: strict, closed, finite, documented, frozen.

    The validators are built when the first record is read (``defer_build``), not at import.
    """

    model_config = ConfigDict(
        defer_build=True,
        strict=True,
        extra="forbid",
        allow_inf_nan=False,
        use_attribute_docstrings=True,
        frozen=True,
    )


class StrokeModel(_Model):
    """A stroke of the cue, as the simulation protocol has it (angles in degrees at this edge)."""

    speed: float
    """The cue ball's speed just after the stroke, m/s."""
    aim_deg: float
    """The cue's direction in the table plane, degrees counter-clockwise from +x."""
    elevation_deg: float = 0.0
    """The cue's elevation, degrees."""
    side: float = 0.0
    """Tip offset right of centre, fraction of the ball's radius."""
    height: float = 0.0
    """Tip offset above centre, fraction of the ball's radius."""


class FactsModel(_Model):
    """What the physics saw on a stroke (or the scorer typed), as in the referee protocol."""

    first_contact: _ObjectBall | None = None
    """The first object ball the cue ball touched, or null when it touched none."""
    pocketed: _Balls = Field(default_factory=list)
    """Balls that ended in a pocket (0, the cue ball, for a scratch)."""
    off_table: _Balls = Field(default_factory=list)
    """Balls that came to rest off the playing surface, not pocketed (clause 10)."""
    rails: _Balls = Field(default_factory=list)
    """Balls (the cue ball included) that touched a cushion after the first contact."""
    obstruction_moved: bool = False
    """Clause 11: an obstructing ball moved during a jump, curve or massé attempt."""


class StrokeEntryModel(_Model):
    """An entry of kind "stroke": the break, a shot or a push out."""

    kind: Literal[ShotKind.STROKE]
    """Always "stroke"."""
    player: _Seat
    """Who struck."""
    push_out: bool = False
    """The stroke was declared a push out (clause 5)."""
    cue_ball: Annotated[_Position | None, _NOT_NULL] = None
    """Where the cue ball was placed by hand, [x, y] in m, when it was in hand."""
    stroke: Annotated[StrokeModel | None, _NOT_NULL] = None
    """The stroke as executed (after execution noise)."""
    intended: Annotated[StrokeModel | None, _NOT_NULL] = None
    """The stroke as the player chose it, when it differs from the executed one."""
    facts: FactsModel
    """What the physics saw (or the scorer typed)."""
    fouls: list[Annotated[Foul, Strict(False), _one_of(Foul)]] = Field(default_factory=list)
    """The referee's fouls as ruled when the shot was played, in protocol order."""
    safety: bool = False
    """The player declared the stroke a safety (statistics only)."""
    positions: Annotated[_BallsOnTable | None, _NOT_NULL] = None
    """Ball number (as a string) to [x, y] in m of every ball on the table once all came to rest."""


class ChoiceEntryModel(_Model):
    """An entry of kind "choice": the answer to a legal push out."""

    kind: Literal[ShotKind.CHOICE]
    """Always "choice"."""
    player: _Seat
    """Who chose."""
    choice: Annotated[Choice, Strict(False), _one_of(Choice)]
    """Shoot from the position left by the push out, or pass the shot back."""


class ForfeitEntryModel(_Model):
    """An entry of kind "forfeit": a player forfeits the game."""

    kind: Literal[ShotKind.FORFEIT]
    """Always "forfeit"."""
    player: _Seat
    """Who forfeited."""


_KIND = "kind"
"""The field that tells the kinds of entry apart."""

EntryModel = Annotated[
    StrokeEntryModel | ChoiceEntryModel | ForfeitEntryModel, Field(discriminator=_KIND)
]
"""One entry of a game, of the kind its ``kind`` names."""


class ResultModel(_Model):
    """How a game ended."""

    winner: _Seat
    """Who won the game."""
    reason: Annotated[Termination, Strict(False), _one_of(Termination)]
    """Why the game ended."""


class GameModel(_Model):
    """One game (rack) of the match."""

    number: int
    """The game's number: 1, 2, ... in order."""
    breaker: _Seat
    """Who breaks."""
    rack: _BallsOnTable | None = None
    """Ball number (as a string) to [x, y] in m, as racked; null when scored by hand."""
    shots: list[EntryModel] = Field(default_factory=list)
    """The entries of the game, in order."""
    result: ResultModel | None = None
    """How the game ended, null while it is unfinished."""


class MatchModel(_Model):
    """A nineball match record: who played, under which rules, every game and every entry."""

    format: Annotated[
        Literal["nineball-record"], _Expect(f"expected {RECORD_FORMAT!r}, got {{got}}")
    ]
    """Always "nineball-record"."""
    version: Annotated[
        int,
        Field(ge=1, le=RECORD_VERSION),
        _Expect(f"expected a version from 1 to {RECORD_VERSION}, got {{got}}"),
    ]
    """The version of the format (this schema describes 1)."""
    event: str = ""
    """Free text: where and why the match was played."""
    date: str = ""
    """ISO 8601 date and time the match started."""
    players: _Names
    """The names of players 0 and 1 (different)."""
    race_to: int = _DEFAULT.race_to
    """Games needed to win the match, 1-99."""
    races: _Races | None = None
    """A handicapped race: the games players 0 and 1 each need, 1-99 (absent: race_to both)."""
    breaks: Annotated[BreakRule, Strict(False), _one_of(BreakRule)] = _DEFAULT.breaks
    """Who breaks after each game (D12)."""
    first_breaker: _Seat = int(_DEFAULT.first_breaker)
    """Who broke game 1."""
    rules: _RuleName = _DEFAULT.rules.name
    """The rule profile, by one of the names of nineball.rules.RULE_NAMES (in any case)."""
    refereed: bool = _DEFAULT.refereed
    """Whether a referee officiated (clause 11 in the pl profile)."""
    seed: int | None = None
    """The seed of the match's random generator, when the match was simulated."""
    table: str = "9ft"
    """The table preset."""
    params: dict[str, float] = Field(default_factory=dict)
    """Physics parameters that differ from the engine's defaults, by name."""
    agents: _Agents | None = None
    """Who plays each seat: "human" or the name of a computer player (null: not said)."""
    games: list[GameModel] = Field(default_factory=list)
    """The games, in order, numbered from 1."""
    winner: _Seat | None = None
    """The winner of the match, null while it is unfinished."""


# ---------------------------------------------------------------------------------- problems

_EXPECTED = {
    "bool_type": "true or false",
    "dict_type": "an object",
    "finite_number": "a finite number",
    "float_type": "a finite number",
    "int_type": "an integer",
    "model_attributes_type": "an object",
    "model_type": "an object",
    "string_type": "a string",
}
"""What a field of a plain type expects, by the type of pydantic's error."""

_LIST_OF = {
    "games": "games",
    "shots": "shots",
    "fouls": "foul codes",
    "pocketed": "balls",
    "off_table": "balls",
    "rails": "balls",
}
"""What a list holds, by the name of its field."""


def _show(value: object) -> str:
    """A bad value as the messages show it: JSON, cut to 40 characters."""
    return json.dumps(value, default=repr)[:40]


def _path(loc: Sequence[int | str]) -> str:
    """The JSON path of a pydantic location (``$.games[0].shots[3].stroke.speed``).

    Pydantic puts two things in a location that are not in the document: ``[key]`` after a dict
    key that is bad itself, and the kind of an entry after its index in ``shots`` (the tag of
    the entry's union); both are left out.
    """
    path = ["$"]
    for i, part in enumerate(loc):
        if isinstance(part, int):
            path.append(f"[{part}]")
        elif part == "[key]" or (i >= 2 and loc[i - 2] == "shots" and isinstance(loc[i - 1], int)):
            continue
        else:
            path.append(f".{part}")
    return "".join(path)


def _problem(error: ErrorDetails) -> RecordProblem:
    """One pydantic error as a problem of the record."""
    loc, kind, value = error["loc"], error["type"], error["input"]
    got = _show(value)
    if kind == "missing":
        return RecordProblem(_path(loc[:-1]), f"missing field {loc[-1]!r}")
    if kind == "extra_forbidden":
        return RecordProblem(_path(loc), "unknown field")
    if kind == "union_tag_not_found":
        return RecordProblem(_path(loc), f"missing field {_KIND!r}")
    if kind == "union_tag_invalid":
        tag = value.get(_KIND) if isinstance(value, dict) else None
        message = _one_of(ShotKind).message.format(got=_show(tag))
        return RecordProblem(f"{_path(loc)}.{_KIND}", message)
    if kind == _PROBLEM:
        name = repr(value) if isinstance(value, str) else got
        message = str(error.get("ctx", {})["message"]).format(got=got, name=name)
    elif kind == "list_type":
        message = f"expected a list of {_LIST_OF.get(str(loc[-1]), 'values')}, got {got}"
    elif kind in _EXPECTED:
        message = f"expected {_EXPECTED[kind]}, got {got}"
    else:
        message = f"{error['msg'][:1].lower()}{error['msg'][1:]}, got {got}"
    return RecordProblem(_path(loc), message)


def problems_of(errors: Iterable[ErrorDetails]) -> list[RecordProblem]:
    """Pydantic's errors (``ValidationError.errors()``) as problems of the record, in order."""
    return [_problem(error) for error in errors]


# ---------------------------------------------------------------------------------- schema


class _Schema(GenerateJsonSchema):
    """Pydantic's JSON Schema, tidied for publication.

    No title on each field (the description says it all); no ``"default": null`` on a field that
    refuses null (it is left out, not null, when absent); and the keys of a map of balls are
    only ball numbers (``additionalProperties`` false beside the pattern of its keys).
    """

    def field_title_should_be_set(self, schema: Any) -> bool:
        """Never: the fields have descriptions."""
        return False

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        """A field's schema with its default, unless it is a null the field refuses."""
        json_schema = super().default_schema(schema)
        if json_schema.get("default", "") is None and schema["schema"]["type"] != "nullable":
            del json_schema["default"]
        return json_schema

    def dict_schema(self, schema: core_schema.DictSchema) -> JsonSchemaValue:
        """A map, closed to the keys its pattern allows."""
        json_schema = super().dict_schema(schema)
        if "patternProperties" in json_schema:
            json_schema["additionalProperties"] = False
        return json_schema


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a record, as the models define it."""
    schema = MatchModel.model_json_schema(schema_generator=_Schema)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "title": f"nineball match record, version {RECORD_VERSION}",
    }


def dump_schema() -> str:
    """The JSON Schema of a record as the text of ``docs/record.schema.json``."""
    return json.dumps(record_schema(), ensure_ascii=False, indent=2) + "\n"
