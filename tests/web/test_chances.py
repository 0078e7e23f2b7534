"""The live chances: each player's chance of the game and the match, sent with every state.

The page's win-probability bar reads ``chance`` from the messages that carry the referee's
state (``state``, ``shot``, ``ruling``, ``placed``, ``update``): the shipped model on the
position as it stands, or null when there is nothing to value.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nineball.players.value import shipped_value_model
from nineball.web import views
from tests.web.test_app import _break, _join, _new


def _valid(chance: Any) -> None:
    assert set(chance) == {"game", "match"}
    for key in ("game", "match"):
        p0, p1 = chance[key]
        assert 0.0 <= p0 <= 1.0
        assert 0.0 <= p1 <= 1.0
        assert p0 + p1 == pytest.approx(1.0, abs=2e-4)


def _server_chance(client: TestClient, match: str) -> dict[str, list[float]]:
    """The model on the server's own position of the match, as the page should be told it."""
    session = client.app.state.session_of(match)  # type: ignore[attr-defined]
    return shipped_value_model().seat_chances(session.match.position).to_json()


def test_every_state_carries_the_chances_and_none_once_the_match_is_over(
    client: TestClient,
) -> None:
    created = _new(client, mode="computer", players=["Ann", "Ghost"], level="ghost", race_to=2)
    match = created["match"]
    with client.websocket_connect("/ws") as ws:
        state = _join(ws, match, created["tokens"]["0"])
        _valid(state["chance"])
        assert state["chance"] == _server_chance(client, match)
        # a spectator sees the same chances: a function of the position every page sees
        with client.websocket_connect("/ws") as watcher:
            assert _join(watcher, match, None)["chance"] == state["chance"]
        _break(ws)
        shot = ws.receive_json()
        assert shot["type"] == "shot"
        _valid(shot["chance"])
        while shot["state"]["to_act"] == 1 and shot["state"]["winner"] is None:
            shot = ws.receive_json()
            _valid(shot["chance"])
        assert shot["chance"] == _server_chance(client, match)
        # the cue ball placed by hand changes the position, and the chances with it
        if shot["in_hand"] and shot["state"]["winner"] is None:
            spot = shot["cue_spot"]
            ws.send_text(json.dumps({"type": "place", "x": spot[0], "y": spot[1]}))
            placed = ws.receive_json()
            assert placed["type"] == "placed"
            assert placed["chance"] == _server_chance(client, match)
        # Ann concedes every game: the match is over, nothing is left to value
        while shot["state"]["winner"] is None:
            if shot["state"]["to_act"] == 0:
                ws.send_text(json.dumps({"type": "forfeit"}))
            shot = ws.receive_json()
            if shot["state"]["winner"] is None:
                _valid(shot["chance"])
            if shot["type"] == "ruling" and shot["state"]["winner"] is None:
                assert shot["state"]["phase"] == "break"  # the next game, valued from its rack
        assert shot["state"]["winner"] == 1
        assert shot["chance"] is None
    with client.websocket_connect("/ws") as ws:
        assert _join(ws, match, created["tokens"]["0"])["chance"] is None


def test_a_match_kept_by_hand_has_no_chances(client: TestClient) -> None:
    created = _new(client, mode="score", players=["Ann", "Bob"])
    with client.websocket_connect("/ws") as ws:
        assert _join(ws, created["match"], created["tokens"]["both"])["chance"] is None
        ws.send_text(json.dumps({"type": "facts", "first": 1, "pocketed": [3], "rails": [],
                                 "push_out": False}))  # fmt: skip
        ruling = ws.receive_json()
        assert ruling["type"] == "ruling"
        assert ruling["chance"] is None


class _Broken:
    """A model that fails on every position."""

    def seat_chances(self, position: object) -> None:
        raise RuntimeError("the forest is on fire")


def test_a_failing_model_costs_the_session_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(views, "shipped_value_model", _Broken)
    created = _new(client, mode="local", players=["Ann", "Bob"])
    with client.websocket_connect("/ws") as ws, caplog.at_level(logging.ERROR):
        state = _join(ws, created["match"], created["tokens"]["both"])
        assert state["type"] == "state"
        assert state["chance"] is None
        _break(ws)
        shot = ws.receive_json()
        assert shot["type"] == "shot"  # the stroke is played and told as ever
        assert shot["chance"] is None
        assert shot["state"]["game"] == 1
    assert "the value model could not value the position" in caplog.text
