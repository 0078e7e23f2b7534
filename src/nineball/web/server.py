"""Serve the web game: a free port on the loopback interface unless told otherwise."""

from __future__ import annotations

import ipaddress
import math
import socket
import threading
import webbrowser
from pathlib import Path

import uvicorn

from nineball.errors import InvalidInputError
from nineball.web.app import create_app
from nineball.web.protocol import MAX_MESSAGE_BYTES
from nineball.web.registry import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_SESSIONS

__all__ = ["LOOPBACK", "is_loopback", "make_server", "serve"]

LOOPBACK = "127.0.0.1"
"""The default host: only this machine can reach the server."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_server(
    host: str = LOOPBACK,
    port: int = 0,
    *,
    store_path: Path | str | None = None,
    allow_network: bool = False,
    access_log: bool = False,
    idle_seconds: float = DEFAULT_IDLE_SECONDS,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
) -> tuple[uvicorn.Server, socket.socket, str]:
    """A server bound to ``host:port``, not yet running: the server, its socket and its URL.

    Run it with ``server.run(sockets=[sock])``. Secret links carry their token in the URL's
    fragment, which browsers never send, so even an access log holds no token.

    Args:
        host: the interface to listen on.
        port: the port (0: a free one).
        store_path: the database (default: ``$NINEBALL_DB``, else the data directory).
        allow_network: accept a host other than loopback (when the user asked for it).
        access_log: log every request line.
        idle_seconds: forget a session from memory after this long without activity (s).
        max_sessions: the most sessions kept in memory.

    Raises:
        InvalidInputError: a non-loopback host without ``allow_network``, a bad port or limit.
        OSError: the address cannot be bound.
    """
    if not is_loopback(host) and not allow_network:
        raise InvalidInputError(f"host {host!r} is not loopback: pass --host to serve a network")
    if not 0 <= port <= 65535:
        raise InvalidInputError(f"port must be in 0..65535, got {port!r}")
    if not (math.isfinite(idle_seconds) and idle_seconds > 0) or max_sessions < 1:
        raise InvalidInputError(
            f"the idle time and the session cap must be positive, got {idle_seconds!r} s"
            f" and {max_sessions!r}"
        )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound}/"
    app = create_app(store_path, idle_seconds=idle_seconds, max_sessions=max_sessions)
    config = uvicorn.Config(
        app, log_level="info" if access_log else "warning", access_log=access_log,
        ws_max_size=MAX_MESSAGE_BYTES,
    )  # fmt: skip
    return uvicorn.Server(config), sock, url


def serve(
    host: str = LOOPBACK,
    port: int = 0,
    *,
    open_browser: bool = True,
    store_path: Path | str | None = None,
    allow_network: bool = False,
    idle_seconds: float = DEFAULT_IDLE_SECONDS,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
) -> None:
    """Run the server until interrupted; print its URL and open a browser on it.

    Args:
        host: the interface to listen on.
        port: the port (0: a free one).
        open_browser: open the default browser, where there is one.
        store_path: the database (default: ``$NINEBALL_DB``, else the data directory).
        allow_network: accept a host other than loopback (when the user asked for it).
        idle_seconds: forget a session from memory after this long without activity (s).
        max_sessions: the most sessions kept in memory.

    Raises:
        InvalidInputError: a non-loopback host without ``allow_network``, or a bad port.
    """
    server, sock, url = make_server(
        host, port, store_path=store_path, allow_network=allow_network,
        idle_seconds=idle_seconds, max_sessions=max_sessions,
    )  # fmt: skip
    print(f"nineball is served at {url}  (Ctrl-C to stop)", flush=True)
    if open_browser:
        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    server.run(sockets=[sock])
