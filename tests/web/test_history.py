"""The history's replay of a stored match and its statistics by opponent."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nineball.game import Store, compute_stats
from nineball.players.review import BLUNDER, MISTAKE, review
from nineball.web.app import create_app
from nineball.web.history import HUMAN, history_stats, stats_by_opponent
from tests.web.conftest import TEST_HOSTS


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"race_to": 1, "seed": 5} | body)
    assert response.status_code == 200, response.text
    return response.json()


def _break(ws: Any) -> None:
    aim = math.atan2(1.905 - 0.45, 0.635 - 0.6)
    ws.send_text(json.dumps({
        "type": "strike", "speed": 9.0, "aim": aim, "elevation": 0.0, "side": 0.0,
        "height": 0.0, "push_out": False, "cue": [0.6, 0.45],
    }))  # fmt: skip


def _play_against_the_computer(client: TestClient, name: str) -> tuple[int, list[dict[str, Any]]]:
    """Ann breaks against the ghost, which then plays until Ann is to act or it won."""
    created = _new(client, mode="computer", players=[name, "Ghost"], level="ghost")
    shots = []
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "match": created["match"],
                                 "token": created["tokens"]["0"]}))  # fmt: skip
        assert ws.receive_json()["type"] == "state"
        _break(ws)
        shots.append(ws.receive_json())
        while shots[-1]["state"]["to_act"] == 1 and shots[-1]["state"]["winner"] is None:
            shots.append(ws.receive_json())
    return created["stored_id"], shots


def test_a_stored_match_is_replayed_as_it_was_played(client: TestClient) -> None:
    stored, live = _play_against_the_computer(client, "Ann")
    reply = client.get(f"/api/matches/{stored}/replay")
    assert reply.status_code == 200
    data = reply.json()
    assert data["id"] == stored
    assert data["players"] == ["Ann", "Ghost"]
    assert data["agents"] == ["human", "ghost"]
    assert data["table"]["width"] == 1.27
    shots = data["shots"]
    assert len(shots) == len(live)
    for replayed, shot in zip(shots, live, strict=True):
        # the same physics from the same rack and placement: the page sees the very same shot
        assert replayed["type"] == shot["type"]
        assert replayed["trajectory"] == shot["trajectory"]
        assert replayed["start"] == shot["start"]
        assert replayed["layout"] == shot["layout"]
        assert replayed["ruling"] == shot["ruling"]
        assert replayed["state"] == shot["state"]
    assert (shots[0]["game"], shots[0]["shot"]) == (1, 1)
    assert len(shots[0]["start"]) == 10  # the rack and the cue ball where it was placed
    # the layout a shot leaves is where the next one starts (the cue ball not in hand)
    for before, after in itertools.pairwise(shots):
        if after["shot"] > 1 and not before["ruling"]["fouls"]:
            assert before["layout"] == after["start"]


def _scored_match(client: TestClient) -> dict[str, Any]:
    """A match kept by hand with one entry (a legal stroke pocketing the 3): its creation."""
    created = _new(client, mode="score", players=["Ann", "Bob"])
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "match": created["match"],
                                 "token": created["tokens"]["both"]}))  # fmt: skip
        ws.receive_json()
        ws.send_text(json.dumps({"type": "facts", "first": 1, "pocketed": [3], "rails": [],
                                 "push_out": False}))  # fmt: skip
        assert ws.receive_json()["type"] == "ruling"
    return created


@pytest.mark.parametrize("view", ["replay", "review"])
def test_a_replay_or_review_of_no_match_is_a_404_with_a_reason(
    client: TestClient, view: str
) -> None:
    for match_id, words in [
        ("999", "999"),
        ("abc", "whole number"),
        ("9223372036854775808", "below 2^63"),
        ("-1", "whole number"),
    ]:
        reply = client.get(f"/api/matches/{match_id}/{view}")
        assert reply.status_code == 404, match_id
        assert words in reply.json()["error"], match_id


def test_a_scored_match_is_replayed_as_its_rulings(client: TestClient) -> None:
    created = _scored_match(client)
    shots = client.get(f"/api/matches/{created['stored_id']}/replay").json()["shots"]
    assert [s["type"] for s in shots] == ["ruling"]
    assert "trajectory" not in shots[0]
    assert shots[0]["ruling"]["kind"] == "break"


def test_the_statistics_by_opponent(client: TestClient, tmp_path: Path) -> None:
    _play_against_the_computer(client, "Ann")
    _play_against_the_computer(client, "Cy")
    created = _new(client, mode="local", players=["Dee", "Eve"])
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "match": created["match"],
                                 "token": created["tokens"]["both"]}))  # fmt: skip
        ws.receive_json()
        _break(ws)
        ws.receive_json()
    rows = client.get("/api/stats").json()["by_opponent"]
    # people first, then the levels: Dee and Eve faced a person; Ann, Cy a ghost, the ghost both
    assert [r["opponent"] for r in rows] == [HUMAN, "ghost"]
    human, ghost = rows
    by_name = client.get("/api/stats").json()["players"]
    named = {p["name"]: p for p in by_name}
    for key in ("strokes", "games_played", "games_won", "fouls", "balls_pocketed", "innings"):
        assert ghost[key] == named["Ann"][key] + named["Cy"][key], key
        # the ghost's own strokes count under "human": it faced Ann and Cy
        assert human[key] == named["Dee"][key] + named["Eve"][key] + named["Ghost"][key], key
    assert ghost["matches_played"] == 2
    assert human["matches_played"] == 4  # Dee's, Eve's, and the ghost's two
    assert ghost["balls_per_inning"] == round(ghost["balls_pocketed"] / ghost["innings"], 4)


def test_stats_by_opponent_sums_each_seat_under_the_other_agent(tmp_path: Path) -> None:
    assert stats_by_opponent([]) == []
    # straight from the records: the function the route uses, against compute_stats per name
    db = tmp_path / "web.sqlite3"
    with TestClient(create_app(db, warm_up=False, allowed_hosts=TEST_HOSTS)) as client:
        _play_against_the_computer(client, "Ann")
    with Store(db) as store:
        records = [store.load(m.id) for m in store.matches()]
    (ghost_row,) = [r for r in stats_by_opponent(records) if r["opponent"] == "ghost"]
    ann = compute_stats(records)["Ann"].as_row()
    assert {k: v for k, v in ghost_row.items() if k != "opponent"} == {
        k: v for k, v in ann.items() if k != "name"
    }


def test_the_history_totals_are_compute_stats_over_every_record(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    with TestClient(create_app(db, warm_up=False, allowed_hosts=TEST_HOSTS)) as client:
        _play_against_the_computer(client, "Ann")
        _play_against_the_computer(client, "Ann")
        _play_against_the_computer(client, "Cy")
    with Store(db) as store:
        records = [store.load(m.id) for m in store.matches()]
    got = history_stats(records)
    want = compute_stats(records)
    players: list[dict[str, Any]] = got["players"]  # type: ignore[assignment]
    assert [p["name"] for p in players] == sorted(want)
    for row in players:
        stats = want[row["name"]]
        assert row == {**stats.as_row(), "balls_per_inning": stats.balls_per_inning}
    assert got["by_opponent"] == stats_by_opponent(records)
    assert want["Ann"].matches_played == 2


def test_a_stored_match_is_reviewed_entry_by_entry(client: TestClient, tmp_path: Path) -> None:
    stored, live = _play_against_the_computer(client, "Ann")
    reply = client.get(f"/api/matches/{stored}/review")
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["id"] == stored
    assert data["players"] == ["Ann", "Ghost"]
    assert data["race_to"] == 1
    assert (data["mistake"], data["blunder"]) == (MISTAKE, BLUNDER)
    shots = data["shots"]
    # one entry of the review for each entry of the record, in the replay's order
    replayed = client.get(f"/api/matches/{stored}/replay").json()["shots"]
    assert len(shots) == len(live) == len(replayed) > 0
    assert [(s["game"], s["shot"]) for s in shots] == [(r["game"], r["shot"]) for r in replayed]
    assert [s["player"] for s in shots] == [r["ruling"]["shooter"] for r in replayed]
    assert shots[0]["kind"] == "break"
    assert shots[0]["name"] == "Ann"
    for s in shots:
        for key in ("before", "after", "match_before", "match_after"):
            assert 0.0 <= s[key] <= 1.0, (key, s)
        assert s["change"] == pytest.approx(s["after"] - s["before"], abs=2e-4)
        assert s["mark"] in (None, "mistake", "blunder")
    # the review module's own figures, read from the store: nothing re-derived on the way
    with Store(tmp_path / "web.sqlite3") as store:
        record = store.load(stored)
    assert shots == review(record).to_json()["shots"]
    assert data["level"] is None
    assert all(s["alternative"] is None for s in shots)
    # with a level, each stroke against its best shot: the review module's figures again
    judged = client.get(f"/api/matches/{stored}/review", params={"level": "beginner"})
    assert judged.status_code == 200, judged.text
    assert judged.json()["level"] == "beginner"
    assert judged.json()["shots"] == review(record, level="beginner").to_json()["shots"]
    strokes = [s for s in judged.json()["shots"] if s["kind"] in ("shot", "safety")]
    assert strokes
    assert all(s["alternative"]["level"] == "beginner" for s in strokes)
    refused = client.get(f"/api/matches/{stored}/review", params={"level": "ghost"})
    assert refused.status_code == 422
    assert "unknown level 'ghost'" in refused.json()["error"]


def test_a_match_kept_by_hand_cannot_be_reviewed_and_says_why(client: TestClient) -> None:
    created = _scored_match(client)
    stored = created["stored_id"]
    assert client.get(f"/api/matches/{stored}/replay").status_code == 200  # replayed, yes
    reply = client.get(f"/api/matches/{stored}/review")
    assert reply.status_code == 422
    error = reply.json()["error"]
    assert f"match {stored} cannot be reviewed" in error
    assert "no layouts" in error
