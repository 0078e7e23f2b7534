"""Serve the web game: a free port on the loopback interface unless told otherwise.

The URL is printed, and the browser opened, only once the server accepts connections (after
its startup, which loads the compiled physics): a page never meets a server still starting.
"""

from __future__ import annotations

import ipaddress
import math
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Iterable
from pathlib import Path

import uvicorn

from nineball.errors import InvalidInputError
from nineball.web.app import create_app
from nineball.web.guard import served_hosts
from nineball.web.registry import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_SESSIONS

__all__ = [
    "LOOPBACK",
    "WS_FRAME_LIMIT",
    "is_loopback",
    "make_server",
    "network_address",
    "serve",
    "when_started",
]

LOOPBACK = "127.0.0.1"
"""The default host: only this machine can reach the server."""

WS_FRAME_LIMIT = 16 * 2**20
"""The largest WebSocket message uvicorn takes in (bytes). The protocol's own limit is far
smaller (:data:`nineball.web.protocol.MAX_MESSAGE_BYTES`): a message between the two is read
and answered with an error, the connection kept; only one over this closes it (code 1009)."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_address() -> str | None:
    """This machine's address on its network (the source of a route outwards; nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _shown_host(host: str) -> str:
    """The host to put in the printed URL: for every interface, one another machine can use."""
    if host not in ("0.0.0.0", "::"):
        return host
    address = network_address()
    if address is not None and not is_loopback(address):
        return address
    return socket.gethostname() or LOOPBACK


def make_server(
    host: str = LOOPBACK,
    port: int = 0,
    *,
    store_path: Path | str | None = None,
    allow_network: bool = False,
    access_log: bool = False,
    idle_seconds: float = DEFAULT_IDLE_SECONDS,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    allowed_hosts: Iterable[str] = (),
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
        allowed_hosts: more host names the server answers to (a DNS alias of the machine);
            it always answers to its own names and addresses (:func:`served_hosts`).

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
    shown = _shown_host(host)
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound}/"
    app = create_app(
        store_path, idle_seconds=idle_seconds, max_sessions=max_sessions,
        allowed_hosts=served_hosts(host, [*allowed_hosts, shown]),
        public_host=None if is_loopback(host) else shown,
    )  # fmt: skip
    config = uvicorn.Config(
        app, log_level="info" if access_log else "warning", access_log=access_log,
        ws_max_size=WS_FRAME_LIMIT,
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
    allowed_hosts: Iterable[str] = (),
) -> None:
    """Run the server until interrupted; once it listens, print its URL and open a browser.

    Args:
        host: the interface to listen on.
        port: the port (0: a free one).
        open_browser: open the default browser, where there is one.
        store_path: the database (default: ``$NINEBALL_DB``, else the data directory).
        allow_network: accept a host other than loopback (when the user asked for it).
        idle_seconds: forget a session from memory after this long without activity (s).
        max_sessions: the most sessions kept in memory.
        allowed_hosts: more host names the server answers to.

    Raises:
        InvalidInputError: a non-loopback host without ``allow_network``, or a bad port.
    """
    server, sock, url = make_server(
        host, port, store_path=store_path, allow_network=allow_network,
        idle_seconds=idle_seconds, max_sessions=max_sessions, allowed_hosts=allowed_hosts,
    )  # fmt: skip
    where = (
        f"on every interface, port {sock.getsockname()[1]}; " if host in ("0.0.0.0", "::") else ""
    )

    def announce() -> None:
        print(f"nineball is served {where}at {url}  (Ctrl-C to stop)", flush=True)
        if open_browser:
            webbrowser.open(url)

    print(
        "nineball: starting (the first start compiles the physics)...", file=sys.stderr, flush=True
    )
    when_started(server, announce)
    server.run(sockets=[sock])


def when_started(
    server: uvicorn.Server, then: Callable[[], None], *, timeout: float = 600.0
) -> threading.Thread:
    """Call ``then`` in a thread as soon as ``server`` has started (after its lifespan startup).

    Nothing is called when the server stops, or does not start within ``timeout`` seconds.
    """

    def wait() -> None:
        deadline = time.monotonic() + timeout
        while not server.started:
            if server.should_exit or time.monotonic() > deadline:
                return
            time.sleep(0.05)
        then()

    thread = threading.Thread(target=wait, name="nineball-announce", daemon=True)
    thread.start()
    return thread
