"""Measure the aiming aid's cost: one ``preview`` = one noiseless simulation and its JSON.

Times :meth:`nineball.web.session.GameSession.preview` (the stroke checked, played by the engine,
the paths sampled and written) on a break and on a few shots of a racked table, and the round
trip of a ``preview`` message through the WebSocket of an in-process app; prints the median and
the 95th percentile, and the size of the answer.

Usage: ``.venv/bin/python benchmarks/preview.py [--repeat 200]``
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient
from tests.web.conftest import TEST_HOSTS

from nineball.game import Match, MatchConfig
from nineball.web.app import create_app
from nineball.web.protocol import Preview
from nineball.web.seats import Mode
from nineball.web.session import GameSession

STROKES = {
    "break 9 m/s": {"speed": 9.0, "aim": math.atan2(1.455, 0.035), "cue": (0.6, 0.45)},
    "break 4 m/s, side": {"speed": 4.0, "aim": math.atan2(1.455, 0.035), "cue": (0.6, 0.45),
                          "side": 0.3},
    "soft, draw": {"speed": 1.5, "aim": 1.5, "cue": (0.4, 0.5), "height": -0.4},
    "masse 40 deg": {"speed": 2.0, "aim": 1.4, "cue": (0.4, 0.5), "elevation": 0.7,
                     "side": 0.3},
}  # fmt: skip


def _figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"median {statistics.median(ms):6.2f} ms, p95 {ms[int(0.95 * len(ms))]:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=1)
    session = GameSession("bench", Mode.LOCAL, match=match)
    seats = frozenset({match.state.to_act})
    for name, fields in STROKES.items():
        message = Preview.model_validate(
            {"type": "preview", "elevation": 0.0, "side": 0.0, "height": 0.0, "push_out": False}
            | fields
        )
        answer: dict[str, Any] = session.preview(seats, message)  # compiled and warm
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            json.dumps(session.preview(seats, message))
            times.append(time.perf_counter() - start)
        points = sum(len(p) for p in answer["paths"].values())
        size = len(json.dumps(answer))
        print(f"{name:20s} {_figures(times)}  ({points} points, {size} bytes)")
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app(Path(scratch) / "b.sqlite3", warm_up=True, allowed_hosts=TEST_HOSTS)
        with TestClient(app) as client:
            created = client.post("/api/matches", json={"mode": "local", "race_to": 1}).json()
            with client.websocket_connect("/ws") as ws:
                ws.send_text(json.dumps({"type": "join", "match": created["match"],
                                         "token": created["tokens"]["both"]}))  # fmt: skip
                ws.receive_json()
                raw = json.dumps(
                    {
                        "type": "preview",
                        "elevation": 0.0,
                        "side": 0.0,
                        "height": 0.0,
                        "push_out": False,
                    }
                    | STROKES["break 9 m/s"]
                )
                times = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    ws.send_text(raw)
                    ws.receive_json()
                    times.append(time.perf_counter() - start)
                print(f"{'round trip (break)':20s} {_figures(times)}")


if __name__ == "__main__":
    main()
