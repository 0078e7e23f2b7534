"""Stress: seeded racks, breaks and random follow-up shots; reports final layouts that overlap.

Usage: python benchmarks/stress_overlap.py N (the number of seeded sequences).
"""

import math
import sys

import numpy as np

from nineball.physics import BallInput, PhysicsParams, Stroke, nine_foot, simulate
from nineball.physics.rack import diamond_rack

t = nine_foot()
p = PhysicsParams()
R = p.radius
bad = 0
runs = int(sys.argv[1])
errs = 0
for s in range(runs):
    rng = np.random.default_rng(s)
    order = [
        1,
        *rng.permutation([2, 3, 4, 5, 6, 7, 8])[:3],
        9,
        *rng.permutation([2, 3, 4, 5, 6, 7, 8])[3:],
    ]
    others = [int(x) for x in rng.permutation([2, 3, 4, 5, 6, 7, 8])]
    order = [1, *others[:3], 9, *others[3:]]
    lay = diamond_rack(order, rng)
    cue = (rng.uniform(0.2, 1.0), 0.5)
    one = lay[1]
    aim = math.atan2(one[1] - cue[1], one[0] - cue[0]) + rng.normal(0, 0.01)
    balls = [BallInput(id=int(b), r=xy) for b, xy in lay.items()] + [BallInput(id=0, r=cue)]
    layout = None
    for k in range(4):
        try:
            tr = simulate(
                balls,
                stroke=Stroke(
                    speed=rng.uniform(2, 11),
                    aim=aim,
                    side=rng.uniform(-0.3, 0.3),
                    height=rng.uniform(-0.3, 0.3),
                ),
            )
        except Exception as e:
            errs += 1
            print("ERR", s, k, e)
            break
        fs = tr.final_states()
        pos = {b: st.r[:2] for b, st in fs.items() if st.motion.name != "POCKETED"}
        ks = sorted(pos)
        ov = [
            (a, b, math.dist(pos[a], pos[b]))
            for i, a in enumerate(ks)
            for b in ks[i + 1 :]
            if math.dist(pos[a], pos[b]) < 2 * R - 1e-9
        ]
        if ov:
            bad += 1
            print("overlap", s, k, ov)
            break
        if 0 not in pos:
            break
        balls = [BallInput(id=int(b), r=tuple(xy)) for b, xy in pos.items()]
        aim = rng.uniform(-math.pi, math.pi)
print("runs", runs, "overlaps", bad, "errors", errs)
