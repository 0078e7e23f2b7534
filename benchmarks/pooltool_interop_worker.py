"""pooltool's side of the cross-engine suite (run in pooltool's venv by pooltool_interop.py).

Reads a JSON job on stdin and writes pooltool files; never imported by nineball. Jobs:

* ``{"mode": "simulate", "input": PATH, "output": PATH, "cushion": C}``: load a MultiSystem
  (written by nineball's writer) with pooltool's own loader, simulate every shot, save it.
* ``{"mode": "make", "shots": N, "seed": S, "output": PATH, "cushion": C}``: make N seeded
  shots natively in pooltool (a cue ball and one to three object balls on a 9-ft table with
  pooltool's pockets, a stroke aimed at an object ball with a cut, side and draw or follow),
  simulate them and save them as a MultiSystem.

``C`` is ``"default"`` (pooltool 0.6.0's Stronge compliant cushion) or ``"han_2005"`` (the
model nineball uses). Prints ``{"shots": N, "seconds": T}`` (T: pooltool's simulation time).
"""

from __future__ import annotations

import json
import math
import sys
import time
from typing import Any

import numpy as np
import pooltool as pt  # type: ignore[import-not-found]
import random_layout
from pooltool.objects.table.specs import PocketTableSpecs  # type: ignore[import-not-found]
from pooltool_facts_worker import _engine as engine

R = 0.028575


def make(count: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    table = pt.Table.from_table_specs(PocketTableSpecs(l=2.540, w=1.270))
    shots = pt.MultiSystem()
    while len(shots) < count:
        n = int(rng.integers(2, 5))
        spots = random_layout.spots(rng, n, R)
        ids = ["cue", *[str(k) for k in rng.choice(np.arange(1, 10), n - 1, replace=False)]]
        balls = {b: pt.Ball.create(b, xy=xy) for b, xy in zip(ids, spots, strict=True)}
        system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="cue"))
        cut = float(rng.uniform(-60.0, 60.0))
        a, b = (float(x) for x in rng.uniform(-0.4, 0.4, size=2))
        if math.hypot(a, b) > 0.45:
            a, b = a * 0.45 / math.hypot(a, b), b * 0.45 / math.hypot(a, b)
        phi = pt.aim.at_ball(system, ids[1], cut=cut)
        system.strike(V0=float(rng.uniform(0.8, 3.5)), phi=phi, a=a, b=b, theta=0.0)
        shots.append(system)
    return shots


def main() -> None:
    job = json.load(sys.stdin)
    physics = engine(job.get("cushion", "default"))
    if job["mode"] == "simulate":
        shots = pt.MultiSystem.load(job["input"])
    else:
        shots = make(int(job["shots"]), int(job["seed"]))
    start = time.perf_counter()
    for system in shots:
        pt.simulate(system, engine=physics, inplace=True)
    seconds = time.perf_counter() - start
    shots.save(job["output"])
    json.dump({"shots": len(shots), "seconds": seconds}, sys.stdout)


if __name__ == "__main__":
    main()
