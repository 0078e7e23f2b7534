"""Compare the referee facts of seeded single shots on nineball's engine and on pooltool 0.6.0.

Run: ``python benchmarks/compare_pooltool.py [--match-params] [--match-table] [--only 3,17]
[--events] [--json out.json]`` from the project's venv. pooltool runs in its own venv (default
/tmp/ptvenv, override with POOLTOOL_PYTHON) through pooltool_facts_worker.py with a temporary
HOME; if that venv is missing the comparison is skipped with a message. To make it:
``python3 -m venv /tmp/ptvenv && /tmp/ptvenv/bin/pip install --no-deps pooltool-billiards==0.6.0``,
then pooltool's other dependencies with ``'panda3d>=1.10.13,<1.11'`` (the wheel pins a
development build of panda3d that PyPI does not have; only pooltool's viewer uses it).

Shots: the 200 of physics_vs_pooltool.single_shots (centre ball) and SPIN_SHOTS more from the
same generator with a random side and height tip offset. Both engines use the same frame (origin
at the head-left nose corner, x across, y along) and nineball's tip offsets (pooltool's a is
-side). ``--match-params`` runs nineball with pooltool's defaults where a field maps (cue end
mass for squirt; the rest already agree); ``--match-table`` gives nineball pooltool's pocket
geometry (mouths, facing angles, corner jaw radius, capture depth, nose height);
``--pt-cushion han_2005`` runs pooltool with its Han 2005 cushion model instead of its default
(Stronge compliant).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from nineball.physics import BallInput, PhysicsParams, Stroke, TableSpec, Trajectory, simulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from physics_vs_pooltool import run_in_pooltool, single_shots

HERE = Path(__file__).resolve().parent
POOLTOOL_PYTHON = Path(os.environ.get("POOLTOOL_PYTHON", "/tmp/ptvenv/bin/python"))
N_SHOTS = 200
SPIN_SHOTS = 50
POOLTOOL_MASS = 0.170097
"""pooltool's default ball mass in kg (BallParams.m)."""
POOLTOOL_END_MASS = POOLTOOL_MASS / 30
"""pooltool's default cue end mass in kg (CueSpecs.end_mass): a mass ratio of 30 for squirt."""
NEAR_POCKET = 0.12
"""A ball ending within this of a pocket's nominal centre (m) counts as near it."""

Shot = dict[str, Any]
Facts = dict[str, Any]


def make_shots() -> list[Shot]:
    shots: list[Shot] = [dict(s, side=0.0, height=0.0) for s in single_shots(N_SHOTS)]
    rng = np.random.default_rng(7)
    for s in single_shots(SPIN_SHOTS, seed=2025):
        side, height = (float(x) for x in rng.uniform(-0.45, 0.45, size=2))
        scale = min(1.0, 0.45 / math.hypot(side, height))
        shots.append(dict(s, side=side * scale, height=height * scale))
    return shots


def pooltool_table() -> TableSpec:
    # pooltool's PocketTableSpecs defaults: mouths between the sharp points 0.118 / 0.137 m,
    # facings 135 + 5.3 / 90 + 7.14 deg, corner jaw radius 0.02095 m (side 0.00795 m: one radius
    # only here), capture circles whose front lies 38.7 mm (corner) and 4 mm (side) past the mouth
    return TableSpec(
        corner_mouth=0.118,
        side_mouth=0.137,
        corner_facing=math.radians(140.3),
        side_facing=math.radians(97.14),
        jaw_radius=0.02095,
        corner_shelf=0.0387,
        side_shelf=0.0040,
        nose_height=0.036576,
        name="pooltool-like",
    )


def run_ours(shot: Shot, params: PhysicsParams, table: TableSpec) -> Trajectory:
    balls = [BallInput(id=0, r=tuple(shot["cue"])), BallInput(id=1, r=tuple(shot["ob"]))]
    stroke = Stroke(
        speed=float(shot["speed"]),
        aim=math.radians(float(shot["aim_deg"])),
        side=float(shot["side"]),
        height=float(shot["height"]),
    )
    return simulate(balls, stroke=stroke, params=params, table=table)


def our_facts(tr: Trajectory) -> Facts:
    facts = tr.facts()
    final = tr.final_states()
    pockets = {str(b): str(final[b].pocket) for b in facts.pocketed}
    return {
        "first_contact": facts.first_contact,
        "pocketed": pockets,
        "rails": list(facts.rails),
        "final": {str(b): list(s.r[:2]) for b, s in final.items()},
    }


def run_pooltool(shots: list[Shot], cushion: str) -> list[Facts] | None:
    out = run_in_pooltool("pooltool_facts_worker.py", [{"shots": shots, "cushion": cushion}])
    if out is None:
        return None
    result: list[Facts] = out[0]
    return result


def fact_key(f: Facts) -> tuple[Any, ...]:
    return (f["first_contact"], tuple(sorted(f["pocketed"].items())), tuple(f["rails"]))


def near_pocket(xy: list[float], table: TableSpec) -> str | None:
    from nineball.equipment import PocketId

    for pocket in PocketId:
        if math.dist(xy, table.pocket_centre(pocket)) < NEAR_POCKET:
            return str(pocket)
    return None


def classify(ours: Facts, theirs: Facts, table: TableSpec) -> str:
    if ours["first_contact"] != theirs["first_contact"]:
        return "first contact (near-miss of the object ball)"
    if ours["pocketed"] != theirs["pocketed"]:
        balls = set(ours["pocketed"]) ^ set(theirs["pocketed"])
        if not balls:
            return "pocket: same ball, different pocket"
        for b in sorted(balls):
            missed_by = ours if b not in ours["pocketed"] else theirs
            taken_by = theirs if missed_by is ours else ours
            if taken_by["pocketed"].get(b) == near_pocket(missed_by["final"][b], table):
                return "pocket: capture at the mouth (the other ended at that pocket)"
        return "pocket: different path"
    if ours["rails"] != theirs["rails"]:
        for b in set(ours["rails"]) ^ set(theirs["rails"]):
            if str(b) in ours["pocketed"]:
                return "rails: jaw hit on the way into the pocket"
        return "rails: a ball reached a cushion in one engine only"
    return "other"


def fmt(f: Facts) -> str:
    final = "  ".join(f"{b}@({x:.3f},{y:.3f})" for b, (x, y) in sorted(f["final"].items()))
    return (
        f"first={f['first_contact']} pocketed={f['pocketed'] or '{}'} rails={f['rails']}  "
        f"final {final}"
    )


def print_events(tr: Trajectory, theirs: Facts) -> None:
    print("    nineball events:")
    for e in tr.events():
        if e.kind.is_transition():
            continue
        s = "  ".join(
            f"{b}: r=({st.r[0]:.4f},{st.r[1]:.4f}) v=({st.v[0]:+.3f},{st.v[1]:+.3f})"
            for b, st in zip(e.balls, e.states, strict=True)
        )
        where = e.cushion or (str(e.pocket) if e.pocket else "")
        print(f"      {e.time:8.4f} {e.kind.value:10s} {where:22s} {s}")
    print("    pooltool events:")
    for e in theirs["events"]:
        if e["kind"] in (
            "sliding_rolling",
            "rolling_spinning",
            "rolling_stationary",
            "spinning_stationary",
        ):
            continue
        s = "  ".join(
            f"r=({st['r'][0]:.4f},{st['r'][1]:.4f}) v=({st['v'][0]:+.3f},{st['v'][1]:+.3f})"
            for st in e["states"]
        )
        print(f"      {e['time']:8.4f} {e['kind']:22s} {','.join(e['ids']):10s} {s}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--match-params", action="store_true")
    ap.add_argument("--match-table", action="store_true")
    ap.add_argument("--pt-cushion", default="default", choices=("default", "han_2005"))
    ap.add_argument("--only", default="", help="comma-separated shot indices")
    ap.add_argument("--events", action="store_true", help="print both event lists")
    ap.add_argument("--json", default="", help="write every shot's facts here")
    args = ap.parse_args()
    shots = make_shots()
    index = [int(i) for i in args.only.split(",")] if args.only else list(range(len(shots)))
    params = PhysicsParams()
    if args.match_params:
        # squirt depends on the ball/end-mass ratio: pooltool's is 30
        params = replace(params, cue_endmass=params.mass / (POOLTOOL_MASS / POOLTOOL_END_MASS))
    table = pooltool_table() if args.match_table else TableSpec()
    chosen = [shots[i] for i in index]
    theirs_all = run_pooltool(chosen, args.pt_cushion)
    if theirs_all is None:
        return
    counts: dict[str, int] = {}
    records = []
    for i, shot, theirs in zip(index, chosen, theirs_all, strict=True):
        tr = run_ours(shot, params, table)
        ours = our_facts(tr)
        records.append({"index": i, "shot": shot, "ours": ours, "pooltool": theirs})
        if fact_key(ours) == fact_key(theirs):
            continue
        kind = classify(ours, theirs, table)
        counts[kind] = counts.get(kind, 0) + 1
        print(
            f"shot {i}: cue=({shot['cue'][0]:.3f},{shot['cue'][1]:.3f}) "
            f"ob=({shot['ob'][0]:.3f},{shot['ob'][1]:.3f}) aim={shot['aim_deg']:.2f} deg "
            f"speed={shot['speed']:.3f} side={shot['side']:+.2f} height={shot['height']:+.2f}"
        )
        print(f"  kind: {kind}")
        print(f"  nineball: {fmt(ours)}")
        print(f"  pooltool: {fmt(theirs)}")
        if args.events:
            print_events(tr, theirs)
    n_plain = sum(1 for i in index if i < N_SHOTS)
    print(
        f"\n{len(chosen)} shots ({n_plain} centre-ball, {len(chosen) - n_plain} with tip offset), "
        f"params={'pooltool-matched' if args.match_params else 'nineball defaults'}, "
        f"table={table.name}, pooltool cushion={args.pt_cushion}: "
        f"{sum(counts.values())} disagree"
    )
    for kind, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {n:3d}  {kind}")
    if args.json:
        Path(args.json).write_text(json.dumps(records))


if __name__ == "__main__":
    main()
