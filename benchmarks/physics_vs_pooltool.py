"""Benchmark the nineball physics engine against pooltool 0.6.0 (never a timed test).

Run: ``python benchmarks/physics_vs_pooltool.py`` (from the project's venv). pooltool runs in
its own venv (default /tmp/ptvenv, override with POOLTOOL_PYTHON) with a temporary HOME; if that
venv is missing the pooltool comparison is skipped with a message. Measures:

* break at 8 m/s from seeded racks: time per simulation, both engines warm (each simulation
  timed BENCH_PASSES times, default 3, the best kept: the machine is shared);
* 1000 seeded single shots (cue ball + one object ball, cut -70..70 deg, 1-4 m/s): throughput;
* cold start (empty numba cache) and warm-cache first simulation of ``nineball simulate``;
* peak RSS of ``nineball simulate`` on the break;
* that importing nineball.rules loads no numpy, numba or physics.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from nineball.physics import BallInput, Stroke, diamond_rack, simulate

HERE = Path(__file__).resolve().parent
POOLTOOL_PYTHON = Path(os.environ.get("POOLTOOL_PYTHON", "/tmp/ptvenv/bin/python"))
ORDER = [1, 2, 3, 4, 9, 5, 6, 7, 8]
R = 0.028575
W, L = 1.270, 2.540


def break_setup(seed: int, speed: float) -> tuple[list[BallInput], Stroke, tuple[float, float]]:
    rng = np.random.default_rng(seed)
    rack = diamond_rack(ORDER, rng)
    cue = (0.635 + float(rng.uniform(-0.3, 0.3)), 0.635)
    balls = [BallInput(id=0, r=cue)] + [BallInput(id=int(b), r=p) for b, p in rack.items()]
    aim = math.atan2(1.905 - cue[1], 0.635 - cue[0])
    return balls, Stroke(speed=speed, aim=aim), cue


def single_shots(n: int, seed: int = 2024) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    shots: list[dict[str, object]] = []
    while len(shots) < n:
        cue = (float(rng.uniform(0.1, W - 0.1)), float(rng.uniform(0.1, L - 0.1)))
        ob = (float(rng.uniform(0.1, W - 0.1)), float(rng.uniform(0.1, L - 0.1)))
        d = math.dist(cue, ob)
        if d < 0.3:
            continue
        cut = math.radians(float(rng.uniform(-70.0, 70.0)))
        offset = math.asin(2 * R * math.sin(cut) / d)
        aim = math.atan2(ob[1] - cue[1], ob[0] - cue[0]) + offset
        speed = float(rng.uniform(1.0, 4.0))
        shots.append({"cue": cue, "ob": ob, "aim_deg": math.degrees(aim), "speed": speed})
    return shots


def time_ours(
    seeds: list[int], shots: list[dict[str, object]], passes: int
) -> dict[str, list[float]]:
    balls, stroke, _ = break_setup(0, 8.0)
    simulate(balls, stroke=stroke)  # warm (compiled or loaded from the cache)
    breaks = []
    events = []
    for seed in seeds:
        balls, stroke, _ = break_setup(seed, 8.0)
        best = math.inf
        for _ in range(passes):
            start = time.perf_counter()
            tr = simulate(balls, stroke=stroke)
            best = min(best, time.perf_counter() - start)
        breaks.append(best)
        events.append(len(tr.times) + 1)
    shot_times = []
    for s in shots:
        cue, ob = s["cue"], s["ob"]
        balls = [BallInput(id=0, r=cue), BallInput(id=1, r=ob)]  # type: ignore[arg-type]
        stroke = Stroke(speed=float(s["speed"]), aim=math.radians(float(s["aim_deg"])))  # type: ignore[arg-type]
        best = math.inf
        for _ in range(passes):
            start = time.perf_counter()
            simulate(balls, stroke=stroke)
            best = min(best, time.perf_counter() - start)
        shot_times.append(best)
    return {"break_s": breaks, "break_events": [float(e) for e in events], "shot_s": shot_times}


def run_in_pooltool(worker: str, payloads: list[dict[str, Any]]) -> list[Any] | None:
    """Run a worker script of this folder in pooltool's venv once per payload (JSON on stdin).

    pooltool writes its configuration on import, so it gets a temporary HOME; the results are
    the workers' JSON outputs, or None (with a message) if pooltool is missing or fails.
    """
    if not POOLTOOL_PYTHON.exists():
        print(f"pooltool skipped: no venv at {POOLTOOL_PYTHON} (see this file's docstring)")
        return None
    results = []
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home)
        env.pop("NUMBA_CACHE_DIR", None)
        for payload in payloads:
            proc = subprocess.run(
                [str(POOLTOOL_PYTHON), str(HERE / worker)],
                input=json.dumps(payload),
                capture_output=True,
                text=True,
                env=env,
                check=False,
            )
            if proc.returncode != 0:
                print("pooltool failed:", proc.stderr[-2000:])
                return None
            results.append(json.loads(proc.stdout))
    return results


def time_pooltool(
    seeds: list[int], shots: list[dict[str, object]], passes: int
) -> dict[str, list[float]] | None:
    cues = {str(seed): list(break_setup(seed, 8.0)[2]) for seed in seeds}
    job = {
        "break_seeds": seeds,
        "break_cue": cues,
        "break_speed": 8.0,
        "shots": shots,
        "passes": passes,
    }
    # a first run to compile pooltool's numba kernels, then the measured run
    warm = {"break_seeds": seeds[:1], "break_cue": cues, "break_speed": 8.0, "shots": shots[:3]}
    out = run_in_pooltool("pooltool_worker.py", [warm, job])
    if out is None:
        return None
    result: dict[str, list[float]] = out[-1]
    return result


def cli_measures() -> None:
    balls, stroke, _ = break_setup(1, 8.0)
    request = {
        "balls": [{"id": b.id, "r": list(b.r)} for b in balls],
        "stroke": {"speed": 8.0, "aim_deg": math.degrees(stroke.aim)},
    }
    text = json.dumps(request)
    exe = [sys.executable, "-m", "nineball.cli", "simulate"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        start = time.perf_counter()
        subprocess.run(exe, input=text, capture_output=True, text=True, env=env, check=True)
        cold = time.perf_counter() - start
        code = (
            "import time; t0=time.perf_counter();"
            "from nineball.physics import BallInput, simulate;"
            "t1=time.perf_counter();"
            "simulate([BallInput(id=0, r=(0.635, 0.3), v=(0.0, 2.0))]);"
            "t2=time.perf_counter(); print(t1-t0, t2-t1)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        t_import, t_first = (float(x) for x in out.stdout.split())
        # peak RSS of a warm `nineball simulate` alone: measured by a parent of its own
        code = (
            "import resource, subprocess, sys;"
            f"subprocess.run({exe!r}, input=sys.stdin.read(), capture_output=True, text=True,"
            " check=True);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=text,
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        rss = int(out.stdout.strip()) / 1024
    print(
        f"cold start (empty numba cache), nineball simulate on a break: {cold:.2f} s (target < 10)"
    )
    print(
        f"warm cache, new process: import {t_import:.3f} s, "
        f"first simulation {t_first:.3f} s (target < 0.3)"
    )
    print(f"peak RSS of a warm nineball simulate on the break: {rss:.0f} MB (target < 250)")
    code = (
        "import sys, nineball.rules;"
        "print([m for m in ('numpy','numba','nineball.physics') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    print(
        f"modules loaded by 'import nineball.rules' among numpy/numba/physics: {out.stdout.strip()}"
    )


def spread(values: list[float]) -> str:
    return f"min {min(values):.4g}  median {statistics.median(values):.4g}  max {max(values):.4g}"


def main() -> None:
    n_shots = int(os.environ.get("BENCH_SHOTS", "1000"))
    seeds = list(range(int(os.environ.get("BENCH_BREAKS", "20"))))
    passes = int(os.environ.get("BENCH_PASSES", "3"))
    shots = single_shots(n_shots)
    print(f"each simulation timed {passes} times, the best kept, for both engines")
    ours = time_ours(seeds, shots, passes)
    print(f"nineball break (8 m/s, {len(seeds)} seeded racks), s: {spread(ours['break_s'])}")
    print(f"nineball break events: {spread(ours['break_events'])}")
    print(f"nineball {n_shots} single shots: {n_shots / sum(ours['shot_s']):.0f} shots/s")
    theirs = time_pooltool(seeds, shots, passes)
    if theirs is not None:
        print(f"pooltool break, s: {spread(theirs['break_s'])}")
        print(f"pooltool break events: {spread(theirs['break_events'])}")
        print(f"pooltool {n_shots} single shots: {n_shots / sum(theirs['shot_s']):.0f} shots/s")
        ratios = [p / o for p, o in zip(theirs["break_s"], ours["break_s"], strict=True)]
        print(f"break speed-up pooltool/nineball per seed: {spread(ratios)}")
        med = statistics.median(theirs["break_s"]) / statistics.median(ours["break_s"])
        print(f"break speed-up, ratio of medians: {med:.1f}x (target >= 30x)")
        shot_ratios = [p / o for p, o in zip(theirs["shot_s"], ours["shot_s"], strict=True)]
        print(f"single-shot speed-up per shot: {spread(shot_ratios)}")
        thr = sum(theirs["shot_s"]) / sum(ours["shot_s"])
        print(f"single-shot throughput ratio: {thr:.1f}x (target >= 30x)")
    cli_measures()


if __name__ == "__main__":
    main()
