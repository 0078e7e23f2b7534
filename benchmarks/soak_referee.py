"""Soak the referee protocol with random and hostile lines (never a timed test).

Run: ``python benchmarks/soak_referee.py [--lines N] [--seed S]`` (default 100000 lines, seed 0).
The lines go through the very loop of ``nineball referee`` (``nineball.cli.referee.serve``),
read from a stream that makes each line when the loop asks for it, so the legal requests among
them can follow the match. Each line is one of: a legal shot, choice, forfeit or new match (to
move the match on); a request of a known type with random fields; random JSON; random text with
lone surrogates, controls and separators (escaped in JSON, or raw and so not UTF-8); deep
nesting; huge numbers; random bytes; an empty line; a line of megabytes. Reports:

* crashes: an exception out of the loop (a traceback on the command line);
* bad answers: a line answered by anything but exactly one JSON object on one UTF-8 line;
* state changes after refusals: a refused line whose answer shows another state than before;
* internal errors: answers with the code ``internal_error`` (the referee failed; nothing changed);
* how many lines of each kind, accepted and refused, and the time per line.

``tests/rules/test_hostile.py`` and ``tests/cli/test_referee_fuzz.py`` run hypothesis versions of
the same on a smaller sample.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any, BinaryIO, cast

from nineball.cli.referee import serve
from nineball.game import STANDARD, Language

HOSTILE = ["\ud800", "\udfff", "\u2028", "\u2029", "\n", "\r", "\x00", "\x85", "\x1b", "é", "🎱"]
TYPES = ["new_match", "shot", "choice", "forfeit", "state"]
FIELDS = [
    "players", "race_to", "breaks", "first_breaker", "rules", "refereed", "lang", "push_out",
    "first_contact", "pocketed", "off_table", "rails", "obstruction_moved", "choice", "player",
    "type", "extra",
]  # fmt: skip


def random_text(rng: random.Random, size: int = 12) -> str:
    """Characters from anywhere in Unicode, lone surrogates included, and the usual suspects."""
    chars = []
    for _ in range(rng.randint(0, size)):
        pick = rng.random()
        if pick < 0.3:
            chars.append(rng.choice(HOSTILE))
        elif pick < 0.6:
            chars.append(chr(rng.randint(0x20, 0x7E)))
        else:
            chars.append(chr(rng.randint(0, 0x10FFFF)))
    return "".join(chars)


def random_json(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randint(0, 9 if depth < 4 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick == 2:
        return rng.randint(-(10 ** rng.randint(1, 60)), 10 ** rng.randint(1, 60))
    if pick == 3:
        return rng.choice([0, 1, 2, 9, 10, -1, 99, 100, 2.0, 1e300])
    if pick == 4:
        return rng.uniform(-1e6, 1e6)
    if pick in (5, 6):
        return random_text(rng)
    if pick in (7, 8):
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {random_text(rng, 6): random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def legal_request(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    """A request that is most often accepted in ``state``: it moves the match on."""
    if state["phase"] == "match_over" or rng.random() < 0.01:
        return {
            "type": "new_match",
            "race_to": rng.randint(1, 3),
            "lang": rng.choice(["en", "fr", "pl"]),
        }
    if state["phase"] == "push_out_choice":
        return {"type": "choice", "choice": rng.choice(["shoot", "pass"])}
    if rng.random() < 0.02:
        return {"type": "forfeit", "player": rng.randint(0, 1)}
    on_table = state["on_table"]
    request: dict[str, Any] = {"type": "shot"}
    if rng.random() < 0.9:
        request["first_contact"] = state["lowest"] if rng.random() < 0.7 else rng.choice(on_table)
    live = [0, *on_table]
    request["pocketed"] = rng.sample(live, rng.randint(0, min(2, len(live))))
    request["rails"] = rng.sample(live, rng.randint(0, min(3, len(live))))
    if state["push_out_allowed"] and rng.random() < 0.3:
        request["push_out"] = True
    return request


def ascii_json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=True).encode()


def hostile_line(rng: random.Random, state: dict[str, Any]) -> tuple[str, bytes]:
    """One line (without its line end) and the name of its kind."""
    pick = rng.random()
    if pick < 0.25:
        return "legal", ascii_json(legal_request(rng, state))
    if pick < 0.45:
        request: dict[str, Any] = {"type": rng.choice([*TYPES, "dance"])}
        for name in rng.sample(FIELDS, rng.randint(0, 3)):
            request[name] = random_json(rng)
        if rng.random() < 0.3:
            request["players"] = [random_text(rng, 4), random_text(rng, 4)]
        return "near request", ascii_json(request)
    if pick < 0.55:
        return "random JSON", ascii_json(random_json(rng))
    if pick < 0.65:
        text = json.dumps(
            {"type": "new_match", "players": [random_text(rng), "Bob"]}, ensure_ascii=False
        )
        return "raw text in JSON", text.encode("utf-8", "surrogatepass")
    if pick < 0.72:
        return "random text", random_text(rng, 40).encode("utf-8", "surrogatepass")
    if pick < 0.78:
        n = rng.choice([rng.randint(1, 40), rng.randint(900, 1100), rng.randint(1, 100_000)])
        return "deep nesting", b"[" * n + (b"]" * n if rng.random() < 0.5 else b"")
    if pick < 0.84:
        digits = b"9" * rng.choice([rng.randint(1, 80), rng.randint(4000, 5000)])
        tail = rng.choice([b"", b".5", b"e999", b"e-999"])
        return "huge number", b'{"type": "new_match", "race_to": ' + digits + tail + b"}"
    if pick < 0.94:
        return "random bytes", rng.randbytes(rng.randint(0, 60))
    if pick < 0.97:
        return "empty", rng.choice([b"", b" ", b"\t", b"\r"])
    if pick < 0.9995:
        return "constants", rng.choice(
            [b"NaN", b"-Infinity", b'{"type":"state","type":"shot"}', b"{"]
        )
    return "megabytes", b'{"type": "state", "x": "' + b"x" * rng.randint(1, 3) * 1_000_000 + b'"}'


def one_json_line(data: bytes) -> dict[str, Any] | None:
    """The answer in ``data`` if it is exactly one JSON object on one UTF-8 line, else None."""
    try:
        text = data.decode("utf-8")
        reply = json.loads(text)
    except ValueError:
        return None
    one_line = text.endswith("\n") and text[:-1].splitlines() == [text[:-1]]
    if not one_line or not isinstance(reply, dict) or reply.get("ok") not in (True, False):
        return None
    return reply


class LineFeed:
    """A byte stream whose next line is made only when the loop reads it."""

    def __init__(self, make: Iterator[bytes]) -> None:
        self._make = make
        self._pending = b""

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")

    def readline(self, limit: int = -1) -> bytes:
        if not self._pending:
            self._pending = next(self._make, b"")
        if limit < 0 or limit >= len(self._pending):
            out, self._pending = self._pending, b""
        else:
            out, self._pending = self._pending[:limit], self._pending[limit:]
        return out


class Checker:
    """The sink of the loop: checks each answer against the line it answers."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}
        self.kind = ""
        self.line = b""
        self.started = 0.0
        self.counts: Counter[str] = Counter()
        self.outcomes: Counter[tuple[str, str]] = Counter()
        self.failures: list[str] = []
        self.slowest = (0.0, "")

    def fail(self, what: str, detail: str) -> None:
        self.counts[what] += 1
        if len(self.failures) < 10:
            self.failures.append(f"{what}: {detail} (line {self.line[:80]!r}...)")

    def write(self, data: bytes) -> int:
        elapsed = time.perf_counter() - self.started
        if elapsed > self.slowest[0]:
            self.slowest = (elapsed, f"{self.kind}, {len(self.line)} bytes")
        self.counts["answers"] += 1
        reply = one_json_line(data)
        if reply is None:
            self.fail("bad answers", repr(data[:80]))
            self.state = {}  # unknown: the next refusal is not compared
            return len(data)
        verdict = "accepted" if reply["ok"] else "refused"
        self.outcomes[(self.kind, verdict)] += 1
        if not reply["ok"]:
            if reply["error"]["code"] == "internal_error":
                self.fail("internal errors", reply["error"]["message"])
            if self.state and reply["state"] != self.state:
                self.fail("state changes after refusals", reply["error"]["message"])
        self.state = reply["state"]
        return len(data)

    def flush(self) -> None:
        pass


def lines(rng: random.Random, checker: Checker, n: int) -> Iterator[bytes]:
    for _ in range(n):
        kind, line = hostile_line(
            rng,
            checker.state
            or {
                "phase": "break",
                "on_table": list(range(1, 10)),
                "lowest": 1,
                "push_out_allowed": False,
            },
        )
        line = line.replace(b"\n", b" ")
        checker.kind, checker.line, checker.started = kind, line, time.perf_counter()
        checker.counts["lines"] += 1
        yield line + b"\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000, help="how many lines (100000)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the lines (0)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    checker = Checker()
    source = lines(rng, checker, args.lines)
    start = time.perf_counter()
    while checker.counts["lines"] < args.lines:
        done = checker.counts["lines"]
        try:
            serve(
                cast(BinaryIO, LineFeed(source)),
                cast(BinaryIO, checker),
                rules=STANDARD,
                lang=Language.EN,
            )
        except Exception as exc:  # a crash: the command would have died with a traceback
            checker.fail("crashes", f"{type(exc).__name__}: {exc}")
            checker.state = {}
        if checker.counts["lines"] == done:
            break
    seconds = time.perf_counter() - start
    counts = checker.counts
    missing = counts["lines"] - counts["answers"]
    print(f"lines: {counts['lines']}, answers: {counts['answers']}, in {seconds:.1f} s "
          f"({seconds / max(counts['lines'], 1) * 1e6:.0f} us a line)")  # fmt: skip
    print(f"slowest answer: {checker.slowest[0] * 1000:.1f} ms ({checker.slowest[1]})")
    print(f"{'kind':<18} {'accepted':>9} {'refused':>9}")
    for kind in sorted({k for k, _ in checker.outcomes}):
        accepted, refused = (
            checker.outcomes[(kind, "accepted")],
            checker.outcomes[(kind, "refused")],
        )
        print(f"{kind:<18} {accepted:>9} {refused:>9}")
    problems = ["crashes", "bad answers", "state changes after refusals", "internal errors"]
    for name in problems:
        print(f"{name}: {counts[name]}")
    print(f"lines without an answer: {missing}")
    for failure in checker.failures:
        print("  " + failure)
    return 1 if missing or any(counts[name] for name in problems) else 0


if __name__ == "__main__":
    sys.exit(main())
