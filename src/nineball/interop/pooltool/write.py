"""Writing nineball's shots as pooltool files: a System, or a MultiSystem of several.

The systems are unsimulated: pooltool's ``System.load`` (or ``MultiSystem.load``) reads them and
``pooltool.simulate`` plays them. Every field pooltool 0.6.0 saves is written, with the values
pooltool itself would give what nineball has no counterpart for (the balls' orientation, the
table's heights); a cue of :class:`PooltoolCue` (pooltool's default one, unless the shot was read
from a pooltool file) sets ``V0`` for the stroke's speed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from nineball.equipment import BallId
from nineball.errors import InvalidInputError
from nineball.game import TABLES, BallInput, MatchRecord, PhysicsParams, ShotKind, Stroke
from nineball.game.match import record_stroke
from nineball.interop.pooltool.file import Format, PooltoolFileError, encode, format_of
from nineball.interop.pooltool.read import MAX_SYSTEMS
from nineball.interop.pooltool.shot import BALL_IDS, PooltoolShot, cue_speed
from nineball.interop.pooltool.table import table_to_pooltool

__all__ = ["dump_pooltool", "record_shots", "save_pooltool"]


def _motion_state(ball: BallInput, radius: float) -> int:
    vx, vy = ball.v
    wx, wy, wz = ball.w
    if vx == vy == 0.0:
        return 0 if wx == wy == wz == 0.0 else (1 if wx == wy == 0.0 else 2)
    # rolling when the contact point does not slip: v + w x (-R z) = 0
    slip = math.hypot(vx - radius * wy, vy + radius * wx)
    return 3 if slip <= 1e-9 * max(1.0, math.hypot(vx, vy)) else 2


def _ball_params(params: PhysicsParams) -> dict[str, float]:
    friction = params.ball_friction
    if params.mu_cushion <= 0.0:
        raise PooltoolFileError(
            "$.balls", "pooltool needs a cushion friction f_c > 0; nineball's mu_cushion is 0"
        )
    return {
        "m": params.mass,
        "R": params.radius,
        "u_s": params.mu_slide,
        "u_r": params.mu_roll,
        "u_sp_proportionality": params.spin_decel / (2.5 * params.g),
        "u_b": float(friction) if friction != "default" and friction > 0 else 0.05,
        "e_b": params.e_ball,
        "e_c": params.e_cushion,
        "f_c": params.mu_cushion,
        "g": params.g,
    }


def _system(shot: PooltoolShot, fmt: Format) -> dict[str, Any]:
    """One shot as pooltool's saved System, unsimulated (arrays as numpy arrays)."""
    params = shot.params
    ball_params = _ball_params(params)
    empty: object = {"states": []} if fmt == "json" else None
    names = {int(b): key for key, b in BALL_IDS.items()}
    balls: dict[str, Any] = {}
    for ball in sorted(shot.balls, key=lambda b: b.id):
        key = names[ball.id]
        rvw = np.array(
            [[ball.r[0], ball.r[1], params.radius], [ball.v[0], ball.v[1], 0.0], list(ball.w)],
            dtype=np.float64,
        )
        balls[key] = {
            "id": key,
            "state": {"rvw": rvw, "s": _motion_state(ball, params.radius), "t": 0.0},
            "params": dict(ball_params),
            "ballset": None,
            "initial_orientation": {"pos": [1.0, 1.0, 1.0, 1.0], "sphere": [1.0, 0.0, 0.0, 0.0]},
            "history": empty,
            "history_cts": empty,
        }
    stroke = shot.stroke or Stroke(speed=0.0)
    a, b = -stroke.side, stroke.height
    theta = math.degrees(stroke.elevation)
    cue = shot.cue
    v0 = cue_speed(
        stroke.speed, a=a, b=b, theta_deg=theta, ball_mass=params.mass, cue_mass=cue.mass
    )
    return {
        "cue": {
            "id": cue.id,
            "V0": v0,
            "phi": math.degrees(stroke.aim) % 360.0,
            "theta": theta,
            "a": a,
            "b": b,
            "cue_ball_id": "cue",
            "specs": {
                "brand": cue.brand,
                "M": cue.mass,
                "length": cue.length,
                "tip_radius": cue.tip_radius,
                "shaft_radius_at_tip": cue.shaft_radius_at_tip,
                "shaft_radius_at_butt": cue.shaft_radius_at_butt,
                "end_mass": params.cue_endmass,
            },
        },
        "table": table_to_pooltool(shot.table),
        "balls": balls,
        "t": 0.0,
        "events": [],
    }


def dump_pooltool(shots: PooltoolShot | Sequence[PooltoolShot], fmt: Format) -> bytes:
    """A pooltool file of ``shots``: a System for one shot, a MultiSystem for a sequence.

    The systems are unsimulated: pooltool's ``System.load`` (or ``MultiSystem.load``) reads
    them and ``pooltool.simulate`` plays them.

    Raises:
        PooltoolFileError: a shot pooltool cannot hold (no cushion friction), an unknown
            format, or msgpack without the ``msgpack`` package.
    """
    if isinstance(shots, PooltoolShot):
        return encode(_system(shots, fmt), fmt)
    if not 1 <= len(shots) <= MAX_SYSTEMS:
        raise PooltoolFileError(
            "$.multisystem", f"needs 1 to {MAX_SYSTEMS} shots, got {len(shots)}"
        )
    return encode({"multisystem": [_system(s, fmt) for s in shots]}, fmt)


def save_pooltool(path: Path | str, shots: PooltoolShot | Sequence[PooltoolShot]) -> None:
    """Write :func:`dump_pooltool`'s file to ``path``.

    The suffix, ``.json`` or ``.msgpack``, says the format, as in pooltool.

    Raises:
        PooltoolFileError: as :func:`dump_pooltool`, or a suffix pooltool does not read.
        OSError: the file cannot be written.
    """
    Path(path).write_bytes(dump_pooltool(shots, format_of(path)))


def record_shots(record: MatchRecord, game: int, shot: int | None = None) -> list[PooltoolShot]:
    """The strokes of a recorded game as pooltool shots, from the record's own positions.

    Each stroke is played from the balls as the record left them (the rack, then each stroke's
    ``positions``) with the cue ball where it was placed by hand, on the record's table and
    parameters, as the record's stroke (after execution noise: the stroke played).

    Args:
        record: a match record (``nineball export``, ``nineball match --record``).
        game: the game's index, from 0.
        shot: one entry's index in the game, from 0 (None: every stroke of the game).

    Raises:
        IndexError: no such game or entry.
        InvalidInputError: the entry is not a stroke, or the record holds no positions (a
            match scored by hand), or its table is unknown.
    """
    if not 0 <= game < len(record.games):
        raise IndexError(f"the record has no game {game + 1} (it has {len(record.games)})")
    entries = record.games[game].shots
    if shot is not None and not 0 <= shot < len(entries):
        raise IndexError(f"game {game + 1} has no entry {shot + 1} (it has {len(entries)})")
    if record.table not in TABLES:
        raise InvalidInputError(f"unknown table {record.table!r} (known: {', '.join(TABLES)})")
    table = TABLES[record.table]()
    params = PhysicsParams().with_overrides(dict(record.params))
    rack = record.games[game].rack
    if rack is None:
        raise InvalidInputError(f"game {game + 1} has no rack: a match scored by hand")
    layout = dict(rack)
    out: list[PooltoolShot] = []
    for index, entry in enumerate(entries):
        if entry.kind is ShotKind.STROKE and entry.stroke is not None:
            if shot is None or index == shot:
                balls = dict(layout)
                if entry.cue_ball is not None:
                    balls[BallId.CUE] = entry.cue_ball
                out.append(
                    PooltoolShot(
                        balls=tuple(BallInput(id=int(b), r=p) for b, p in sorted(balls.items())),
                        stroke=record_stroke(entry.stroke),
                        table=table,
                        params=params,
                    )
                )
            if entry.positions is None:
                raise InvalidInputError(
                    f"entry {index + 1} of game {game + 1} has no ball positions: a match "
                    "scored by hand"
                )
            layout = dict(entry.positions)
        elif index == shot:
            raise InvalidInputError(
                f"entry {index + 1} of game {game + 1} is a {entry.kind.value}, not a stroke"
            )
    if not out:
        raise InvalidInputError(f"game {game + 1} has no stroke")
    return out
