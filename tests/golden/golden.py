"""The golden set: seeded matches, analyses and episodes recorded before a refactoring.

A refactoring of the game's seams must change nothing a user can see: every seeded match,
record, analysis and environment episode stays identical to the bit. This module plays a fixed
set of them; ``python tests/golden/golden.py`` writes what they produce to ``golden.json``
(do that only when a change of behaviour is intended, and say so in the commit), and
``test_golden.py`` plays them again and compares.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from nineball.game import record_to_json
from nineball.game.match import Match, replay
from nineball.players import play_match
from nineball.players.analysis import analyse
from nineball.players.play import view_of
from nineball.players.registry import PLAYERS
from nineball.rules import MatchConfig

GOLDEN = Path(__file__).with_name("golden.json")

MATCHES: list[tuple[str, str, int, int, int]] = [
    # players, race to, seed, turn limit
    ("ghost", "ghost", 3, 11, 400),
    ("beginner", "amateur", 1, 5, 60),
    ("club", "advanced", 1, 7, 16),
    ("pro", "max", 1, 2, 5),
]


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def play(players: tuple[str, str], race_to: int, seed: int, turns: int) -> dict[str, Any]:
    """A match as ``nineball match`` plays it (the lag, then the match), cut at ``turns``."""
    bots = [PLAYERS[name]() for name in players]
    breaker, lags = Match.lag([bot.lag for bot in bots], seed=seed)
    names = (f"{players[0]} (1)", f"{players[1]} (2)")
    config = MatchConfig(players=names, race_to=race_to, first_breaker=breaker)
    match = Match(config, seed=seed, agents=players)
    play_match(match, bots, max_turns=turns)
    record = record_to_json(match.record)
    problems = [p for *_, p in replay(match.record) if p is not None]
    return {
        "lags": [list(result.distances) for result in lags],
        "record": _digest(record),
        "entries": sum(len(game["shots"]) for game in record["games"]),
        "score": list(match.state.score),
        "replay_problems": len(problems),
    }


def analysis(seed: int) -> dict[str, Any]:
    """The analysis of the position after a seeded break, at the club level."""
    match = Match(MatchConfig(players=("A", "B"), race_to=1), seed=seed)
    play_match(match, [PLAYERS["club"](), PLAYERS["club"]()], max_turns=1)
    result = analyse(view_of(match), np.random.default_rng(seed), level="club", top=3)
    return {
        "cue_ball": list(result.cue_ball),
        "candidates": [
            [c.kind, c.target, c.stroke.speed, c.stroke.aim, c.value, c.success, c.samples]
            for c in result.candidates
        ],
    }


def episode(seed: int) -> dict[str, Any]:
    """A seeded episode of ``NineBall-v0`` with seeded random actions."""
    from nineball.env.single import NineBallEnv

    env = NineBallEnv(opponent="beginner")
    observation, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    rewards: list[float] = []
    observations = [_digest({k: v.tolist() for k, v in observation.items()})]
    for _ in range(12):
        observation, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        rewards.append(float(reward))
        observations.append(_digest({k: v.tolist() for k, v in observation.items()}))
        if terminated or truncated:
            break
    return {"rewards": rewards, "observations": _digest(observations)}


def produce() -> dict[str, Any]:
    """Everything the golden set holds, freshly played."""
    return {
        "matches": {
            f"{a}-{b}-race{race}-seed{seed}": play((a, b), race, seed, turns)
            for a, b, race, seed, turns in MATCHES
        },
        "analyses": {str(seed): analysis(seed) for seed in (4,)},
        "episodes": {str(seed): episode(seed) for seed in (5,)},
    }


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(produce(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {GOLDEN}\n")
