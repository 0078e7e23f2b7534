from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from nineball.web.app import create_app
from nineball.web.guard import LOOPBACK_HOSTS
from nineball.web.server import WS_FRAME_LIMIT

TEST_HOSTS = LOOPBACK_HOSTS | {"testserver"}
"""The hosts the tests' apps serve: Starlette's test client always says ``testserver``."""

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(
        create_app(tmp_path / "web.sqlite3", warm_up=False, allowed_hosts=TEST_HOSTS)
    ) as client:
        yield client


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            raise RuntimeError("apt-get install -y chromium")
        pytest.skip("Debian chromium not installed")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        # WebGL through SwiftShader (the 3D table): no --disable-gpu, which would turn it off
        "args": [
            "--no-sandbox", "--use-gl=swiftshader", "--enable-unsafe-swiftshader",
            "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run",
        ],
    }  # fmt: skip


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any], server_url: str) -> dict[str, Any]:
    """The ``page`` fixture's pages start with the 2D table chosen (remembered by the page).

    Those tests drive the 2D canvas; ``test_browser_3d.py`` opens contexts of its own, with an
    empty localStorage, where the page opens in 3D as it does for a new visitor.
    """
    remembered = {"name": "nineball.view", "value": "2d"}
    return {
        **browser_context_args,
        "storage_state": {
            "cookies": [],
            "origins": [{"origin": server_url, "localStorage": [remembered]}],
        },
    }


def serve(db: Path) -> Iterator[str]:
    """A server of the app on ``db`` in a thread, on a free port: its origin, then stopped."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(db), log_level="warning", access_log=False, ws_max_size=WS_FRAME_LIMIT
        )
    )
    thread = start_in_thread(server, sock)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("web") / "web.sqlite3")


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def start_in_thread(server: uvicorn.Server, sock: socket.socket) -> threading.Thread:
    """Run ``server`` on ``sock`` in a daemon thread; return once it has started."""
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:  # pragma: no cover
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    return thread
