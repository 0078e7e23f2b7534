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
from collections.abc import Callable, Mapping
from typing import Any

from nineball.errors import NineballError, ProtocolError
from nineball.rules.facts import ShotFacts
from nineball.rules.referee import choose, forfeit, shoot
from nineball.rules.ruling import Language, Ruling
from nineball.rules.state import BreakRule, Choice, MatchConfig, MatchState, Seat
from nineball.rules.variants import RULE_NAMES, STANDARD, RuleSet, find_variant

__all__ = ["PROTOCOL_VERSION", "RefereeSession", "ruling_to_json", "state_to_json"]

PROTOCOL_VERSION = 1
"""The version of ``docs/referee-protocol.md`` this module speaks."""

JSONObject = dict[str, Any]

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


def _get_bool(request: Mapping[str, Any], name: str, default: bool) -> bool:
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise ProtocolError(f"{name} must be true or false, got {json.dumps(value)}")
    return value


def _get_int(request: Mapping[str, Any], name: str, default: int) -> int:
    value = request.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{name} must be an integer, got {json.dumps(value)}")
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
        raise ProtocolError(f"{name} must be one of {known}, got {json.dumps(value)}")
    return value


def _get_balls(request: Mapping[str, Any], name: str) -> list[int]:
    value = request.get(name, [])
    if not isinstance(value, list):
        raise ProtocolError(f"{name} must be a list of ball numbers, got {json.dumps(value)}")
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int):
            raise ProtocolError(f"{name}: {json.dumps(item)} is not a ball number")
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

    def handle_line(self, line: str) -> str:
        """Answer one line of the protocol with one line of JSON (no newline)."""
        try:
            request = json.loads(line)
        except ValueError as exc:
            return self.refuse(f"bad JSON: {exc}")
        return self._dump(self.handle(request))

    def refuse(self, message: str) -> str:
        """The error line for a request that could not even be read (``message`` says why)."""
        return self._dump(self._error(message))

    def handle(self, request: object) -> JSONObject:
        """Answer one decoded request. The state changes only when the reply is ``ok``."""
        try:
            if not isinstance(request, dict):
                raise ProtocolError(f"a request must be a JSON object, got {json.dumps(request)}")
            kind = request.get("type")
            if not isinstance(kind, str) or kind not in _FIELDS:
                known = ", ".join(_FIELDS)
                raise ProtocolError(f"unknown request type {json.dumps(kind)} (known: {known})")
            unknown = sorted(set(request) - _FIELDS[kind] - {"type"})
            if unknown:
                raise ProtocolError(f"unknown field {unknown[0]!r} in a {kind} request")
            ruling = self._handlers[kind](request)
        except NineballError as exc:
            return self._error(str(exc))
        return {
            "ok": True,
            "ruling": None if ruling is None else ruling_to_json(ruling, self.lang),
            "state": state_to_json(self.state),
        }

    def _error(self, message: str) -> JSONObject:
        return {
            "ok": False,
            "error": {"code": "invalid_request", "message": message},
            "state": state_to_json(self.state),
        }

    @staticmethod
    def _dump(reply: JSONObject) -> str:
        return json.dumps(reply, ensure_ascii=False)

    def _new_match(self, request: Mapping[str, Any]) -> None:
        players = request.get("players", list(_DEFAULT_PLAYERS))
        if not (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(p, str) for p in players)
        ):
            raise ProtocolError(f"players must be a list of two names, got {json.dumps(players)}")
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
            raise ProtocolError(
                f"first_contact must be a ball number or null, got {json.dumps(first)}"
            )
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
