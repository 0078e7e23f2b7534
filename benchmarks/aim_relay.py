"""Measure the live aim: from one seat sending ``aim`` to the other seat and a spectator getting it.

Starts ``python -m nineball.web`` in its own process (a scratch database), creates a network
match, joins it with three WebSockets (seat 0, seat 1, a spectator) and sends aims from seat 0 at
the page's pace (15 a second), then in a burst far over the server's limit. Prints the relay's
latency (median, 95th percentile, max) at the page's pace, and how many of the burst's messages
were relayed (the server's budget: 20 a second, 10 at once; the rest are dropped).

Usage: ``.venv/bin/python benchmarks/aim_relay.py [--aims 150]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from websockets.sync.client import ClientConnection, connect

AIM = {"type": "aim", "cue": [0.6, 0.45], "elevation": 0.0, "side": 0.0, "height": 0.0,
       "power": 0.5, "pull": 0.0}  # fmt: skip


def _join(stack: ExitStack, url: str, match: str, token: str | None) -> ClientConnection:
    ws = stack.enter_context(connect(url.replace("http", "ws", 1) + "ws"))
    ws.send(json.dumps({"type": "join", "match": match, "token": token}))
    assert json.loads(ws.recv())["type"] == "state"
    return ws


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--aims", type=int, default=150)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "NINEBALL_DB": str(Path(scratch) / "bench.sqlite3")}
        server = subprocess.Popen(
            [sys.executable, "-m", "nineball.web", "--no-browser"],
            stdout=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[4]
            request = urllib.request.Request(
                f"{url}api/matches", data=json.dumps({"mode": "network"}).encode(),
                headers={"Content-Type": "application/json"},
            )  # fmt: skip
            with urllib.request.urlopen(request, timeout=30) as reply:
                created = json.loads(reply.read())
            match, tokens = created["match"], created["tokens"]
            stack = ExitStack()
            ann, bob, watcher = (
                _join(stack, url, match, t) for t in (tokens["0"], tokens["1"], None)
            )
            latencies = []
            for k in range(args.aims):
                sent = time.perf_counter()
                ann.send(json.dumps({**AIM, "aim": 1.0 + k * 1e-3}))
                for ws in (bob, watcher):
                    assert json.loads(ws.recv())["aim"] == 1.0 + k * 1e-3
                latencies.append((time.perf_counter() - sent) * 1000)
                time.sleep(max(0.0, 1 / 15 - (time.perf_counter() - sent)))
            time.sleep(1.0)  # the budget refills
            burst = 100
            for k in range(burst):
                ann.send(json.dumps({**AIM, "aim": 2.0 + k * 1e-3}))
            ann.send(json.dumps({"type": "ping"}))
            assert json.loads(ann.recv())["type"] == "pong"  # every aim of the burst was read
            relayed = 0
            try:
                while json.loads(bob.recv(timeout=0.5))["type"] == "aim":
                    relayed += 1
            except TimeoutError:
                pass
            stack.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    cut = statistics.quantiles(latencies, n=20)
    print(f"aim relay to the other seat and a spectator, {len(latencies)} aims at 15/s:")
    print(f"  median {statistics.median(latencies):.2f} ms, p95 {cut[-1]:.2f} ms,"
          f" max {max(latencies):.2f} ms")  # fmt: skip
    print(f"a burst of {burst} aims at once: {relayed} relayed, {burst - relayed} dropped")


if __name__ == "__main__":
    main()
