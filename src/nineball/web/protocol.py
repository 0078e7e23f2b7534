"""The messages a page sends over the WebSocket: one pydantic model per type, checked strictly.

Every message is a JSON object with a ``type`` that picks its model (a union discriminated on
``type``). The models are strict: no string read as a number, no bool as a number, only finite
numbers, every range stated once (the stroke's from :func:`nineball.game.stroke_limits`), no
unknown field. A message that fails raises :class:`nineball.errors.ProtocolError`, whose text
names the message type, the bad field and its value; the server answers it with an error and
changes nothing. ``docs/web-protocol.schema.json`` is the JSON Schema of :data:`ClientMessage`
(:func:`client_schema`) and ``docs/web-protocol.md`` describes the messages.

=========== ============================================================================
type        fields
=========== ============================================================================
join        ``match`` (str), ``token`` (str or null: a spectator)
place       ``x``, ``y`` (m): place the cue ball in hand
check       ``x``, ``y`` (m), ``ball`` (0-9, default 0): may this ball go there now? (the
            cue ball in hand, or any ball in practice; nothing changes)
strike      ``speed`` (m/s), ``aim`` (rad), ``elevation`` (rad), ``side``, ``height``
            (fractions of R, inside the miscue disc), ``push_out`` (bool), ``cue`` ([x, y]
            or null)
preview     the fields of ``strike``: what that stroke would do, played without noise (the
            aiming aid; the seat to act only; nothing changes)
choose      ``choice``: ``"shoot"`` or ``"pass"`` (after a legal push out)
undo        (two players on one screen, practice and the scorekeeper)
forfeit     (the player to act concedes the game)
move_ball   ``ball`` (0-9), ``x``, ``y`` (practice: put any ball anywhere)
remove_ball ``ball`` (1-9) (practice)
setup       ``balls``: ``{"0": [x, y], ..., "9": [x, y]}`` (m), every ball on the table
            (practice: a position the page kept, set up again)
analysis    (practice: the computer's best shots for this position)
facts       ``first`` (0-9 or null), ``pocketed``, ``rails``, ``off_table`` (lists of
            distinct balls 0-9; the last may be left out), ``push_out`` (bool),
            ``obstruction_moved`` (bool, may be left out: clause 11): a stroke at a real
            table (scorekeeper)
aim         ``cue`` ([x, y] m), ``aim`` (rad), ``elevation`` (rad), ``side``, ``height``
            (fractions of R), ``power`` (0-1 of the slider), ``pull`` (0-1 of a pull-back):
            the stroke as the player to act aims it, relayed to the match's other pages
ping        nothing
=========== ============================================================================

The body of ``POST /api/matches`` (a new match) is :class:`NewMatch`, checked the same way
(:func:`parse_new_match`); its schema is ``$defs.NewMatch`` in the same file.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails

from nineball.errors import ProtocolError
from nineball.game import RULE_NAMES, STANDARD, BreakRule, stroke_limits
from nineball.players.registry import PLAYERS
from nineball.web.seats import Mode

__all__ = [
    "LIMITS",
    "MAX_MESSAGE_BYTES",
    "Aim",
    "Analysis",
    "Check",
    "Choose",
    "ClientMessage",
    "Facts",
    "Forfeit",
    "Join",
    "MoveBall",
    "NewMatch",
    "Ping",
    "Place",
    "Preview",
    "ProtocolError",
    "RemoveBall",
    "Setup",
    "Strike",
    "Undo",
    "client_schema",
    "parse_message",
    "parse_new_match",
]

MAX_MESSAGE_BYTES = 4096
"""The largest message accepted, in bytes (every valid message is far smaller)."""

LIMITS = stroke_limits()
"""The ranges of a stroke the protocol accepts (the session checks them again against its own
table's parameters)."""

_Coordinate = Annotated[float, Field(ge=-1.0, le=10.0)]
"""A coordinate on the table, m (generous: the game refuses a point off the surface)."""
_Point = tuple[_Coordinate, _Coordinate]
_Ball = Annotated[int, Field(ge=0, le=9)]
_Offset = Annotated[float, Field(ge=-LIMITS.miscue_limit, le=LIMITS.miscue_limit)]


def _distinct(balls: list[int]) -> tuple[int, ...]:
    if len(set(balls)) != len(balls):
        raise ValueError("must be a list of distinct balls 0-9")
    return tuple(balls)


_Balls = Annotated[list[_Ball], AfterValidator(_distinct)]


class _Message(BaseModel):
    """What every message shares: strict types, finite numbers, no unknown field."""

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        allow_inf_nan=False,
        frozen=True,
        use_attribute_docstrings=True,
    )


class Join(_Message):
    """Join a match: the first message of a connection."""

    type: Literal["join"]
    match: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    """The session id."""
    token: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None
    """The secret of a seat; none for a spectator."""


class Place(_Message):
    """Place the cue ball in hand."""

    type: Literal["place"]
    x: _Coordinate
    """m."""
    y: _Coordinate
    """m."""


class Check(_Message):
    """Ask whether a ball may go to (x, y) now; nothing changes."""

    type: Literal["check"]
    x: _Coordinate
    """m."""
    y: _Coordinate
    """m."""
    ball: _Ball = 0
    """The ball placed: the cue ball in hand, or any ball moved in practice."""


class _Stroke(_Message):
    """A stroke as the page aims it: what ``strike`` plays and ``preview`` shows."""

    speed: Annotated[float, Field(ge=0.05, le=LIMITS.max_speed)]
    """The cue ball's speed, m/s."""
    aim: Annotated[float, Field(ge=-4 * math.pi, le=4 * math.pi)]
    """The direction, rad."""
    elevation: Annotated[float, Field(ge=0.0, le=LIMITS.max_elevation)]
    """The cue's elevation, rad."""
    side: _Offset
    """The tip's offset to the right, a fraction of R."""
    height: _Offset
    """The tip's offset up, a fraction of R."""
    push_out: bool
    """The stroke is a push out (clause 5)."""
    cue: _Point | None = None
    """Where to place the cue ball in hand first, m."""

    @model_validator(mode="after")
    def _inside_the_miscue_disc(self) -> _Stroke:
        offset = math.hypot(self.side, self.height)
        if offset > LIMITS.miscue_limit:
            raise ValueError(
                f"the tip offset ({self.side!r}, {self.height!r}) lies {offset:.3f} R from the"
                f" centre, beyond the miscue limit of {LIMITS.miscue_limit} R"
            )
        return self


class Strike(_Stroke):
    """Play a stroke (placing the cue ball in hand first when ``cue`` is given)."""

    type: Literal["strike"]


class Preview(_Stroke):
    """The aiming aid: what this stroke would do, played without noise; nothing changes."""

    type: Literal["preview"]


class Rematch(_Message):
    """A network match over: a fresh one like it, every page of this one moved to it."""

    type: Literal["rematch"]


class Choose(_Message):
    """Answer a legal push out."""

    type: Literal["choose"]
    choice: Literal["shoot", "pass"]


class Undo(_Message):
    """Take back the last entry."""

    type: Literal["undo"]


class Forfeit(_Message):
    """The player to act concedes the game."""

    type: Literal["forfeit"]


class MoveBall(_Message):
    """Practice: put a ball anywhere (back on the table if it was down)."""

    type: Literal["move_ball"]
    ball: _Ball
    x: _Coordinate
    """m."""
    y: _Coordinate
    """m."""


class RemoveBall(_Message):
    """Practice: take an object ball off the table."""

    type: Literal["remove_ball"]
    ball: Annotated[int, Field(ge=1, le=9)]


class Setup(_Message):
    """Practice: set the whole position up again."""

    type: Literal["setup"]
    balls: dict[Literal["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"], _Point]
    """Every ball on the table, by number, m."""


class Analysis(_Message):
    """Practice: the computer's best shots here."""

    type: Literal["analysis"]


class Facts(_Message):
    """A stroke at a real table, as the scorekeeper saw it."""

    type: Literal["facts"]
    first: _Ball | None = None
    """The ball the cue ball hit first (none: nothing)."""
    pocketed: _Balls
    rails: _Balls
    """The balls that touched a rail after the first contact."""
    off_table: _Balls = ()  # type: ignore[assignment]
    push_out: bool
    obstruction_moved: bool = False
    """A jump, curve or massé moved an obstructing ball (clause 11)."""


_Share = Annotated[float, Field(ge=0.0, le=1.0)]


class Aim(_Message):
    """The stroke as the player to act aims it now: relayed to the other pages, never stored."""

    type: Literal["aim"]
    cue: _Point
    """Where the cue ball is (or is shown in hand), m."""
    aim: Annotated[float, Field(ge=-4 * math.pi, le=4 * math.pi)]
    """The direction, rad."""
    elevation: Annotated[float, Field(ge=0.0, le=LIMITS.max_elevation)]
    """The cue's elevation, rad."""
    side: _Offset
    """The tip's offset to the right, a fraction of R."""
    height: _Offset
    """The tip's offset up, a fraction of R."""
    power: _Share
    """The power slider, 0 to 1."""
    pull: _Share
    """A pull-back of the cue in progress, 0 to 1."""


class Ping(_Message):
    """Keep the connection alive."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Join | Place | Check | Strike | Preview | Choose | Undo | Forfeit | MoveBall | RemoveBall
    | Setup | Analysis | Facts | Aim | Rematch | Ping,
    Field(discriminator="type"),
]  # fmt: skip
"""Any message a page sends."""

_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_MODELS: dict[str, type[_Message]] = {
    model.model_fields["type"].annotation.__args__[0]: model  # type: ignore[union-attr]
    for model in (Join, Place, Check, Strike, Preview, Choose, Undo, Forfeit, MoveBall,
                  RemoveBall, Setup, Analysis, Facts, Aim, Rematch, Ping)
}  # fmt: skip


def _in(names: tuple[str, ...], what: str) -> AfterValidator:
    def check(value: str) -> str:
        if value.lower() not in names:
            raise ValueError(f"must be one of {', '.join(names)}")
        return value.lower()

    return AfterValidator(check)


_Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class NewMatch(BaseModel):
    """The body of ``POST /api/matches``: a new match and who plays it."""

    model_config = _Message.model_config

    mode: Mode
    """How the match is played."""
    players: tuple[_Name, _Name] = ("Player 1", "Player 2")
    """The names of seats 0 and 1 (different)."""
    race_to: Annotated[int, Field(ge=1, le=15)] = 3
    """Games to win."""
    level: Annotated[str, _in(tuple(PLAYERS), "level")] = "ghost"
    """The computer's level (against the computer)."""
    human_seat: Annotated[int, Field(ge=0, le=1)] = 0
    """The person's seat (against the computer)."""
    first_breaker: Annotated[int, Field(ge=0, le=1)] = 0
    """Who breaks game 1."""
    breaks: Annotated[str, _in(tuple(BreakRule), "breaks")] = BreakRule.ALTERNATE.value
    """Who breaks the games after the first: ``alternate`` or ``winner``."""
    rules: Annotated[str, _in(RULE_NAMES, "rules")] = STANDARD.name
    """The rule profile."""
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    """The match's random seed (None: a fresh one)."""


def client_schema() -> dict[str, object]:
    """The JSON Schema of every message a page may send (``docs/web-protocol.schema.json``)."""
    schema = _ADAPTER.json_schema()
    schema.setdefault("$defs", {})["NewMatch"] = NewMatch.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "nineball web client messages",
        **schema,
    }


def _bounds(kind: str, name: str) -> dict[str, Any]:
    """The schema of field ``name`` of message ``kind`` (its bounds, for the error's text)."""
    field = _MODELS[kind].model_json_schema()["properties"].get(name, {})
    options = field.get("anyOf", [field])
    return next((o for o in options if o.get("type") != "null"), field)


def _reason(kind: str, error: ErrorDetails, data: dict[str, object]) -> str:
    """One refusal in words: the message type, the field and the value."""
    loc = [str(part) for part in error["loc"][1:]]
    if not loc:  # a check of the whole message
        return f"{kind}: {error['msg'].removeprefix('Value error, ')}"
    name = loc[0]
    where = f"{kind}: {name}" + "".join(f"[{part}]" for part in loc[1:2] if kind == "setup")
    value = data.get(name)
    kind_of = error["type"]
    spec = _bounds(kind, name)
    if kind_of == "missing" and len(loc) == 1:
        return f"{kind}: missing field {name!r}"
    if kind_of == "extra_forbidden":
        extra = sorted(set(data) - set(_MODELS[kind].model_fields))
        return f"{kind}: unknown field(s) {', '.join(map(repr, extra))}"
    if kind == "setup" or (spec.get("type") == "array" and spec.get("prefixItems")):
        if (kind == "setup" and kind_of in ("dict_type", "literal_error")) or len(loc) == 1:
            return f"{where} must map balls '0'-'9' to [x, y], got {value!r:.80}"
        point = value.get(loc[1]) if kind == "setup" and isinstance(value, dict) else value
        return f"{where} must be [x, y] in m or null, got {point!r:.80}"
    if spec.get("type") == "array":
        return f"{where} must be a list of distinct balls 0-9, got {value!r:.80}"
    if kind_of == "literal_error":
        return f"{where} must be one of {error.get('ctx', {}).get('expected')}, got {value!r}"
    if kind_of == "bool_type":
        return f"{where} must be true or false, got {value!r}"
    if spec.get("type") == "string":
        return (
            f"{where} must be a string of {spec.get('minLength')} to {spec.get('maxLength')}"
            f" characters, got {value!r:.80}"
        )
    if spec.get("type") == "integer":
        if kind_of.startswith(("greater", "less")):
            return f"{where} must be in {spec['minimum']}..{spec['maximum']}, got {value!r}"
        return f"{where} must be an integer, got {value!r}"
    if kind_of.startswith(("greater", "less")):
        return f"{where} must be in [{spec['minimum']:g}, {spec['maximum']:g}], got {value!r}"
    return f"{where} must be a finite number, got {value!r}"


def _json_object(raw: str | bytes, what: str) -> dict[str, object]:
    """``raw`` read as one JSON object of at most :data:`MAX_MESSAGE_BYTES`.

    Raises:
        ProtocolError: too long, not JSON, or not an object.
    """
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"{what} too long: {len(raw)} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ProtocolError(f"{what} is nested too deeply to be read") from None
    except ValueError as error:  # UnicodeDecodeError too: bytes that are not UTF-8
        raise ProtocolError(f"{what} is not JSON: {str(error)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{what} must be a JSON object, got {type(data).__name__}")
    _refuse_lone_surrogates(data, what)
    return data


def _refuse_lone_surrogates(data: object, what: str) -> None:
    r"""Refuse a string (a value or a key) holding a lone surrogate (``"\ud800"``).

    JSON's ``\u`` escapes can spell half of a UTF-16 pair, which is no character: such a
    string cannot be encoded, stored or sent back, so the message is refused here, by name.

    Raises:
        ProtocolError: such a string, quoted in the message.
    """
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ProtocolError(
                    f"{what} holds a string that is not valid Unicode (a lone surrogate):"
                    f" {item!r:.60}"
                ) from None


def parse_message(raw: str | bytes) -> ClientMessage:
    """Validate one message from a page.

    Args:
        raw: the text of a WebSocket message.

    Returns:
        The message as its model (points as tuples, ball lists as tuples).

    Raises:
        ProtocolError: not JSON, not an object, too long, an unknown type, a missing, unknown
            or bad field.
    """
    data = _json_object(raw, "message")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _MODELS:
        raise ProtocolError(f"unknown message type {kind!r} (known: {', '.join(sorted(_MODELS))})")
    try:
        return _ADAPTER.validate_json(raw)
    except ValidationError as error:
        first = min(error.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise ProtocolError(_reason(kind, first, data)) from None


def parse_new_match(raw: str | bytes) -> NewMatch:
    """Validate the body of ``POST /api/matches``.

    Raises:
        ProtocolError: not JSON, not an object, too long, a missing, unknown or bad field.
    """
    data = _json_object(raw, "the body")
    try:
        return NewMatch.model_validate_json(raw)
    except ValidationError as error:
        first = min(error.errors(), key=lambda e: e["type"] != "extra_forbidden")
        if first["type"] == "extra_forbidden":
            extra = sorted(set(data) - set(NewMatch.model_fields))
            raise ProtocolError(
                f"new match: unknown field(s) {', '.join(map(repr, extra))}"
            ) from None
        name = str(first["loc"][0]) if first["loc"] else ""
        if first["type"] == "missing":
            raise ProtocolError(f"new match: missing field {name!r}") from None
        said = first["msg"].removeprefix("Value error, ")
        said = said[:1].lower() + said[1:]
        if not name:  # the body as a whole (JSON that pydantic reads no further)
            raise ProtocolError(f"new match: {said}") from None
        raise ProtocolError(f"new match: {name}: {said}, got {data.get(name)!r:.80}") from None
