"""A whole seeded double elimination, scored at several tables at once through the real server.

The players, one scorer a table (threads) that behave as the phones do: each match's entries are
made on the device with their ids and places, sent in small batches, and a batch whose answer
does not come is sent again, the same, until one does. Between the scorers and the server a proxy
drops the answer of a share of the requests after the server has handled them (so entries reach
the server and their answers are lost), and half-way through the event the server is stopped and
a new one started on the same database and port (the scorers keep sending meanwhile). At the end
the event must be exactly the one the plan makes: every match's players, winner and score, the
placings, and every entry stored once.

:func:`play_event` runs it and returns its figures; ``tests/web/test_event_simulation.py`` plays
16 players, ``benchmarks/event_sim.py`` 32.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import random
import socket
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import uvicorn

from nineball.tournament import Result, Status, double_elimination, resolve
from nineball.web.app import create_app
from tests.web.conftest import start_in_thread


def players(count: int) -> list[tuple[str, float]]:
    """``count`` players with distinct ratings (the seeding by rating is then fixed)."""
    return [(f"Player {i + 1:02d}", 300.0 + 13.0 * ((i * 7) % count)) for i in range(count)]


def _plan(
    key: str, names: tuple[str, str], rating: dict[str, float], race: int
) -> tuple[int, int, bool]:
    """The match as the test wants it played: the winning slot, the loser's racks, shot by shot."""
    h = int(hashlib.sha256(key.encode()).hexdigest(), 16)
    stronger = 0 if rating[names[0]] > rating[names[1]] else 1
    winner = stronger if h % 5 else 1 - stronger  # one upset in five
    return winner, (h // 5) % race, (h // 50) % 4 == 0


def _entries(match: dict[str, Any], rating: dict[str, float], race: int) -> list[dict[str, Any]]:
    """Every entry of a match, made on the device once (ids fixed), in order."""
    names = (match["sides"][0]["name"], match["sides"][1]["name"])
    winner, lost, shots = _plan(match["key"], names, rating, race)
    rng = random.Random(match["key"])
    racks = [1 - winner] * lost + [winner] * (race - 1)
    rng.shuffle(racks)
    racks.append(winner)
    out: list[dict[str, Any]] = [
        {"kind": "start", "mode": "shots" if shots else "quick", "first_breaker": 0}
    ]
    for number, rack_winner in enumerate(racks):
        breaker = number % 2  # alternate breaks, player 0 first
        if not shots:
            out.append(
                {
                    "kind": "rack",
                    "winner": rack_winner,
                    "break_balls": number % 3,
                    "break_and_run": rack_winner == breaker and number % 4 == 0,
                }
            )
        elif rack_winner == breaker:
            out += [
                {"kind": "shot", "first": 1, "pocketed": [2]},
                {"kind": "shot", "first": 1, "pocketed": [9]},
            ]
        elif number % 2:
            out += [
                {"kind": "shot", "first": 1, "pocketed": [0]},
                {"kind": "shot", "first": 1, "pocketed": [9]},
            ]
        else:
            out += [
                {"kind": "shot", "first": 1, "rails": [2, 3, 4, 5]},
                {"kind": "shot", "first": 1, "pocketed": [9]},
            ]
    return [
        {"id": uuid.uuid4().hex, "match": match["key"], "seq": n, **e} for n, e in enumerate(out)
    ]


class LossyProxy:
    """A TCP proxy that loses the answer of some requests (after the server handled them)."""

    def __init__(self, upstream: int, drop: float, seed: int) -> None:
        self.upstream, self.drop, self.rng = upstream, drop, random.Random(seed)
        self.lock = threading.Lock()
        self.dropped = self.refused = self.passed = 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.open = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.open:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(client,), daemon=True).start()

    def _handle(self, client: socket.socket) -> None:
        with self.lock:
            drop = self.rng.random() < self.drop
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream), timeout=10)
        except OSError:  # the server is down: the phone sees no connection
            with self.lock:
                self.refused += 1
            client.close()
            return

        def forward() -> None:
            try:
                while data := client.recv(65536):
                    upstream.sendall(data)
            except OSError:
                pass

        threading.Thread(target=forward, daemon=True).start()
        try:
            while data := upstream.recv(65536):
                if drop:  # the server answered: the answer is lost on the way
                    with self.lock:
                        self.dropped += 1
                    break
                client.sendall(data)
            else:
                with self.lock:
                    self.passed += 1
        except OSError:
            pass
        finally:
            for end in (client, upstream):  # shutdown first: it wakes the forwarding thread's recv
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def close(self) -> None:
        self.open = False
        self.sock.close()


def _request(port: int, method: str, path: str, body: Any = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        payload = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json", "Connection": "close"}
        connection.request(method, path, body=payload, headers=headers)
        reply = connection.getresponse()
        data = json.loads(reply.read())
        if reply.status >= 500:
            raise OSError(f"server error {reply.status}")
        return data
    finally:
        connection.close()


class Server:
    """The real server (uvicorn, the app) on a fixed port, stopped and started again at will."""

    def __init__(self, db: Path) -> None:
        self.db = db
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.start()

    def start(self) -> None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        config = uvicorn.Config(
            create_app(self.db, warm_up=False), log_level="warning", access_log=False
        )
        self.server = uvicorn.Server(config)
        self.thread = start_in_thread(self.server, sock)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def play_event(
    folder: Path, entrants: list[tuple[str, float]], *, race: int, tables: int, drop: float
) -> dict[str, Any]:
    """Play the event through the server, check it against the plan; return its figures."""
    rating = dict(entrants)
    began = time.monotonic()
    server = Server(folder / "event.sqlite3")
    proxy = LossyProxy(server.port, drop, seed=7)
    direct = server.port
    created = _request(
        direct,
        "POST",
        "/api/events",
        {
            "name": "Simulated Open",
            "date": "2026-12-10",
            "format": "double",
            "race_to": race,
            "tables": tables,
            "seeding": "rating",
            "shot_clock": {"seconds": 30},
        },
    )
    event, token, table_tokens = created["id"], created["token"], created["tables"]
    for name, value in entrants:
        body = {"token": token, "name": name, "rating": value}
        _request(direct, "POST", f"/api/events/{event}/players", body)
    _request(direct, "POST", f"/api/events/{event}/start", {"token": token})

    stats = {"posts": 0, "failed": 0, "resent_not_applied": 0, "applied": 0, "gets_failed": 0}
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.monotonic() + 120

    def scorer(table: int) -> None:
        rng = random.Random(table)
        plans: dict[str, list[dict[str, Any]]] = {}
        while time.monotonic() < deadline:
            try:
                view = _request(proxy.port, "GET", f"/api/events/{event}/tables/{table}")
            except (OSError, http.client.HTTPException, ValueError):
                with lock:
                    stats["gets_failed"] += 1
                time.sleep(0.02)
                continue
            match = view["match"]
            if match is None:
                if view["event"]["over"]:
                    return
                time.sleep(0.05)
                continue
            plan = plans.setdefault(match["key"], _entries(match, rating, race))
            batch = plan[match["seq"] : match["seq"] + rng.randint(1, 3)]
            while (
                time.monotonic() < deadline
            ):  # the device's queue: the same entries until answered
                try:
                    body = {"token": table_tokens[str(table)], "table": table, "entries": batch}
                    reply = _request(proxy.port, "POST", f"/api/events/{event}/entries", body)
                except (OSError, http.client.HTTPException, ValueError):
                    with lock:
                        stats["failed"] += 1
                    time.sleep(0.02)
                    continue
                with lock:
                    stats["posts"] += 1
                    for answer in reply.get("answers", []):
                        stats["applied" if answer["applied"] else "resent_not_applied"] += 1
                    if reply.get("refused") or "answers" not in reply:
                        errors.append(f"table {table}: {reply}")
                break
            if errors:
                return

    threads = [threading.Thread(target=scorer, args=(t,)) for t in range(1, tables + 1)]
    for thread in threads:
        thread.start()
    # Half-way: stop the server and start a new one on the same database and port.
    total = 2 * len(entrants) - 2
    while time.monotonic() < deadline:
        board = _request(direct, "GET", f"/api/events/{event}")
        if sum(m["standing"] == "done" for m in board["matches"]) >= total // 2:
            break
        time.sleep(0.05)
    restart_at = time.monotonic() - began
    server.stop()
    time.sleep(0.5)  # the scorers meet closed doors meanwhile
    server.start()
    for thread in threads:
        thread.join(timeout=max(1.0, deadline - time.monotonic()))
    elapsed = time.monotonic() - began
    board = _request(direct, "GET", f"/api/events/{event}")
    server.stop()
    proxy.close()
    assert errors == []
    assert board["event"]["over"], (
        "the event did not finish",
        stats,
        proxy.dropped,
        [
            (m["key"], m["standing"], m["table"], m["seq"], m["score"])
            for m in board["matches"]
            if m["standing"] not in ("done", "walkover", "void")
        ],
    )

    # The event the plan makes, by the pure bracket logic.
    seed_of = {p["name"]: p["seed"] for p in board["players"]}
    by_seed = {seed: name for name, seed in seed_of.items()}
    assert [by_seed[s] for s in range(1, len(entrants) + 1)] == [
        n for n, _ in sorted(entrants, key=lambda p: -p[1])
    ]
    bracket = double_elimination(len(entrants))
    results: dict[str, Result] = {}
    while ready := resolve(bracket, results).ready():
        for state in ready:
            names = (by_seed[state.players[0]], by_seed[state.players[1]])  # type: ignore[index]
            winner, lost, _ = _plan(state.key, names, rating, race)
            score = (race, lost) if winner == 0 else (lost, race)
            results[state.key] = Result(winner=winner, score=score)
    expected = resolve(bracket, results)
    served = {m["key"]: m for m in board["matches"]}
    for state in expected:
        got = served[state.key]
        names = [None if p is None or p == 0 else by_seed[p] for p in state.players]
        assert [s["name"] if s and not s["bye"] else None for s in got["sides"]] == names, state.key
        assert (
            got["standing"]
            == {Status.DONE: "done", Status.WALKOVER: "walkover", Status.VOID: "void"}[state.status]
        )
        if state.status is Status.DONE:
            assert state.result is not None
            assert (got["winner"], got["score"]) == (
                state.result.winner,
                list(state.result.score),
            ), state.key
    assert [(p["place"], seed_of[p["name"]]) for p in board["placings"]] == list(
        expected.placings()
    )

    # Every planned entry stored once: none lost, none twice.
    with sqlite3.connect(folder / "event.sqlite3") as db:
        stored = db.execute(
            "SELECT key, COUNT(*), COUNT(DISTINCT id), MAX(seq) FROM event_entries GROUP BY key"
        ).fetchall()
        racks = dict(db.execute("SELECT key, COUNT(*) FROM event_racks GROUP BY key").fetchall())
    planned = {}
    for key, state in (
        (k, s) for k, s in ((s.key, s) for s in expected) if s.status is Status.DONE
    ):
        names = (by_seed[state.players[0]], by_seed[state.players[1]])  # type: ignore[index]
        match = {"key": key, "sides": [{"name": names[0]}, {"name": names[1]}]}
        planned[key] = len(_entries(match, rating, race))
        winner, lost, shots = _plan(key, names, rating, race)
        if not shots:
            assert racks[key] == race + lost, key
    assert {key: (n, d, m + 1) for key, n, d, m in stored} == {
        k: (n, n, n) for k, n in planned.items()
    }
    entries = sum(planned.values())
    assert stats["applied"] <= entries  # some were applied with their answer lost
    assert proxy.dropped > 0
    assert stats["resent_not_applied"] > 0
    assert proxy.refused + stats["failed"] > 0
    shot_by_shot = sum(1 for m in board["matches"] if m["mode"] == "shots")
    figures = {
        "players": len(entrants),
        "tables": tables,
        "race_to": race,
        "matches_played": len(planned),
        "matches_shot_by_shot": shot_by_shot,
        "entries": entries,
        "entry_posts_answered": stats["posts"],
        "requests_failed_or_dropped": stats["failed"] + stats["gets_failed"],
        "answers_dropped_by_the_proxy": proxy.dropped,
        "connections_refused_while_down": proxy.refused,
        "entries_sent_again_not_applied": stats["resent_not_applied"],
        "restart_at_s": round(restart_at, 2),
        "seconds": round(elapsed, 2),
    }
    return figures
