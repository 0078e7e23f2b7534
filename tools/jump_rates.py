"""Count jumps and balls off the table in seeded computer self-play (docs/players.md, "Jumps").

Single racks between two players of one level, seeded and seated as ``nineball realism`` seeds
them (pairing 99), so the same seed replays the same games. For every stroke after the break:
whether the lowest ball was hidden from the cue ball (:func:`nineball.players.jump.is_hidden`),
whether the player chose a jump (the cue raised :data:`nineball.physics.cue.ELEVATED` or more),
whether the jump cleared (its first contact was the lowest ball) and what it pocketed; for every
stroke, the balls that left the table and the referee's rulings on them (clause 10: a ball off
the table is a foul; the 9 off the table is respotted).

    python tools/jump_rates.py --level pro --games 300 --workers 2 --output jumps.json
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np

from nineball.equipment import BallId
from nineball.game.match import Match
from nineball.physics.cue import ELEVATED
from nineball.players.backends import run_jobs
from nineball.players.jump import is_hidden
from nineball.players.play import play_turn, view_of
from nineball.players.registry import make_player
from nineball.rules import CueBall, Foul, MatchConfig, Phase, Seat


def jobs(level: str, games: int, seed: int) -> list[tuple[str, str, int, int]]:
    """The racks ``nineball realism --level level --seed seed`` plays (pairing 99).

    Game ``k`` is seeded from ``(seed, 99, k)``; each seat breaks half of the games.
    """
    out = []
    for k in range(games):
        game_seed = int(np.random.SeedSequence([seed, 99, k]).generate_state(1)[0])
        out.append((level, level, game_seed, (k // 2) % 2))
    return out


def play(job: tuple[str, str, int, int]) -> tuple[dict[str, int], list[dict[str, object]]]:
    """One rack: the counts of :func:`main`, and the strokes that jumped or left the table."""
    first, second, seed, breaker = job
    config = MatchConfig(players=("a", "b"), race_to=1, first_breaker=Seat(breaker))
    match = Match(config, seed=seed, agents=(first, second))
    players = [make_player(first), make_player(second)]
    counts: Counter[str] = Counter()
    notes: list[dict[str, object]] = []
    while not match.state.is_over:
        state = match.state
        view = view_of(match)
        breaking = state.phase is Phase.BREAK
        cue = view.layout.get(BallId.CUE)
        hidden = (
            not breaking
            and state.phase is not Phase.PUSH_OUT_CHOICE
            and state.cue_ball is CueBall.IN_PLACE
            and cue is not None
            and is_hidden(view, cue)
        )
        lowest = int(state.lowest) if not breaking else 1
        turn = play_turn(match, players[state.to_act])
        report = turn.report
        if report is None:
            continue
        counts["strokes"] += 1
        counts["hidden"] += hidden
        stroke = report.shot.intended or report.shot.stroke
        jump = stroke is not None and math.radians(stroke.elevation_deg) >= ELEVATED
        facts = report.facts
        fouls = set(report.ruling.fouls)
        if jump and not breaking:
            counts["jumps"] += 1
            counts["jumps when hidden"] += hidden
            counts["jumps that cleared"] += facts.first_contact == lowest
            counts["jumps that pocketed"] += bool(facts.pocketed_object_balls) and not fouls
            counts["jumps fouled"] += bool(fouls)
            counts["jumps ruled obstruction"] += Foul.OBSTRUCTION_MOVED in fouls
        if facts.off_table:
            counts["strokes with a ball off the table"] += 1
            counts["off-table strokes that were jumps"] += jump and not breaking
            counts["cue ball off the table"] += 0 in facts.off_table
            counts["object balls off the table"] += sum(1 for b in facts.off_table if b != 0)
            counts["ruled cue ball off the table"] += Foul.CUE_BALL_OFF_TABLE in fouls
            counts["ruled object ball off the table"] += Foul.OBJECT_BALL_OFF_TABLE in fouls
            counts["9 off the table"] += 9 in facts.off_table
            counts["9 respotted"] += BallId.NINE in report.ruling.respotted
        if (jump and not breaking) or facts.off_table:
            notes.append(
                {
                    "seed": seed,
                    "stroke": counts["strokes"],
                    "jump": jump and not breaking,
                    "hidden": hidden,
                    "first_contact": facts.first_contact,
                    "pocketed": [int(b) for b in facts.pocketed],
                    "off_table": [int(b) for b in facts.off_table],
                    "fouls": sorted(f.value for f in fouls),
                    "respotted": [int(b) for b in report.ruling.respotted],
                }
            )
    return dict(counts), notes


def main() -> None:
    """Play the games and print the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="pro")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    results = run_jobs(play, jobs(args.level, args.games, args.seed), workers=args.workers)
    total: Counter[str] = Counter()
    for counts, _ in results:
        total.update(counts)
    print(f"{args.level} v {args.level}: {args.games} games, seed {args.seed}")
    for name, count in sorted(total.items()):
        print(f"  {name}: {count}")
    if args.output is not None:
        notes = [n for _, each in results for n in each]
        data = {"level": args.level, "games": args.games, "seed": args.seed, "totals": total}
        args.output.write_text(json.dumps({**data, "strokes": notes}, indent=1) + "\n")


if __name__ == "__main__":
    main()
