"""The event routes through the in-process client: tokens, strict bodies, entries, polling."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nineball.tournament.overlay import set_win_probability_model, win_probability
from nineball.web.events import PAGES


def _new(client: TestClient, players: int = 4, **settings: Any) -> dict[str, Any]:
    body = {"name": "Open", "date": "2026-12-10", "tables": 2, "race_to": 2} | settings
    created = client.post("/api/events", json=body)
    assert created.status_code == 200, created.json()
    event = created.json()
    for i in range(players):
        body = {"token": event["token"], "name": f"P{i}", "rating": 400 + i}
        reply = client.post(f"/api/events/{event['id']}/players", json=body)
        assert reply.status_code == 200
    return event


def _entry(match: dict[str, Any], kind: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": uuid.uuid4().hex,
        "match": match["key"],
        "seq": match["seq"],
        "kind": kind,
    } | fields


def test_every_page_is_served(client: TestClient) -> None:
    for page in PAGES:
        reply = client.get(f"/event/{page}")
        assert reply.status_code == 200
        assert "<!doctype html>" in reply.text
    assert client.get("/event/secret").status_code == 404


def test_an_organiser_builds_and_starts_an_event(client: TestClient) -> None:
    event = _new(client, players=5, shot_clock={"seconds": 25, "extension": 20, "extensions": 2})
    base = f"/api/events/{event['id']}"
    board = client.get(base).json()
    assert [p["name"] for p in board["players"]] == ["P0", "P1", "P2", "P3", "P4"]
    assert board["event"]["started"] is False
    assert board["event"]["shot_clock"]["seconds"] == 25
    # A wrong token changes nothing (403); a table's token is not the organiser's.
    for token in ("nope", event["tables"]["1"]):
        assert client.post(f"{base}/start", json={"token": token}).status_code == 403
    assert (
        client.post(
            f"{base}/players/remove", json={"token": event["token"], "number": 5}
        ).status_code
        == 200
    )
    started = client.post(f"{base}/start", json={"token": event["token"]})
    assert started.status_code == 200
    board = started.json()["board"]
    assert board["event"]["started"]
    assert [t["match"] for t in board["tables"]] == ["W1-1", "W1-2"]
    # Once started: no more players, and the same settings but the tables.
    late = client.post(f"{base}/players", json={"token": event["token"], "name": "Late"})
    assert late.status_code == 409
    assert "has started" in late.json()["error"]
    links = client.post(f"{base}/links", json={"token": event["token"]}).json()
    assert links["tables"] == event["tables"]
    assert client.get("/api/events").json()["events"][0]["started"] is True


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"name": "X"}, "missing field 'date'"),
        ({"name": "X", "date": "2026-12-10", "colour": "red"}, "unknown field 'colour'"),
        ({"name": "X", "date": "2026-12-10", "race_to": "5"}, "race_to"),
        ({"name": "X", "date": "2026-12-10", "race_to": 0}, "race_to must be"),
        ({"name": "X", "date": "2026-13-40"}, "ISO 8601"),
        ({"name": "X", "date": "2026-12-10", "format": "swiss"}, "format"),
        ({"name": "X", "date": "2026-12-10", "shot_clock": {"seconds": 2}}, "shot clock"),
    ],
)
def test_a_bad_event_is_refused_naming_the_field(
    client: TestClient, body: dict[str, Any], said: str
) -> None:
    reply = client.post("/api/events", json=body)
    assert reply.status_code == 400
    assert said in reply.json()["error"]


def test_entries_are_applied_once_in_order_and_the_board_polls_by_revision(
    client: TestClient,
) -> None:
    event = _new(client)
    base = f"/api/events/{event['id']}"
    client.post(f"{base}/start", json={"token": event["token"]})
    revision = client.get(base).json()["event"]["revision"]
    assert client.get(f"{base}?since={revision}").json() == {
        "unchanged": True,
        "revision": revision,
    }
    match = client.get(f"{base}/tables/1").json()["match"]
    start = _entry(match, "start", mode="quick", first_breaker=0)
    first = _entry(match | {"seq": 1}, "rack", winner=1)
    body = {"token": event["tables"]["1"], "table": 1, "entries": [start, first, start]}
    reply = client.post(f"{base}/entries", json=body).json()
    assert [a["applied"] for a in reply["answers"]] == [True, True, False]
    assert reply["refused"] is None
    assert reply["table"]["match"]["score"] == [0, 1]
    assert reply["table"]["match"]["seq"] == 2
    # The same batch again (its answer lost): nothing applied twice.
    again = client.post(f"{base}/entries", json=body).json()
    assert [a["applied"] for a in again["answers"]] == [False, False, False]
    assert again["table"]["match"]["score"] == [0, 1]
    assert client.get(f"{base}?since={revision}").json()["event"]["revision"] > revision
    # A stale entry is refused (409) and the rest of its batch is not tried.
    stale = _entry(match | {"seq": 1}, "rack", winner=0)
    later = _entry(match | {"seq": 2}, "rack", winner=0)
    reply = client.post(f"{base}/entries", json={**body, "entries": [stale, later]}).json()
    assert reply["answers"] == []
    assert reply["refused"]["status"] == 409
    assert reply["refused"]["entry"] == stale["id"]
    # Another table's token cannot score this table; a bad entry is named.
    wrong = client.post(
        f"{base}/entries", json={**body, "token": event["tables"]["2"], "entries": [later]}
    )
    assert wrong.status_code == 403
    bad = client.post(f"{base}/entries", json={**body, "entries": [{**later, "winner": 3}]}).json()
    assert "winner is player 0 or 1" in bad["refused"]["error"]
    huge = client.post(f"{base}/entries", json={**body, "entries": [later] * 201})
    assert huge.status_code == 400


def test_the_shot_clock_of_a_table(client: TestClient) -> None:
    event = _new(client, shot_clock={"seconds": 30, "extension": 15, "extensions": 1})
    base = f"/api/events/{event['id']}"
    client.post(f"{base}/start", json={"token": event["token"]})
    token = event["tables"]["1"]
    started = client.post(f"{base}/clock", json={"token": token, "table": 1, "action": "start"})
    assert started.json()["clock"]["running"] is True
    extended = client.post(
        f"{base}/clock", json={"token": token, "table": 1, "action": "extend", "seat": 0}
    )
    clock = extended.json()["clock"]
    assert clock["extensions_left"] == [0, 1]
    assert clock["remaining"] > 40
    again = client.post(
        f"{base}/clock", json={"token": token, "table": 1, "action": "extend", "seat": 0}
    )
    assert again.status_code == 409
    assert "no extension left" in again.json()["error"]
    assert client.get(f"{base}/tables/1").json()["clock"]["extensions_left"] == [0, 1]
    assert (
        client.post(
            f"{base}/clock", json={"token": token, "table": 2, "action": "stop"}
        ).status_code
        == 403
    )


def test_a_whole_small_event_then_its_exports(client: TestClient) -> None:
    event = _new(client, players=3, tables=1)
    base = f"/api/events/{event['id']}"
    client.post(f"{base}/start", json={"token": event["token"]})
    token = event["tables"]["1"]
    for _ in range(40):
        table = client.get(f"{base}/tables/1").json()
        match = table["match"]
        if match is None:
            break
        kind = (
            {"kind": "start", "mode": "quick", "first_breaker": 0}
            if match["mode"] is None
            else {"kind": "rack", "winner": 0}
        )
        entry = _entry(match, kind.pop("kind"), **kind)
        assert (
            client.post(
                f"{base}/entries", json={"token": token, "table": 1, "entries": [entry]}
            ).json()["refused"]
            is None
        )
    board = client.get(base).json()
    assert board["event"]["over"]
    assert board["placings"][0]["place"] == 1
    player = client.get(f"{base}/players/{board['placings'][0]['number']}").json()
    assert player["place"] == 1
    assert player["now"] is None
    csv = client.get(f"{base}/results.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.count("\n") >= 3
    report = client.get(f"{base}/report").json()
    assert report["totals"]["matches"] == len(
        [m for m in board["matches"] if m["standing"] == "done"]
    )
    pdf = client.get(f"{base}/matches/W1-2/scoresheet.pdf")
    assert pdf.status_code == 200
    assert pdf.content.startswith(b"%PDF")
    assert client.get(f"{base}/matches/Z9/scoresheet.pdf").status_code == 404
    assert client.get("/api/events/99").status_code == 404
    assert client.get("/api/events/abc").status_code == 404


def test_a_post_from_another_site_is_refused(client: TestClient) -> None:
    event = _new(client, players=2)
    reply = client.post(
        f"/api/events/{event['id']}/start",
        json={"token": event["token"]},
        headers={"Origin": "http://evil.example"},
    )
    assert reply.status_code == 403


def test_the_win_probability_slot_stays_empty_without_a_model_and_a_layout() -> None:
    from nineball.game import Match, MatchConfig, Stroke

    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=1)
    match.place_cue_ball((0.635, 0.4))
    match.strike(Stroke(speed=9.0, aim=1.5708))
    assert win_probability(match.record) is None  # no model
    set_win_probability_model(lambda record, state: 0.7)
    try:
        assert win_probability(match.record) == pytest.approx((0.7, 0.3))  # a simulated layout
        hand = match.record.__class__(config=match.record.config)  # no stroke: no layout
        assert win_probability(hand) is None
    finally:
        set_win_probability_model(None)
