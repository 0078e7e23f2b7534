"""Choose each search level's break offline and ship it as data (src/nineball/players/break.json).

For every plan on a grid (cue ball x in the kitchen, speed, tip height, aim offset on the 1) the
break is simulated on the same seeded racks under the level's own execution noise (which grows
with the stroke's speed), and scored as a player keeping the table wants it: a legal break that
pockets a ball scores a quarter (the table kept) plus the chance of potting the lowest ball from
where the cue ball stops (the level's own aim error,
:func:`nineball.players.search.pot_quality`; 1 when the 9 drops), plus a little for each ball
made; a foul or a dry break scores 0. Every plan of a level meets the same racks and the same
noise draws. The levels that play as professionals break within the speeds professionals are
measured at (:data:`PRO_SPEEDS`). The best plan of each level is written out with its measured
rates, and with its rates on ``--held-out`` other racks and noise draws: the best of a few hundred
plans is the luckiest on the racks it was chosen on (the winner's curse), so only the held-out
figures say what the plan does.

    python tools/optimise_break.py --racks 1000 [--held-out 4000] [--level pro ...]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from pathlib import Path

import numpy as np

from nineball.equipment import BallId
from nineball.game.layout import rack
from nineball.game.position import Position
from nineball.game.step import play_stroke
from nineball.physics import PhysicsParams, Stroke, nine_foot
from nineball.players.search import LEVELS, pot_quality
from nineball.rules import MatchState

OUT = Path(__file__).resolve().parents[1] / "src" / "nineball" / "players" / "break.json"

PRO_SPEEDS = (9.8, 11.6)
"""m/s: the speeds professionals break at (docs/players.md, "Realism targets"): the levels that
play as professionals or better break within them (measured, not a choice of ours)."""

AS_PROS = ("pro", "max")

HELD_OUT = 1_000_003
"""Added to ``--seed`` for the held-out racks and noise draws (never a seed of the chosen ones)."""


def score(
    plan: dict[str, float], racks: list[dict[BallId, tuple[float, float]]], seed: int, level: str
) -> dict[str, float]:
    """The plan's mean score and its rates of legal breaks (with a ball) over ``racks``."""
    table, params = nine_foot(), PhysicsParams()
    noise = LEVELS[level].noise
    rng = np.random.default_rng(seed)
    cue = (plan["x"], table.head_string - 0.1)
    made = legal = total = shots = 0.0
    for layout in racks:
        one = layout[BallId.ONE]
        distance = math.hypot(one[0] - cue[0], one[1] - cue[1])
        aim = math.atan2(one[1] - cue[1], one[0] - cue[0])
        aim += plan["offset"] * params.radius / distance
        planned = Stroke(speed=plan["speed"], aim=aim, height=plan["height"])
        stroke = noise.apply(planned, rng, params)
        start = Position(state=MatchState.start(), layout=layout, table=table, params=params)
        outcome = play_stroke(start.place(cue), stroke)
        ruling, facts = outcome.ruling, outcome.facts
        down = len(facts.pocketed_object_balls)
        if ruling.legal and down:
            made += 1
            if ruling.game_over is not None:  # the 9 on the break: won
                chance = 1.0
            else:
                after = outcome.after
                chance = pot_quality(
                    after, after.layout[BallId.CUE], ruling.state.lowest, noise.aim
                )
            shots += chance
            total += 0.25 + chance + 0.05 * down
        legal += ruling.legal
    n = len(racks)
    return {
        "score": total / n,
        "legal_with_ball": made / n,
        "legal": legal / n,
        "next_pot_chance": shots / max(made, 1.0),
    }


def main() -> None:
    """Search the grid and write the best plan."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--held-out", type=int, default=2000, help="other racks the chosen plan is measured on"
    )
    parser.add_argument(
        "--level", action="append", choices=list(LEVELS), help="only these (default: every one)"
    )
    args = parser.parse_args()
    table, params = nine_foot(), PhysicsParams()
    racks = [rack(np.random.default_rng([args.seed, k]), table, params) for k in range(args.racks)]
    held_seed = args.seed + HELD_OUT
    held = [
        rack(np.random.default_rng([held_seed, k]), table, params) for k in range(args.held_out)
    ]
    grid = {
        "x": (0.635, 0.5, 0.35, 0.2),
        "speed": (7.0, 8.0, 9.0, 10.0, 10.7, 11.5),
        "height": (0.0, -0.15, -0.3, -0.45),
        "offset": (0.0, 0.15, -0.15),
    }
    shipped = json.loads(OUT.read_text(encoding="utf-8"))
    levels: dict[str, object] = dict(shipped.get("levels", {}))
    for level in args.level or list(LEVELS):
        best = None
        for values in itertools.product(*grid.values()):
            plan = dict(zip(grid, values, strict=True))
            if level in AS_PROS and not PRO_SPEEDS[0] <= plan["speed"] <= PRO_SPEEDS[1]:
                continue
            result = score(plan, racks, args.seed, level)
            if best is None or result["score"] > best[1]["score"]:
                best = (plan, result)
        assert best is not None
        entry: dict[str, object] = {"plan": best[0], "measured": best[1], "racks": args.racks}
        if held:
            entry["held_out"] = score(best[0], held, held_seed, level) | {"racks": len(held)}
        print(level, *entry.values(), flush=True)
        levels[level] = entry
    OUT.write_text(
        json.dumps(
            {
                "levels": {name: levels[name] for name in LEVELS if name in levels},
                "seed": args.seed,
                "grid": grid,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
