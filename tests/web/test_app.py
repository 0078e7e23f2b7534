from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nineball.game import stroke_limits
from nineball.players.levels import LEVELS
from nineball.players.registry import PLAYERS, RATINGS
from nineball.web.app import create_app
from tests.web.conftest import TEST_HOSTS


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"race_to": 1, "seed": 5} | body)
    assert response.status_code == 200, response.text
    return response.json()


def _join(ws: Any, match: str, token: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "join", "match": match, "token": token}))
    return ws.receive_json()


def _break(ws: Any, push_out: bool = False) -> None:
    aim = math.atan2(1.905 - 0.45, 0.635 - 0.6)
    ws.send_text(json.dumps({
        "type": "strike", "speed": 9.0, "aim": aim, "elevation": 0.0, "side": 0.0,
        "height": 0.0, "push_out": push_out, "cue": [0.6, 0.45],
    }))  # fmt: skip


def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "<canvas" in page.text
    assert client.get("/static/main.js").status_code == 200
    levels = client.get("/api/levels").json()["levels"]
    assert [level["name"] for level in levels][:3] == ["ghost", "beginner", "amateur"]
    assert "max" in [level["name"] for level in levels]


def test_the_levels_come_with_their_rating_and_description(client: TestClient) -> None:
    reply = client.get("/api/levels").json()
    assert reply["rules"][0] == "standard"
    levels = {level["name"]: level for level in reply["levels"]}
    assert list(levels) == list(PLAYERS)
    assert levels["ghost"]["rating"] == 300
    assert levels["club"]["description"] == LEVELS["club"].description
    assert [name for name, level in levels.items() if level["search"]] == list(LEVELS)
    ratings = [levels[name]["rating"] for name in LEVELS]  # beginner to max: stronger each time
    assert ratings == sorted(ratings)
    assert all(level["description"] for level in levels.values())


def test_the_shipped_ratings_are_the_ladders() -> None:
    ladder = json.loads((Path(__file__).parents[2] / "docs/ladder.json").read_text("utf-8"))
    assert {r["name"]: round(r["rating"]) for r in ladder["ratings"]} == RATINGS


def test_bad_new_match_requests_are_refused(client: TestClient) -> None:
    for body, words in [
        ({"mode": "chess"}, "mode"),
        ({"mode": "local", "race_to": 0}, "race_to"),
        ({"mode": "local", "players": ["A", "A"]}, "different names"),
        ({"mode": "local", "players": "AB"}, "players"),
        ({"mode": "local", "colour": "red"}, "unknown field"),
        ({"mode": "computer", "level": "god"}, "level"),
        ({"mode": "local", "human_seat": 2}, "human_seat"),
        ({"mode": "local", "rules": "us"}, "rules"),
        ({"mode": "local", "first_breaker": True}, "first_breaker"),
        ({"mode": "local", "seed": -1}, "seed"),
        ([], "JSON object"),
    ]:
        response = client.post("/api/matches", json=body)
        assert response.status_code == 400
        assert words in response.json()["error"]
    assert client.post("/api/matches", content=b"{").status_code == 400
    assert client.post("/api/matches", content=b"x" * 5000).status_code == 413


def test_break_against_the_computer_then_the_computer_plays(client: TestClient) -> None:
    created = _new(client, mode="computer", players=["Ann", "Computer"])
    token = created["tokens"]["0"]
    with client.websocket_connect("/ws") as ws:
        state = _join(ws, created["match"], token)
        assert state["type"] == "state"
        assert state["seats"] == [0]
        assert state["state"]["phase"] == "break"
        assert state["table"]["width"] == 1.27
        assert len(state["layout"]) == 9
        # the page's controls take the stroke's limits from here: 12 m/s, the miscue disc
        assert state["limits"] == stroke_limits().as_json()
        assert state["limits"]["max_speed"] == 12.0
        # the cue ball in hand is shown on a spot the match accepts: in the kitchen
        spot = state["cue_spot"]
        assert spot[1] < state["table"]["head_string"]
        ws.send_text(json.dumps({"type": "check", "x": spot[0], "y": spot[1]}))
        assert ws.receive_json()["ok"] is True
        # a tip offset inside the square [-0.5, 0.5]^2 but outside the disc is refused
        ws.send_text(json.dumps({
            "type": "strike", "speed": 3.0, "aim": 1.0, "elevation": 0.0, "side": 0.45,
            "height": 0.45, "push_out": False, "cue": [0.6, 0.45],
        }))  # fmt: skip
        assert "beyond the miscue limit" in ws.receive_json()["message"]
        _break(ws)
        shot = ws.receive_json()
        assert shot["type"] == "shot"
        assert set(shot["ruling"]["explanation"]) == {"en", "fr", "pl"}
        assert shot["trajectory"]["duration"] > 0
        assert "0" in shot["trajectory"]["balls"]
        # The computer keeps playing until it is Ann's turn or the match is over.
        state = shot["state"]
        while state["to_act"] == 1 and state["winner"] is None:
            shot = ws.receive_json()
            assert shot["type"] == "shot"
            state = shot["state"]


def test_out_of_turn_and_malformed_messages_change_nothing(client: TestClient) -> None:
    created = _new(client, mode="network", players=["Ann", "Bob"])
    match, tokens = created["match"], created["tokens"]
    with (
        client.websocket_connect("/ws") as ann,
        client.websocket_connect("/ws") as bob,
        client.websocket_connect("/ws") as watcher,
    ):
        assert _join(ann, match, tokens["0"])["seats"] == [0]
        before = _join(bob, match, tokens["1"])
        assert before["seats"] == [1]
        assert _join(watcher, match, None)["seats"] == []
        _break(bob)  # Ann breaks: Bob's token is not the shooter's
        assert "not your turn" in bob.receive_json()["message"]
        _break(watcher)
        assert "spectators" in watcher.receive_json()["message"]
        for raw in ["{", '{"type":"strike"}', '{"type":"choose","choice":"shoot"}', "[]"]:
            bob.send_text(raw)
            assert bob.receive_json()["type"] == "error"
        bob.send_text(json.dumps({"type": "join", "match": match, "token": tokens["1"]}))
        assert "already joined" in bob.receive_json()["message"]
        with client.websocket_connect("/ws") as late:
            after = _join(late, match, None)
        assert after["state"] == before["state"]
        assert after["layout"] == before["layout"]
        assert after["history"] == []
        _break(ann)
        for ws in (ann, bob, watcher):
            assert ws.receive_json()["type"] == "shot"


def test_a_wrong_token_and_an_unknown_match(client: TestClient) -> None:
    created = _new(client, mode="local")
    with client.websocket_connect("/ws") as ws:
        reply = _join(ws, created["match"], "not-a-token")
        assert reply["type"] == "error"
        assert "token" in reply["message"]
        ws.send_text(json.dumps({"type": "ping"}))
        assert "join a match first" in ws.receive_json()["message"]
        reply = _join(ws, "nope", None)
        assert "no match" in reply["message"]


def test_the_server_survives_a_flood_of_bad_messages(client: TestClient) -> None:
    created = _new(client, mode="local")
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        for q in range(400):
            ws.send_text(["garbage", '{"type":1}', "{}" * 3000][q % 3])
        for _ in range(400):
            assert ws.receive_json()["type"] == "error"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong"}


def test_ball_in_hand_push_out_and_pass_then_undo(client: TestClient) -> None:
    created = _new(client, mode="local", players=["Ann", "Bob"])
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        ws.send_text(json.dumps({"type": "check", "x": 0.6, "y": 1.2}))
        reply = ws.receive_json()
        assert reply["ok"] is False
        assert "head string" in reply["problem"]
        ws.send_text(json.dumps({"type": "place", "x": 0.6, "y": 1.2}))
        assert "head string" in ws.receive_json()["message"]
        ws.send_text(json.dumps({"type": "check", "x": 0.6, "y": 0.45}))
        assert ws.receive_json()["ok"] is True
        ws.send_text(json.dumps({"type": "place", "x": 0.6, "y": 0.45}))
        placed = ws.receive_json()
        assert placed["type"] == "placed"
        assert placed["cue"] == [0.6, 0.45]
        _break(ws)
        shot = ws.receive_json()
        state = shot["state"]
        assert shot["ruling"]["legal"], shot["ruling"]["explanation"]["en"]
        assert state["push_out_allowed"]
        ws.send_text(json.dumps({
            "type": "strike", "speed": 0.5, "aim": 0.3, "elevation": 0.0, "side": 0.0,
            "height": 0.0, "push_out": True,
        }))  # fmt: skip
        shot = ws.receive_json()
        pusher = shot["ruling"]["shooter"]
        assert shot["ruling"]["kind"] == "push_out"
        assert shot["state"]["phase"] == "push_out_choice"
        ws.send_text(json.dumps({"type": "choose", "choice": "pass"}))
        ruling = ws.receive_json()
        assert ruling["type"] == "ruling"
        assert ruling["ruling"]["kind"] == "choice"
        assert ruling["state"]["to_act"] == pusher
        ws.send_text(json.dumps({"type": "undo"}))
        update = ws.receive_json()
        assert update["state"]["phase"] == "push_out_choice"
        assert len(update["history"]) == 2


def test_a_closed_tab_and_a_restarted_server_find_the_match(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    with TestClient(create_app(db, warm_up=False, allowed_hosts=TEST_HOSTS)) as client:
        created = _new(client, mode="network", players=["Ann", "Bob"])
        with client.websocket_connect("/ws") as ws:
            _join(ws, created["match"], created["tokens"]["0"])
            _break(ws)
            shot = ws.receive_json()
    with (
        TestClient(create_app(db, warm_up=False, allowed_hosts=TEST_HOSTS)) as client,
        client.websocket_connect("/ws") as ws,
    ):
        state = _join(ws, created["match"], created["tokens"]["1"])
        assert state["seats"] == [1]
        assert state["state"] == shot["state"]
        assert state["layout"] == shot["layout"]
        assert len(state["history"]) == 1
        listing = client.get("/api/matches").json()["matches"]
        assert listing[0]["players"] == ["Ann", "Bob"]
        record = client.get(f"/api/matches/{listing[0]['id']}").json()
        assert len(record["games"]) == 1
        assert client.get("/api/matches/999").status_code == 404
        stats = client.get("/api/stats").json()["players"]
        assert {p["name"] for p in stats} == {"Ann", "Bob"}


def _send(ws: Any, **message: Any) -> dict[str, Any]:
    ws.send_text(json.dumps(message))
    return ws.receive_json()


def test_practice_puts_pocketed_balls_back_and_undoes_moves(client: TestClient) -> None:
    created = _new(client, mode="practice")
    with client.websocket_connect("/ws") as ws:
        state = _join(ws, created["match"], created["tokens"]["both"])
        assert state["stored_id"] is None
        # A position kept by the page is set up again: the referee counts only these balls.
        update = _send(ws, type="setup", balls={"0": [0.6, 0.5], "3": [0.6, 1.4], "9": [0.4, 2.2]})
        assert update["type"] == "update"
        assert update["state"]["on_table"] == [3, 9]
        assert update["state"]["lowest"] == 3
        assert update["state"]["phase"] == "shot"
        assert update["layout"] == {"0": [0.6, 0.5], "3": [0.6, 1.4], "9": [0.4, 2.2]}
        # The 1 was down: dragged from the tray, it is on again and the ball to hit.
        update = _send(ws, type="move_ball", ball=1, x=0.9, y=1.0)
        assert update["state"]["on_table"] == [1, 3, 9]
        assert update["state"]["lowest"] == 1
        assert update["layout"]["1"] == [0.9, 1.0]
        assert "touch" in _send(ws, type="move_ball", ball=2, x=0.9, y=1.01)["message"]
        assert "off the playing surface" in _send(ws, type="move_ball", ball=2, x=5, y=1)["message"]
        assert "9 must be on" in _send(ws, type="remove_ball", ball=9)["message"]
        assert "not on the table" in _send(ws, type="remove_ball", ball=8)["message"]
        update = _send(ws, type="remove_ball", ball=3)
        assert update["state"]["on_table"] == [1, 9]
        assert "3" not in update["layout"]
        # Undo takes back ball moves one by one, as well as strokes.
        assert _send(ws, type="undo")["state"]["on_table"] == [1, 3, 9]
        assert _send(ws, type="undo")["state"]["on_table"] == [3, 9]
        ws.send_text(json.dumps({"type": "strike", "speed": 1.5, "aim": math.pi / 2,
                                 "elevation": 0.0, "side": 0.0, "height": 0.0,
                                 "push_out": False}))  # fmt: skip
        shot = ws.receive_json()
        assert shot["type"] == "shot"
        assert shot["ruling"]["shooter"] == 0
        update = _send(ws, type="undo")
        assert update["layout"] == {"0": [0.6, 0.5], "3": [0.6, 1.4], "9": [0.4, 2.2]}
        assert update["history"] == []
        assert _send(ws, type="undo")["state"]["phase"] == "break"
        assert "nothing to undo" in _send(ws, type="undo")["message"]
        bad = _send(ws, type="setup", balls={"0": [0.6, 0.5], "9": [0.6, 0.51]})
        assert "overlaps" in bad["message"]


def test_practice_analysis_draws_the_best_shots(client: TestClient) -> None:
    created = _new(client, mode="practice")
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        _send(ws, type="setup", balls={"0": [0.635, 0.8], "1": [0.635, 1.6], "9": [0.3, 2.0]})
        reply = _send(ws, type="analysis")
        assert reply["type"] == "analysis"
        assert reply["cue"] == [0.635, 0.8]
        shots = reply["shots"]
        assert 1 <= len(shots) <= 3
        for shot in shots:
            assert 0.0 <= shot["success"] <= 1.0
            assert 0.0 <= shot["foul"] <= 1.0
            cue_path = shot["paths"]["0"]
            assert cue_path[0] == [0.635, 0.8]
            assert len(cue_path) == 40
        values = [shot["value"] for shot in shots]
        assert values == sorted(values, reverse=True)
        # The best shot's object ball starts where the 1 is and moves.
        best = shots[0]
        assert best["paths"]["1"][0] == [0.635, 1.6]
        assert best["paths"]["1"][-1] != [0.635, 1.6]
        # Ball in hand: the computer says where it would place the cue ball.
        _send(ws, type="setup", balls={"1": [0.635, 1.6], "9": [0.3, 2.0]})
        reply = _send(ws, type="analysis")
        assert reply["cue"] is not None
        assert reply["shots"][0]["paths"]["0"][0] == pytest.approx(reply["cue"], abs=1e-4)


def test_scorekeeper_takes_facts_and_rules_on_them(client: TestClient) -> None:
    created = _new(client, mode="score", players=["Ann", "Bob"])
    with client.websocket_connect("/ws") as ws:
        state = _join(ws, created["match"], created["tokens"]["both"])
        assert state["table"]["width"] == 1.27  # drawn, to enter the shot on it
        assert len(state["table"]["pockets"]) == 6
        assert "layout" not in state  # where the balls of a real table lie is not known
        facts = {"type": "facts", "first": 1, "pocketed": [], "rails": [], "push_out": False}
        ws.send_text(json.dumps(facts))
        ruling = ws.receive_json()
        assert ruling["ruling"]["fouls"] == [{"code": "illegal_break", "clause": 3}]
        assert ruling["state"]["to_act"] == 1
        ws.send_text(json.dumps(facts | {"first": 2, "rails": [0]}))
        ruling = ws.receive_json()
        assert ruling["ruling"]["fouls"][0]["code"] == "wrong_ball_first"
        ws.send_text(json.dumps(facts | {"first": 1, "pocketed": [9], "rails": [1]}))
        ruling = ws.receive_json()
        assert ruling["ruling"]["game_over"]["winner"] == 0
        assert ruling["state"]["winner"] == 0
        ws.send_text(
            json.dumps(
                {
                    "type": "strike",
                    "speed": 1.0,
                    "aim": 0.0,
                    "elevation": 0.0,
                    "side": 0.0,
                    "height": 0.0,
                    "push_out": False,
                }
            )
        )
        assert "over" in ws.receive_json()["message"]


def test_actions_refused_by_mode_and_state(client: TestClient) -> None:
    created = _new(client, mode="computer", players=["Ann", "Computer"])
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["0"])
        for message, words in [
            ({"type": "undo"}, "not allowed"),
            ({"type": "move_ball", "ball": 1, "x": 0.5, "y": 1.0}, "only in practice"),
            ({"type": "remove_ball", "ball": 1}, "only in practice"),
            ({"type": "analysis"}, "only in practice"),
            ({"type": "choose", "choice": "shoot"}, "no push out"),
            (
                {"type": "facts", "first": 1, "pocketed": [], "rails": [], "push_out": False},
                "simulated table",
            ),
            (
                {"type": "strike", "speed": 1.0, "aim": 0.0, "elevation": 0.0, "side": 0.0,
                 "height": 0.0, "push_out": True, "cue": [0.6, 0.4]},
                "push out is not allowed",
            ),
        ]:  # fmt: skip
            ws.send_text(json.dumps(message))
            reply = ws.receive_json()
            assert reply["type"] == "error", message
            assert words in reply["message"]
        ws.send_text(json.dumps({"type": "forfeit"}))
        shot = ws.receive_json()
        assert shot["ruling"]["kind"] == "forfeit"
        assert shot["state"]["winner"] == 1
        ws.send_text(json.dumps({"type": "forfeit"}))
        assert "over" in ws.receive_json()["message"]


def test_practice_edges(client: TestClient) -> None:
    created = _new(client, mode="practice")
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        ws.send_text(json.dumps({"type": "undo"}))
        assert "nothing to undo" in ws.receive_json()["message"]
        ws.send_text(json.dumps({"type": "move_ball", "ball": 0, "x": 0.6, "y": 0.4}))
        update = ws.receive_json()
        assert update["cue"] == [0.6, 0.4]
        ws.send_text(json.dumps({"type": "move_ball", "ball": 2, "x": 0.6, "y": 0.41}))
        assert "the 2 at (0.6000, 0.4100) m overlaps the cue ball" in ws.receive_json()["message"]
        # the page asks before it drops a ball: the same check, and nothing changes
        ws.send_text(json.dumps({"type": "check", "ball": 2, "x": 0.6, "y": 0.41}))
        reply = ws.receive_json()
        assert reply["ok"] is False
        assert "overlaps the cue ball" in reply["problem"]
        assert (reply["ball"], reply["x"], reply["y"]) == (2, 0.6, 0.41)
        ws.send_text(json.dumps({"type": "check", "ball": 2, "x": 0.2, "y": 2.0}))
        assert ws.receive_json()["ok"] is True
        ws.send_text(json.dumps({"type": "check", "ball": 2, "x": 5.0, "y": 2.0}))
        assert "off the playing surface" in ws.receive_json()["problem"]
        with client.websocket_connect("/ws") as watcher:
            _join(watcher, created["match"], None)
            watcher.send_text(json.dumps({"type": "analysis"}))
            assert "spectators" in watcher.receive_json()["message"]
            watcher.send_text(json.dumps({"type": "undo"}))
            assert "spectators" in watcher.receive_json()["message"]


def test_no_token_in_any_url_the_server_sees(client: TestClient) -> None:
    created = _new(client, mode="network", players=["Ann", "Bob"])
    page = client.get("/static/lobby.js").text + client.get("/static/net.js").text
    # The page puts the token in the URL fragment (#...), which browsers never send.
    assert "#m=${data.match}&t=${" in page
    assert (
        'new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`)'
        in (page)
    )
    assert all(len(token) >= 24 for token in created["tokens"].values())


def test_scorekeeper_ball_off_the_table(client: TestClient) -> None:
    created = _new(client, mode="score", players=["Ann", "Bob"])
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        ws.send_text(json.dumps({
            "type": "facts", "first": 1, "pocketed": [2], "rails": [1, 3, 4, 5],
            "off_table": [6], "push_out": False,
        }))  # fmt: skip
        ruling = ws.receive_json()["ruling"]
        assert [f["clause"] for f in ruling["fouls"]] == [10]


def test_the_computer_breaks_when_it_is_to_break(client: TestClient) -> None:
    created = _new(
        client, mode="computer", players=["Ann", "Computer"], first_breaker=1, rules="fr"
    )
    with client.websocket_connect("/ws") as ws:
        state = _join(ws, created["match"], created["tokens"]["0"])
        assert state["state"]["phase"] == "break"
        assert state["state"]["to_act"] == 1
        shot = ws.receive_json()
        assert shot["type"] == "shot"
        assert shot["ruling"]["kind"] == "break"
        assert shot["ruling"]["shooter"] == 1


def test_scorekeeper_clause_11_an_obstructing_ball_moved(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    with TestClient(create_app(db, warm_up=False, allowed_hosts=TEST_HOSTS)) as client:
        created = _new(client, mode="score", players=["Ann", "Bob"])
        with client.websocket_connect("/ws") as ws:
            _join(ws, created["match"], created["tokens"]["both"])
            facts = {"type": "facts", "first": 1, "pocketed": [3], "rails": [], "push_out": False}
            assert _send(ws, **facts)["ruling"]["legal"]  # a legal break, the 3 down
            reply = _send(ws, **facts | {"pocketed": [], "rails": [0], "obstruction_moved": True})
            assert reply["ruling"]["fouls"] == [{"code": "obstruction_moved", "clause": 11}]
            assert reply["state"]["to_act"] == 1
            bad = _send(ws, **facts | {"pocketed": [], "obstruction_moved": "yes"})
            assert "true or false" in bad["message"]
    with (
        TestClient(create_app(db, warm_up=False, allowed_hosts=TEST_HOSTS)) as client,
        client.websocket_connect("/ws") as ws,
    ):
        state = _join(ws, created["match"], created["tokens"]["both"])
        assert [h["fouls"] for h in state["history"]][-1][0]["clause"] == 11
        assert state["state"]["to_act"] == 1


def test_a_jumped_cue_ball_off_the_table_is_ruled_from_the_physics(client: TestClient) -> None:
    # Practice: the 9 near the foot-right corner, the cue ball just behind it. A stroke with the
    # cue raised 45 degrees sends the 9 in, and the cue ball, bouncing off the slate, leaves
    # the table over the foot rail: clause 10, so the 9 is respotted and the cue ball in hand.
    created = _new(client, mode="practice")
    cue, nine = (1.13, 2.2976), (1.17, 2.367)
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        _send(ws, type="setup", balls={"0": list(cue), "9": list(nine)})
        aim = math.atan2(nine[1] - cue[1], nine[0] - cue[0])
        shot = _send(ws, type="strike", speed=4.0, aim=aim, elevation=math.radians(45),
                     side=0.0, height=0.0, push_out=False)  # fmt: skip
    assert shot["type"] == "shot"
    cue_ball = shot["trajectory"]["balls"]["0"]
    assert cue_ball["off_table_at"] is not None
    assert shot["trajectory"]["balls"]["9"]["pocket"] == "foot_right"
    # It left the cloth at the stroke: the page draws its height (z0, vz, az of each piece).
    assert cue_ball["pieces"][0][9] > 0.0
    ruling = shot["ruling"]
    assert ruling["fouls"] == [{"code": "cue_ball_off_table", "clause": 10}]
    assert ruling["respotted"] == [9]
    assert ruling["game_over"] is None
    # The page's state: the cue ball is off the table and in hand, the 9 back on its spot.
    assert "0" not in shot["layout"]
    assert shot["in_hand"] is True
    assert shot["state"]["cue_ball"] == "anywhere"
    assert shot["state"]["on_table"] == [9]
    assert shot["layout"]["9"] != list(nine)


def test_practice_moves_a_ball_on_the_table_and_keeps_the_referee_state(
    client: TestClient,
) -> None:
    created = _new(client, mode="practice")
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        _send(ws, type="setup", balls={"0": [0.6, 0.5], "3": [0.6, 1.4], "9": [0.4, 2.2]})
        update = _send(ws, type="move_ball", ball=3, x=0.3, y=1.2)
        assert update["layout"]["3"] == [0.3, 1.2]
        assert update["state"]["on_table"] == [3, 9]
        assert "touch" in _send(ws, type="move_ball", ball=3, x=0.6, y=0.51)["message"]
        assert _send(ws, type="undo")["layout"]["3"] == [0.6, 1.4]
