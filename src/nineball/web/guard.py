"""Who may talk to the server: the ``Host`` of every request and the ``Origin`` of a browser's.

Two checks, in one ASGI middleware (:class:`OriginGuard`), before any route runs:

- **Host** (against DNS rebinding): a page of a foreign site whose name is made to resolve to
  this machine sends that name in ``Host``. A request whose host name is not one this server
  serves (:func:`served_hosts`) is refused: HTTP 400, or the WebSocket handshake refused (403).
- **Origin** (against cross-site requests): a browser names the page that makes a WebSocket
  handshake or a cross-origin ``POST`` in ``Origin``. A handshake or a state-changing request
  (any method but ``GET``, ``HEAD`` and ``OPTIONS``) whose ``Origin`` is not this server itself
  (the scheme-less ``host:port`` of ``Origin`` equal to ``Host``) is refused with 403; so is
  ``Origin: null`` (a sandboxed or local-file page).

A request without ``Origin`` is let through: browsers always send it on WebSocket handshakes
and on cross-origin ``POST``, so its absence means a client that is not a browser page (a
script, ``curl``, the tests), which a forged page cannot be; the ``Host`` check still applies.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Collection, Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["LOOPBACK_HOSTS", "OriginGuard", "host_name", "served_hosts"]

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names of this machine that only this machine can use."""

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def host_name(host: str) -> str:
    """The name in a ``Host`` value, lower case, without its port or IPv6 brackets."""
    host = host.strip().lower()
    if host.startswith("["):  # [::1]:8000
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def _interface_addresses() -> set[str]:
    """The addresses of this machine on its networks (best effort, never raises)."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]))
    except OSError:
        pass
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:  # the source address of a route outwards (a UDP connect sends nothing)
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.add(str(udp.getsockname()[0]))
        except OSError:
            pass
    return found


def served_hosts(host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server bound to ``host`` answers to.

    Loopback: the loopback names only. Any other interface (``0.0.0.0``, ``::`` or one
    address): also that address, the machine's host name and fully qualified name, and its
    network addresses, plus ``extra`` (names the user gave, e.g. a DNS alias).
    """
    names = set(LOOPBACK_HOSTS) | {host_name(h) for h in extra}
    wildcard = host in ("0.0.0.0", "::", "")
    if host_name(host) not in LOOPBACK_HOSTS:
        if not wildcard:
            names.add(host_name(host))
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname}.local", socket.getfqdn().lower()}
        names |= {host_name(a) for a in _interface_addresses()}
    return frozenset(n for n in names if n)


class OriginGuard:
    """Refuse requests for a host this server does not serve, or from a foreign page.

    Args:
        app: the application.
        allowed_hosts: the host names accepted in ``Host`` (:func:`served_hosts`); ``"*"``
            accepts any (no DNS-rebinding check).
    """

    def __init__(self, app: ASGIApp, allowed_hosts: Collection[str]) -> None:
        """Wrap ``app``."""
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed_hosts)
        self.any_host = "*" in allowed_hosts

    def problem(self, scope: Scope) -> tuple[int, str] | None:
        """Why this request is refused (status, reason), or None."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not self.any_host and host_name(host) not in self.allowed:
            return 400, f"host {host!r:.80} is not served here"
        state_changing = scope["type"] == "websocket" or scope.get("method") not in _SAFE_METHODS
        origin = headers.get("origin")
        if origin is None or not state_changing:
            return None
        parts = urlsplit(origin) if origin != "null" else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            return 403, f"origin {origin!r:.80} may not act on this server"
        if parts.netloc.lower() != host.strip().lower():
            return 403, f"origin {origin!r:.80} is not this server ({host!r:.80})"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it (HTTP: a JSON error; WebSocket: the handshake)."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = self.problem(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, reason = refused
        if scope["type"] == "websocket":
            await receive()  # the handshake's websocket.connect, then refuse it
            await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
            return
        body = json.dumps({"error": reason}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
