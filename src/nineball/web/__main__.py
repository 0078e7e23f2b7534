"""``python -m nineball.web``: serve the web game (``nineball play`` runs this)."""

from __future__ import annotations

import argparse
import sys

from nineball.errors import NineballError
from nineball.web.registry import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_SESSIONS
from nineball.web.server import LOOPBACK, serve


def main(argv: list[str] | None = None) -> int:
    """Parse the options and serve; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="nineball play", description="Play nine-ball in a browser."
    )
    parser.add_argument("--host", default=None, help=f"interface to serve (default {LOOPBACK})")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--db", default=None, help="the database file")
    parser.add_argument(
        "--idle-minutes", type=float, default=DEFAULT_IDLE_SECONDS / 60,
        help="forget a match from memory after this long without activity (stored ones reload)",
    )  # fmt: skip
    parser.add_argument(
        "--max-sessions", type=int, default=DEFAULT_MAX_SESSIONS,
        help="the most matches kept in memory (the least recently active go first)",
    )  # fmt: skip
    parser.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME",
        help="another host name the server answers to (a DNS alias of this machine); repeatable",
    )  # fmt: skip
    args = parser.parse_args(argv)
    try:
        serve(
            args.host or LOOPBACK,
            args.port,
            open_browser=not args.no_browser,
            store_path=args.db,
            allow_network=args.host is not None,
            idle_seconds=args.idle_minutes * 60,
            max_sessions=args.max_sessions,
            allowed_hosts=args.allow_host,
        )
    except (NineballError, OSError) as error:
        print(f"nineball play: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
