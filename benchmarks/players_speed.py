"""How long the computer players think: median decision time per level, and a whole game.

    python benchmarks/players_speed.py [--games 4]

Decisions are timed in real seeded games (self-play at each level), excluding the break, in
wall-clock and in CPU time of this process (the search is single-threaded, so CPU time is what
the decision costs even on a busy machine). The issue's targets are a median under 1 s for
``pro`` and under 5 s for ``max``, and a pro-v-pro game under 20 s.

Also the simulations per CPU-second inside the decisions: every stroke the search plays through
the game's step (``play_stroke`` and ``try_strokes`` as :mod:`nineball.players.evaluation` calls
them, counted by wrapping them here), over the decisions' CPU time: what the search gets out of
the engine, its referee calls and its own Python, beside the bare engine's shots per second
(``benchmarks/batch.py``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import nineball.players.evaluation as evaluation
from nineball.game.match import Match
from nineball.players.play import play_turn
from nineball.players.registry import make_player
from nineball.rules import MatchConfig, Phase, Seat

SIMULATED = [0]
"""Strokes the search played (through the two wrapped steps)."""


def _counted() -> None:
    """Count the strokes the search plays: wrap the two steps in the evaluation module."""
    one, many = evaluation.play_stroke, evaluation.try_strokes

    def play_stroke(*args: Any, **kwargs: Any) -> Any:
        SIMULATED[0] += 1
        return one(*args, **kwargs)

    def try_strokes(position: Any, strokes: Any, **kwargs: Any) -> Any:
        SIMULATED[0] += len(strokes)
        return many(position, strokes, **kwargs)

    evaluation.play_stroke = play_stroke  # type: ignore[assignment]
    evaluation.try_strokes = try_strokes  # type: ignore[assignment]


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
    _counted()
    for level in args.levels.split(","):
        SIMULATED[0] = 0
        decisions, cpu, games = measure(level, args.games)
        print(
            f"{level:>9}: decision median {statistics.median(decisions):.3f} s "
            f"(CPU {statistics.median(cpu):.3f} s), max {max(decisions):.3f} s "
            f"(CPU {max(cpu):.3f} s) over {len(decisions)} decisions; "
            f"game median {statistics.median(games):.1f} s over {len(games)} games; "
            f"{SIMULATED[0] / sum(cpu):,.0f} simulations per CPU-second in the decisions "
            f"({SIMULATED[0]:,} in {sum(cpu):.1f} s)"
        )


if __name__ == "__main__":
    main()
