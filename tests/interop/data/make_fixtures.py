"""Write the pooltool files of this folder with pooltool itself (run in pooltool's venv).

    HOME=$(mktemp -d) /tmp/ptvenv/bin/python tests/interop/data/make_fixtures.py

pooltool 0.6.0 (``pip install pooltool-billiards==0.6.0``; see README.md here). The files are
what pooltool's own ``System.save`` and ``MultiSystem.save`` write; nineball's tests read them
without pooltool. Never imported by nineball or its tests.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pooltool as pt  # type: ignore[import-not-found]
from pooltool.objects.table.specs import PocketTableSpecs  # type: ignore[import-not-found]

HERE = Path(__file__).resolve().parent


def nine_ball_break() -> pt.System:
    """A nine-ball rack on a 9-ft table (pooltool's own pockets) and a break with follow."""
    np.random.seed(7)  # noqa: NPY002 - pooltool jitters its rack with the global generator
    table = pt.Table.from_table_specs(PocketTableSpecs(l=2.540, w=1.270))
    balls = pt.get_rack(pt.GameType.NINEBALL, table=table)
    balls["cue"].state.rvw[0, :2] = (0.50, 0.55)
    system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="cue"))
    system.strike(V0=6.0, phi=pt.aim.at_ball(system, "1"), a=0.0, b=0.2, theta=0.0)
    return system


def spin_shot() -> pt.System:
    """Cue ball and the 1 on pooltool's default table, with side, draw and a raised cue."""
    table = pt.Table.default()
    balls = {
        "cue": pt.Ball.create("cue", xy=(0.30, 0.40)),
        "1": pt.Ball.create("1", xy=(0.55, 1.20)),
        "9": pt.Ball.create("9", xy=(0.80, 1.60)),
    }
    system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="cue"))
    system.strike(V0=2.5, phi=pt.aim.at_ball(system, "1", cut=20.0), a=-0.25, b=-0.3, theta=5.0)
    return system


def main() -> None:
    example = pt.System.example()
    example.save(HERE / "example.json")
    simulated = pt.simulate(example, inplace=False)
    simulated.save(HERE / "example_simulated.json")
    simulated.save(HERE / "example_simulated.msgpack")
    rack = nine_ball_break()
    rack.save(HERE / "nineball_break.json")
    pt.simulate(rack, inplace=True)
    rack.save(HERE / "nineball_break_simulated.msgpack")
    shots = pt.MultiSystem()
    first = spin_shot()
    shots.append(first)
    second = pt.simulate(spin_shot(), inplace=False)
    shots.append(second)
    shots.save(HERE / "shots.msgpack")


if __name__ == "__main__":
    main()
