"""Safeties where a safety is the play: what the level chooses, and what the opponent is left.

    python benchmarks/safeties.py --level club --positions 120 --repeats 4 [--seed 7]
    python benchmarks/safeties.py --level max --change replies=6   # a level's settings changed

Seeded random positions after a legal break in which the cue ball sees the lowest ball (it is
not hidden, :func:`nineball.players.candidates.hidden`) but no pot is worth taking: the best
direct pot's chance at the level's own aim (:func:`nineball.players.aim.pot_quality`) is below
:data:`NO_POT`. The level decides; its stroke is played ``--repeats`` times under its noise.
After each execution: did the shooter foul, pocket a ball (and keep the table), or hand the
table over. When the table passes: is the opponent left without a pot (their best direct pot
under :data:`NO_POT` at their aim, the same level's) or hidden from the lowest ball, and how
does their reply go (the same level, as shipped, decides and plays once under its noise): a
foul, a pot (they keep the table) or a miss (the table comes back). "Opponent loses the
inning" is a foul or a miss on that reply. The figures are given for every choice and for the
safeties alone. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nineball.equipment import BallId, Point
from nineball.game.position import Position
from nineball.players import candidates
from nineball.players.aim import pot_quality
from nineball.players.search import LEVELS, SearchPlayer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from head_to_head import changes
from kicks import PARAMS, TABLE, after_break

NO_POT = 0.25
"""A best direct pot's chance below this is no pot worth taking."""

POTS = ("direct", "bank", "combo", "kiss", "carom")
"""The kinds of candidate that try to pocket a ball."""


def open_without_pot(rng: np.random.Generator, aim_sd: float) -> Position:
    """A random position after a legal break: the lowest ball in sight, no pot worth taking."""
    r = PARAMS.radius
    while True:
        count = int(rng.integers(4, 9))
        balls = [BallId.CUE, *sorted(rng.choice(np.arange(1, 9), count - 2, replace=False))]
        balls.append(BallId.NINE)
        layout: dict[BallId, Point] = {}
        for ball in balls:
            for _ in range(100):
                at = (rng.uniform(r, TABLE.width - r), rng.uniform(r, TABLE.length - r))
                point = (float(at[0]), float(at[1]))
                if all(
                    np.hypot(point[0] - q[0], point[1] - q[1]) > 2 * r + 1e-3
                    for q in layout.values()
                ):
                    layout[BallId(int(ball))] = point
                    break
        if len(layout) != len(balls):
            continue
        view = after_break(layout)
        lowest = BallId(int(view.state.lowest))
        if lowest not in layout:
            continue
        cue = layout[BallId.CUE]
        if candidates.hidden(view, cue, lowest):
            continue
        if pot_quality(view, cue, lowest, aim_sd) < NO_POT:
            return view


def measure(
    level: str, views: list[Position], repeats: int, change: str = ""
) -> tuple[Counter[str], list[float]]:
    """What the level chose and what followed, counted; and the decisions' CPU times (s).

    ``change``: settings of the shooter's level changed (``field=value,...``); the opponent
    plays the level as shipped.
    """
    player = SearchPlayer(replace(LEVELS[level], **changes(change)))
    opponent = SearchPlayer(LEVELS[level])
    aim_sd = player._aim_sd
    noise = player.noise
    got: Counter[str] = Counter()
    times: list[float] = []
    for k, view in enumerate(views):
        start = time.process_time()
        decision = player.decide(view, np.random.default_rng(k))
        times.append(time.process_time() - start)
        chosen = player.last[0] if player.last else None
        if decision.safety:
            what = "safety"
        elif chosen is not None and chosen.stroke == decision.stroke and chosen.kind in POTS:
            what = "pot"
        else:
            what = chosen.kind if chosen is not None else "other"
        got[f"chose {what}"] += 1
        got["side spin"] += decision.stroke.side != 0.0
        tally = Counter[str]()
        search = player._search(view, np.random.default_rng(10_000 + k))
        cue = view.layout[BallId.CUE]
        strokes = [
            decision.stroke if noise is None else noise.apply(decision.stroke, search.rng, PARAMS)
            for _ in range(repeats)
        ]
        for j, result in enumerate(search.play_all(cue, strokes)):
            tally["executions"] += 1
            if result is None or result.ruling.fouls:
                tally["shooter fouls"] += 1
                continue
            after = result.after
            if result.ruling.game_over is not None or after.state.to_act == view.state.to_act:
                tally["shooter keeps the table"] += 1
                continue
            tally["table passes"] += 1
            lowest = BallId(int(after.state.lowest))
            there = after.layout[BallId.CUE]
            if pot_quality(after, there, lowest, aim_sd) < NO_POT:
                tally["opponent has no pot"] += 1
            if candidates.hidden(after, there, lowest):
                tally["opponent hidden"] += 1
            rng = np.random.default_rng(20_000 + repeats * k + j)
            reply = opponent.decide(after, rng)
            stroke = reply.stroke if noise is None else noise.apply(reply.stroke, rng, PARAMS)
            answer = opponent._search(after, rng).play(reply.cue_ball or there, stroke)
            if answer is None or answer.ruling.fouls:
                tally["opponent fouls"] += 1
            elif answer.ruling.game_over is not None or answer.after.state.to_act == (
                after.state.to_act
            ):
                tally["opponent keeps the table"] += 1
            else:
                tally["opponent misses"] += 1
        got.update(tally)
        if what == "safety":
            got.update({f"safety: {key}": n for key, n in tally.items()})
    return got, times


def main() -> None:
    """Make the positions, measure the level, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="club")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--change", default="", help="field=value,... of the shooter's level")
    args = parser.parse_args()
    aim_sd = SearchPlayer(LEVELS[args.level])._aim_sd
    rng = np.random.default_rng(args.seed)
    views = [open_without_pot(rng, aim_sd) for _ in range(args.positions)]
    start = time.process_time()
    got, times = measure(args.level, views, args.repeats, args.change)
    cpu = time.process_time() - start
    n = args.positions
    shooter = f"{args.level} with {args.change}" if args.change else args.level
    print(f"{shooter}: {n} positions, {args.repeats} executions each, {cpu:.0f} s CPU, "
          f"decision median {statistics.median(times):.3f} s CPU")  # fmt: skip
    chose = ", ".join(
        f"{what[6:]} {got[what] / n:.0%}" for what in sorted(got) if what.startswith("chose ")
    )
    print(f"  chose: {chose}; side spin {got['side spin'] / n:.0%}")
    for prefix, name in (("", "every choice"), ("safety: ", "the safeties")):
        runs, passed = got[prefix + "executions"], got[prefix + "table passes"]
        if not runs:
            continue
        print(f"  {name}, {runs} executions: shooter fouls "
              f"{got[prefix + 'shooter fouls'] / runs:.1%}, keeps the table "
              f"{got[prefix + 'shooter keeps the table'] / runs:.1%}, table passes "
              f"{passed / runs:.1%}")  # fmt: skip
        if passed:

            def share(key: str, prefix: str = prefix, passed: int = passed) -> str:
                return f"{got[prefix + key] / passed:.1%}"  # a count never seen is 0

            lost = got[prefix + "opponent fouls"] + got[prefix + "opponent misses"]
            print(f"    of {passed} passes: opponent has no pot {share('opponent has no pot')}, "
                  f"hidden {share('opponent hidden')}; the reply fouls {share('opponent fouls')}, "
                  f"pots {share('opponent keeps the table')}, misses {share('opponent misses')}; "
                  f"opponent loses the inning {lost / passed:.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
