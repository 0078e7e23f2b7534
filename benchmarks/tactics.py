"""Push outs, safeties and kicks per level: how often each is played, and who wins the next inning.

    python benchmarks/tactics.py --level club --games 150 [--seed 0]

Seeded self-play games (race to 1, the level against itself, the breaker alternating). Every
stroke a player chose is classed by what the search chose it as: a push out, a safety (the
record's declared safety), a kick (the chosen candidate's kind), or anything else. For the first
three: how many per 100 strokes, and what happened next, from the player's side: **kept** (the
same player shoots again at once), **came back** (the opponent shot, and the player was at the
table again before the game ended), or **lost** the game in the opponent's inning (a push out
the opponent hands back counts as kept). Also the pots chosen (direct, bank, combination, kiss,
carom) and how many were made (the player kept the table or won), those played with side spin
(a tip offset left or right of centre), breaks and runs (the breaker won the game without the
opponent striking), and the innings after the break that won the game (of every inning that did
not begin with the break, the share that ended with its player winning). Outcomes only: printed,
never asserted.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

import numpy as np

from nineball.game.match import Match
from nineball.game.position import Position
from nineball.game.record import ShotKind
from nineball.players import play_match
from nineball.players.base import Decision
from nineball.players.search import LEVELS, SearchPlayer
from nineball.rules import Choice, MatchConfig, Seat

KINDS = ("push_out", "safety", "kick")

POTS = ("direct", "bank", "combo", "kiss", "carom")
"""The kinds of candidate that try to pocket a ball."""


class Watched(SearchPlayer):
    """A search player that notes what each of its strokes was chosen as."""

    def __init__(self, level: str, noted: list[tuple[str, bool]]) -> None:
        super().__init__(LEVELS[level])
        self.noted = noted

    def decide(self, view: Position, rng: np.random.Generator) -> Decision:
        self.last = []
        decision = super().decide(view, rng)
        chosen = self.last[0].kind if self.last and self.last[0].stroke == decision.stroke else ""
        if decision.push_out:
            kind = "push_out"
        elif decision.safety:
            kind = "safety"
        elif chosen in ("kick", *POTS):
            kind = chosen if chosen == "kick" else "pot"
        else:
            kind = "other"
        self.noted.append((kind, decision.stroke.side != 0.0))
        return decision


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description="push outs, safeties and kicks per level")
    parser.add_argument("--level", default="club")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    outcomes: dict[str, Counter[str]] = {kind: Counter() for kind in (*KINDS, "pot", "side")}
    strokes = runs = innings = won = 0
    start = time.process_time()
    for k in range(args.games):
        noted: list[tuple[str, bool]] = []
        config = MatchConfig(players=("a", "b"), race_to=1, first_breaker=Seat(k % 2))
        match = Match(config, seed=args.seed + k)
        play_match(match, [Watched(args.level, noted), Watched(args.level, noted)], max_turns=400)
        chosen = iter(noted)
        for game in match.record.games:
            shots = game.shots
            for i, shot in enumerate(shots):
                if shot.kind is not ShotKind.STROKE:
                    continue
                kind, side = next(chosen)
                strokes += 1
                if i > 0 and shots[i - 1].player != shot.player:
                    innings += 1
                    won += _inning_wins(shots, i, game.result)
                for what in (kind, "side") if side else (kind,):
                    if what in outcomes:
                        outcomes[what][_next_inning(shots, i, game.result)] += 1
            runs += (
                game.result is not None
                and game.result.winner == game.breaker
                and all(s.player == game.breaker for s in shots if s.kind is ShotKind.STROKE)
            )
    cpu = time.process_time() - start
    print(f"{args.level}: {args.games} games, {strokes} strokes chosen, {cpu:.0f} s CPU")
    for kind in (*KINDS, "pot", "side"):
        got = outcomes[kind]
        n = sum(got.values())
        if n == 0:
            print(f"  {kind}: none")
            continue
        parts = ", ".join(f"{what} {got[what] / n:.0%}" for what in ("kept", "came back", "lost"))
        print(f"  {kind}: {n} ({100 * n / strokes:.1f} per 100 strokes): {parts}")
    print(
        f"  breaks and runs: {runs} of {args.games} games ({runs / args.games:.1%}); innings "
        f"after the break that won the game: {won} of {innings} ({won / max(innings, 1):.1%})"
    )


def _inning_wins(shots: Any, i: int, result: Any) -> bool:
    """Whether the inning that begins at entry ``i`` ends with its player winning the game."""
    me = shots[i].player
    if any(s.player != me for s in shots[i + 1 :]):
        return False
    return result is not None and result.winner == me


def _next_inning(shots: Any, i: int, result: Any) -> str:
    """What followed entry ``i`` from its player's side: kept, came back or lost."""
    me = shots[i].player
    following = shots[i + 1 :]
    if not following:
        return "kept" if result is not None and result.winner == me else "lost"
    first = following[0]
    if first.player == me:
        return "kept"
    if first.kind is ShotKind.CHOICE and first.choice is Choice.PASS:
        return "kept"  # the push handed back: the pusher shoots
    if any(s.player == me for s in following):
        return "came back"
    return "lost" if result is not None and result.winner != me else "came back"


if __name__ == "__main__":
    main()
