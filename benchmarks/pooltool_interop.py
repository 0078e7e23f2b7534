"""The cross-engine suite: shared shots through nineball's pooltool files, run both ways.

Run: ``python benchmarks/pooltool_interop.py [--shots 50] [--seed 19]`` from the project's venv
(``tests/interop/test_cross_engine.py`` runs the same suite). pooltool runs in its own venv
(``$POOLTOOL_PYTHON``, default /tmp/ptvenv/bin/python; tests/interop/data/README.md says how to
make it) through pooltool_interop_worker.py; without it the suite is skipped with a message.

* **nineball -> pooltool**: seeded shots made in nineball (the WPA 9-ft table, its parameters,
  a cue ball and one to three object balls, a stroke with cut, side and follow or draw) are
  written with nineball's writer as one MultiSystem; pooltool loads it with its own
  ``MultiSystem.load``, simulates and saves it; nineball's reader reads pooltool's events.
* **pooltool -> nineball**: seeded shots made natively in pooltool (a 9-ft table with pooltool's
  pockets) are simulated and saved by pooltool; nineball's reader brings each over and nineball's
  engine plays it.

Each shot is compared on the referee's facts (first ball hit, balls pocketed and their pockets,
balls on a cushion after the first contact) and the final positions, with pooltool's default
cushion model (Stronge compliant) and with Han 2005 (nineball's). A disagreement is classified
by ``compare_pooltool.classify`` into the known differences of docs/physics.md.
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from nineball.game import BallInput, MotionState, Stroke, TableSpec, Trajectory
from nineball.interop import PooltoolOutcome, PooltoolShot, load_pooltool, save_pooltool

sys.path.insert(0, str(Path(__file__).resolve().parent))
import random_layout
from compare_pooltool import classify, fact_key
from physics_vs_pooltool import POOLTOOL_PYTHON, run_in_pooltool

R = 0.028575
CUSHIONS = ("han_2005", "default")
TIMES: dict[str, float] = {}
"""pooltool's mean simulation time per shot of the suite's shots, s, by cushion model."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """One shot on both engines."""

    index: int
    ours: dict[str, Any]
    theirs: dict[str, Any]
    agree: bool
    """The same first ball, pocketed balls and pockets, and rails."""
    kind: str
    """The classified difference ('' when they agree)."""
    moved: float
    """The largest distance between the two engines' rest positions of a ball on the table
    in both, m (nan when none is)."""


def pooltool_missing() -> str | None:
    """Why the suite cannot run here, or None when pooltool's venv is there."""
    hint = "set POOLTOOL_PYTHON to a python with pooltool-billiards 0.6.0"
    if not POOLTOOL_PYTHON.exists():
        return f"no pooltool venv at {POOLTOOL_PYTHON}: {hint} (tests/interop/data/README.md)"
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('pooltool') is None)"
    found = subprocess.run([str(POOLTOOL_PYTHON), "-c", probe], capture_output=True, check=False)
    if found.returncode != 0:
        return f"{POOLTOOL_PYTHON} cannot import pooltool: {hint}"
    return None


def shared_shots(count: int, seed: int) -> list[PooltoolShot]:
    """Seeded nineball shots on the 9-ft table: a cue ball, one to three object balls."""
    rng = np.random.default_rng(seed)
    table = TableSpec()
    shots: list[PooltoolShot] = []
    while len(shots) < count:
        n = int(rng.integers(2, 5))
        spots = random_layout.spots(rng, n, R)
        ids = [0, *sorted(int(k) for k in rng.choice(np.arange(1, 10), n - 1, replace=False))]
        cue, target = spots[0], spots[1]
        distance = math.dist(cue, target)
        cut = math.radians(float(rng.uniform(-60.0, 60.0)))
        aim = math.atan2(target[1] - cue[1], target[0] - cue[0]) + math.asin(
            min(1.0, 2 * R * math.sin(cut) / distance)
        )
        side, height = (float(x) for x in rng.uniform(-0.4, 0.4, size=2))
        if math.hypot(side, height) > 0.45:
            scale = 0.45 / math.hypot(side, height)
            side, height = side * scale, height * scale
        shots.append(
            PooltoolShot(
                balls=tuple(BallInput(id=b, r=p) for b, p in zip(ids, spots, strict=True)),
                stroke=Stroke(
                    speed=float(rng.uniform(1.0, 4.0)), aim=aim, side=side, height=height
                ),
                table=table,
            )
        )
    return shots


def our_facts(trajectory: Trajectory) -> dict[str, Any]:
    facts = trajectory.facts()
    final = trajectory.final_states()
    gone = (MotionState.POCKETED, MotionState.OFF_TABLE)
    return {
        "first_contact": facts.first_contact,
        "pocketed": {str(b): str(final[b].pocket) for b in facts.pocketed},
        "rails": list(facts.rails),
        "final": {str(b): list(s.r[:2]) for b, s in final.items() if s.motion not in gone},
    }


def their_facts(outcome: PooltoolOutcome) -> dict[str, Any]:
    return {
        "first_contact": outcome.first_contact,
        "pocketed": {str(b): str(p) for b, p in outcome.pocketed},
        "rails": list(outcome.rails),
        "final": {str(b): list(p) for b, p in outcome.final if p is not None},
    }


def compare(index: int, shot: PooltoolShot, outcome: PooltoolOutcome | None) -> Comparison:
    if outcome is None:
        raise RuntimeError(f"shot {index}: pooltool's file holds no events")
    ours, theirs = our_facts(shot.simulate()), their_facts(outcome)
    agree = fact_key(ours) == fact_key(theirs)
    both = set(ours["final"]) & set(theirs["final"])
    moved = max((math.dist(ours["final"][b], theirs["final"][b]) for b in both), default=math.nan)
    kind = "" if agree else classify(ours, theirs, shot.table)
    return Comparison(index, ours, theirs, agree, kind, moved)


def nineball_to_pooltool(
    shots: list[PooltoolShot], cushion: str, folder: Path
) -> list[Comparison] | None:
    """Our shots written by our writer, simulated by pooltool, read back by our reader."""
    source, simulated = folder / f"ours-{cushion}.msgpack", folder / f"sim-{cushion}.msgpack"
    save_pooltool(source, shots)
    job = {"mode": "simulate", "input": str(source), "output": str(simulated), "cushion": cushion}
    out = run_in_pooltool("pooltool_interop_worker.py", [job])
    if out is None:
        return None
    TIMES[f"pooltool, {cushion}"] = out[0]["seconds"] / len(shots)
    back = load_pooltool(simulated)
    return [
        compare(k, shot, b.outcome) for k, (shot, b) in enumerate(zip(shots, back, strict=True))
    ]


def pooltool_to_nineball(
    count: int, seed: int, cushion: str, folder: Path
) -> list[Comparison] | None:
    """pooltool's own seeded shots, simulated by pooltool, brought over by our reader."""
    made = folder / f"theirs-{cushion}.msgpack"
    job = {"mode": "make", "shots": count, "seed": seed, "output": str(made), "cushion": cushion}
    if run_in_pooltool("pooltool_interop_worker.py", [job]) is None:
        return None
    return [compare(k, shot, shot.outcome) for k, shot in enumerate(load_pooltool(made))]


def our_time(shots: list[PooltoolShot]) -> float:
    """nineball's median simulation time of the shots, s (warm)."""
    for shot in shots[:3]:
        shot.simulate()
    times = []
    for shot in shots:
        start = time.perf_counter()
        shot.simulate()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def summary(name: str, results: list[Comparison]) -> str:
    agree = sum(r.agree for r in results)
    moved = [r.moved for r in results if r.agree and not math.isnan(r.moved)]
    kinds: dict[str, int] = {}
    for r in results:
        if not r.agree:
            kinds[r.kind] = kinds.get(r.kind, 0) + 1
    lines = [
        f"{name}: facts agree on {agree} of {len(results)} shots; where they agree, the "
        f"largest rest-position difference per shot: median {statistics.median(moved) * 1000:.1f}"
        f" mm, max {max(moved) * 1000:.1f} mm"
        if moved
        else f"{name}: facts agree on {agree} of {len(results)} shots"
    ]
    lines += [f"    {n:3d}  {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="the pooltool cross-engine suite")
    parser.add_argument("--shots", type=int, default=50)
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    reason = pooltool_missing()
    if reason is not None:
        print(f"pooltool interop skipped: {reason}")
        return
    shots = shared_shots(args.shots, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for cushion in CUSHIONS:
            there = nineball_to_pooltool(shots, cushion, folder)
            back = pooltool_to_nineball(args.shots, args.seed, cushion, folder)
            if there is None or back is None:
                return
            print(summary(f"nineball -> pooltool ({cushion} cushion in pooltool)", there))
            print(summary(f"pooltool -> nineball ({cushion} cushion in pooltool)", back))
    print(
        f"time per shot of the nineball -> pooltool shots: nineball {our_time(shots) * 1000:.2f} ms"
        " (median), " + ", ".join(f"{k} {v * 1000:.1f} ms (mean)" for k, v in TIMES.items())
    )


if __name__ == "__main__":
    main()
