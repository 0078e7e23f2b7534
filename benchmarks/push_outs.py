"""How the computer players use push outs and safeties: how often, the answers, who wins.

    python benchmarks/push_outs.py [--level club] [--games 200] [--seed 0]

Seeded self-play games (race to 1, the level against itself, the breaker alternating). For the
push outs: in how many games one was played, how often the opponent handed it back, and how
often the pusher went on to win the game. For the declared safeties: how many, and how often the
player who played one won the game. Outcomes only: printed, never asserted.
"""

from __future__ import annotations

import argparse

from nineball.game.match import Match
from nineball.game.record import ShotKind
from nineball.players import play_match
from nineball.players.registry import make_player
from nineball.rules import Choice, MatchConfig, Seat


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description="push outs and safeties in self-play")
    parser.add_argument("--level", default="club")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    pushes = passed = pusher_won = 0
    safeties = safety_won = 0
    entries = 0
    for k in range(args.games):
        config = MatchConfig(players=("a", "b"), race_to=1, first_breaker=Seat(k % 2))
        match = Match(config, seed=args.seed + k)
        play_match(match, [make_player(args.level), make_player(args.level)], max_turns=400)
        for game in match.record.games:
            if game.result is None:
                continue
            winner = game.result.winner
            shots = game.shots
            entries += len(shots)
            for i, shot in enumerate(shots):
                if shot.kind is ShotKind.STROKE and shot.push_out:
                    pushes += 1
                    pusher_won += shot.player is winner
                    answer = shots[i + 1] if i + 1 < len(shots) else None
                    passed += answer is not None and answer.choice is Choice.PASS
                if shot.kind is ShotKind.STROKE and shot.safety:
                    safeties += 1
                    safety_won += shot.player is winner
    print(f"level {args.level}, {args.games} games (seed {args.seed}), {entries} entries")
    print(
        f"push outs: {pushes} ({pushes / args.games:.1%} of games); handed back {passed}; "
        f"the pusher won the game {pusher_won}"
        + (f" ({pusher_won / pushes:.0%})" if pushes else "")
    )
    print(
        f"safeties: {safeties} ({safeties / max(1, entries):.1%} of entries); the player who "
        f"played it won the game {safety_won}"
        + (f" ({safety_won / safeties:.0%})" if safeties else "")
    )


if __name__ == "__main__":
    main()
