"""The links to a match that a player sends to the others, and their QR codes.

A link must reach this server from the machine it is sent to. It carries the address the page
reached the server at (the request's ``Host``, which :class:`nineball.web.guard.OriginGuard`
has already checked is one this server serves), except a loopback name: ``127.0.0.1`` on
another machine is that machine. A server that listens on a network (``--host 0.0.0.0``) puts
its network address in the links instead (:func:`link_base`); one on loopback only keeps the
loopback name, since nobody else can reach it anyway.

The seat's secret token travels in the link's fragment (``#m=...&t=...``), which a browser
never sends; so the QR code of a link is asked for with the link in a request body
(``POST /api/qr.svg``), never in a URL the server would log. Only links to this server are
drawn (:func:`check_link`): the server is no QR service for any text a page sends.
"""

from __future__ import annotations

import io
import re
from collections.abc import Collection
from urllib.parse import urlsplit

import segno

from nineball.errors import ProtocolError
from nineball.web.guard import LOOPBACK_HOSTS, host_name

__all__ = ["MAX_LINK_CHARS", "check_link", "link_base", "qr_svg"]

MAX_LINK_CHARS = 400
"""The longest link drawn as a QR code (a seat's link is about 110 characters)."""

_HOST = re.compile(
    r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9-]{1,63})*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?"
)
"""A ``Host`` value that may be written into a link: a name or address, and a port."""


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def link_base(scheme: str, host: str, public_host: str | None) -> str:
    """The origin (``scheme://host:port``) to put in the links given to a request for ``host``.

    Args:
        scheme: the request's scheme (``http`` or ``https``).
        host: the request's ``Host`` value (a name or address, and a port).
        public_host: the address other machines reach this server at (the server listens on
            a network), or None (loopback only).

    Raises:
        ProtocolError: a ``Host`` that is no plain host name and port (it is never echoed
            into a link).
    """
    value = host.strip().lower()
    if scheme not in ("http", "https") or not _HOST.fullmatch(value):
        raise ProtocolError(f"host {host!r:.80} cannot be put in a link")
    if public_host is None or host_name(value) not in LOOPBACK_HOSTS:
        return f"{scheme}://{value}"
    port = value.rsplit(":", 1)[1] if re.search(r":[0-9]+$", value) else ""
    return f"{scheme}://{_bracketed(public_host)}" + (f":{port}" if port else "")


def check_link(url: str, origins: Collection[str]) -> str:
    """``url`` when it is a link to this server (its origin one of ``origins``), else refuse it.

    Raises:
        ProtocolError: too long, not an http(s) URL, or to another origin.
    """
    if len(url) > MAX_LINK_CHARS:
        raise ProtocolError(
            f"the link is too long: {len(url)} characters (at most {MAX_LINK_CHARS})"
        )
    try:
        parts = urlsplit(url)
    except ValueError:
        raise ProtocolError(f"not a link: {url!r:.80}") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ProtocolError(f"not an http link: {url!r:.80}")
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    if origin not in {o.lower() for o in origins}:
        raise ProtocolError(f"only links to this server are drawn, not to {origin!r:.80}")
    return url


def qr_svg(url: str) -> bytes:
    """The QR code of ``url`` as an SVG image (dark modules on white, a quiet zone around)."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue()
