"""Nothing a user can see changes under a refactoring: the golden set plays as it was recorded."""

from __future__ import annotations

import json

import pytest

from tests.golden.golden import GOLDEN, MATCHES, analysis, episode, play

RECORDED = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("a", "b", "race", "seed", "turns"), MATCHES)
def test_seeded_matches_play_as_recorded(a: str, b: str, race: int, seed: int, turns: int) -> None:
    played = play((a, b), race, seed, turns)
    assert played == RECORDED["matches"][f"{a}-{b}-race{race}-seed{seed}"]
    assert played["replay_problems"] == 0


def test_analyses_are_as_recorded() -> None:
    for seed, recorded in RECORDED["analyses"].items():
        assert json.loads(json.dumps(analysis(int(seed)))) == recorded


def test_episodes_are_as_recorded() -> None:
    for seed, recorded in RECORDED["episodes"].items():
        assert episode(int(seed)) == recorded
