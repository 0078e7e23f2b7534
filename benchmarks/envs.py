"""Environment steps per second per core: the single environments against the vector one.

For each research task (``pot``, ``runout``, ``break``: no opponent) and the full match against
``ghost`` and ``club``: random actions (seeded) for about ``--seconds`` each, through the single
environment (``TaskEnv`` or today's ``NineBallEnv``) and through ``NineBallVectorEnv`` with
``--envs`` tables; steps per second, and per core (the vector env's batch runs on numba's
threads, every core, or with ``--workers k`` its tables are spread over k processes of one
thread each; the single env on one core). A step is an action played: the vector env's steps
that only reset a table (next-step autoreset) are not counted::

    nice -n 10 python benchmarks/envs.py --seconds 20 --envs 64
    python benchmarks/envs.py --seconds 20 --envs 64 --workers 2 --only ghost

Against another version: ``--against SRC --rounds N`` (``SRC`` the ``src`` folder of another
checkout; ``make bench-env`` takes the code of 2 December 2026, 7d8a3fe, when issue 19 measured
the single environment against ``ghost`` at about 280 steps/s): each round runs that version's
single environment against ``ghost`` in a new process (``SRC`` first on ``PYTHONPATH``, its own
numba cache) for ``--seconds``, then this checkout's single and vector environments against
``ghost``, and prints each round's ratios to the other version and their medians (the machine's
speed drifts; the rounds interleave the runs so that the ratios cancel most of it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nineball.env import NineBallEnv, NineBallVectorEnv, TaskEnv

CASES: list[tuple[str, str, dict[str, Any], int | None]] = [
    ("pot (1 ball)", "pot", {}, None),
    ("pot (5 balls)", "pot", {"balls": 5}, None),
    ("runout", "runout", {}, None),
    ("break", "break", {}, None),
    ("match vs ghost", "match", {"opponent": "ghost"}, None),
    ("match vs club", "match", {"opponent": "club"}, 16),
]
"""Each case: its name, task, options and tables (None: ``--envs``; fewer against ``club``,
whose decisions take most of a step, so that a run ends in reasonable time)."""


def single_rate(task: str, options: dict[str, Any], seconds: float) -> tuple[float, int]:
    env = NineBallEnv(**options) if task == "match" else TaskEnv(task=task, **options)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, 8).astype(np.float32))
        steps += 1
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start), steps


def vector_rate(
    task: str, options: dict[str, Any], seconds: float, envs: int, workers: int = 1
) -> tuple[float, int]:
    vector = NineBallVectorEnv(envs, task=task, workers=workers, **options)
    rng = np.random.default_rng(0)
    vector.reset(seed=0)
    vector.step(rng.uniform(-1, 1, (envs, 8)))  # the batch kernel loaded
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        # only the tables that act count: a table whose episode just ended spends the next
        # step being reset (Gymnasium's next-step autoreset), as the single env's reset()
        acting = envs - int(vector._ended.sum())
        vector.step(rng.uniform(-1, 1, (envs, 8)).astype(np.float32))
        steps += acting
    rate = steps / (time.perf_counter() - start)
    vector.close()
    return rate, steps


OTHER_SINGLE = """
import sys, time
import numpy as np
from nineball.env import NineBallEnv
env = NineBallEnv(opponent="ghost")
rng = np.random.default_rng(0)
env.reset(seed=0)
for _ in range(20):  # its kernels loaded before the clock starts
    _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, 8).astype(np.float32))
    if terminated or truncated:
        env.reset()
steps, start = 0, time.perf_counter()
while time.perf_counter() - start < float(sys.argv[1]):
    _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, 8).astype(np.float32))
    steps += 1
    if terminated or truncated:
        env.reset()
print(steps / (time.perf_counter() - start))
"""
"""The other version's single environment against ``ghost``, as this file measures it (random
actions from seed 0, resets counted as the env's own), in a process of its own."""


def other_rate(src: str, seconds: float) -> float:
    """The other version's single env against ``ghost``: steps per second."""
    cache = Path(src).resolve().parent / "numba-cache"
    env = {**os.environ, "PYTHONPATH": src, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", OTHER_SINGLE, str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


def against(src: str, rounds: int, seconds: float, envs: int, workers: int) -> None:
    """Rounds of the other version's single env and this one's single and vector envs."""
    other_rate(src, 1.0)  # its kernels compiled into its cache, outside the rounds
    rows = []
    for r in range(rounds):
        other = other_rate(src, seconds)
        single, _ = single_rate("match", {"opponent": "ghost"}, seconds)
        vector, _ = vector_rate("match", {"opponent": "ghost"}, seconds, envs, workers)
        rows.append((other, single, vector))
        print(
            json.dumps(
                {
                    "round": r + 1,
                    "other single steps/s": round(other, 1),
                    "single steps/s": round(single, 1),
                    f"vector ({envs} tables, {workers} workers) steps/s": round(vector, 1),
                    "single / other": round(single / other, 2),
                    "vector / other": round(vector / other, 2),
                }
            ),
            flush=True,
        )
    median = statistics.median
    print(
        json.dumps(
            {
                "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "other": src,
                "rounds": rounds,
                "median other single steps/s": round(median(o for o, _, _ in rows), 1),
                "median single / other": round(median(s / o for o, s, _ in rows), 2),
                "median vector / other": round(median(v / o for o, _, v in rows), 2),
                "load average": os.getloadavg(),
            },
            indent=2,
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--only", default="", help="run only the cases whose name contains this")
    parser.add_argument(
        "--workers", type=int, default=1, help="the vector env's worker processes (one per core)"
    )
    parser.add_argument("--against", default="", help="another version's src folder")
    parser.add_argument("--rounds", type=int, default=5, help="rounds against --against")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.rounds, args.seconds, args.envs, args.workers)
        return 0
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    # the cores a vector env uses: its worker processes, or numba's threads in one process
    threads = args.workers if args.workers > 1 else min(numba.config.NUMBA_NUM_THREADS, cores)
    rows = []
    for name, task, options, tables in CASES:
        if args.only not in name:
            continue
        envs = tables or args.envs
        single, single_steps = single_rate(task, options, args.seconds)
        vector, vector_steps = vector_rate(task, options, args.seconds, envs, args.workers)
        rows.append(
            {
                "case": name,
                "single steps/s": round(single, 1),
                "single steps": single_steps,
                "tables": envs,
                "workers": args.workers,
                "vector steps/s": round(vector, 1),
                "vector steps": vector_steps,
                "vector steps/s/core": round(vector / threads, 1),
                "vector / single, per core": round(vector / threads / single, 2),
                "vector / single (wall)": round(vector / single, 2),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    report = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cores": cores,
        "threads": threads,
        "load average": os.getloadavg(),
        "rows": rows,
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
