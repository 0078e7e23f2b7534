"""The engine's results, bit for bit, as before its speed work (issue 21).

240 seeded shots (1-10 balls anywhere, any aim and speed, spin, the cue raised up to 69 deg)
and 20 breaks: the sha256 of each shot's event arrays (times, kinds, balls, cushions and
pockets, states and motions after each event, final states) against the digests the engine
gave before culling, lean kernels and the certified bisection (``data/engine_digests.json``).
A change of the physics changes them on purpose: then regenerate the file with the engine you
trust and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np

from nineball.physics import BallInput, Stroke, Trajectory, diamond_rack, simulate

DIGESTS = Path(__file__).resolve().parent / "data" / "engine_digests.json"
W, L, R = 1.27, 2.54, 0.028575


def cases() -> list[tuple[list[BallInput], Stroke]]:
    rng = np.random.default_rng(2026)
    out: list[tuple[list[BallInput], Stroke]] = []
    while len(out) < 240:
        n = int(rng.integers(1, 10)) if len(out) >= 60 else 1
        pos: list[tuple[float, float]] = []
        while len(pos) < n + 1:
            p = (float(rng.uniform(R, W - R)), float(rng.uniform(R, L - R)))
            if all(math.dist(p, q) >= 2 * R for q in pos):
                pos.append(p)
        balls = [BallInput(id=i, r=p) for i, p in enumerate(pos)]
        choices = [0.0, rng.uniform(0, 0.5), rng.uniform(0, 1.2)]
        elevation = float(rng.choice(choices, p=[0.5, 0.35, 0.15]))
        side, height = (float(x) for x in rng.uniform(-0.5, 0.5, 2))
        if math.hypot(side, height) > 0.5:
            side, height = 0.0, 0.0
        stroke = Stroke(
            speed=float(rng.uniform(0.3, 9.0)),
            aim=float(rng.uniform(0, 2 * math.pi)),
            elevation=elevation,
            side=side,
            height=height,
        )
        out.append((balls, stroke))
    order = [1, 2, 3, 4, 9, 5, 6, 7, 8]
    for seed in range(20):
        r = np.random.default_rng(seed)
        rack = diamond_rack(order, r)
        cue = (0.635 + float(r.uniform(-0.3, 0.3)), 0.635)
        balls = [BallInput(id=0, r=cue)] + [BallInput(id=int(b), r=p) for b, p in rack.items()]
        stroke = Stroke(
            speed=float(5 + seed % 6),
            aim=math.atan2(1.905 - cue[1], 0.635 - cue[0]),
            side=0.1 * (seed % 3 - 1),
            elevation=0.05 * (seed % 2),
        )
        out.append((balls, stroke))
    return out


def digest(tr: Trajectory) -> str:
    h = hashlib.sha256()
    for a in (tr.times, tr.kinds, tr.first, tr.second, tr.after, tr.after_motion, tr.final,
              tr.final_motion, tr.pocket_of):  # fmt: skip
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def test_every_shot_is_as_the_engine_gave_it_before() -> None:
    want = json.loads(DIGESTS.read_text(encoding="utf-8"))["digests"]
    got = [digest(simulate(balls, stroke=stroke)) for balls, stroke in cases()]
    assert len(got) == len(want) == 260
    differ = [k for k, (a, b) in enumerate(zip(got, want, strict=True)) if a != b]
    assert differ == []
