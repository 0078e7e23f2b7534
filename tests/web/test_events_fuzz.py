"""Hostile requests to the event routes: never a 500, and a refusal changes nothing."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nineball.web.app import create_app
from tests.web.conftest import TEST_HOSTS
from tests.web.hostile import _junk

_ROUTES = ("players", "players/remove", "settings", "start", "links", "entries", "clock")
_KINDS = ("start", "rack", "shot", "choice", "forfeit", "undo", "award", "nonsense")


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    db = tmp_path_factory.mktemp("events") / "fuzz.sqlite3"
    app = create_app(Path(db), warm_up=False, allowed_hosts=TEST_HOSTS)
    with TestClient(app, raise_server_exceptions=False) as client:
        created = client.post(
            "/api/events",
            json={
                "name": "Fuzz",
                "date": "2026-12-10",
                "tables": 2,
                "race_to": 3,
                "shot_clock": {"seconds": 20},
            },
        ).json()
        for name in ("Ann", "Bob", "Cy", "Dee"):
            client.post(
                f"/api/events/{created['id']}/players",
                json={"token": created["token"], "name": name},
            )
        client.post(f"/api/events/{created['id']}/start", json={"token": created["token"]})
        yield client, created


def _mutated_entry(rng: random.Random, match: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "match": match["key"],
        "seq": match["seq"],
        "kind": rng.choice(_KINDS),
    }
    for name in (
        "mode",
        "first_breaker",
        "winner",
        "break_balls",
        "first",
        "pocketed",
        "rails",
        "choice",
        "seat",
        "push_out",
        "break_foul",
    ):
        if rng.random() < 0.3:
            entry[name] = _junk(rng) if rng.random() < 0.5 else rng.randrange(-1, 11)
    for name in ("id", "match", "seq", "kind"):
        if rng.random() < 0.1:
            entry[name] = _junk(rng)
    return entry


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1))
def test_hostile_event_requests_never_get_a_500_and_refusals_change_nothing(
    event: tuple[TestClient, dict[str, Any]], seed: int
) -> None:
    client, created = event
    rng = random.Random(seed)
    base = f"/api/events/{created['id']}"
    for _ in range(6):
        before = client.get(base).json()["event"]["revision"]
        route = rng.choice(_ROUTES)
        table = rng.choice([1, 2])
        if route == "entries" and rng.random() < 0.8:
            match = client.get(f"{base}/tables/{table}").json()["match"] or {
                "key": "W1-1",
                "seq": 0,
            }
            body: Any = {
                "token": created["tables"][str(table)],
                "table": table,
                "entries": [_mutated_entry(rng, match) for _ in range(rng.randrange(1, 4))],
            }
        elif rng.random() < 0.5:
            body = _junk(rng)
        else:
            body = {
                "token": rng.choice([created["token"], created["tables"]["1"], "x"]),
                str(_junk(rng, 3)): _junk(rng),
            }
        try:
            raw = json.dumps(body, allow_nan=True).encode("utf-8", "surrogatepass")
        except (ValueError, TypeError):
            raw = b"{"
        reply = client.post(
            f"{base}/{route}", content=raw, headers={"Content-Type": "application/json"}
        )
        assert reply.status_code < 500, (route, raw[:200], reply.text[:300])
        answered = reply.json()
        refused_whole = reply.status_code >= 400 or (
            route == "entries" and not answered.get("answers")
        )
        if refused_whole:
            assert client.get(base).json()["event"]["revision"] == before, (route, raw[:200])
    for path in (
        "",
        "/tables/1",
        "/tables/999",
        "/players/1",
        "/players/x",
        "/report",
        "/results.csv",
        "/matches/W1-1/scoresheet.pdf",
        "?since=abc",
    ):
        assert client.get(f"{base}{path}").status_code < 500, path
