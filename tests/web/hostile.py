"""Random and hostile messages for the web server, and a prober that checks what they did.

Shared by the fuzz tests (``tests/web/test_fuzz.py``, driven by hypothesis) and the soak
(``benchmarks/soak_web.py``, driven by a seeded :class:`random.Random`). A message is a text or
binary WebSocket frame: JSON of every message type with plausible, out-of-range or ill-typed
fields, unknown fields, huge integers, deep nesting, lone surrogates, bytes that are not UTF-8,
megabytes. :class:`Prober` sends one through a Starlette test client, reads every answer, and
compares the session's snapshot before and after whenever the server refused the message.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

MODES = ("local", "practice", "computer", "network", "score")
TYPES = (
    "join", "ping", "check", "place", "strike", "preview", "choose", "undo", "forfeit",
    "move_ball", "remove_ball", "setup", "analysis", "facts",
)  # fmt: skip


def _junk(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON-ish value, hostile ones included."""
    pick = rng.randrange(12 if depth < 3 else 8)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2**63, -(2**63) - 1, 10**400, -(10**400), 10**30])
    if pick == 3:
        return rng.choice([math.nan, math.inf, -math.inf, 1e308, -0.0, 5e-324, 1e-300])
    if pick == 4:
        return rng.uniform(-20, 20)
    if pick == 5:
        return rng.choice(["", "0", "1.5", "shoot", "\x00", "\ud800", "é" * 50, "x" * 300])
    if pick == 6:
        return rng.randrange(-3, 12)
    if pick == 7:
        return "".join(chr(rng.randrange(0, 0x2FFFF)) for _ in range(rng.randrange(6)))
    if pick in (8, 9):
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {str(_junk(rng, 3)): _junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def _coordinate(rng: random.Random) -> Any:
    return rng.uniform(-0.2, 2.8) if rng.random() < 0.8 else _junk(rng)


def _point(rng: random.Random) -> Any:
    return [_coordinate(rng), _coordinate(rng)] if rng.random() < 0.85 else _junk(rng)


def _ball(rng: random.Random) -> Any:
    return rng.randrange(-1, 11) if rng.random() < 0.85 else _junk(rng)


def _balls(rng: random.Random) -> Any:
    return [_ball(rng) for _ in range(rng.randrange(4))] if rng.random() < 0.85 else _junk(rng)


def _fields(kind: str, rng: random.Random, match: str) -> dict[str, Any]:
    """Plausible fields for ``kind``, each sometimes hostile."""
    if kind == "join":
        return {"match": rng.choice([match, "nope", "", "\x00" * 10]), "token": _junk(rng)}
    if kind in ("check", "place", "move_ball"):
        out = {"x": _coordinate(rng), "y": _coordinate(rng)}
        if kind != "place":
            out["ball"] = _ball(rng)
        return out
    if kind in ("strike", "preview"):
        out = {
            "speed": rng.uniform(-1, 14) if rng.random() < 0.9 else _junk(rng),
            "aim": rng.uniform(-15, 15) if rng.random() < 0.9 else _junk(rng),
            "elevation": rng.uniform(-0.2, 1.7) if rng.random() < 0.9 else _junk(rng),
            "side": rng.uniform(-0.7, 0.7) if rng.random() < 0.9 else _junk(rng),
            "height": rng.uniform(-0.7, 0.7) if rng.random() < 0.9 else _junk(rng),
            "push_out": rng.choice([True, False]) if rng.random() < 0.9 else _junk(rng),
        }
        if rng.random() < 0.6:
            out["cue"] = _point(rng) if rng.random() < 0.9 else None
        return out
    if kind == "choose":
        return {"choice": rng.choice(["shoot", "pass", "SHOOT", ""]) if rng.random() < 0.9
                else _junk(rng)}  # fmt: skip
    if kind == "remove_ball":
        return {"ball": _ball(rng)}
    if kind == "setup":
        chosen = rng.sample(range(10), rng.randrange(11))
        return {"balls": {str(b): _point(rng) for b in chosen} if rng.random() < 0.9
                else _junk(rng)}  # fmt: skip
    if kind == "facts":
        out = {"first": _ball(rng), "pocketed": _balls(rng), "rails": _balls(rng),
               "push_out": rng.choice([True, False])}  # fmt: skip
        if rng.random() < 0.5:
            out["off_table"] = _balls(rng)
        if rng.random() < 0.3:
            out["obstruction_moved"] = _junk(rng)
        return out
    return {}


def hostile_frame(rng: random.Random, match: str = "") -> str | bytes:
    """One random frame: mostly messages of a known type, some of them valid, some garbage."""
    roll = rng.random()
    if roll < 0.04:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))  # binary, not UTF-8
    if roll < 0.06:
        depth = rng.choice([50, 300, 999, 2000])
        return '{"type": "setup", "balls": ' + "[" * depth + "]" * depth + "}"
    if roll < 0.07:
        return "x" * rng.choice([4097, 70_000, 2**20])  # too long (a megabyte at most)
    if roll < 0.08:
        return '{"type": "remove_ball", "ball": ' + "9" * rng.choice([20, 400, 4000]) + "}"
    if roll < 0.09:
        return rng.choice(['{"type": "join", "match": "\\ud800"}', "[]", "null", "{", '"a"', ""])
    kind = rng.choice(TYPES) if rng.random() < 0.97 else str(_junk(rng))
    message: dict[str, Any] = {"type": kind, **_fields(kind, rng, match)}
    if rng.random() < 0.05:
        message[rng.choice(["extra", "x", "type2", ""])] = _junk(rng)
    if rng.random() < 0.05 and len(message) > 1:
        del message[rng.choice(list(message))]
    return json.dumps(message)


@dataclass
class Tally:
    """What a run of messages did."""

    messages: int = 0
    refusals: int = 0
    accepted: int = 0
    internal_errors: list[str] = field(default_factory=list)
    """Answers ``internal error: ...``: a fault of the server's (it kept the connection)."""
    dropped: list[str] = field(default_factory=list)
    """Connections the server closed."""
    changed: list[str] = field(default_factory=list)
    """Refused messages after which the session's snapshot differed."""
    http_500: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)

    @property
    def problems(self) -> list[str]:
        """Every failure, described."""
        return [*self.internal_errors, *self.dropped, *self.changed, *self.http_500]


def _is_preview(frame: str | bytes) -> bool:
    """Whether ``frame`` is a JSON object of type preview (the aid's question: changes nothing)."""
    try:
        message = json.loads(frame)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "preview"


def _short(frame: str | bytes) -> str:
    return repr(frame[:160]) + (f"... ({len(frame)} long)" if len(frame) > 160 else "")


class Prober:
    """Sessions of every mode on one test client, and a joined page on each."""

    def __init__(self, client: TestClient, app: FastAPI, *, seed: int = 0) -> None:
        """Start one session per mode (race to 15, so they last)."""
        self.client = client
        self.app = app
        self.seed = seed
        self.marker = 0
        self.sessions: dict[str, tuple[str, str | None]] = {}
        self.sockets: dict[str, Any] = {}
        self.tally = Tally()
        for mode in MODES:
            self.start(mode)

    def start(self, mode: str) -> None:
        """A new session of ``mode`` and a page joined to it with a token."""
        old = self.sockets.pop(mode, None)
        if old is not None:
            old.__exit__(None, None, None)
        self.seed += 1
        body = {"mode": mode, "race_to": 15, "seed": self.seed, "level": "ghost"}
        created = self.client.post("/api/matches", json=body).json()
        token = next(iter(created["tokens"].values()))
        self.sessions[mode] = (created["match"], token)
        self.connect(mode)

    def connect(self, mode: str) -> None:
        """(Re)open the page of ``mode`` and join its session."""
        match, token = self.sessions[mode]
        ws = self.client.websocket_connect("/ws")
        self.sockets[mode] = ws.__enter__()
        self.sockets[mode].send_text(json.dumps({"type": "join", "match": match, "token": token}))
        self._answers(mode)

    def snapshot(self, mode: str) -> str:
        """The session as a page would be told it, as text (to compare)."""
        session = self.app.state.session_of(self.sessions[mode][0])
        return json.dumps(session.snapshot(frozenset()), sort_keys=True)

    def _answers(self, mode: str) -> list[dict[str, Any]]:
        """Every message up to the answer to a marker ``check`` (sent now)."""
        self.marker += 1
        x = 0.5 + self.marker * 1e-9
        ws = self.sockets[mode]
        ws.send_text(json.dumps({"type": "check", "x": x, "y": 0.5}))
        out: list[dict[str, Any]] = []
        while True:
            answer = ws.receive_json()
            if answer.get("type") == "check" and answer.get("x") == x:
                return out
            out.append(answer)

    def send(self, mode: str, frame: str | bytes) -> None:
        """Send one frame on the page of ``mode`` and check what it did."""
        tally = self.tally
        tally.messages += 1
        before = self.snapshot(mode)
        ws = self.sockets[mode]
        try:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            answers = self._answers(mode)
        except WebSocketDisconnect as closed:
            tally.dropped.append(f"{mode}: closed ({closed.code}) after {_short(frame)}")
            self.connect(mode)
            return
        for answer in answers:
            if answer.get("type") == "error" and "internal" in str(answer.get("message")):
                tally.internal_errors.append(f"{mode}: {answer['message']} <- {_short(frame)}")
        refused = len(answers) == 1 and answers[0].get("type") == "error"
        if refused:
            tally.refusals += 1
            tally.kinds[str(answers[0]["message"]).split(":")[0][:20]] += 1
            if self.snapshot(mode) != before:
                tally.changed.append(f"{mode}: {answers[0]['message']} <- {_short(frame)}")
        else:
            tally.accepted += 1
            if _is_preview(frame) and self.snapshot(mode) != before:
                tally.changed.append(f"{mode}: a preview changed the session <- {_short(frame)}")
        if json.loads(self.snapshot(mode))["state"]["winner"] is not None:
            self.start(mode)  # a match won: play on in a fresh one

    def send_http(self, rng: random.Random) -> None:
        """One hostile request: a new-match body, or a match id."""
        self.tally.messages += 1
        if rng.random() < 0.5:
            frame = hostile_frame(rng)
            body = frame if isinstance(frame, bytes) else frame.encode("utf-8", "surrogatepass")
            if rng.random() < 0.5:
                body = json.dumps({"mode": rng.choice([*MODES, "x"]), "players": _junk(rng),
                                   "race_to": _junk(rng), "seed": _junk(rng)}).encode(
                    "utf-8", "surrogatepass")  # fmt: skip
            response = self.client.post("/api/matches", content=body)
            what = f"POST /api/matches {_short(body)}"
        else:
            ident = rng.choice(["9223372036854775808", "9" * 400, "-1", "0", "1", "x", "%00",
                                "1.5", "%F0%9F%8E%B1", str(rng.randrange(-5, 50))])  # fmt: skip
            response = self.client.get(f"/api/matches/{ident}")
            what = f"GET /api/matches/{ident}"
        if response.status_code >= 500:
            self.tally.http_500.append(f"{response.status_code} on {what}")

    def close(self) -> None:
        """Close every page."""
        for ws in self.sockets.values():
            ws.__exit__(None, None, None)
        self.sockets.clear()
