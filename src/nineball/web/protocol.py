"""The messages a page sends over the WebSocket, validated field by field.

Every message is a JSON object with a ``type``. A message with an unknown type, a missing or
unknown field, a value of the wrong type or out of range raises :class:`ProtocolError`, whose text
names the bad value; the server answers it with an error and changes nothing.

=========== ============================================================================
type        fields
=========== ============================================================================
join        ``match`` (str), ``token`` (str or null: a spectator)
place       ``x``, ``y`` (m): place the cue ball in hand
check       ``x``, ``y`` (m): is this a valid place for the cue ball in hand? (nothing changes)
strike      ``speed`` (m/s), ``aim`` (rad), ``elevation`` (rad), ``side``, ``height``
            (fractions of R), ``push_out`` (bool), ``cue`` ([x, y] or null)
choose      ``choice``: ``"shoot"`` or ``"pass"`` (after a legal push out)
undo        (two players on one screen and practice)
forfeit     (the player to act concedes the game)
move_ball   ``ball`` (0-9), ``x``, ``y`` (practice: put any ball anywhere)
remove_ball ``ball`` (1-9) (practice)
setup       ``balls``: ``{"0": [x, y], ..., "9": [x, y]}`` (m), every ball on the table
            (practice: a position the page kept, set up again)
analysis    (practice: the computer's best shots for this position)
facts       ``first`` (0-9 or null), ``pocketed``, ``rails``, ``off_table`` (lists of 0-9;
            the last may be left out), ``push_out`` (bool), ``obstruction_moved`` (bool, may
            be left out: clause 11): a stroke at a real table (scorekeeper)
ping        nothing
=========== ============================================================================
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from nineball.errors import InvalidInputError
from nineball.game import stroke_limits

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_SPEED",
    "Message",
    "ProtocolError",
    "parse_message",
]

MAX_MESSAGE_BYTES = 4096
"""The largest message accepted, in bytes (every valid message is far smaller)."""

MAX_SPEED = 12.0
"""The fastest stroke accepted, in m/s (a hard break is about 11 m/s)."""

MAX_OFFSET = 0.5
"""The largest tip offset accepted, as a fraction of R (the miscue limit)."""


class ProtocolError(InvalidInputError):
    """A message the server refuses; nothing changed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """A validated message: its type and its fields (already converted)."""

    type: str
    fields: dict[str, object]

    def number(self, name: str) -> float:
        """A numeric field."""
        value = self.fields[name]
        if not isinstance(value, float):  # pragma: no cover - guaranteed by parse_message
            raise ProtocolError(f"{name} is not a number")
        return value

    def integer(self, name: str) -> int:
        """An integer field."""
        value = self.fields[name]
        if not isinstance(value, int):  # pragma: no cover - guaranteed by parse_message
            raise ProtocolError(f"{name} is not an integer")
        return value

    def text(self, name: str) -> str | None:
        """A string field (or None)."""
        value = self.fields[name]
        return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class _Rule:
    """What one field accepts: a form and its bounds."""

    form: str
    """``number``, ``int``, ``str``, ``bool``, ``enum``, ``point``, ``balls`` or ``layout``."""
    low: float = 0.0
    high: float = 0.0
    optional: bool = False
    """The field may be absent or null."""
    choices: tuple[str, ...] = ()


_LIMITS = stroke_limits()


def _num(low: float, high: float) -> _Rule:
    return _Rule("number", low, high)


_SPEC: dict[str, dict[str, _Rule]] = {
    "join": {"match": _Rule("str", 1, 64), "token": _Rule("str", 1, 128, optional=True)},
    "place": {"x": _num(-1.0, 10.0), "y": _num(-1.0, 10.0)},
    "check": {"x": _num(-1.0, 10.0), "y": _num(-1.0, 10.0)},
    "strike": {
        "speed": _num(0.05, MAX_SPEED),
        "aim": _num(-4 * math.pi, 4 * math.pi),
        "elevation": _num(0.0, _LIMITS.max_elevation),
        "side": _num(-MAX_OFFSET, MAX_OFFSET),
        "height": _num(-MAX_OFFSET, MAX_OFFSET),
        "push_out": _Rule("bool"),
        "cue": _Rule("point", -1.0, 10.0, optional=True),
    },
    "choose": {"choice": _Rule("enum", choices=("shoot", "pass"))},
    "undo": {},
    "forfeit": {},
    "move_ball": {"ball": _Rule("int", 0, 9), "x": _num(-1.0, 10.0), "y": _num(-1.0, 10.0)},
    "remove_ball": {"ball": _Rule("int", 1, 9)},
    "analysis": {},
    "facts": {
        "first": _Rule("int", 0, 9, optional=True),
        "pocketed": _Rule("balls"),
        "rails": _Rule("balls"),
        "off_table": _Rule("balls", optional=True),
        "push_out": _Rule("bool"),
        "obstruction_moved": _Rule("bool", optional=True),
    },
    "setup": {"balls": _Rule("layout", -1.0, 10.0)},
    "ping": {},
}


def _finite(value: object) -> float | None:
    """``value`` as a float when it is a finite JSON number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _check(kind: str, name: str, rule: _Rule, value: object) -> object:
    where = f"{kind}: {name}"
    if value is None and rule.optional:
        return None
    if rule.form == "number":
        number = _finite(value)
        if number is None:
            raise ProtocolError(f"{where} must be a finite number, got {value!r}")
        if not rule.low <= number <= rule.high:
            raise ProtocolError(f"{where} must be in [{rule.low:g}, {rule.high:g}], got {value!r}")
        return number
    if rule.form == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProtocolError(f"{where} must be an integer, got {value!r}")
        if not rule.low <= value <= rule.high:
            raise ProtocolError(f"{where} must be in {rule.low:g}..{rule.high:g}, got {value!r}")
        return value
    if rule.form == "str":
        if not isinstance(value, str) or not rule.low <= len(value) <= rule.high:
            raise ProtocolError(
                f"{where} must be a string of {rule.low:g} to {rule.high:g} characters, "
                f"got {value!r:.80}"
            )
        return value
    if rule.form == "bool":
        if not isinstance(value, bool):
            raise ProtocolError(f"{where} must be true or false, got {value!r}")
        return value
    if rule.form == "enum":
        if value not in rule.choices:
            allowed = ", ".join(repr(v) for v in rule.choices)
            raise ProtocolError(f"{where} must be one of {allowed}, got {value!r}")
        return value
    if rule.form == "point":
        if isinstance(value, list) and len(value) == 2:
            x, y = _finite(value[0]), _finite(value[1])
            if x is not None and y is not None and all(rule.low <= v <= rule.high for v in (x, y)):
                return (x, y)
        raise ProtocolError(f"{where} must be [x, y] in m or null, got {value!r:.80}")
    if rule.form == "layout":
        if not isinstance(value, dict) or not set(value) <= {str(b) for b in range(10)}:
            raise ProtocolError(f"{where} must map balls '0'-'9' to [x, y], got {value!r:.80}")
        point = _Rule("point", rule.low, rule.high)
        return {int(b): _check(kind, f"{name}[{b}]", point, p) for b, p in value.items()}
    # "balls": a list of distinct ball numbers 0-9
    if (
        not isinstance(value, list)
        or not all(not isinstance(v, bool) and isinstance(v, int) and 0 <= v <= 9 for v in value)
        or len(set(value)) != len(value)
    ):
        raise ProtocolError(f"{where} must be a list of distinct balls 0-9, got {value!r:.80}")
    return tuple(value)


def parse_message(raw: str | bytes) -> Message:
    """Validate one message from a page.

    Args:
        raw: the text of a WebSocket message.

    Returns:
        The message with its fields converted (numbers as float, points as tuples).

    Raises:
        ProtocolError: not JSON, not an object, too long, an unknown type, a missing, unknown
            or bad field.
    """
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too long: {len(raw)} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError(f"message is not JSON: {str(error)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"message must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _SPEC:
        raise ProtocolError(f"unknown message type {kind!r} (known: {', '.join(sorted(_SPEC))})")
    spec = _SPEC[kind]
    unknown = sorted(set(data) - set(spec) - {"type"})
    if unknown:
        raise ProtocolError(f"{kind}: unknown field(s) {', '.join(map(repr, unknown))}")
    fields: dict[str, object] = {}
    for name, rule in spec.items():
        if name not in data:
            if rule.optional:
                fields[name] = None
                continue
            raise ProtocolError(f"{kind}: missing field {name!r}")
        fields[name] = _check(kind, name, rule, data[name])
    return Message(type=kind, fields=fields)
