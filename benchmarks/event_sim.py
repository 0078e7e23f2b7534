"""An event for people at the size the organisers run: 32 players, double elimination, 8 tables.

The same play as ``tests/web/test_event_simulation.py`` (scorers as phones, a proxy that loses
answers, a server restart half-way, every match and entry checked against the plan), larger::

    python benchmarks/event_sim.py --players 32 --race 5 --tables 8 --drop 0.15
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.event_simulation import play_event, players


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--race", type=int, default=5)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--drop", type=float, default=0.15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = play_event(
            Path(folder), players(args.players), race=args.race, tables=args.tables, drop=args.drop
        )
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
