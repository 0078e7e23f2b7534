"""Sessions forgotten from memory: idle ones after a while, the least recently active beyond a cap.

The clock is injected: no test sleeps.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from nineball.errors import InvalidInputError
from nineball.rules import MatchConfig, Seat
from nineball.web.app import create_app
from nineball.web.protocol import Facts, parse_message
from nineball.web.registry import SessionRegistry
from nineball.web.seats import ActionError, Mode
from tests.web.conftest import TEST_HOSTS

CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=2)


class Clock:
    """A clock the test moves by hand (s)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _registry(tmp_path: Path, clock: Clock, **limits: float) -> SessionRegistry:
    return SessionRegistry(tmp_path / "web.sqlite3", clock=clock, **limits)  # type: ignore[arg-type]


def test_idle_sessions_are_forgotten_and_stored_ones_come_back(tmp_path: Path) -> None:
    clock = Clock()
    registry = _registry(tmp_path, clock, idle_seconds=600)
    scored, tokens = registry.create(Mode.SCORE, CONFIG)
    scored.facts(frozenset(Seat), _facts(first=1, pocketed=[2]))
    clock.now += 1
    practice, _ = registry.create(Mode.PRACTICE, CONFIG, seed=1)
    clock.now += 598
    registry.create(Mode.LOCAL, CONFIG, seed=2)
    assert registry.evicted == []
    assert scored.id in registry.sessions  # 599 s idle: kept
    clock.now += 2  # the scored match idle 601 s, the practice 600 s: both go, oldest first
    fresh, _ = registry.create(Mode.LOCAL, CONFIG, seed=3)
    assert registry.evicted == [scored.id, practice.id]
    assert fresh.id in registry.sessions
    assert scored.id not in registry.sessions
    assert practice.id not in registry.sessions
    # The stored match comes back from the store as it stood, and its links still work.
    back = registry.get(scored.id)
    assert back is not scored
    assert back.state == scored.state
    assert back.history == scored.history
    assert back.seats_of(tokens["both"]) == frozenset(Seat)
    # Practice is never stored: it is gone.
    with pytest.raises(ActionError, match="no match"):
        registry.get(practice.id)
    registry.close()


def test_beyond_the_cap_the_least_recently_active_go_first(tmp_path: Path) -> None:
    clock = Clock()
    registry = _registry(tmp_path, clock, max_sessions=2)
    first, _ = registry.create(Mode.NETWORK, CONFIG, seed=1)
    clock.now += 1
    second, _ = registry.create(Mode.NETWORK, CONFIG, seed=2)
    clock.now += 1
    registry.get(first.id)  # a page acts in the first: now the second is the oldest activity
    clock.now += 1
    third, _ = registry.create(Mode.NETWORK, CONFIG, seed=3)
    assert registry.evicted == [second.id]
    assert set(registry.sessions) == {first.id, third.id}
    clock.now += 1
    registry.get(second.id)  # back from the store; the cap still holds
    assert registry.evicted == [first.id]
    assert set(registry.sessions) == {second.id, third.id}
    registry.close()


def test_limits_must_be_positive(tmp_path: Path) -> None:
    for limits, words in [
        ({"idle_seconds": 0.0}, "idle_seconds"),
        ({"idle_seconds": math.nan}, "idle_seconds"),
        ({"max_sessions": 0}, "max_sessions"),
    ]:
        with pytest.raises(InvalidInputError, match=words):
            _registry(tmp_path, Clock(), **limits)


def test_a_page_open_on_a_forgotten_match_goes_on_playing(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(
        tmp_path / "web.sqlite3", warm_up=False, idle_seconds=60, clock=clock,
        allowed_hosts=TEST_HOSTS,
    )  # fmt: skip
    with TestClient(app) as client:
        body = {"mode": "score", "race_to": 2, "players": ["Ann", "Bob"]}
        scored = client.post("/api/matches", json=body).json()
        practice = client.post("/api/matches", json=body | {"mode": "practice"}).json()
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as pat:
            ann.send_text(json.dumps({"type": "join", "match": scored["match"],
                                      "token": scored["tokens"]["both"]}))  # fmt: skip
            pat.send_text(json.dumps({"type": "join", "match": practice["match"],
                                      "token": practice["tokens"]["both"]}))  # fmt: skip
            assert ann.receive_json()["type"] == pat.receive_json()["type"] == "state"
            clock.now += 61
            client.post("/api/matches", json=body)  # anything that looks: both are forgotten
            ann.send_text(json.dumps({"type": "facts", "first": 1, "pocketed": [4], "rails": [],
                                      "push_out": False}))  # fmt: skip
            reply = ann.receive_json()
            assert reply["type"] == "ruling"
            assert reply["ruling"]["legal"]
            assert reply["state"]["on_table"] == [1, 2, 3, 5, 6, 7, 8, 9]
            pat.send_text(json.dumps({"type": "undo"}))
            assert "no match" in pat.receive_json()["message"]


def _facts(**fields: object) -> Facts:
    message = {"type": "facts", "first": None, "pocketed": [], "rails": [], "push_out": False}
    parsed = parse_message(json.dumps(message | fields))
    assert isinstance(parsed, Facts)
    return parsed
