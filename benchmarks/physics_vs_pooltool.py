"""Benchmark the nineball physics engine against pooltool 0.6.0 and FastFiz (never a timed test).

Run: ``python benchmarks/physics_vs_pooltool.py`` (from the project's venv; ``make bench``).
pooltool runs in its own venv (default /tmp/ptvenv, override with POOLTOOL_PYTHON) with a
temporary HOME; if that venv is missing the pooltool comparison is skipped with a message.

FastFiz (the C++ engine of the computational-pool olympiads, Apache-2.0, GitHub
``ekiefl/FastFiz``) is the second reference, optional: this project does not carry or build it.
Point ``FASTFIZ_DRIVER`` at a program of your own that reads, one per line on standard input,
``S cx cy ox oy phi v`` (the cue ball and the 1 at rest, the stroke's heading phi in degrees and
cue speed v in m/s) or ``B cx cy phi v x1 y1 ... x9 y9`` (a break), with FastFiz's table frame
(1.116 x 2.236 m, x across, y along, phi counter-clockwise from +x), simulates each with FastFiz's
``TableState::executeShot`` ``FASTFIZ_PASSES`` times (its first argument) and prints
``microseconds events`` for the fastest run (the copy of the table state and the shot, nothing
else, timed). Our shots are mapped onto FastFiz's smaller table by scaling the positions, the
break's rack and cue ball are moved to its foot spot and head string, and cue-ball speeds are
turned into FastFiz's cue speeds (1.5 m/s of ball per 1 m/s of cue, measured). Without the
variable the comparison is skipped with a message.

Measures:

* break at 8 m/s from seeded racks: time per simulation, both engines warm (each simulation
  timed BENCH_PASSES times, default 3, the best kept: the machine is shared);
* 1000 seeded single shots (cue ball + one object ball, cut -70..70 deg, 1-4 m/s): throughput;
* the same break and shots in FastFiz when it is there: medians and ratios in the same run;
* our fixed costs: a call with nothing moving (2 and 10 balls), a lone cue ball, and the cost
  per event of the shots and the breaks;
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
    shot_events: list[float] = []
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
        shot_events.append(float(len(simulate(balls, stroke=stroke).times) + 1))
    return {
        "break_s": breaks,
        "break_events": [float(e) for e in events],
        "shot_s": shot_times,
        "shot_events": shot_events,
    }


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


FASTFIZ_W, FASTFIZ_L = 1.116, 2.236
FASTFIZ_BALL_PER_CUE = 1.501  # cue-ball speed per unit of FastFiz's cue speed (measured)


def fastfiz_lines(seeds: list[int], shots: list[dict[str, object]]) -> list[str]:
    """The benchmark's breaks and shots in the FastFiz driver's line format (see the docstring)."""
    lines = []
    dx, dy = FASTFIZ_W / 2 - 0.635, FASTFIZ_L * 0.75 - 1.905  # our foot spot onto FastFiz's
    for seed in seeds:
        balls, _, cue = break_setup(seed, 8.0)
        cx, cy = cue[0] - 0.635 + FASTFIZ_W / 2, FASTFIZ_L / 4
        apex = (FASTFIZ_W / 2, FASTFIZ_L * 0.75)
        phi = math.degrees(math.atan2(apex[1] - cy, apex[0] - cx)) % 360.0
        rack = " ".join(f"{b.r[0] + dx!r} {b.r[1] + dy!r}" for b in sorted(balls[1:], key=_id))
        lines.append(f"B {cx!r} {cy!r} {phi!r} {8.0 / FASTFIZ_BALL_PER_CUE!r} {rack}")
    sx, sy = FASTFIZ_W / W, FASTFIZ_L / L
    for shot in shots:
        (ax, ay), (bx, by) = shot["cue"], shot["ob"]  # type: ignore[misc]
        cue = (ax * sx, ay * sy)
        ob = (bx * sx, by * sy)
        # the same cut on the smaller table
        ours = math.radians(float(shot["aim_deg"])) - math.atan2(by - ay, bx - ax)  # type: ignore[arg-type]
        cut = math.asin(
            max(-1.0, min(1.0, math.sin(ours) * math.dist((ax, ay), (bx, by)) / (2 * R)))
        )
        d = math.dist(cue, ob)
        phi = math.atan2(ob[1] - cue[1], ob[0] - cue[0]) + math.asin(2 * R * math.sin(cut) / d)
        v = float(shot["speed"]) / FASTFIZ_BALL_PER_CUE  # type: ignore[arg-type]
        phi_deg = math.degrees(phi) % 360.0  # FastFiz takes [0, 360)
        lines.append(f"S {cue[0]!r} {cue[1]!r} {ob[0]!r} {ob[1]!r} {phi_deg!r} {v!r}")
    return lines


def _id(ball: BallInput) -> int:
    return ball.id


def time_fastfiz(
    seeds: list[int], shots: list[dict[str, object]], passes: int
) -> dict[str, list[float]] | None:
    """FastFiz's times (s) and event counts on the same workloads, or None (with a message)."""
    driver = os.environ.get("FASTFIZ_DRIVER")
    if not driver or not Path(driver).exists():
        print("FastFiz skipped: set FASTFIZ_DRIVER to a driver program (see this file's docstring)")
        return None
    text = "\n".join(fastfiz_lines(seeds, shots)) + "\n"
    proc = subprocess.run(
        [driver, str(passes)], input=text, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        print("FastFiz failed:", proc.stderr[-2000:])
        return None
    rows = [line.split() for line in proc.stdout.splitlines()]
    # a negative time: FastFiz refused the shot (its cue, raised 5 deg, would hit a rail)
    times = [float(r[0]) * 1e-6 if float(r[0]) >= 0.0 else math.nan for r in rows]
    events = [float(r[1]) for r in rows]
    nb = len(seeds)
    return {
        "break_s": times[:nb],
        "break_events": events[:nb],
        "shot_s": times[nb:],
        "shot_events": events[nb:],
    }


def compare_fastfiz(ours: dict[str, list[float]], ff: dict[str, list[float]]) -> None:
    """FastFiz's figures and the ratios, on the workloads both engines ran."""
    both = [k for k, t in enumerate(ff["shot_s"]) if not math.isnan(t)]
    left = len(ff["shot_s"]) - len(both)
    mine = [ours["shot_s"][k] for k in both]
    theirs = [ff["shot_s"][k] for k in both]
    print(f"FastFiz break, s: {spread(ff['break_s'])}; events {spread(ff['break_events'])}")
    print(
        f"FastFiz single shot, us: {spread([t * 1e6 for t in theirs])}; events "
        f"{spread([ff['shot_events'][k] for k in both])} ({left} shots FastFiz refused, its cue "
        "raised 5 deg hitting a rail, left out of both sides)"
    )
    med = statistics.median(ff["break_s"]) / statistics.median(ours["break_s"])
    print(f"break, FastFiz/nineball ratio of medians: {med:.2f}x (above 1: nineball is faster)")
    med = statistics.median(theirs) / statistics.median(mine)
    print(f"single shot, FastFiz/nineball ratio of medians: {med:.2f}x (target > 1)")
    print(f"single shots, FastFiz/nineball throughput ratio: {sum(theirs) / sum(mine):.2f}x")


def fixed_costs(passes: int) -> None:
    """Our cost of a call that simulates nothing, of a lone ball, and per event."""

    def best(balls: list[BallInput], stroke: Stroke | None) -> float:
        simulate(balls, stroke=stroke)
        out = math.inf
        for _ in range(max(passes, 20)):
            start = time.perf_counter()
            simulate(balls, stroke=stroke)
            out = min(out, time.perf_counter() - start)
        return out

    two = [BallInput(id=0, r=(0.5, 0.5)), BallInput(id=1, r=(0.8, 1.5))]
    ten = break_setup(0, 8.0)[0]
    lone = [BallInput(id=0, r=(0.635, 0.3))]
    stroke = Stroke(speed=2.0, aim=math.pi / 2)
    events = len(simulate(lone, stroke=stroke).times) + 1
    print(
        f"nineball fixed costs: nothing moving, 2 balls {best(two, None) * 1e6:.1f} us, "
        f"10 balls {best(ten, None) * 1e6:.1f} us; a lone cue ball at 2 m/s ({events} events) "
        f"{best(lone, stroke) * 1e6:.1f} us"
    )


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
    per_event = [t / e for t, e in zip(ours["shot_s"], ours["shot_events"], strict=True)]
    print(
        f"nineball single shot, us: {spread([t * 1e6 for t in ours['shot_s']])}; events "
        f"{spread(ours['shot_events'])}; per event {statistics.median(per_event) * 1e6:.2f} us"
    )
    per_event = [t / e for t, e in zip(ours["break_s"], ours["break_events"], strict=True)]
    print(f"nineball break per event: {statistics.median(per_event) * 1e6:.2f} us")
    fixed_costs(passes)
    ff = time_fastfiz(seeds, shots, passes)
    if ff is not None:
        compare_fastfiz(ours, ff)
    theirs = time_pooltool(seeds, shots, passes)
    if theirs is not None:
        print(f"pooltool break, s: {spread(theirs['break_s'])}")
        print(f"pooltool break events: {spread(theirs['break_events'])}")
        print(f"pooltool {n_shots} single shots: {n_shots / sum(theirs['shot_s']):.0f} shots/s")
        ratios = [p / o for p, o in zip(theirs["break_s"], ours["break_s"], strict=True)]
        print(f"break speed-up pooltool/nineball per seed: {spread(ratios)}")
        med = statistics.median(theirs["break_s"]) / statistics.median(ours["break_s"])
        print(f"break speed-up, ratio of medians: {med:.1f}x (target >= 100x)")
        shot_ratios = [p / o for p, o in zip(theirs["shot_s"], ours["shot_s"], strict=True)]
        print(f"single-shot speed-up per shot: {spread(shot_ratios)}")
        thr = sum(theirs["shot_s"]) / sum(ours["shot_s"])
        print(f"single-shot throughput ratio: {thr:.1f}x (target >= 200x)")
    cli_measures()


if __name__ == "__main__":
    main()
