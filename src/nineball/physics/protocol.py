"""``nineball simulate``: the physics engine's inspection port (docs/simulate-protocol.md).

Reads one JSON request (or an array of them) and writes one JSON result (or an array). A bad
single request exits with status 2 and ``{"error": {"code": ..., "message": ...}}``; in an array,
each bad request gets its own error object and the exit status is 0.

Error codes: ``bad_json`` (unreadable JSON or a top level that is neither an object nor an
array), ``invalid_input`` (a malformed or out-of-range field), ``unknown_param`` (a ``params``
name the engine does not have), ``invalid_placement`` (overlapping balls or a ball outside the
playing surface), ``miscue`` (a tip offset beyond the miscue limit, or a scoop: refused, not
simulated).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from nineball.errors import InvalidInputError, InvalidPlacementError, ProtocolError
from nineball.physics import (
    BallInput,
    BallState,
    MotionState,
    PhysicsParams,
    Stroke,
    Trajectory,
    nine_foot,
)
from nineball.physics.batch import run_prepared
from nineball.physics.simulate import PreparedShot

__all__ = ["SimulateError", "handle_request", "run_simulate"]

_TOP_KEYS = frozenset({"params", "balls", "stroke", "max_events"})
_BALL_KEYS = frozenset({"id", "r", "v", "w"})
_STROKE_KEYS = frozenset({"speed", "aim_deg", "elevation_deg", "side", "height"})


class SimulateError(ProtocolError):
    """A request that cannot be simulated, with its protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        """Store the code and message."""
        super().__init__(message)
        self.code = code
        self.message = message

    def as_json(self) -> dict[str, Any]:
        """The protocol's error object."""
        return {"error": {"code": self.code, "message": self.message}}


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SimulateError("invalid_input", f"{what} must be a finite number, got {value!r}")
    return float(value)


def _vector(value: object, sizes: tuple[int, ...], what: str) -> list[float]:
    if not isinstance(value, list) or len(value) not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise SimulateError(
            "invalid_input", f"{what} must be a list of {want} numbers, got {value!r}"
        )
    return [_number(x, what) for x in value]


def _parse_ball(raw: object, params: PhysicsParams) -> BallInput:
    if not isinstance(raw, dict):
        raise SimulateError("invalid_input", f"a ball must be an object, got {raw!r}")
    extra = sorted(set(raw) - _BALL_KEYS)
    if extra:
        raise SimulateError("invalid_input", f"unknown ball field {extra[0]!r} in {raw!r}")
    if "id" not in raw or "r" not in raw:
        raise SimulateError("invalid_input", f"a ball needs 'id' and 'r', got {raw!r}")
    ball_id = raw["id"]
    if isinstance(ball_id, bool) or not isinstance(ball_id, int) or not 0 <= ball_id <= 9:
        raise SimulateError("invalid_input", f"ball id must be an integer 0-9, got {ball_id!r}")
    r = _vector(raw["r"], (2, 3), f"ball {ball_id} r")
    if len(r) == 3 and abs(r[2] - params.radius) > 1e-9:
        raise SimulateError(
            "invalid_placement", f"ball {ball_id} must lie on the cloth (z = R), got z = {r[2]!r}"
        )
    v = _vector(raw.get("v", [0.0, 0.0]), (2, 3), f"ball {ball_id} v")
    if len(v) == 3 and v[2] != 0.0:
        raise SimulateError(
            "invalid_input",
            f"ball {ball_id} v_z must be 0 (balls start on the cloth), got {v[2]!r}",
        )
    w = _vector(raw.get("w", [0.0, 0.0, 0.0]), (3,), f"ball {ball_id} w")
    return BallInput(id=ball_id, r=(r[0], r[1]), v=(v[0], v[1]), w=(w[0], w[1], w[2]))


def _parse_stroke(raw: object) -> Stroke:
    if not isinstance(raw, dict):
        raise SimulateError("invalid_input", f"stroke must be an object, got {raw!r}")
    extra = sorted(set(raw) - _STROKE_KEYS)
    if extra:
        raise SimulateError("invalid_input", f"unknown stroke field {extra[0]!r}")
    if "speed" not in raw:
        raise SimulateError("invalid_input", "stroke needs 'speed' (m/s)")
    try:
        return Stroke(
            speed=_number(raw["speed"], "stroke speed"),
            aim=math.radians(_number(raw.get("aim_deg", 90.0), "stroke aim_deg")),
            elevation=math.radians(_number(raw.get("elevation_deg", 0.0), "stroke elevation_deg")),
            side=_number(raw.get("side", 0.0), "stroke side"),
            height=_number(raw.get("height", 0.0), "stroke height"),
        )
    except InvalidInputError as exc:
        raise SimulateError("invalid_input", str(exc)) from exc


def _parse_params(raw: object) -> PhysicsParams:
    if raw is None:
        return PhysicsParams()
    if not isinstance(raw, dict):
        raise SimulateError("invalid_input", f"params must be an object, got {raw!r}")
    known = set(PhysicsParams.names())
    for name, value in raw.items():
        if name not in known:
            raise SimulateError(
                "unknown_param", f"unknown param {name!r}; known: {', '.join(sorted(known))}"
            )
        if name == "ball_friction" and value == "default":
            continue
        _number(value, f"param {name!r}")
    try:
        return PhysicsParams().with_overrides(dict(raw))
    except InvalidInputError as exc:
        raise SimulateError("invalid_input", str(exc)) from exc


def _state_json(s: BallState) -> dict[str, Any]:
    if s.motion is MotionState.POCKETED and s.pocket is not None:
        return {"r": list(s.r), "motion": "pocketed", "pocket": s.pocket.value}
    return {"r": list(s.r), "v": list(s.v), "w": list(s.w), "motion": s.motion.wire_name}


def _final_json(s: BallState) -> dict[str, Any]:
    if s.motion is MotionState.POCKETED and s.pocket is not None:
        return {"motion": "pocketed", "pocket": s.pocket.value}
    return _state_json(s)


def trajectory_json(tr: Trajectory) -> dict[str, Any]:
    """The protocol's result object for a trajectory (without timing)."""
    events = []
    for e in tr.events():
        item: dict[str, Any] = {"t": e.time, "type": e.kind.value, "balls": list(e.balls)}
        if e.cushion is not None:
            item["cushion"] = e.cushion
        if e.pocket is not None:
            item["pocket"] = e.pocket.value
        item["states"] = {str(b): _state_json(s) for b, s in zip(e.balls, e.states, strict=True)}
        events.append(item)
    facts = tr.facts()
    out: dict[str, Any] = {
        "events": events,
        "final": {str(b): _final_json(s) for b, s in sorted(tr.final_states().items())},
        "facts": {
            "first_contact": facts.first_contact,
            "pocketed": list(facts.pocketed),
            "off_table": list(facts.off_table),
            "rails": list(facts.rails),
        },
    }
    if tr.truncated:
        out["truncated"] = True
    return out


def handle_request(request: object, repeat: int | None = None) -> dict[str, Any]:
    """Simulate one decoded request and return its result object.

    With ``repeat`` (N >= 1) the request is simulated N times and a ``timing`` object is added.

    Raises:
        SimulateError: the request is refused (its code and message go on the wire).
    """
    prepared, max_events = _prepare(request)
    timings = []
    start = time.perf_counter()
    tr = prepared.run(max_events)
    timings.append(time.perf_counter() - start)
    for _ in range((repeat or 1) - 1):
        start = time.perf_counter()
        tr = prepared.run(max_events)
        timings.append(time.perf_counter() - start)
    result = trajectory_json(tr)
    return result if repeat is None else result | _timing(timings)


def handle_requests(requests: list[object]) -> list[dict[str, Any]]:
    """Simulate an array of decoded requests together (one compiled batch); their results.

    Each entry is :func:`handle_request`'s result for that request, or its error object: the
    shots checked one by one, then simulated in one call over the cores
    (:func:`nineball.physics.batch.run_prepared`), bit for bit as one at a time.
    """
    results: list[dict[str, Any] | None] = []
    ready: list[tuple[PreparedShot, int]] = []
    where: list[int] = []
    for item in requests:
        try:
            shot = _prepare(item)
        except SimulateError as exc:
            results.append(exc.as_json())
            continue
        where.append(len(results))
        results.append(None)
        ready.append(shot)
    batch = run_prepared(ready)
    for q, i in enumerate(where):
        error = batch.errors[q]
        if error is not None:  # pragma: no cover - an engine invariant broken: as one alone
            raise error
        results[i] = trajectory_json(batch.trajectory(q))
    return [r for r in results if r is not None]


def _prepare(request: object) -> tuple[PreparedShot, int]:
    """A request checked: the shot, ready to run, and its ``max_events``.

    Raises:
        SimulateError: the request is refused (its code and message go on the wire).
    """
    if not isinstance(request, dict):
        raise SimulateError("invalid_input", f"a request must be a JSON object, got {request!r}")
    extra = sorted(set(request) - _TOP_KEYS)
    if extra:
        raise SimulateError("invalid_input", f"unknown request field {extra[0]!r}")
    params = _parse_params(request.get("params"))
    raw_balls = request.get("balls")
    if not isinstance(raw_balls, list) or not raw_balls:
        raise SimulateError("invalid_input", f"balls must be a non-empty list, got {raw_balls!r}")
    balls = [_parse_ball(b, params) for b in raw_balls]
    stroke = None if request.get("stroke") is None else _parse_stroke(request["stroke"])
    max_events = request.get("max_events", 10000)
    if (
        isinstance(max_events, bool)
        or not isinstance(max_events, int)
        or not 1 <= max_events <= 1_000_000
    ):
        raise SimulateError(
            "invalid_input", f"max_events must be an integer in 1..1000000, got {max_events!r}"
        )
    table = nine_foot()
    try:
        prepared = PreparedShot(balls, stroke, params, table)
    except InvalidPlacementError as exc:
        raise SimulateError("invalid_placement", str(exc)) from exc
    except InvalidInputError as exc:
        code = "miscue" if str(exc).startswith("miscue") else "invalid_input"
        raise SimulateError(code, str(exc)) from exc
    return prepared, max_events


def _timing(timings: list[float]) -> dict[str, Any]:
    return {
        "timing": {
            "runs": len(timings),
            "min_s": min(timings),
            "median_s": statistics.median(timings),
        }
    }


def run_simulate(
    source: TextIO, sink: TextIO, *, input_file: Path | None = None, repeat: int | None = None
) -> int:
    """Run the command: read the request(s), simulate, write the result(s); return the status."""
    try:
        if repeat is not None and (isinstance(repeat, bool) or repeat < 1):
            raise SimulateError("invalid_input", f"--repeat must be >= 1, got {repeat!r}")
        try:
            text = input_file.read_text(encoding="utf-8") if input_file else source.read()
        except OSError as exc:
            raise SimulateError("invalid_input", f"cannot read {str(input_file)!r}: {exc}") from exc
        request = _decode(text)
        if isinstance(request, list):
            if repeat is None:
                _write(sink, handle_requests(request))
                return 0
            results = []
            for item in request:
                try:
                    results.append(handle_request(item, repeat))
                except SimulateError as exc:
                    results.append(exc.as_json())
            _write(sink, results)
            return 0
        if not isinstance(request, dict):
            raise SimulateError("bad_json", "the input must be a JSON object or an array of them")
        _write(sink, handle_request(request, repeat))
        return 0
    except SimulateError as exc:
        _write(sink, exc.as_json())
        return 2


MAX_DEPTH = 16
"""Deepest nesting of arrays and objects a request may have (a request needs 4)."""


def _decode(text: str) -> object:
    """The request's JSON, refusing deep nesting and numbers too long to be real values.

    Raises:
        SimulateError: ``bad_json`` for unreadable JSON, nesting deeper than :data:`MAX_DEPTH`
            or an integer of thousands of digits (Python refuses to convert those).
    """
    depth = 0
    deepest = 0
    in_string = escaped = False
    for ch in text:  # nesting measured before parsing: the parser itself recurses
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_DEPTH:
        raise SimulateError(
            "bad_json", f"bad JSON: nested {deepest} deep, more than the {MAX_DEPTH} allowed"
        )
    try:
        return json.loads(text)
    except (json.JSONDecodeError, ValueError, RecursionError) as exc:
        raise SimulateError("bad_json", f"bad JSON: {str(exc)[:200]}") from exc


def _write(sink: TextIO, value: object) -> None:
    sink.write(json.dumps(value, allow_nan=False) + "\n")
    sink.flush()


def main_stdio(input_file: Path | None, repeat: int | None) -> int:
    """Run with the process's standard input and output."""
    return run_simulate(sys.stdin, sys.stdout, input_file=input_file, repeat=repeat)
