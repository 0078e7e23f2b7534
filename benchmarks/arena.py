"""The arena's speed: games per hour through the engine protocol, and the protocol's cost a shot.

    python benchmarks/arena.py [--games 20] [--level club] [--workers 2]

Three figures (docs/engine-protocol.md; README "Programs"):

1. **Games per hour, one process** (single games, the ladder's format, played one after the
   other): the built-in ``ghost`` against itself and ``LEVEL`` against itself through the pipe
   (``nineball engine --level ...`` as two programs), the same pairs in process (the built-in
   players answering the protocol's messages without a pipe), and the reference program
   (``tests/players/engines/reference.py``) against ``LEVEL``.
2. **Games per hour on the process pool** (``--workers``): ``nineball arena`` itself, the same
   pairings through its pool of worker processes.
3. **The protocol's cost a shot**: the time of a turn through the pipe, less the time of the same
   turn in process (the same seeds give the same strokes, bit for bit), and the time of a turn
   through the protocol's messages in process less a direct call of the player, for ``ghost``
   (whose decisions cost almost nothing, so the difference is the protocol's). Also the time a
   program takes to start and say hello.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from nineball.game import MatchConfig, Seat
from nineball.game.match import Match
from nineball.players.play import carry_out, decide_turn, turn_rng
from nineball.players.protocol import PipeConnection, TimeControl
from nineball.players.protocol.arena import (
    ArenaMatch,
    ArenaSettings,
    Entrant,
    arena_jobs,
    parse_entrant,
    play_arena_job,
)
from nineball.players.protocol.host import EnginePlayer
from nineball.players.registry import make_player

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = f"ref={sys.executable} {ROOT / 'tests' / 'players' / 'engines' / 'reference.py'}"
TIME = TimeControl(move=60.0, game=None, start=120.0)


def play(first: Entrant, second: Entrant, games: int) -> list[ArenaMatch]:
    """``games`` single games between two entrants, one after the other."""
    settings = ArenaSettings(race_to=1, time=TIME)
    return [play_arena_job(job) for job in arena_jobs([first, second], games, 0, settings)]


def built_in(name: str, level: str, *, pipe: bool) -> Entrant:
    """A built-in player in process, or as a program with its own hands."""
    if not pipe:
        return Entrant(name=name, level=level)
    command = f"{name}={sys.executable} -m nineball.cli engine --level {level}"
    return replace(parse_entrant(command), noise=level)


def summary(label: str, results: list[ArenaMatch]) -> dict[str, float | str]:
    seconds = sum(r.seconds for r in results)
    turns = sum(s.turns for r in results for s in r.seats)
    thinking = sum(s.thinking for r in results for s in r.seats)
    return {
        "pairing": label,
        "games": len(results),
        "seconds": seconds,
        "games_per_hour": 3600.0 * len(results) / seconds,
        "turns": turns,
        "ms_per_turn": 1000.0 * thinking / turns,
    }


def direct_turns(level: str, games: int) -> float:
    """Milliseconds a turn of ``level`` takes called directly (no protocol), in real games."""
    spent, turns = 0.0, 0
    for k in range(games):
        config = MatchConfig(players=("a", "b"), race_to=1, first_breaker=Seat(k % 2))
        match = Match(config, seed=500 + k)
        players = [make_player(level), make_player(level)]
        while not match.state.is_over:
            player = players[match.state.to_act]
            rng = np.random.default_rng(int(turn_rng(match).integers(0, 2**63 - 1)))
            start = time.perf_counter()
            decided = decide_turn(match, player, rng)
            spent += time.perf_counter() - start
            turns += 1
            carry_out(match, player, decided)
    return 1000.0 * spent / turns


def start_up(command: str, repeats: int = 5) -> float:
    """Median seconds from starting a program to its readyok (hello, new_match, ready)."""
    times = []
    for _ in range(repeats):
        player = EnginePlayer(PipeConnection(command.split("=", 1)[1].split()), time_control=TIME)
        match = Match(MatchConfig(players=("a", "b"), race_to=1), seed=0)
        start = time.perf_counter()
        player.start_match(match.config, Seat.FIRST, table=match.table, params=match.params)
        times.append(time.perf_counter() - start)
        player.close()
    return statistics.median(times)


def pool(entrants: list[str], games: int, workers: int) -> float:
    """Games per hour of ``nineball arena`` on its process pool."""
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "bench.sqlite3"
        command = [sys.executable, "-m", "nineball.cli", "arena", *entrants]
        command += ["--matches", str(games), "--workers", str(workers), "--db", str(db)]
        command += ["--move-time", "60", "--game-time", "0", "--start-time", "120"]
        command += ["--format", "json"]
        start = time.perf_counter()
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        seconds = time.perf_counter() - start
    figures = json.loads(out)
    played = sum(sum(p["matches_won"]) for p in figures["pairings"])
    return 3600.0 * played / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description="the arena's speed")
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--level", default="club")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args()
    level, games = args.level, args.games
    make_player("pro")  # load the compiled kernels before timing
    rows = []
    same: dict[str, dict[str, float | str]] = {}
    for who in ("ghost", level):
        for pipe in (False, True):
            how = "pipe" if pipe else "in process"
            results = play(built_in("a", who, pipe=pipe), built_in("b", who, pipe=pipe), games)
            row = summary(f"{who} v {who}, {how}", results)
            rows.append(row)
            same[f"{who} {how}"] = row
            if pipe:
                records = [r.record["games"] for r in results]
                same[f"{who} records"] = {"equal": records == same.pop(f"{who} games")}
            else:
                same[f"{who} games"] = [r.record["games"] for r in results]  # type: ignore[assignment]
    rows.append(
        summary(f"reference v {level}", play(parse_entrant(REFERENCE), parse_entrant(level), games))
    )
    rows.append(
        summary("reference v ghost", play(parse_entrant(REFERENCE), parse_entrant("ghost"), games))
    )
    # The level's turns are its search, whose time varies with the machine's load more than
    # the pipe's cost: the protocol's cost is measured on ghost, whose decisions cost nothing.
    overhead = {
        "ghost": float(same["ghost pipe"]["ms_per_turn"])
        - float(same["ghost in process"]["ms_per_turn"])
    }
    direct = direct_turns("ghost", games)
    messages = float(same["ghost in process"]["ms_per_turn"]) - direct
    startup = {
        "nineball engine": start_up(f"x={sys.executable} -m nineball.cli engine --level ghost"),
        "reference": start_up(REFERENCE),
    }
    pooled = {
        f"ghost v {level} v reference, {args.workers} workers": pool(
            ["ghost", level, REFERENCE], games, args.workers
        )
    }
    figures = {
        "games_per_pairing": games,
        "pairings": rows,
        "identical_strokes": {who: same[f"{who} records"]["equal"] for who in ("ghost", level)},
        "pipe_overhead_ms_per_turn": overhead,
        "messages_overhead_ms_per_turn": messages,
        "direct_ghost_ms_per_turn": direct,
        "start_up_s": startup,
        "pool_games_per_hour": pooled,
    }
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(f"{'pairing':<28} {'games':>5} {'games/hour':>11} {'ms/turn':>9}")
    for row in rows:
        print(
            f"{row['pairing']:<28} {row['games']:>5} {row['games_per_hour']:>11.0f} "
            f"{row['ms_per_turn']:>9.2f}"
        )
    for who, equal in figures["identical_strokes"].items():
        print(f"{who}: the same strokes through the pipe as in process: {equal}")
    for who, ms in overhead.items():
        print(f"pipe overhead a turn ({who}): {ms:.2f} ms")
    print(
        f"protocol messages in process, a turn (ghost): {messages:.2f} ms over a direct call "
        f"({direct:.2f} ms)"
    )
    for who, seconds in startup.items():
        print(f"start-up to hello ({who}): {seconds:.2f} s")
    for label, rate in pooled.items():
        print(f"nineball arena, {label}: {rate:.0f} games/hour")


if __name__ == "__main__":
    main()
