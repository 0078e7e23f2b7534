"""The messages of the engine protocol (docs/engine-protocol.md, version 1), as JSON objects.

Both sides use this module: nineball (the host) writes ``hello``, ``option``, ``new_match``,
``ready``, ``turn``, ``result``, ``error``, ``match_over`` and ``quit`` and reads the program's
answers with :func:`parse_hello` and :func:`parse_answer`; the built-in players' side
(:mod:`nineball.players.protocol.session`) reads the host's messages back into a
:class:`~nineball.game.Position` with :func:`match_from_json` and :func:`position_from_json`.

Units are SI; angles on the wire are degrees in fields named ``*_deg`` (the stroke's aim and
elevation, the noise of the aim and elevation), converted here and nowhere else. Floats are
written as Python writes them (``repr``), which reads back to the same float, so a position
sent and read back is the same position bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nineball.__about__ import __version__
from nineball.equipment import BallId, PocketId, Point
from nineball.errors import InvalidPlacementError, NineballError, ProtocolError
from nineball.game import (
    PLACEMENT_CLEARANCE,
    TABLES,
    BreakRule,
    Choice,
    CueBall,
    ExecutionNoise,
    GameState,
    MatchConfig,
    MatchState,
    Phase,
    PhysicsParams,
    Position,
    Seat,
    Stroke,
    StrokeLimits,
    TableSpec,
    find_variant,
    state_to_json,
    stroke_limits,
)
from nineball.players.base import Decision

__all__ = [
    "AUTHOR_MAX",
    "OPTIONS_MAX",
    "PROTOCOL_VERSION",
    "AnswerError",
    "Hello",
    "MatchSetup",
    "OptionSpec",
    "answer_json",
    "hello_json",
    "lost_decision",
    "match_from_json",
    "nineball_hello",
    "noise_from_json",
    "noise_json",
    "parse_answer",
    "parse_hello",
    "position_from_json",
    "position_json",
    "stroke_json",
    "table_json",
]

PROTOCOL_VERSION = 1
"""The version of docs/engine-protocol.md this module speaks."""

AUTHOR_MAX = 80
"""The longest ``author`` or ``version`` a program's hello may give, in characters."""

OPTIONS_MAX = 64
"""The most options a program may declare."""

JSON = dict[str, Any]

_SHOT_FIELDS = frozenset(
    {
        "type",
        "id",
        "speed",
        "aim_deg",
        "elevation_deg",
        "side",
        "height",
        "cue_ball",
        "push_out",
        "safety",
    }
)
_CHOICE_FIELDS = frozenset({"type", "id", "choice"})
_HELLO_FIELDS = frozenset({"type", "protocol", "name", "author", "version", "options"})
_OPTION_TYPES = ("int", "float", "bool", "string", "choice")


class AnswerError(ProtocolError):
    """A program's line that is not a valid answer, with the protocol's fault code.

    ``code`` is ``bad_answer`` (not an answer of the protocol's form) or ``illegal_action`` (a
    well-formed answer the game does not allow now).
    """

    def __init__(self, code: str, message: str) -> None:
        """Keep the code with the message."""
        super().__init__(message)
        self.code = code


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_number(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(float(value))
    )


# ------------------------------------------------------------------------------- to the program


def table_json(name: str, table: TableSpec, params: PhysicsParams) -> JSON:
    """The table of a match: its preset, geometry and the limits of a stroke on it."""
    defaults = PhysicsParams()
    overrides = {
        key: getattr(params, key)
        for key in PhysicsParams.names()
        if getattr(params, key) != getattr(defaults, key)
    }
    return {
        "name": name,
        "width": table.width,
        "length": table.length,
        "ball_radius": params.radius,
        "head_string": table.head_string,
        "foot_spot": list(table.foot_spot),
        "pockets": {
            pocket.value: {
                "centre": list(table.pocket_centre(pocket)),
                "points": [list(p) for p in table.points[q]],
            }
            for q, pocket in enumerate(PocketId)
        },
        "params": overrides,
        "limits": stroke_limits(params).as_json(),
        "placement_clearance": PLACEMENT_CLEARANCE,
    }


def noise_json(noise: ExecutionNoise | None, label: str) -> JSON:
    """The execution noise nineball applies to a program's strokes (degrees for the angles)."""
    noise = noise or ExecutionNoise(aim=0.0, elevation=0.0, speed=0.0, side=0.0, height=0.0)
    out: JSON = {
        "class": label,
        "aim_deg": math.degrees(noise.aim),
        "elevation_deg": math.degrees(noise.elevation),
        "speed": noise.speed,
        "side": noise.side,
        "height": noise.height,
    }
    if noise.growth:  # only a noise that grows with speed says so (the classes' never do)
        out["growth"] = noise.growth
    return out


def noise_from_json(obj: Mapping[str, Any]) -> ExecutionNoise:
    """The noise of a ``turn`` message.

    Raises:
        ProtocolError: a malformed noise object.
    """
    try:
        return ExecutionNoise(
            aim=math.radians(obj["aim_deg"]),
            elevation=math.radians(obj["elevation_deg"]),
            speed=obj["speed"],
            side=obj["side"],
            height=obj["height"],
            growth=obj.get("growth", 0.0),
        )
    except (KeyError, TypeError, AttributeError, NineballError) as exc:
        raise ProtocolError(f"bad noise object {_show(obj)}: {exc}") from None


def position_json(view: Position) -> JSON:
    """A position: the referee's state (as the referee protocol writes it) and the balls."""
    state = view.state
    return {
        "state": state_to_json(state),
        "balls": {str(int(b)): list(p) for b, p in sorted(view.layout.items())},
        "warning": not state.is_over and state.game.consecutive_fouls[state.to_act] == 2,
    }


def stroke_json(stroke: Stroke) -> JSON:
    """A stroke's fields on the wire (as docs/simulate-protocol.md's stroke)."""
    return {
        "speed": stroke.speed,
        "aim_deg": math.degrees(stroke.aim),
        "elevation_deg": math.degrees(stroke.elevation),
        "side": stroke.side,
        "height": stroke.height,
    }


def hello_json(
    *, name: str, author: str = "", version: str = "", options: list[JSON] | None = None
) -> JSON:
    """A program's ``hello`` (what the built-in players answer)."""
    out: JSON = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name}
    if author:
        out["author"] = author
    if version:
        out["version"] = version
    out["options"] = options or []
    return out


def answer_json(turn: int, decided: Decision | Choice) -> JSON:
    """A program's answer to turn ``turn``: a ``choice``, or a ``shot``."""
    if isinstance(decided, Choice):
        return {"type": "choice", "id": turn, "choice": decided.value}
    out: JSON = {"type": "shot", "id": turn, **stroke_json(decided.stroke)}
    if decided.cue_ball is not None:
        out["cue_ball"] = list(decided.cue_ball)
    if decided.push_out:
        out["push_out"] = True
    if decided.safety:
        out["safety"] = True
    return out


# --------------------------------------------------------------------------- from the program


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionSpec:
    """An option a program declares in its hello."""

    name: str
    type: str
    """``int``, ``float``, ``bool``, ``string`` or ``choice``."""
    default: object
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: object) -> object:
        """``value`` if it fits the option, for ``option`` messages.

        Raises:
            ProtocolError: it does not fit (the message names it).
        """
        kind = self.type
        fits = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "float": _is_number(value),
            "bool": isinstance(value, bool),
            "string": isinstance(value, str) and len(value) <= 1000,
            "choice": isinstance(value, str) and value in self.choices,
        }[kind]
        if fits and kind in ("int", "float"):
            number = float(value)  # type: ignore[arg-type]
            fits = (self.min is None or number >= self.min) and (
                self.max is None or number <= self.max
            )
        if not fits:
            raise ProtocolError(f"option {self.name!r} ({kind}) cannot be {_show(value)}")
        return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello:
    """What a program says of itself when it starts."""

    protocol: int
    name: str
    author: str = ""
    version: str = ""
    options: tuple[OptionSpec, ...] = ()


def _text(obj: Mapping[str, Any], key: str, limit: int) -> str:
    value = obj.get(key, "")
    if not isinstance(value, str) or len(value) > limit or not value.isprintable():
        raise ProtocolError(f"hello {key!r} must be printable text of at most {limit} characters")
    return value


def _option(raw: object) -> OptionSpec:
    if not isinstance(raw, dict):
        raise ProtocolError(f"an option must be an object, got {_show(raw)}")
    extra = sorted(set(raw) - {"name", "type", "default", "min", "max", "choices"})
    if extra:
        raise ProtocolError(f"unknown option field {extra[0]!r}")
    name, kind = raw.get("name"), raw.get("type")
    if not (isinstance(name, str) and 0 < len(name) <= 40 and name.isprintable()):
        raise ProtocolError(f"an option needs a name of 1-40 characters, got {_show(name)}")
    if kind not in _OPTION_TYPES:
        raise ProtocolError(f"option {name!r}: type must be one of {', '.join(_OPTION_TYPES)}")
    bounds = {k: raw.get(k) for k in ("min", "max")}
    for key, value in bounds.items():
        if value is not None and not _is_number(value):
            raise ProtocolError(f"option {name!r}: {key} must be a number")
    choices = raw.get("choices", [])
    if not (isinstance(choices, list) and all(isinstance(c, str) for c in choices)):
        raise ProtocolError(f"option {name!r}: choices must be a list of strings")
    spec = OptionSpec(
        name=name,
        type=kind,
        default=raw.get("default"),
        min=None if bounds["min"] is None else float(bounds["min"]),
        max=None if bounds["max"] is None else float(bounds["max"]),
        choices=tuple(choices),
    )
    spec.check(spec.default)
    return spec


def parse_hello(obj: object) -> Hello:
    """A program's ``hello``.

    Raises:
        ProtocolError: not a valid hello (the message says why).
    """
    if not isinstance(obj, dict) or obj.get("type") != "hello":
        raise ProtocolError(f"expected a hello, got {_show(obj)}")
    extra = sorted(set(obj) - _HELLO_FIELDS)
    if extra:
        raise ProtocolError(f"unknown hello field {extra[0]!r}")
    protocol = obj.get("protocol")
    if isinstance(protocol, bool) or not isinstance(protocol, int):
        raise ProtocolError(f"hello 'protocol' must be an integer, got {_show(protocol)}")
    name = obj.get("name")
    if not (isinstance(name, str) and name.strip() and len(name) <= 40):
        raise ProtocolError(f"hello 'name' must be 1-40 characters, got {_show(name)}")
    if not name.isprintable():
        raise ProtocolError(f"hello 'name' holds a control character: {_show(name)}")
    options = obj.get("options", [])
    if not isinstance(options, list) or len(options) > OPTIONS_MAX:
        raise ProtocolError(f"hello 'options' must be a list of at most {OPTIONS_MAX} options")
    specs = tuple(_option(raw) for raw in options)
    if len({s.name for s in specs}) < len(specs):
        raise ProtocolError("hello declares an option twice")
    return Hello(
        protocol=protocol,
        name=name,
        author=_text(obj, "author", AUTHOR_MAX),
        version=_text(obj, "version", AUTHOR_MAX),
        options=specs,
    )


def _number(obj: Mapping[str, Any], key: str, default: float | None = None) -> float:
    if key not in obj:
        if default is None:
            raise AnswerError("bad_answer", f"a shot needs {key!r}")
        return default
    value = obj[key]
    if not _is_number(value):
        raise AnswerError("bad_answer", f"shot {key!r} must be a finite number, got {_show(value)}")
    return float(value)


def _flag(obj: Mapping[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise AnswerError("bad_answer", f"shot {key!r} must be true or false, got {_show(value)}")
    return value


def parse_answer(obj: Mapping[str, Any], action: str, view: Position) -> Decision | Choice:
    """A program's answer to a turn, checked against the position it was asked in.

    The caller has matched the answer's ``id`` to the turn. The stroke is checked against
    :func:`nineball.game.stroke_limits`, the placement against the position
    (:meth:`~nineball.game.Position.check_cue_ball`), a push out against the referee's state.

    Args:
        obj: the answer (a JSON object).
        action: the turn's ``action``: ``"shot"`` or ``"choice"``.
        view: the position of the turn.

    Raises:
        AnswerError: ``bad_answer`` (a malformed answer) or ``illegal_action`` (a well-formed
            answer the game does not allow now: the wrong kind of answer, a stroke out of range,
            a cue ball placed where it may not go, a push out not allowed).
    """
    kind = obj.get("type")
    fields = _SHOT_FIELDS if kind == "shot" else _CHOICE_FIELDS if kind == "choice" else None
    if fields is None:
        raise AnswerError("bad_answer", f"unknown answer type {_show(kind)}")
    extra = sorted(set(obj) - fields)
    if extra:
        raise AnswerError("bad_answer", f"unknown {kind} field {_show(extra[0])}")
    if kind != action:
        raise AnswerError("illegal_action", f"a {action} is due, not a {kind}")
    if kind == "choice":
        choice = obj.get("choice")
        if choice not in ("shoot", "pass"):
            raise AnswerError("bad_answer", f"choice must be shoot or pass, got {_show(choice)}")
        return Choice(choice)
    speed = _number(obj, "speed")
    aim_deg = _number(obj, "aim_deg")
    elevation_deg = _number(obj, "elevation_deg", 0.0)
    side, height = _number(obj, "side", 0.0), _number(obj, "height", 0.0)
    push_out, safety = _flag(obj, "push_out"), _flag(obj, "safety")
    limits: StrokeLimits = stroke_limits(view.params)
    if not 0.0 <= speed <= limits.max_speed:
        raise AnswerError(
            "illegal_action", f"speed must be in [0, {limits.max_speed}] m/s, got {speed!r}"
        )
    if not 0.0 <= elevation_deg <= math.degrees(limits.max_elevation):
        raise AnswerError(
            "illegal_action",
            f"elevation_deg must be in [0, {math.degrees(limits.max_elevation):.0f}], "
            f"got {elevation_deg!r}",
        )
    if math.hypot(side, height) > limits.miscue_limit:
        raise AnswerError(
            "illegal_action",
            f"the tip offset ({side!r}, {height!r}) is beyond the miscue limit of "
            f"{limits.miscue_limit} R",
        )
    if abs(aim_deg) > 1e6:
        raise AnswerError("illegal_action", f"aim_deg must be within +-1e6, got {aim_deg!r}")
    stroke = Stroke(
        speed=speed,
        aim=math.radians(aim_deg),
        elevation=math.radians(elevation_deg),
        side=side,
        height=height,
    )
    if push_out and not view.state.push_out_allowed:
        raise AnswerError("illegal_action", "no push out is allowed now (clause 5)")
    cue_ball = _placement(obj.get("cue_ball"), view) if "cue_ball" in obj else None
    if cue_ball is None and view.in_hand is not None and BallId.CUE not in view.layout:
        where = "behind the head string" if view.in_hand is CueBall.KITCHEN else "anywhere"
        raise AnswerError("illegal_action", f"the cue ball is in hand: place it ({where})")
    return Decision(stroke=stroke, cue_ball=cue_ball, push_out=push_out, safety=safety)


def _placement(value: object, view: Position) -> Point:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value)):
        raise AnswerError("bad_answer", f"cue_ball must be [x, y] in m, got {_show(value)}")
    point = (float(value[0]), float(value[1]))
    try:
        view.check_cue_ball(point)
    except InvalidPlacementError as exc:
        raise AnswerError("illegal_action", str(exc)) from None
    return point


def lost_decision(view: Position) -> Decision:
    """The stroke of a lost shot: zero speed, from where the cue ball lies or a legal spot.

    With the cue ball in hand it is struck where it lies when that is a legal place, else from
    the first legal point of a 5 cm grid scanned from the head-left corner, row by row (the
    kitchen on the break).
    """
    stroke = Stroke(speed=0.0, aim=math.pi / 2)
    if view.in_hand is None:
        return Decision(stroke=stroke, lost=True)
    lying = view.layout.get(BallId.CUE)
    candidates: list[Point] = [] if lying is None else [lying]
    r = view.params.radius
    step = 0.05
    ny = int((view.table.length - 2 * r) / step) + 1
    nx = int((view.table.width - 2 * r) / step) + 1
    candidates += [(r + 1e-6 + i * step, r + 1e-6 + j * step) for j in range(ny) for i in range(nx)]
    for point in candidates:
        try:
            view.check_cue_ball(point)
        except InvalidPlacementError:
            continue
        return Decision(stroke=stroke, cue_ball=point, lost=True)
    raise InvalidPlacementError(
        "no legal place for the cue ball on the whole table"
    )  # pragma: no cover


# ------------------------------------------------------------------- the built-in players' side


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSetup:
    """A ``new_match`` message read back: what a program needs to rebuild positions."""

    config: MatchConfig
    you: Seat
    table_name: str
    table: TableSpec
    params: PhysicsParams


def match_from_json(obj: Mapping[str, Any]) -> MatchSetup:
    """A ``new_match`` message read back.

    Raises:
        ProtocolError: a malformed message.
    """
    try:
        table = obj["table"]
        name = table["name"]
        config = MatchConfig(
            players=(obj["players"][0], obj["players"][1]),
            race_to=obj["race_to"],
            breaks=BreakRule(obj["breaks"]),
            first_breaker=Seat(obj["first_breaker"]),
            rules=find_variant(obj["rules"]),
            refereed=obj["refereed"],
        )
        return MatchSetup(
            config=config,
            you=Seat(obj["you"]),
            table_name=name,
            table=TABLES[name](),
            params=PhysicsParams(**dict(table["params"])),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ProtocolError(f"bad new_match: {exc!r}") from None


def position_from_json(setup: MatchSetup, obj: Mapping[str, Any]) -> Position:
    """The position of a ``turn`` message, for the match ``setup``.

    Raises:
        ProtocolError: a malformed position.
    """
    try:
        state = obj["state"]
        game = GameState(
            number=state["game"],
            breaker=Seat(state["breaker"]),
            shooter=Seat(state["shooter"]),
            phase=Phase(state["phase"]),
            cue_ball=CueBall(state["cue_ball"]),
            push_out_allowed=state["push_out_allowed"],
            on_table=frozenset(BallId(b) for b in state["on_table"]),
            consecutive_fouls=(state["consecutive_fouls"][0], state["consecutive_fouls"][1]),
        )
        winner = state["match_winner"]
        match = MatchState(
            config=setup.config,
            game=game,
            score=(state["score"][0], state["score"][1]),
            winner=None if winner is None else Seat(winner),
        )
        layout = {BallId(int(b)): (float(p[0]), float(p[1])) for b, p in obj["balls"].items()}
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ProtocolError(f"bad position: {exc!r}") from None
    return Position(state=match, layout=layout, table=setup.table, params=setup.params)


def nineball_hello() -> JSON:
    """The ``hello`` nineball opens with: the versions of the protocol it speaks."""
    return {"type": "hello", "protocols": [PROTOCOL_VERSION], "nineball": __version__}
