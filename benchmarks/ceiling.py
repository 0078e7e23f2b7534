"""How far above a level any player of the same noise can be rated: the level's unanswerable wins.

    python benchmarks/ceiling.py --level max --games 400 --workers 2 [--seed 0]

Seeded self-play racks of the level against itself (race to 1, the breaker alternating, the
seats of ``nineball ladder``'s pairings). Two figures from the records, each with its 95%
Wilson interval:

* **break and run** ``b``: the breaker won the game before the opponent struck a ball. Against
  any opponent the level wins these racks: the opponent never acts.
* **the inning after a break that lost the table** ``p``: when the break did not keep the
  table (no ball pocketed, or a foul), the share of the non-breaker's first innings that won
  the game.

Also ``k``, the share of breaks that kept the table (the level's own break plan under its own
noise). A player X of the same noise, breaks alternating, loses at least the level's breaks
and runs and, when its own break loses the table, the level's winning innings, so

    P(X beats the level) <= 1 - b / 2                      (any X)
    P(X beats the level) <= 1 - b / 2 - (1 - k) p / 2      (X breaking as well as the level)

printed with the points on the ladder's scale (100 log2 of the odds) they allow. Outcomes
only: printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import time

from nineball.cli.ladder import wilson
from nineball.game import MatchConfig, Seat
from nineball.game.match import Match
from nineball.game.record import ShotKind
from nineball.players.backends import run_jobs
from nineball.players.ladder import pairing_jobs
from nineball.players.play import play_turn
from nineball.players.search import LEVELS, SearchPlayer


def play(job: tuple[str, str, int, int, str]) -> tuple[bool, bool, bool | None, float]:
    """One rack: break and run, break kept the table, the next inning won (None: not asked)."""
    first, second, seed, breaker, level = job
    config = MatchConfig(players=(first, second), race_to=1, first_breaker=Seat(breaker))
    match = Match(config, seed=seed)
    players = [SearchPlayer(LEVELS[level]), SearchPlayer(LEVELS[level])]
    start = time.process_time()
    while not match.state.is_over:
        play_turn(match, players[match.state.to_act])
    cpu = time.process_time() - start
    game = match.record.games[0]
    shots = [s for s in game.shots if s.kind is ShotKind.STROKE]
    winner = match.state.winner
    brk = shots[0]
    ran = winner == brk.player and all(s.player == brk.player for s in shots)
    kept = (len(shots) > 1 and shots[1].player == brk.player) or (ran and len(shots) == 1)
    answered: bool | None = None
    if not kept:
        # the non-breaker's first inning: every stroke until the breaker strikes again
        rest = shots[1:]
        if rest:
            them = rest[0].player
            answered = winner == them and all(s.player == them for s in rest)
    return ran, kept, answered, cpu


def points(p: float) -> float:
    """The ladder's points of a winning chance p (100 log2 of the odds; infinite at 0 or 1)."""
    if p <= 0.0 or p >= 1.0:
        return math.copysign(math.inf, p - 0.5)
    return 100 * math.log2(p / (1 - p))


def main() -> None:
    parser = argparse.ArgumentParser(description="the ceiling above a level at its noise")
    parser.add_argument("--level", default="max", choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    jobs = [(*job, args.level) for job in pairing_jobs("a", "b", args.games, args.seed, 0)]
    results = run_jobs(play, jobs, workers=args.workers)
    n = len(results)
    ran = sum(r[0] for r in results)
    kept = sum(r[1] for r in results)
    asked = [r[2] for r in results if r[2] is not None]
    answered = sum(asked)
    cpu = sum(r[3] for r in results)
    b, k = ran / n, kept / n
    p = answered / max(len(asked), 1)
    print(f"{args.level} v itself: {n} racks, seed {args.seed}, {cpu:.0f} s CPU")
    for name, hits, of in (
        ("break and run, b", ran, n),
        ("break kept the table, k", kept, n),
        ("inning after a lost break won, p", answered, len(asked)),
    ):
        low, high = wilson(hits, of)
        print(f"  {name}: {hits} of {of} ({hits / max(of, 1):.1%}, 95% {low:.1%}-{high:.1%})")
    b_low, b_high = wilson(ran, n)
    for name, bound, worst, best in (
        ("any player", 1 - b / 2, 1 - b_high / 2, 1 - b_low / 2),
        (
            "breaking as well",
            1 - b / 2 - (1 - k) * p / 2,
            1 - b_high / 2 - (1 - k) * p / 2,
            1 - b_low / 2 - (1 - k) * p / 2,
        ),
    ):
        print(
            f"  ceiling, {name}: {bound:.1%} ({points(bound):+.0f} points; with b's interval "
            f"{points(worst):+.0f} to {points(best):+.0f})"
        )


if __name__ == "__main__":
    main()
