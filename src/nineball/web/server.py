"""Serve the web game: a free port on the loopback interface unless told otherwise."""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from pathlib import Path

import uvicorn

from nineball.errors import InvalidInputError
from nineball.web.app import create_app
from nineball.web.protocol import MAX_MESSAGE_BYTES

__all__ = ["LOOPBACK", "is_loopback", "serve"]

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


def serve(
    host: str = LOOPBACK,
    port: int = 0,
    *,
    open_browser: bool = True,
    store_path: Path | str | None = None,
    allow_network: bool = False,
) -> None:
    """Run the server until interrupted; print its URL and open a browser on it.

    Args:
        host: the interface to listen on.
        port: the port (0: a free one).
        open_browser: open the default browser, where there is one.
        store_path: the database (default: ``$NINEBALL_DB``, else the data directory).
        allow_network: accept a host other than loopback (when the user asked for it).

    Raises:
        InvalidInputError: a non-loopback host without ``allow_network``, or a bad port.
    """
    if not is_loopback(host) and not allow_network:
        raise InvalidInputError(f"host {host!r} is not loopback: pass --host to serve a network")
    if not 0 <= port <= 65535:
        raise InvalidInputError(f"port must be in 0..65535, got {port!r}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound}/"
    config = uvicorn.Config(
        create_app(store_path),
        log_level="warning",
        access_log=False,
        ws_max_size=MAX_MESSAGE_BYTES,
    )
    server = uvicorn.Server(config)
    print(f"nineball is served at {url}  (Ctrl-C to stop)", flush=True)
    if open_browser:
        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    server.run(sockets=[sock])
