"""Soak the web server: N random and hostile messages through an in-process app.

Usage: ``.venv/bin/python benchmarks/soak_web.py [--messages 100000] [--seed 1] [--minutes M]``

The messages (``tests/web/hostile.py``) go through Starlette's test client to one session of
every mode, a tenth of them as HTTP requests (new-match bodies, match ids). Reported: messages
sent, refusals and accepted ones, and every failure: answers ``internal error`` (a fault of the
server's), connections the server closed, HTTP 500s, and refusals after which the session's
snapshot differed. Exits 1 when there is any failure. ``--minutes`` stops early, with the
figures so far.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient
from tests.web.conftest import TEST_HOSTS
from tests.web.hostile import MODES, Prober, hostile_frame

from nineball.web.app import create_app


def main() -> int:
    """Run the soak; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long")
    args = parser.parse_args()
    logging.getLogger("nineball.web.app").setLevel(logging.CRITICAL)  # counted, not printed
    rng = random.Random(args.seed)
    start = time.monotonic()
    stop = None if args.minutes is None else start + args.minutes * 60
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app(Path(scratch) / "soak.sqlite3", warm_up=True, allowed_hosts=TEST_HOSTS)
        with TestClient(app, raise_server_exceptions=False) as client:
            prober = Prober(client, app, seed=args.seed * 1000)
            for done in range(args.messages):
                if rng.random() < 0.1:
                    prober.send_http(rng)
                else:
                    mode = rng.choice(MODES)
                    prober.send(mode, hostile_frame(rng, prober.sessions[mode][0]))
                if done % 5000 == 4999:
                    print(f"  {done + 1} messages, {time.monotonic() - start:.0f} s", flush=True)
                if stop is not None and time.monotonic() > stop:
                    break
            prober.close()
    tally = prober.tally
    elapsed = time.monotonic() - start
    print(f"messages: {tally.messages} in {elapsed:.0f} s ({tally.messages / elapsed:.0f}/s)")
    print(f"WebSocket refusals: {tally.refusals}, accepted: {tally.accepted}")
    print(f"internal errors: {len(tally.internal_errors)}, dropped connections:"
          f" {len(tally.dropped)}, HTTP 500s: {len(tally.http_500)}, state changed after a"
          f" refusal: {len(tally.changed)}")  # fmt: skip
    print("refusals by kind:", dict(tally.kinds.most_common(14)))
    for problem in tally.problems[:20]:
        print("  ", problem)
    return 1 if tally.problems else 0


if __name__ == "__main__":
    sys.exit(main())
