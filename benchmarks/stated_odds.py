"""Are the players' stated odds honest? Stated success of the chosen shot against what happens.

A computer player at a level plays itself on seeds no model or table here was fitted on. At
each of its shots it states the chance of the shot it chose (that it keeps the table or wins
the game: ``Candidate.success``); the shot is then played ``--repeats`` more times from the
same position with the level's execution noise, on fresh random streams, and the share that
keeps the table is what happens. The statements are put in ten bins of width 0.1 and each bin's
mean statement is set against its observed rate; the issue's bound is 3 points in every bin.

Two statements are compared: ``search``, the chance the search found for the shot it chose
(biased upwards: the chosen shot is the luckiest of many estimates, the winner's curse), and
``stated``, what the player states (:meth:`SearchPlayer.stated`). It also prints the prior
(a mixture of Betas) that best explains the statements' own samples (:func:`fit_odds_prior`; a
level's ``odds_prior`` comes from here), and with ``--json`` writes each shot's row: the number
of its fresh samples that worked (``kept``) with what happened, so that the statements under
another prior can be checked without playing again. Results are printed, never asserted::

    python benchmarks/stated_odds.py --level club --matches 40 --repeats 32
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nineball.equipment import BallId, Point
from nineball.game import Phase
from nineball.game.match import Match
from nineball.game.position import Position
from nineball.players.evaluation import Candidate
from nineball.players.odds import fit_odds_prior
from nineball.players.play import carry_out, turn_rng, view_of
from nineball.players.search import LEVELS, STATED_SAMPLES, SearchPlayer
from nineball.rules import MatchConfig

SEED_BASE = 700_000
"""Held-out seeds: no model, table or constant of the players was fitted on matches from here."""


def observed(
    player: SearchPlayer, view: Position, cue: Point, chosen: Candidate, repeats: int, seed: int
) -> float:
    """The share of ``repeats`` noisy executions of ``chosen`` that keep the table or win."""
    rng = np.random.default_rng(seed)
    search = player._search(view, rng)
    fresh = replace(chosen, value=0.0, success=0.0, foul=0.0, samples=0)
    return search.score(cue, fresh, repeats).success


def bins(rows: list[tuple[float, float]]) -> list[tuple[int, float, float]]:
    """Ten bins of width 0.1: (count, mean statement, mean observed)."""
    out = []
    for k in range(10):
        inside = [(s, o) for s, o in rows if min(int(s * 10), 9) == k]
        if inside:
            out.append(
                (
                    len(inside),
                    float(np.mean([s for s, _ in inside])),
                    float(np.mean([o for _, o in inside])),
                )
            )
        else:
            out.append((0, math.nan, math.nan))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="club")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--race", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=32)
    parser.add_argument("--seed", type=int, default=SEED_BASE)
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args()
    player = SearchPlayer(LEVELS[args.level])
    rows: list[dict[str, float]] = []
    start = time.process_time()
    for m in range(args.matches):
        match = Match(MatchConfig(race_to=args.race), seed=args.seed + m)
        turns = 0
        while not match.state.is_over and turns < 2000:
            turns += 1
            view = view_of(match)
            rng = turn_rng(match)
            if match.state.phase is Phase.PUSH_OUT_CHOICE:
                carry_out(match, player, player.answer_push_out(view, rng))
                continue
            decision = player.decide(view, rng)
            shot = (
                view.in_hand is None or decision.cue_ball is not None
            ) and view.state.phase is not Phase.BREAK
            if shot and not decision.push_out and player.last:
                chosen = player.last[0]
                if chosen.stroke == decision.stroke:
                    cue = decision.cue_ball or view.layout[BallId.CUE]
                    placed = view if decision.cue_ball is None else replace(view, placed=cue)
                    seed = args.seed * 1000 + len(rows)
                    fresh = player.restate(placed, np.random.default_rng(seed), cue, chosen)
                    n = fresh.samples
                    kept = round(fresh.success * n)
                    rows.append(
                        {
                            "search": chosen.success,
                            "stated": player.say(fresh).success,
                            "kept": kept,
                            "observed": observed(
                                player, placed, cue, chosen, args.repeats, seed + 1
                            ),
                            "safety": float(chosen.safety),
                        }
                    )
            carry_out(match, player, decision)
        cpu = time.process_time() - start
        print(f"match {m + 1}/{args.matches}: {len(rows)} shots, {cpu:.0f} s CPU", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(rows))
    for key in ("search", "stated"):
        print(f"\n{key}: bin, shots, mean statement, observed, difference (points)")
        worst = 0.0
        for k, (n, s, o) in enumerate(bins([(r[key], r["observed"]) for r in rows])):
            if n:
                gap = 100 * (s - o)
                print(f"  {k / 10:.1f}-{(k + 1) / 10:.1f}  {n:5d}  {s:.3f}  {o:.3f}  {gap:+.1f}")
                worst = max(worst, abs(s - o)) if n >= 30 else worst
        print(f"  largest gap in bins of 30 or more shots: {100 * worst:.1f} points")
    if rows:
        fitted = fit_odds_prior([int(r["kept"]) for r in rows], STATED_SAMPLES)
        print(
            f"\nthe prior of the stated success fitted to these shots' own samples: "
            f"{fitted} (the level's: {player.level.odds_prior})"
        )


if __name__ == "__main__":
    main()
