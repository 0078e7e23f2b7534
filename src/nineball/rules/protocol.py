"""The referee's line protocol (``docs/referee-protocol.md``, version 1), without any I/O.

:class:`RefereeSession` holds the match in progress and answers one request at a time: a JSON
object in, a JSON object out. A refused request changes nothing. ``nineball referee`` wraps it
in a loop over standard input.

>>> session = RefereeSession()
>>> reply = session.handle({"type": "shot", "first_contact": 1, "pocketed": [2], "rails": [3]})
>>> reply["ok"], reply["ruling"]["legal"], reply["state"]["shooter"]
(True, True, 0)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from nineball.errors import NineballError, ProtocolError
from nineball.rules.facts import ShotFacts
from nineball.rules.referee import choose, forfeit, shoot
from nineball.rules.ruling import Language, Ruling
from nineball.rules.state import BreakRule, Choice, MatchConfig, MatchState, Seat
from nineball.rules.variants import RULE_NAMES, STANDARD, RuleSet, find_variant

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "RefereeSession",
    "decode_line",
    "dump_line",
    "ruling_to_json",
    "state_to_json",
]

PROTOCOL_VERSION = 1
"""The version of ``docs/referee-protocol.md`` this module speaks."""

JSONObject = dict[str, Any]

MAX_LINE_BYTES = 65_536
"""The longest request line, in bytes of UTF-8 without its line end; a longer one is refused."""

MAX_DEPTH = 16
"""The deepest nesting of arrays and objects a request may have (a real one has 2)."""

_SHOWN = 60
"""The most characters of a bad value an error message repeats."""

_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""What ``json.dumps(ensure_ascii=False)`` leaves raw but must not be: characters some readers
take for a line end (NEL U+0085, U+2028, U+2029), the other C1 controls and DEL, and lone
surrogates (which UTF-8 cannot encode)."""

_DEFAULT_PLAYERS = ("Ann", "Bob")
"""The players of the match in progress before any ``new_match`` (the protocol's defaults)."""

_FIELDS: dict[str, frozenset[str]] = {
    "new_match": frozenset(
        {"players", "race_to", "breaks", "first_breaker", "rules", "refereed", "lang"}
    ),
    "shot": frozenset(
        {"push_out", "first_contact", "pocketed", "off_table", "rails", "obstruction_moved"}
    ),
    "choice": frozenset({"choice"}),
    "forfeit": frozenset({"player"}),
    "state": frozenset(),
}


def state_to_json(state: MatchState) -> JSONObject:
    """The protocol's ``state`` object."""
    game = state.game
    return {
        "game": game.number,
        "score": list(state.score),
        "race_to": state.config.race_to,
        "breaker": int(game.breaker),
        "shooter": int(game.shooter),
        "phase": state.phase.value,
        "cue_ball": game.cue_ball.value,
        "push_out_allowed": state.push_out_allowed,
        "on_table": sorted(int(b) for b in game.on_table),
        "lowest": int(game.lowest) if game.on_table else None,
        "consecutive_fouls": list(game.consecutive_fouls),
        "rules": state.config.rules.name,
        "match_winner": None if state.winner is None else int(state.winner),
    }


def ruling_to_json(ruling: Ruling, lang: Language) -> JSONObject:
    """The protocol's ``ruling`` object, explained in ``lang``."""
    over = ruling.game_over
    return {
        "shooter": int(ruling.shooter),
        "legal": ruling.legal,
        "fouls": [{"code": f.value, "rule": f.clause} for f in ruling.fouls],
        "respotted": [int(b) for b in ruling.respotted],
        "warning": ruling.warning,
        "game_over": None
        if over is None
        else {"winner": int(over.winner), "reason": over.reason.value},
        "explanation": ruling.explanation.text(lang),
    }


def _cut(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _show(value: object) -> str:
    """``value`` as JSON (ASCII only), cut to :data:`_SHOWN` characters for an error message.

    A Python caller may hand :meth:`RefereeSession.handle` what JSON cannot hold (a set, a
    cycle): it is shown by its ``repr``, or only by its type.
    """
    try:
        return _cut(json.dumps(value, default=repr))
    except (TypeError, ValueError, RecursionError):
        return f"a {type(value).__name__}"


def _reject_constant(name: str) -> None:
    raise ProtocolError(f"bad JSON: {name} is not a JSON number")


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > _SHOWN:
        raise ProtocolError(f"bad JSON: the number {_cut(text)} has {digits} digits, too many")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"bad JSON: the number {_cut(text)} is too large")
    return value


def _unique_fields(pairs: list[tuple[str, Any]]) -> JSONObject:
    obj: JSONObject = {}
    for key, value in pairs:
        if key in obj:
            raise ProtocolError(f"bad JSON: the field {_cut(repr(key))} is given twice")
        obj[key] = value
    return obj


def _depth(value: object) -> int:
    """The nesting depth of decoded JSON (a scalar is 0), found without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_DEPTH:
                break
            stack.extend((child, depth + 1) for child in item)
    return deepest


def decode_line(line: str) -> object:
    """Decode one request line: strict JSON of bounded size and depth.

    Raises:
        ProtocolError: the line is too long, empty, not JSON, or JSON with a non-standard
            constant (``NaN``, ``Infinity``), a field given twice or nesting deeper than
            :data:`MAX_DEPTH`; the message starts with ``bad JSON``.
    """
    size = len(line.encode("utf-8", "surrogatepass"))
    if size > MAX_LINE_BYTES:
        raise ProtocolError(f"bad JSON: the line is {size} bytes long, over {MAX_LINE_BYTES}")
    if not line.strip():
        raise ProtocolError("bad JSON: the line is empty")
    try:
        request = json.loads(
            line,
            parse_constant=_reject_constant,
            parse_float=_finite,
            parse_int=_integer,
            object_pairs_hook=_unique_fields,
        )
    except RecursionError:
        raise ProtocolError(f"bad JSON: nested deeper than {MAX_DEPTH} levels") from None
    except ProtocolError:
        raise
    except ValueError as exc:
        raise ProtocolError(f"bad JSON: {exc}") from None
    if _depth(request) > MAX_DEPTH:
        raise ProtocolError(f"bad JSON: nested deeper than {MAX_DEPTH} levels")
    return request


def dump_line(reply: JSONObject) -> str:
    r"""``reply`` as one line of JSON that is safe to write as UTF-8 and to split on line ends.

    Letters outside ASCII are written as they are; what could end a line or cannot be encoded
    (U+0085, U+2028, U+2029, the C1 controls, lone surrogates) is escaped, like every character
    below U+0020 already is.

    >>> dump_line({"name": "Zoë\u2028"})
    '{"name": "Zoë\\u2028"}'
    """
    text = json.dumps(reply, ensure_ascii=False, allow_nan=False)
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _get_bool(request: Mapping[str, Any], name: str, default: bool) -> bool:
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise ProtocolError(f"{name} must be true or false, got {_show(value)}")
    return value


def _get_int(request: Mapping[str, Any], name: str, default: int) -> int:
    value = request.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{name} must be an integer, got {_show(value)}")
    return value


def _get_seat(request: Mapping[str, Any], name: str, default: int) -> Seat:
    value = _get_int(request, name, default)
    if value not in (0, 1):
        raise ProtocolError(f"{name} must be 0 or 1, got {value}")
    return Seat(value)


def _get_choice(
    request: Mapping[str, Any], name: str, choices: tuple[str, ...], default: str
) -> str:
    value = request.get(name, default)
    if not isinstance(value, str) or value not in choices:
        known = ", ".join(choices)
        raise ProtocolError(f"{name} must be one of {known}, got {_show(value)}")
    return value


def _get_balls(request: Mapping[str, Any], name: str) -> list[int]:
    value = request.get(name, [])
    if not isinstance(value, list):
        raise ProtocolError(f"{name} must be a list of ball numbers, got {_show(value)}")
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int):
            raise ProtocolError(f"{name}: {_show(item)} is not a ball number")
    return value


class RefereeSession:
    """The match in progress on a referee connection, and the handling of each request."""

    def __init__(self, *, rules: RuleSet = STANDARD, lang: Language = Language.EN) -> None:
        """Start with the protocol's default match.

        Args:
            rules: the profile of a match whose ``new_match`` names none (``--rules``).
            lang: the language of a match whose ``new_match`` names none (``--lang``).
        """
        self._default_rules = rules
        self._default_lang = lang
        self.lang = lang
        """The language of the match in progress."""
        self.state = MatchState.start(MatchConfig(players=_DEFAULT_PLAYERS, rules=rules))
        """The match in progress."""
        self._handlers: dict[str, Callable[[Mapping[str, Any]], Ruling | None]] = {
            "new_match": self._new_match,
            "shot": self._shot,
            "choice": self._choice,
            "forfeit": self._forfeit,
            "state": lambda _request: None,
        }

    max_line_bytes: ClassVar[int] = MAX_LINE_BYTES
    """The longest line :meth:`handle_bytes` reads (a reader of a stream needs no more)."""

    def handle_bytes(self, raw: bytes) -> str:
        """Answer one line as read from a byte stream (its line end, LF or CR LF, is optional).

        A line longer than :data:`MAX_LINE_BYTES` is refused before it is decoded; one that is
        not UTF-8 is refused too.
        """
        body = raw[:-1] if raw.endswith(b"\n") else raw
        body = body[:-1] if body.endswith(b"\r") else body
        if len(body) > MAX_LINE_BYTES:
            return self.refuse(f"bad JSON: the line is over {MAX_LINE_BYTES} bytes long")
        try:
            line = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            return self.refuse(f"bad JSON: the line is not UTF-8 ({exc})")
        return self.handle_line(line)

    def handle_line(self, line: str) -> str:
        """Answer one line of the protocol with exactly one line of JSON (no newline).

        Whatever ``line`` holds, the answer is one JSON object on one line (see
        :func:`dump_line`); a refused line leaves the match as it was.
        """
        try:
            request = decode_line(line)
        except ProtocolError as exc:
            return self.refuse(str(exc))
        return dump_line(self.handle(request))

    def refuse(self, message: str) -> str:
        """The error line for a request that could not even be read (``message`` says why)."""
        return dump_line(self._error(message))

    def handle(self, request: object) -> JSONObject:
        """Answer one decoded request. The state changes only when the reply is ``ok``.

        It never raises: a request that breaks a rule of the protocol gets an
        ``invalid_request`` error, and should the referee itself fail (a bug), the request gets
        an ``internal_error`` and the match stays as it was.
        """
        before = self.state, self.lang
        try:
            return self._apply(request)
        except NineballError as exc:
            self.state, self.lang = before
            return self._error(str(exc))
        except Exception as exc:  # one answer per line, even for a bug
            self.state, self.lang = before
            message = f"the referee failed on this request ({type(exc).__name__}); nothing changed"
            return self._error(message, code="internal_error")

    def _apply(self, request: object) -> JSONObject:
        if not isinstance(request, dict):
            raise ProtocolError(f"a request must be a JSON object, got {_show(request)}")
        kind = request.get("type")
        if not isinstance(kind, str) or kind not in _FIELDS:
            known = ", ".join(_FIELDS)
            raise ProtocolError(f"unknown request type {_show(kind)} (known: {known})")
        unknown = sorted(repr(key) for key in set(request) - _FIELDS[kind] - {"type"})
        if unknown:
            raise ProtocolError(f"unknown field {_cut(unknown[0])} in a {kind} request")
        ruling = self._handlers[kind](request)
        return {
            "ok": True,
            "ruling": None if ruling is None else ruling_to_json(ruling, self.lang),
            "state": state_to_json(self.state),
        }

    def _error(self, message: str, code: str = "invalid_request") -> JSONObject:
        return {
            "ok": False,
            "error": {"code": code, "message": message},
            "state": state_to_json(self.state),
        }

    def _new_match(self, request: Mapping[str, Any]) -> None:
        players = request.get("players", list(_DEFAULT_PLAYERS))
        if not (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(p, str) for p in players)
        ):
            raise ProtocolError(f"players must be a list of two names, got {_show(players)}")
        rules_name = _get_choice(request, "rules", RULE_NAMES, self._default_rules.name)
        lang = _get_choice(request, "lang", ("en", "fr", "pl"), self._default_lang.value)
        config = MatchConfig(
            players=(players[0], players[1]),
            race_to=_get_int(request, "race_to", 5),
            breaks=BreakRule(_get_choice(request, "breaks", ("alternate", "winner"), "alternate")),
            first_breaker=_get_seat(request, "first_breaker", 0),
            rules=find_variant(rules_name),
            refereed=_get_bool(request, "refereed", True),
        )
        self.state = MatchState.start(config)
        self.lang = Language(lang)

    def _shot(self, request: Mapping[str, Any]) -> Ruling:
        first = request.get("first_contact")
        if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
            raise ProtocolError(f"first_contact must be a ball number or null, got {_show(first)}")
        facts = ShotFacts.of(
            first_contact=first,
            pocketed=_get_balls(request, "pocketed"),
            off_table=_get_balls(request, "off_table"),
            rails=_get_balls(request, "rails"),
            obstruction_moved=_get_bool(request, "obstruction_moved", False),
        )
        ruling = shoot(self.state, facts, push_out=_get_bool(request, "push_out", False))
        self.state = ruling.state
        return ruling

    def _choice(self, request: Mapping[str, Any]) -> Ruling:
        choice = Choice(_get_choice(request, "choice", ("shoot", "pass"), "shoot"))
        ruling = choose(self.state, choice)
        self.state = ruling.state
        return ruling

    def _forfeit(self, request: Mapping[str, Any]) -> Ruling:
        ruling = forfeit(self.state, _get_seat(request, "player", 1))
        self.state = ruling.state
        return ruling
