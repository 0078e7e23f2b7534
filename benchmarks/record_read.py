"""How fast a long match record is read: ``read_record`` and ``load_record``, as figures.

    python benchmarks/record_read.py [--record FILE] [--runs 30]

The record is a seeded ghost-v-ghost race to 11 (the longest match of the golden set, played to
the end), written to ``FILE`` the first time so that later runs, and runs on another commit,
time the very same text. Each figure is the median of ``runs`` reads, in wall time and in CPU
time of this process (the machine may be shared; CPU time is the steadier). ``check=False``
times the reading alone, ``check=True`` adds the replay of the referee. Results are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from nineball.game import dump_record, load_record, read_record
from nineball.game.match import TABLES, Match
from nineball.physics import PhysicsParams
from nineball.players import lag_for_break, play_match
from nineball.players.registry import PLAYERS
from nineball.rules import MatchConfig


def long_record(seed: int = 3, race_to: int = 11) -> str:
    """A ghost-v-ghost match to ``race_to``, played to the end as ``nineball match`` plays it."""
    bots = [PLAYERS["ghost"](), PLAYERS["ghost"]()]
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0]))
    breaker, _ = lag_for_break(bots, TABLES["9ft"](), PhysicsParams(), rng)
    config = MatchConfig(players=("ghost (1)", "ghost (2)"), race_to=race_to, first_breaker=breaker)
    match = Match(config, seed=seed, agents=("ghost", "ghost"))
    play_match(match, bots)
    return dump_record(match.record)


def timed(read: Callable[[], object], runs: int) -> tuple[float, float]:
    """The median wall and CPU time of one call of ``read``, in ms."""
    wall: list[float] = []
    cpu: list[float] = []
    read()  # warm up (imports, lazily built validators)
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        read()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall) * 1e3, statistics.median(cpu) * 1e3


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", type=Path, default=Path(".cache/long-record.json"))
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if not args.record.exists():
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(long_record(), encoding="utf-8")
    text = args.record.read_text(encoding="utf-8")
    record = load_record(text)
    shots = sum(len(game.shots) for game in record.games)
    print(f"{args.record}: {len(text) / 1e3:.0f} kB, {len(record.games)} games, {shots} entries")
    for name, read in (
        ("read_record(check=False)", lambda: read_record(text, check=False)),
        ("read_record(check=True)", lambda: read_record(text)),
        ("load_record", lambda: load_record(text)),
    ):
        wall, cpu = timed(read, args.runs)
        print(f"{name:26} {wall:8.2f} ms wall {cpu:8.2f} ms CPU")


if __name__ == "__main__":
    main()
