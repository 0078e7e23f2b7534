"""How long the computer players think: median decision time per level, and a whole game.

    python benchmarks/players_speed.py [--games 4]

Decisions are timed in real seeded games (self-play at each level), excluding the break, in
wall-clock and in CPU time of this process (the search is single-threaded, so CPU time is what
the decision costs even on a busy machine). The issue's targets are a median under 1 s for
``pro`` and under 5 s for ``max``, and a pro-v-pro game under 20 s.
"""

from __future__ import annotations

import argparse
import statistics
import time

from nineball.game.match import Match
from nineball.players.play import play_turn
from nineball.players.registry import make_player
from nineball.rules import MatchConfig, Phase, Seat


def measure(level: str, games: int) -> tuple[list[float], list[float], list[float]]:
    """Decision wall and CPU times (s, excluding breaks) and whole-game wall times."""
    decisions: list[float] = []
    cpu: list[float] = []
    game_times: list[float] = []
    for k in range(games):
        match = Match(MatchConfig(players=("a", "b"), race_to=1, first_breaker=Seat(k % 2)),
                      seed=10_000 + k)  # fmt: skip
        players = [make_player(level), make_player(level)]
        start = time.perf_counter()
        while not match.state.is_over:
            breaking = match.state.phase is Phase.BREAK
            t0, c0 = time.perf_counter(), time.process_time()
            play_turn(match, players[match.state.to_act])
            if not breaking:
                decisions.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
        game_times.append(time.perf_counter() - start)
    return decisions, cpu, game_times


def main() -> None:
    """Print the figures for each level."""
    parser = argparse.ArgumentParser(description="computer players' thinking time")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--levels", default="club,pro,max")
    args = parser.parse_args()
    make_player("pro")  # compile and load the kernels before timing
    for level in args.levels.split(","):
        decisions, cpu, games = measure(level, args.games)
        print(
            f"{level:>9}: decision median {statistics.median(decisions):.3f} s "
            f"(CPU {statistics.median(cpu):.3f} s), max {max(decisions):.3f} s "
            f"(CPU {max(cpu):.3f} s) over {len(decisions)} decisions; "
            f"game median {statistics.median(games):.1f} s over {len(games)} games"
        )


if __name__ == "__main__":
    main()
