"""A network match's rematch: made once by either seat, and every page of the match moved to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from nineball.game import BreakRule
from nineball.web.app import create_app
from tests.web.conftest import TEST_HOSTS
from tests.web.test_app import _join


def _drain(ws: Any) -> list[dict[str, Any]]:
    """Every message the page has been sent until now (a ping's pong marks the end)."""
    ws.send_text(json.dumps({"type": "ping"}))
    out = []
    while (message := ws.receive_json())["type"] != "pong":
        out.append(message)
    return out


def test_a_network_rematch_moves_both_seats_and_the_spectator(tmp_path: Path) -> None:
    app = create_app(tmp_path / "web.sqlite3", warm_up=False, allowed_hosts=TEST_HOSTS)
    with TestClient(app) as client:
        body = {"mode": "network", "race_to": 1, "players": ["Ann", "Bob"], "seed": 4}
        created = client.post("/api/matches", json=body).json()
        match, tokens = created["match"], created["tokens"]
        with (
            client.websocket_connect("/ws") as ann,
            client.websocket_connect("/ws") as bob,
            client.websocket_connect("/ws") as watcher,
        ):
            _join(ann, match, tokens["0"])
            _join(bob, match, tokens["1"])
            _join(watcher, match, None)
            # Before the end there is nothing to rematch, and only the seats may ask.
            ann.send_text(json.dumps({"type": "rematch"}))
            assert "not over" in ann.receive_json()["message"]
            ann.send_text(json.dumps({"type": "forfeit"}))  # Ann concedes: Bob wins 1-0
            for ws in (ann, bob, watcher):
                assert _drain(ws)[-1]["state"]["winner"] == 1
            watcher.send_text(json.dumps({"type": "rematch"}))
            assert "spectator" in watcher.receive_json()["message"]
            bob.send_text(json.dumps({"type": "rematch"}))
            moved = {name: ws.receive_json() for name, ws in
                     (("ann", ann), ("bob", bob), ("watcher", watcher))}  # fmt: skip
            new = moved["bob"]["match"]
            assert new != match
            assert {m["type"] for m in moved.values()} == {"rematch"}
            assert {m["match"] for m in moved.values()} == {new}
            assert moved["watcher"]["token"] is None
            # Asked again (the other seat's button too): the same new match, not another one.
            ann.send_text(json.dumps({"type": "rematch"}))
            again = [ws.receive_json() for ws in (ann, bob, watcher)]
            assert [m["match"] for m in again] == [new] * 3
            assert again[0]["token"] == moved["ann"]["token"]
        # Each seat's token acts for its own seat in the new match, the same players and race.
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            state = _join(ann, new, moved["ann"]["token"])
            assert state["seats"] == [0]
            assert state["state"]["players"] == ["Ann", "Bob"]
            assert state["state"]["race_to"] == 1
            assert state["state"]["winner"] is None
            assert _join(bob, new, moved["bob"]["token"])["seats"] == [1]


def test_only_a_network_match_rematches_over_the_socket(tmp_path: Path) -> None:
    app = create_app(tmp_path / "web.sqlite3", warm_up=False, allowed_hosts=TEST_HOSTS)
    with TestClient(app) as client:
        created = client.post("/api/matches", json={"mode": "local", "race_to": 1}).json()
        with client.websocket_connect("/ws") as ws:
            _join(ws, created["match"], created["tokens"]["both"])
            ws.send_text(json.dumps({"type": "forfeit"}))
            _drain(ws)
            ws.send_text(json.dumps({"type": "rematch"}))
            assert "for network matches, not local" in ws.receive_json()["message"]


def test_the_break_rule_chosen_at_the_start_holds_and_carries_to_the_rematch(
    tmp_path: Path,
) -> None:
    app = create_app(tmp_path / "web.sqlite3", warm_up=False, allowed_hosts=TEST_HOSTS)
    with TestClient(app) as client:
        refused = client.post("/api/matches", json={"mode": "local", "breaks": "loser"})
        assert refused.status_code == 400
        assert "breaks" in refused.json()["error"]
        assert "loser" in refused.json()["error"]
        body = {"mode": "local", "race_to": 2, "breaks": "winner", "first_breaker": 1}
        created = client.post("/api/matches", json=body).json()
        with client.websocket_connect("/ws") as ws:
            state = _join(ws, created["match"], created["tokens"]["both"])
            assert state["rematch"]["breaks"] == "winner"
            assert state["state"]["breaker"] == 1
            # the match's own configuration holds the rule (the referee applies it: tests/rules)
            session = app.state.session_of(created["match"])
            assert session.state.config.breaks is BreakRule.WINNER
