"""Run single shots on pooltool 0.6.0 and report their referee facts (run in pooltool's venv).

Reads a JSON job on stdin, ``{"shots": [...], "params": {...}, "cushion": "default"}``: each
shot has ``cue``, ``ob`` (x, y in m), ``aim_deg``, ``speed`` (cue-ball speed in m/s after the
stroke), ``side`` and ``height`` (tip offset in R, nineball's signs); ``params`` overrides
pooltool's BallParams; ``cushion`` is ``"default"`` (pooltool 0.6.0's Stronge compliant model) or
``"han_2005"``. Prints a JSON list, one object per shot: the facts, every event with the states
of its balls right after it, and the final positions. Used by compare_pooltool.py; never imported
by nineball.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import attrs
import numpy as np
import pooltool as pt  # type: ignore[import-not-found]
from pooltool.objects.table.specs import PocketTableSpecs  # type: ignore[import-not-found]
from pooltool.physics.engine import PhysicsEngine  # type: ignore[import-not-found]
from pooltool.physics.resolve import Resolver  # type: ignore[import-not-found]
from pooltool.physics.resolve.ball_cushion.han_2005.model import (  # type: ignore[import-not-found]
    Han2005Circular,
    Han2005Linear,
)
from pooltool.physics.resolve.stick_ball.instantaneous_point import (  # type: ignore[import-not-found]
    InstantaneousPoint,
)

# pooltool's pocket ids (left/right, bottom/centre/top) as nineball's PocketId values
POCKETS = {
    "lb": "head_left",
    "rb": "head_right",
    "lc": "side_left",
    "rc": "side_right",
    "lt": "foot_left",
    "rt": "foot_right",
}
BALL_IDS = {"cue": 0, "1": 1}
CUSHION_EVENTS = ("ball_linear_cushion", "ball_circular_cushion")


def _system(table: Any, shot: dict[str, Any], params: dict[str, float]) -> Any:
    balls = {
        "cue": pt.Ball.create("cue", xy=tuple(shot["cue"]), **params),
        "1": pt.Ball.create("1", xy=tuple(shot["ob"]), **params),
    }
    return pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="cue"))


def _strike(system: Any, shot: dict[str, Any]) -> None:
    # pooltool's a is the side offset with left english positive (its cue_strike gives w_z =
    # -a v / I): nineball's side is -a. b is the height, follow positive in both.
    a, b = -float(shot["side"]), float(shot["height"])
    system.strike(V0=1.0, phi=shot["aim_deg"], a=a, b=b, theta=0.0)
    # V0 is the cue's speed; the ball's speed per unit V0 depends on the tip offset
    probe = system.balls["cue"].copy()
    _, probe = InstantaneousPoint().solve(system.cue.copy(), probe)
    per_v0 = float(np.linalg.norm(probe.state.rvw[1]))
    system.strike(V0=shot["speed"] / per_v0, phi=shot["aim_deg"], a=a, b=b, theta=0.0)


def _state(agent: Any) -> dict[str, list[float]]:
    rvw = agent.final.state.rvw
    return {"r": rvw[0].tolist(), "v": rvw[1].tolist(), "w": rvw[2].tolist()}


def _engine(cushion: str) -> Any:
    resolver = Resolver.default()
    if cushion == "han_2005":
        resolver = attrs.evolve(
            resolver, ball_linear_cushion=Han2005Linear(), ball_circular_cushion=Han2005Circular()
        )
    elif cushion != "default":
        raise ValueError(f"unknown cushion model {cushion!r}")
    return PhysicsEngine(resolver=resolver)


def _run(table: Any, shot: dict[str, Any], params: dict[str, float], engine: Any) -> dict[str, Any]:
    system = _system(table, shot, params)
    _strike(system, shot)
    pt.simulate(system, engine=engine, inplace=True)
    events: list[dict[str, Any]] = []
    first: int | None = None
    t_first = float("inf")
    pocketed: dict[int, str] = {}
    rails: set[int] = set()
    for e in system.events:
        kind = e.event_type.value
        balls = [BALL_IDS[ag.id] for ag in e.agents if ag.agent_type.value == "ball"]
        record: dict[str, Any] = {"time": float(e.time), "kind": kind, "ids": list(e.ids)}
        record["states"] = [
            _state(ag) for ag in e.agents if ag.agent_type.value == "ball" and ag.final is not None
        ]
        events.append(record)
        if kind == "ball_ball" and 0 in balls and first is None:
            first, t_first = (balls[1] if balls[0] == 0 else balls[0]), float(e.time)
        elif kind == "ball_pocket":
            pocketed[balls[0]] = POCKETS[e.ids[1]]
        elif kind in CUSHION_EVENTS and float(e.time) >= t_first:
            rails.add(balls[0])
    final = {
        str(BALL_IDS[bid]): ball.state.rvw[0, :2].tolist() for bid, ball in system.balls.items()
    }
    return {
        "first_contact": first,
        "pocketed": {str(b): p for b, p in sorted(pocketed.items())},
        "rails": sorted(rails),
        "final": final,
        "events": events,
    }


def main() -> None:
    job = json.load(sys.stdin)
    table = pt.Table.from_table_specs(PocketTableSpecs(l=2.540, w=1.270))
    params = {k: float(v) for k, v in job.get("params", {}).items()}
    engine = _engine(job.get("cushion", "default"))
    out = [_run(table, shot, params, engine) for shot in job["shots"]]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
