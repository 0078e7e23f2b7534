"""Fuzz: random and hostile messages through the WebSocket and the HTTP API.

Every refusal is an error message on a connection that stays open, and leaves the session's
snapshot exactly as it was; no request gets a 500. (The soak, ``benchmarks/soak_web.py``, sends
the same kinds of message by the hundred thousand.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nineball.web.app import create_app
from tests.web.conftest import TEST_HOSTS
from tests.web.hostile import MODES, Prober, hostile_frame


@pytest.fixture(scope="module")
def prober(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prober]:
    db = tmp_path_factory.mktemp("fuzz") / "web.sqlite3"
    app = create_app(Path(db), warm_up=False, allowed_hosts=TEST_HOSTS)
    with TestClient(app, raise_server_exceptions=False) as client:
        probe = Prober(client, app)
        yield probe
        probe.close()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_a_refused_message_changes_nothing_and_keeps_the_connection(
    prober: Prober, seed: int, mode: str
) -> None:
    rng = random.Random(seed)
    for _ in range(6):
        prober.send(mode, hostile_frame(rng, prober.sessions[mode][0]))
    assert prober.tally.problems == []


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1))
def test_hostile_http_requests_never_get_a_500(prober: Prober, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(4):
        prober.send_http(rng)
    assert prober.tally.http_500 == []
