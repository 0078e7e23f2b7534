"""Hostile input, foreign pages and a slow computer: regressions of issue 16 (one test each)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.request
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from nineball.web import server as server_module
from nineball.web.app import MAX_BODY_BYTES, BodyTooLarge, create_app, read_body
from nineball.web.guard import LOOPBACK_HOSTS, served_hosts
from nineball.web.session import GameSession
from tests.web.conftest import TEST_HOSTS


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"race_to": 1, "seed": 5} | body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _still_open(ws: Any) -> None:
    """The connection answers (a pong once joined, else the request to join first)."""
    ws.send_text('{"type": "ping"}')
    assert ws.receive_json() in (
        {"type": "pong"},
        {"type": "error", "message": "join a match first"},
    )


def test_every_bad_frame_gets_an_error_and_the_connection_stays_open(client: TestClient) -> None:
    created = _new(client, mode="local")
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "match": created["match"], "token": None}))
        assert ws.receive_json()["type"] == "state"
        cases: list[tuple[str | bytes, str]] = [
            (b"\xff\xfe{", "binary frame"),  # invalid UTF-8, and binary
            (b'{"type": "ping"}', "binary frame"),
            ("[" * 2000 + "]" * 2000, "nested too deeply"),
            ('{"type": "ping", "deep": ' + "[" * 900 + "]" * 900 + "}", "recursion limit"),
            ('{"type": "place", "x": ' + "9" * 400 + ', "y": 1}', "place: x"),
            ('{"type": "remove_ball", "ball": ' + "9" * 400 + "}", "remove_ball: ball"),
            ("x" * 3 * 2**20, "too long"),  # megabytes
            ('{"type": "join", "match": "\\ud800"}', "lone surrogate"),
            ('{"type": "place", "\\udfff": 1}', "lone surrogate"),
        ]
        for frame, words in cases:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            answer = ws.receive_json()
            assert answer["type"] == "error"
            assert words in answer["message"], (frame[:40], answer)
            assert "internal" not in answer["message"]
            _still_open(ws)


def test_http_hostile_bodies_and_ids_get_4xx_not_500(tmp_path: Path) -> None:
    app = create_app(tmp_path / "web.sqlite3", warm_up=False, allowed_hosts=TEST_HOSTS)
    with TestClient(app, raise_server_exceptions=False) as client:
        deep = client.post("/api/matches", content=b"[" * 2000 + b"]" * 2000)
        assert deep.status_code == 400
        assert "nested too deeply" in deep.json()["error"]
        lone = client.post(
            "/api/matches", content=b'{"mode": "local", "players": ["A\\ud800", "B"]}'
        )
        assert lone.status_code == 400
        assert "lone surrogate" in lone.json()["error"]
        for overflow in ("9223372036854775808", "9" * 400, "-1", "abc", "1e3", "\u0661"):
            missing = client.get(f"/api/matches/{overflow}")
            assert missing.status_code == 404, (overflow, missing.text)
            assert "no match" in missing.json()["error"]
            assert overflow[:20] in missing.json()["error"]  # the bad value, named
        assert client.get("/api/matches/9223372036854775807").status_code == 404
        for hidden in ("/openapi.json", "/docs", "/redoc"):
            assert client.get(hidden).status_code == 404
        assert client.get("/api/matches").json() == {"matches": []}  # nothing was created


def _run(coroutine: Any) -> Any:
    """Run a coroutine in a thread of its own (Playwright's tests leave a loop in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_the_body_limit_applies_while_it_streams() -> None:
    chunks_sent = 0

    def request(chunks: int, headers: list[tuple[bytes, bytes]]) -> Request:
        async def receive() -> dict[str, Any]:
            nonlocal chunks_sent
            chunks_sent += 1
            return {"type": "http.request", "body": b"x" * 1024, "more_body": chunks_sent < chunks}

        scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
        return Request(scope, receive)

    with pytest.raises(BodyTooLarge, match="over 4096"):
        _run(read_body(request(10_000, [])))  # 10 MB announced by no header
    assert chunks_sent <= MAX_BODY_BYTES // 1024 + 1  # read no further than the limit + 1 chunk
    chunks_sent = 0
    with pytest.raises(BodyTooLarge, match="99999999"):
        _run(read_body(request(1, [(b"content-length", b"99999999")])))
    assert chunks_sent == 0  # refused on its Content-Length, before any byte
    with pytest.raises(BodyTooLarge):
        _run(read_body(request(1, [(b"content-length", b"9" * 400)])))
    assert _run(read_body(request(2, [(b"content-length", b"2048")]))) == b"x" * 2048


def test_foreign_origins_and_hosts_are_refused(client: TestClient) -> None:
    body = {"mode": "local"}
    foreign = client.post("/api/matches", json=body, headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert "evil.example" in foreign.json()["error"]
    assert client.post("/api/matches", json=body, headers={"origin": "null"}).status_code == 403
    rebound = client.post("/api/matches", json=body, headers={"host": "evil.example:80"})
    assert rebound.status_code == 400
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/api/matches").json() == {"matches": []}  # none of them created a match
    same = client.post("/api/matches", json=body, headers={"origin": "http://testserver"})
    assert same.status_code == 200
    assert client.post("/api/matches", json=body).status_code == 200  # no Origin: not a page
    foreign_page = {"origin": "http://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws", headers=foreign_page),
    ):
        pass
    assert refused.value.code == 1008
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        _still_open(ws)


def test_the_default_app_serves_loopback_names_only(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "web.sqlite3", warm_up=False)) as client:
        assert client.get("/").status_code == 400  # Host: testserver
        assert client.get("/", headers={"host": "127.0.0.1:8000"}).status_code == 200
        assert client.get("/", headers={"host": "[::1]:8000"}).status_code == 200
    assert served_hosts("127.0.0.1") == LOOPBACK_HOSTS
    every = served_hosts("0.0.0.0", ["pool.lan"])
    assert {"pool.lan", socket.gethostname().lower()} | LOOPBACK_HOSTS <= every


def _slow(seconds: float, calls: list[float]) -> Any:
    def wrap(method: Any) -> Any:
        def slow(*args: Any) -> Any:
            calls.append(time.monotonic())
            time.sleep(seconds)  # a search that holds the GIL-free wait of a real one
            return method(*args)

        return slow

    return wrap


def test_a_computer_turn_and_an_analysis_do_not_block_other_pages(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[float] = []
    slow = _slow(0.8, started)
    monkeypatch.setattr(GameSession, "computer_decision", slow(GameSession.computer_decision))
    monkeypatch.setattr(GameSession, "analysis", slow(GameSession.analysis))
    computer = _new(client, mode="computer", players=["Ann", "Cpu"], first_breaker=1)
    practice = _new(client, mode="practice")
    with client.websocket_connect("/ws") as other, client.websocket_connect("/ws") as busy:
        busy.send_text(json.dumps({"type": "join", "match": computer["match"], "token": None}))
        assert busy.receive_json()["type"] == "state"  # then the computer's break is searched
        deadline = time.monotonic() + 5
        while not started and time.monotonic() < deadline:
            time.sleep(0.01)
        begin = time.monotonic()
        _still_open(other)
        assert time.monotonic() - begin < 0.5  # answered while the search runs
        assert busy.receive_json()["type"] == "shot"  # the break, once searched
        other.send_text(
            json.dumps(
                {"type": "join", "match": practice["match"], "token": practice["tokens"]["both"]}
            )
        )
        assert other.receive_json()["type"] == "state"
        other.send_text('{"type": "analysis"}')
        while len(started) < 2:
            time.sleep(0.01)
        with client.websocket_connect("/ws") as third:
            begin = time.monotonic()
            _still_open(third)
            assert time.monotonic() - begin < 0.5
        assert other.receive_json()["type"] == "analysis"


def test_one_sessions_actions_wait_for_its_computer_turn(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[float] = []
    monkeypatch.setattr(
        GameSession, "computer_decision", _slow(0.4, started)(GameSession.computer_decision)
    )
    created = _new(client, mode="computer", players=["Ann", "Cpu"], first_breaker=1)
    with client.websocket_connect("/ws") as watcher, client.websocket_connect("/ws") as ann:
        watcher.send_text(json.dumps({"type": "join", "match": created["match"], "token": None}))
        assert watcher.receive_json()["type"] == "state"
        while not started:
            time.sleep(0.01)
        ann.send_text(
            json.dumps({"type": "join", "match": created["match"], "token": created["tokens"]["0"]})
        )
        assert ann.receive_json()["type"] == "state"
        ann.send_text('{"type": "forfeit"}')  # during the computer's search: waits for it
        first = ann.receive_json()
        assert first["type"] == "shot"  # the computer's break came first, whole
        assert ann.receive_json()["type"] in ("ruling", "error", "shot")


def test_the_url_is_printed_only_once_the_server_listens(monkeypatch: pytest.MonkeyPatch) -> None:
    @asynccontextmanager
    async def slow_start(_: FastAPI) -> AsyncIterator[None]:
        await asyncio.sleep(0.5)  # as the physics compiling on an empty numba cache
        yield

    app = FastAPI(lifespan=slow_start)

    @app.get("/")
    async def index() -> dict[str, str]:
        return {"ok": "yes"}

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    answers: list[int] = []
    announced = threading.Event()

    def announce() -> None:
        with urllib.request.urlopen(url, timeout=5) as response:
            answers.append(response.status)
        announced.set()

    server_module.when_started(server, announce)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert announced.wait(30)
        assert answers == [200]
    finally:
        server.should_exit = True
        thread.join(10)


def test_every_interface_prints_a_usable_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "network_address", lambda: "192.0.2.7")
    server, sock, url = server_module.make_server(
        "0.0.0.0", 0, store_path=tmp_path / "web.sqlite3", allow_network=True
    )
    port = sock.getsockname()[1]
    sock.close()
    assert url == f"http://192.0.2.7:{port}/"  # not 127.0.0.1, which no other machine can use
    with TestClient(cast(FastAPI, server.config.app)) as client:
        assert client.get("/", headers={"host": "192.0.2.7:8000"}).status_code == 200
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400


def test_a_real_server_answers_a_megabyte_message_and_refuses_a_foreign_page(
    tmp_path: Path,
) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from tests.web.conftest import start_in_thread

    server, sock, url = server_module.make_server("127.0.0.1", 0, store_path=tmp_path / "w.db")
    thread = start_in_thread(server, sock)
    ws_url = url.replace("http", "ws") + "ws"
    try:
        with connect(ws_url, max_size=None) as ws:  # no Origin: a program, not a page
            ws.send("x" * 2**20)  # uvicorn used to close the connection here (code 1009)
            assert "too long" in json.loads(ws.recv(timeout=30))["message"]
            ws.send(b"\xff\x00")
            assert "binary frame" in json.loads(ws.recv(timeout=30))["message"]
            ws.send('{"type": "ping"}')
            assert json.loads(ws.recv(timeout=30))["type"] == "error"  # join first: still open
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url, additional_headers={"Origin": "http://evil.example"})
        assert refused.value.response.status_code == 403
        with connect(ws_url, additional_headers={"Origin": url.rstrip("/")}) as ws:
            ws.send('{"type": "ping"}')
            assert json.loads(ws.recv(timeout=30))["type"] == "error"
    finally:
        server.should_exit = True
        thread.join(10)
