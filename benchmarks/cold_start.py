"""Cold and warm start of the physics engine, as figures (never a timed pass/fail test).

Run: ``python benchmarks/cold_start.py [runs]`` (from the project's venv; default 3 runs).

Against another version of the engine: ``python benchmarks/cold_start.py ROUNDS --against SRC``,
where ``SRC`` is the ``src`` folder of another checkout (``git worktree add /tmp/before 31fa4d0``
gives the engine before the speed work of issue 21): each round runs the cold command once with
this checkout's ``src`` and once with ``SRC`` first on ``PYTHONPATH`` (the same venv), each in a
new empty cache, the order swapped every round, and prints both medians and the paired
difference (the machine's speed drifts between rounds; the pairs cancel most of it).

* **cold**: ``nineball simulate`` on a break (8 m/s, seeded rack) in a new process whose
  ``NUMBA_CACHE_DIR`` is a new, empty directory, so every kernel is compiled;
* **warm**: the same command again with the cache that the cold run filled, and, in another new
  process, the import of ``nineball.physics`` and the first ``simulate`` call after it.

Each figure is reported as wall time and CPU time (user + sys of the child process, from
``getrusage``): the machine may be shared, and CPU time is the steadier of the two. The load
average is printed with each run. Results are printed, never asserted.
"""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from nineball.physics import BallInput, Stroke, diamond_rack

ORDER = [1, 2, 3, 4, 9, 5, 6, 7, 8]
SIMULATE = [sys.executable, "-m", "nineball.cli", "simulate"]
"""The cold command: ``nineball simulate`` (the request on its standard input)."""
FIRST_SIMULATION = (
    "import time; t0 = time.perf_counter(); c0 = time.process_time();"
    "from nineball.physics import BallInput, simulate;"
    "t1 = time.perf_counter(); c1 = time.process_time();"
    "simulate([BallInput(id=0, r=(0.635, 0.3), v=(0.0, 2.0))]);"
    "print(t1 - t0, c1 - c0, time.perf_counter() - t1, time.process_time() - c1)"
)


def break_request(seed: int = 1, speed: float = 8.0) -> str:
    """A ``nineball simulate`` request: a seeded nine-ball rack and a break from the head string."""
    rng = np.random.default_rng(seed)
    rack = diamond_rack(ORDER, rng)
    cue = (0.635 + float(rng.uniform(-0.3, 0.3)), 0.635)
    balls = [BallInput(id=0, r=cue)] + [BallInput(id=int(b), r=p) for b, p in rack.items()]
    stroke = Stroke(speed=speed, aim=math.atan2(1.905 - cue[1], 0.635 - cue[0]))
    return json.dumps(
        {
            "balls": [{"id": b.id, "r": list(b.r)} for b in balls],
            "stroke": {"speed": speed, "aim_deg": math.degrees(stroke.aim)},
        }
    )


def timed(cmd: list[str], stdin: str, env: dict[str, str]) -> tuple[float, float, str]:
    """Run ``cmd``; its wall time, its CPU time (user + sys, s) and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd!r} failed: {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def main(runs: int) -> None:
    request = break_request()
    rows: dict[str, list[tuple[float, float]]] = {
        "cold": [],
        "warm": [],
        "import": [],
        "first": [],
    }
    for run in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            load = os.getloadavg()[0]
            wall, cpu, _ = timed(SIMULATE, request, env)
            rows["cold"].append((wall, cpu))
            wall_w, cpu_w, _ = timed(SIMULATE, request, env)
            rows["warm"].append((wall_w, cpu_w))
            _, _, out = timed([sys.executable, "-c", FIRST_SIMULATION], "", env)
            t_imp, c_imp, t_first, c_first = (float(x) for x in out.split())
            rows["import"].append((t_imp, c_imp))
            rows["first"].append((t_first, c_first))
            print(
                f"run {run + 1}: load {load:.1f}; cold {wall:.2f} s wall, {cpu:.2f} s CPU; "
                f"warm command {wall_w:.2f} s wall, {cpu_w:.2f} s CPU; warm import "
                f"{t_imp:.3f} s, first simulation {t_first:.3f} s wall, {c_first:.3f} s CPU"
            )
    labels = {
        "cold": "cold start, nineball simulate on a break, empty numba cache (target < 10 s)",
        "warm": "warm cache, the same command",
        "import": "warm cache, new process: import nineball.physics",
        "first": "warm cache, new process: first simulation (target < 0.3 s)",
    }
    print(f"median of {runs} runs:")
    for key, label in labels.items():
        wall = statistics.median(w for w, _ in rows[key])
        cpu = statistics.median(c for _, c in rows[key])
        print(f"  {label}: {wall:.3f} s wall, {cpu:.3f} s CPU")


def against(rounds: int, other: str) -> None:
    """Cold starts of this checkout and of the engine in ``other`` (a ``src``), interleaved."""
    request = break_request()
    here = str(Path(__file__).resolve().parents[1] / "src")
    walls: dict[str, list[float]] = {"this": [], "other": []}
    for round_ in range(rounds):
        order = [("this", here), ("other", other)]
        for name, src in order if round_ % 2 == 0 else order[::-1]:
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=src)
                load = os.getloadavg()[0]
                wall, cpu, _ = timed(SIMULATE, request, env)
            walls[name].append(wall)
            print(
                f"round {round_ + 1} {name:5s}: {wall:.2f} s wall, {cpu:.2f} s CPU, load {load:.1f}"
            )
    diffs = [a - b for a, b in zip(walls["this"], walls["other"], strict=True)]
    for name, values in walls.items():
        low, high = min(values), max(values)
        print(f"{name}: median {statistics.median(values):.2f} s ({low:.2f}-{high:.2f})")
    spread = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    print(
        f"this minus other, round by round: median {statistics.median(diffs):+.2f} s, "
        f"mean {statistics.mean(diffs):+.2f} +- {spread:.2f} s"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--against" in args:
        at = args.index("--against")
        against(int(args[0]) if at > 0 else 10, args[at + 1])
    else:
        main(int(args[0]) if args else 3)
