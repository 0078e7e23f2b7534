"""Time pooltool 0.6.0 on the benchmark's shots (run by physics_vs_pooltool.py in pooltool's venv).

Reads a JSON job on stdin and prints a JSON object of timings (the best of ``passes`` runs of
each simulation). Never imported by nineball.
"""

from __future__ import annotations

import json
import math
import sys
import time
from typing import Any

import numpy as np
import pooltool as pt  # type: ignore[import-not-found]
from pooltool.objects.table.specs import PocketTableSpecs  # type: ignore[import-not-found]


def _break(table: Any, seed: int, job: dict[str, Any], per_v0: float) -> tuple[float, int]:
    np.random.seed(seed)  # noqa: NPY002 - pooltool jitters its rack with the global RNG
    balls = pt.get_rack(pt.GameType.NINEBALL, table=table)
    cue_xy = job["break_cue"][str(seed)]
    balls["cue"].state.rvw[0, :2] = cue_xy
    system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="cue"))
    aim = math.degrees(math.atan2(1.905 - cue_xy[1], 0.635 - cue_xy[0]))
    system.strike(V0=job["break_speed"] / per_v0, phi=aim, a=0.0, b=0.0, theta=0.0)
    start = time.perf_counter()
    pt.simulate(system, inplace=True)
    return time.perf_counter() - start, len(system.events)


def _shot(table: Any, shot: dict[str, Any], per_v0: float) -> float:
    balls = {
        "cue": pt.Ball.create("cue", xy=tuple(shot["cue"])),
        "1": pt.Ball.create("1", xy=tuple(shot["ob"])),
    }
    system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="cue"))
    system.strike(V0=shot["speed"] / per_v0, phi=shot["aim_deg"], a=0.0, b=0.0, theta=0.0)
    start = time.perf_counter()
    pt.simulate(system, inplace=True)
    return time.perf_counter() - start


def main() -> None:
    job = json.load(sys.stdin)
    table = pt.Table.from_table_specs(PocketTableSpecs(l=2.540, w=1.270))
    # pooltool's V0 is the cue's speed: measure the cue-ball speed it gives per unit V0
    probe = pt.System(
        table=table,
        balls={"cue": pt.Ball.create("cue", xy=(0.635, 0.635))},
        cue=pt.Cue(cue_ball_id="cue"),
    )
    probe.strike(V0=1.0, phi=90.0, a=0.0, b=0.0, theta=0.0)
    pt.simulate(probe, inplace=True)
    stick = next(e for e in probe.events if e.event_type.value == "stick_ball")
    per_v0 = float(np.linalg.norm(stick.agents[1].final.state.rvw[1]))
    passes = int(job.get("passes", 1))
    breaks: list[float] = []
    events: list[int] = []
    for seed in job["break_seeds"]:
        runs = [_break(table, seed, job, per_v0) for _ in range(passes)]
        breaks.append(min(r[0] for r in runs))
        events.append(runs[0][1])
    shots = [min(_shot(table, s, per_v0) for _ in range(passes)) for s in job["shots"]]
    out = {"ball_speed_per_v0": per_v0, "break_s": breaks, "break_events": events, "shot_s": shots}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
