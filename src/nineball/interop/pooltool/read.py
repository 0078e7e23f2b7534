"""Reading a pooltool file: every System of it as a :class:`PooltoolShot`.

Every field nineball uses is checked before it is used; a bad one gets :class:`PooltoolFileError`
naming its place in the file (a JSON path such as ``$.balls["3"].state.rvw[0][1]``) and what is
wrong with it. Fields nineball has no use for (the balls' rendered orientation and ball set, the
table's model and heights, the dense ``history_cts``) are not read. A ball's state at t = 0 is the
first of its ``history`` when the System was simulated, else its ``state``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from nineball.equipment import PocketId, Point
from nineball.game import BallInput, PhysicsParams, Stroke
from nineball.interop.pooltool.fields import get, inside, number, obj, short, text, vector
from nineball.interop.pooltool.file import (
    MAX_FILE_BYTES,
    Format,
    PooltoolFileError,
    decode,
    format_of,
)
from nineball.interop.pooltool.shot import (
    BALL_IDS,
    CUE_MASS,
    TIE,
    PooltoolCue,
    PooltoolOutcome,
    PooltoolShot,
    ball_speed,
)
from nineball.interop.pooltool.table import POCKET_IDS, table_from_pooltool

__all__ = ["MAX_EVENTS", "MAX_SYSTEMS", "load_pooltool", "read_pooltool"]

MAX_SYSTEMS = 10_000
"""The most shots a MultiSystem file may hold."""

MAX_EVENTS = 1_000_000
"""The most events a System may hold."""

_MOTION = {0: "stationary", 1: "spinning", 2: "sliding", 3: "rolling", 4: "pocketed"}
"""pooltool's motion states (``s``)."""

_CUSHION_EVENTS = frozenset({"ball_linear_cushion", "ball_circular_cushion"})


def _rvw(value: object, where: str) -> list[list[float]]:
    if not (isinstance(value, list) and len(value) == 3):
        raise PooltoolFileError(where, f"must be 3 rows (r, v, w), got {short(value)}")
    return [vector(row, inside(where, i), 3, "x, y, z") for i, row in enumerate(value)]


def read_pooltool(data: bytes, fmt: Format) -> tuple[PooltoolShot, ...]:
    """The shots of a pooltool file's bytes: one for a System, each of a MultiSystem's.

    Raises:
        PooltoolFileError: the file is not a pooltool System or MultiSystem nineball can play,
            naming the first bad field (a JSON path) and what is wrong with it.
    """
    root = obj(decode(data, fmt), "$")
    if "multisystem" in root:
        systems = root["multisystem"]
        if not isinstance(systems, list) or not 1 <= len(systems) <= MAX_SYSTEMS:
            raise PooltoolFileError(
                "$.multisystem",
                f"must be a list of 1 to {MAX_SYSTEMS} systems, got {short(systems)}",
            )
        return tuple(_shot(s, f"$.multisystem[{k}]") for k, s in enumerate(systems))
    return (_shot(root, "$"),)


def load_pooltool(path: Path | str) -> tuple[PooltoolShot, ...]:
    """The shots of a pooltool file (``.json`` or ``.msgpack``), see :func:`read_pooltool`.

    Raises:
        PooltoolFileError: an unreadable file, or one :func:`read_pooltool` refuses.
    """
    fmt = format_of(path)
    try:
        with Path(path).open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PooltoolFileError("$", f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    return read_pooltool(data, fmt)


def _shot(raw: object, where: str) -> PooltoolShot:
    system = obj(raw, where)
    notes: list[str] = []
    mapped = table_from_pooltool(get(system, "table", where), inside(where, "table"))
    notes.extend(mapped.notes)
    raw_balls = obj(get(system, "balls", where), inside(where, "balls"))
    if len(raw_balls) > 64:
        raise PooltoolFileError(inside(where, "balls"), f"holds {len(raw_balls)} balls, over 64")
    cue_at = inside(where, "cue")
    cue = obj(get(system, "cue", where), cue_at)
    specs = obj(get(cue, "specs", cue_at), inside(cue_at, "specs"))
    params, params_notes = _params(
        raw_balls, specs, inside(where, "balls"), inside(cue_at, "specs")
    )
    notes.extend(params_notes)
    balls = []
    for key, raw_ball in raw_balls.items():
        ball = _ball(key, raw_ball, inside(inside(where, "balls"), key), params, mapped.offset)
        if ball is not None:
            balls.append(ball)
    if not balls:
        raise PooltoolFileError(inside(where, "balls"), "no ball is on the table")
    stroke, stroke_notes, params = _stroke(cue, cue_at, specs, params, balls)
    notes.extend(stroke_notes)
    outcome = _outcome(system, where, mapped.offset)
    return PooltoolShot(
        balls=tuple(sorted(balls, key=lambda b: b.id)),
        stroke=stroke,
        table=mapped.table,
        params=params,
        cue=_cue(cue, specs, cue_at),
        notes=tuple(notes),
        outcome=outcome,
    )


_BALL_PARAMS = {
    "m": (0.170097, "mass"),
    "R": (0.028575, "radius"),
    "u_s": (0.2, "mu_slide"),
    "u_r": (0.01, "mu_roll"),
    "u_sp_proportionality": (10 * 2 / 5 / 9, None),
    "u_b": (0.05, None),
    "e_b": (0.95, "e_ball"),
    "e_c": (0.85, "e_cushion"),
    "f_c": (0.2, "mu_cushion"),
    "g": (9.81, "g"),
}
"""pooltool's BallParams: its default (for files of versions that lack the field) and nineball's
name (None: computed, or no counterpart)."""


def _params(
    balls: dict[str, Any], specs: dict[str, Any], where: str, specs_at: str
) -> tuple[PhysicsParams, list[str]]:
    """The parameters of nineball from the balls' (all alike) and the cue's end mass."""
    first: tuple[str, dict[str, float]] | None = None
    for key, raw in balls.items():
        at = inside(inside(where, key), "params")
        given = obj(get(obj(raw, inside(where, key)), "params", inside(where, key)), at)
        values = {
            name: number(given.get(name, default), inside(at, name), 0.0, 1e3)
            for name, (default, _) in _BALL_PARAMS.items()
        }
        if first is None:
            first = (key, values)
            continue
        for name, value in values.items():
            if value != first[1][name]:
                raise PooltoolFileError(
                    inside(at, name),
                    f"is {value!r} but ball {first[0]!r} has {first[1][name]!r}: nineball's "
                    "balls share one set of parameters",
                )
    if first is None:
        raise PooltoolFileError(where, "holds no ball")
    values = first[1]
    mapped: dict[str, object] = {
        ours: values[name] for name, (_, ours) in _BALL_PARAMS.items() if ours is not None
    }
    # pooltool's spin about the vertical stops in |w_z| 2/5 R / (u_sp g): a deceleration of
    # 5/2 u_sp g / R = 5/2 u_sp_proportionality g, since u_sp = u_sp_proportionality R
    mapped["spin_decel"] = 2.5 * values["u_sp_proportionality"] * values["g"]
    mapped["cue_endmass"] = number(
        specs.get("end_mass", 0.170097 / 30), inside(specs_at, "end_mass"), 0.0, 10.0
    )
    notes = []
    if values["u_b"] != _BALL_PARAMS["u_b"][0]:
        notes.append(
            f"u_b = {values['u_b']!r} (a constant ball-ball friction) is not used: pooltool "
            "0.6.0's default ball-ball model and nineball's use the same speed-dependent fit"
        )
    try:
        return PhysicsParams().with_overrides(mapped), notes
    except ValueError as exc:
        # name pooltool's field behind nineball's parameter
        theirs = {ours: name for name, (_, ours) in _BALL_PARAMS.items() if ours is not None}
        theirs["spin_decel"] = "u_sp_proportionality"
        place = where
        for ours, name in theirs.items():
            if f"'{ours}'" in str(exc):
                place = inside(inside(inside(where, first[0]), "params"), name)
        if "'cue_endmass'" in str(exc):
            place = inside(specs_at, "end_mass")
        raise PooltoolFileError(place, f"does not suit nineball: {exc}") from None


def _ball(
    key: str, raw: object, where: str, params: PhysicsParams, offset: tuple[float, float]
) -> BallInput | None:
    """A ball as it was at t = 0, or None when it is in a pocket."""
    if key not in BALL_IDS:
        raise PooltoolFileError(
            where, "is not a ball of a nine-ball set (ids 'cue' and '1' to '9')"
        )
    ball = obj(raw, where)
    if get(ball, "id", where) != key:
        raise PooltoolFileError(inside(where, "id"), f"must be the ball's key {key!r}")
    rvw, motion = _initial(ball, where)
    if motion == 4:
        return None
    r, v, w = rvw
    if abs(r[2] - params.radius) > 1e-6:
        raise PooltoolFileError(
            where,
            f"the ball's centre is at z = {r[2]!r} m, not on the cloth (z = R = "
            f"{params.radius!r} m)",
        )
    if v[2] != 0.0:
        raise PooltoolFileError(where, f"the ball moves vertically (v_z = {v[2]!r} m/s)")
    return BallInput(
        id=int(BALL_IDS[key]),
        r=(r[0] - offset[0], r[1] - offset[1]),
        v=(v[0], v[1]),
        w=(w[0], w[1], w[2]),
    )


def _initial(ball: dict[str, Any], where: str) -> tuple[list[list[float]], int]:
    """The ball's state at t = 0: the first of its history when simulated, else its state."""
    history = ball.get("history")
    at = inside(where, "history")
    first: tuple[object, object, str, str] | None = None  # rvw, s and their places
    if isinstance(history, dict):  # JSON: {"states": [...]}
        states = history.get("states")
        if not isinstance(states, list):
            raise PooltoolFileError(inside(at, "states"), f"must be a list, got {short(states)}")
        if states:
            place = inside(inside(at, "states"), 0)
            state = obj(states[0], place)
            first = (state.get("rvw"), state.get("s"), inside(place, "rvw"), inside(place, "s"))
    elif isinstance(history, list):  # msgpack: [rvws, motion states, times]
        if len(history) != 3 or not all(isinstance(h, list) for h in history):
            raise PooltoolFileError(at, "must be three arrays (rvw, s, t)")
        if history[0]:
            if not history[1]:
                raise PooltoolFileError(inside(at, 1), "has no motion state for the first rvw")
            rvw_at, s_at = inside(inside(at, 0), 0), inside(inside(at, 1), 0)
            first = (history[0][0], history[1][0], rvw_at, s_at)
    elif history is not None:
        raise PooltoolFileError(at, f"must be a history, got {short(history)}")
    if first is None:
        place = inside(where, "state")
        state = obj(get(ball, "state", where), place)
        first = (
            get(state, "rvw", place),
            get(state, "s", place),
            inside(place, "rvw"),
            inside(place, "s"),
        )
    raw_rvw, raw_s, rvw_at, s_at = first
    rvw = _rvw(raw_rvw, rvw_at)
    s = number(raw_s, s_at)
    if s not in _MOTION:
        raise PooltoolFileError(s_at, f"must be a motion state 0-4, got {raw_s!r}")
    return rvw, int(s)


def _stroke(
    cue: dict[str, Any],
    where: str,
    specs: dict[str, Any],
    params: PhysicsParams,
    balls: Sequence[BallInput],
) -> tuple[Stroke | None, list[str], PhysicsParams]:
    cue_ball = get(cue, "cue_ball_id", where)
    if cue_ball != "cue":
        raise PooltoolFileError(
            inside(where, "cue_ball_id"), f"is {cue_ball!r}: nineball strikes the cue ball 'cue'"
        )
    if not any(b.id == 0 for b in balls):
        return None, ["the cue ball is in a pocket: no stroke is played"], params
    v0 = number(get(cue, "V0", where), inside(where, "V0"), 0.0, 100.0)
    phi = number(get(cue, "phi", where), inside(where, "phi"), -1e6, 1e6)
    theta = number(get(cue, "theta", where), inside(where, "theta"), 0.0, 80.0)
    a = number(get(cue, "a", where), inside(where, "a"), -1.0, 1.0)
    b = number(get(cue, "b", where), inside(where, "b"), -1.0, 1.0)
    mass = number(specs.get("M", CUE_MASS), inside(inside(where, "specs"), "M"), 1e-3, 100.0)
    offset = math.hypot(a, b)
    if offset >= 1.0:
        raise PooltoolFileError(where, f"the tip offset (a, b) = ({a!r}, {b!r}) is off the ball")
    notes = []
    if offset > params.miscue_limit:
        notes.append(
            f"the tip offset {offset:.3g} R is beyond nineball's miscue limit "
            f"{params.miscue_limit!r} R: the limit is raised for this shot (pooltool has none)"
        )
        params = replace(params, miscue_limit=min(0.999, offset * (1 + 1e-12) + 1e-12))
    if theta > 0.0:
        notes.append(
            f"the cue is raised {theta:.3g} deg: nineball drives the cue ball into the slate "
            "(it may hop), pooltool 0.6.0 keeps it on the cloth"
        )
    speed = ball_speed(v0, a=a, b=b, theta_deg=theta, ball_mass=params.mass, cue_mass=mass)
    try:
        stroke = Stroke(
            speed=speed,
            aim=math.radians(phi % 360.0),
            elevation=math.radians(theta),
            side=0.0 - a,  # pooltool's a is positive on the ball's left: left english
            height=b,
        )
    except ValueError as exc:
        raise PooltoolFileError(inside(where, "V0"), str(exc)) from None
    return stroke, notes, params


def _cue(cue: dict[str, Any], specs: dict[str, Any], where: str) -> PooltoolCue:
    spec_at = inside(where, "specs")
    defaults = PooltoolCue()
    return PooltoolCue(
        mass=number(specs.get("M", defaults.mass), inside(spec_at, "M"), 1e-3, 100.0),
        length=number(specs.get("length", defaults.length), inside(spec_at, "length"), 0.0, 100.0),
        tip_radius=number(
            specs.get("tip_radius", defaults.tip_radius), inside(spec_at, "tip_radius"), 0.0, 1.0
        ),
        shaft_radius_at_tip=number(
            specs.get("shaft_radius_at_tip", defaults.shaft_radius_at_tip),
            inside(spec_at, "shaft_radius_at_tip"), 0.0, 1.0,
        ),
        shaft_radius_at_butt=number(
            specs.get("shaft_radius_at_butt", defaults.shaft_radius_at_butt),
            inside(spec_at, "shaft_radius_at_butt"), 0.0, 1.0,
        ),
        brand=text(specs.get("brand", defaults.brand), inside(spec_at, "brand")),
        id=text(cue.get("id", defaults.id), inside(where, "id")),
    )  # fmt: skip


def _outcome(
    system: dict[str, Any], where: str, offset: tuple[float, float]
) -> PooltoolOutcome | None:
    events = system.get("events", [])
    at = inside(where, "events")
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise PooltoolFileError(at, f"must be a list of at most {MAX_EVENTS} events")
    if not events:
        return None
    contacts: list[tuple[float, int]] = []
    pocketed: dict[int, PocketId] = {}
    touched: list[tuple[float, int]] = []
    for k, raw in enumerate(events):
        event_at = inside(at, k)
        event = obj(raw, event_at)
        kind = text(get(event, "event_type", event_at), inside(event_at, "event_type"))
        time = number(get(event, "time", event_at), inside(event_at, "time"), 0.0, 1e6)
        agents_at = inside(event_at, "agents")
        agents = get(event, "agents", event_at)
        if not isinstance(agents, list) or not 1 <= len(agents) <= 2:
            raise PooltoolFileError(agents_at, "must be a list of 1 or 2 agents")
        ids = [
            text(
                get(obj(a, inside(agents_at, i)), "id", inside(agents_at, i)), inside(agents_at, i)
            )
            for i, a in enumerate(agents)
        ]
        if kind == "ball_ball" and "cue" in ids and len(ids) == 2:
            contacts.append((time, _ball_id(ids[1] if ids[0] == "cue" else ids[0], agents_at)))
        elif kind == "ball_pocket" and len(ids) == 2:
            if ids[1] not in POCKET_IDS:
                raise PooltoolFileError(agents_at, f"unknown pocket {ids[1]!r}")
            pocketed[_ball_id(ids[0], agents_at)] = POCKET_IDS[ids[1]]
        elif kind in _CUSHION_EVENTS:
            touched.append((time, _ball_id(ids[0], agents_at)))
    start = min((t for t, _ in contacts), default=math.inf)
    first = min((b for t, b in contacts if t - start <= TIE), default=None)
    rails = sorted({ball for time, ball in touched if time >= start})
    final: list[tuple[int, Point | None]] = []
    balls_at = inside(where, "balls")
    for key, raw in obj(system["balls"], balls_at).items():
        state_at = inside(inside(balls_at, key), "state")
        state = obj(get(obj(raw, inside(balls_at, key)), "state", inside(balls_at, key)), state_at)
        rvw = _rvw(get(state, "rvw", state_at), inside(state_at, "rvw"))
        s = number(get(state, "s", state_at), inside(state_at, "s"))
        point = None if int(s) == 4 else (rvw[0][0] - offset[0], rvw[0][1] - offset[1])
        final.append((int(BALL_IDS[key]), point))
    return PooltoolOutcome(
        first_contact=first,
        pocketed=tuple(sorted(pocketed.items())),
        rails=tuple(rails),
        final=tuple(sorted(final, key=lambda item: item[0])),
        events=len(events),
        duration=number(system.get("t", 0.0), inside(where, "t"), 0.0, 1e6),
    )


def _ball_id(key: str, where: str) -> int:
    if key not in BALL_IDS:
        raise PooltoolFileError(where, f"unknown ball {key!r}")
    return int(BALL_IDS[key])
