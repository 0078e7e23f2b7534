"""Execution noise: the game's Gaussian errors, seeded, recorded and replayed exactly."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball import BallId, InvalidInputError
from nineball.game import dump_record, load_record
from nineball.game.match import Match, record_stroke, replay
from nineball.game.noise import TOURNAMENT_NOISE, ExecutionNoise
from nineball.physics import PhysicsParams, Stroke
from nineball.rules import MatchConfig

PARAMS = PhysicsParams()
BASE = Stroke(speed=3.0, aim=1.0, elevation=0.1, side=0.1, height=-0.2)


def test_errors_have_the_stated_deviations() -> None:
    noise = TOURNAMENT_NOISE.scaled(5.0)
    rng = np.random.default_rng(0)
    played = [noise.apply(BASE, rng, PARAMS) for _ in range(4000)]
    for name, sigma in (("aim", noise.aim), ("speed", noise.speed), ("side", noise.side),
                        ("height", noise.height), ("elevation", noise.elevation)):  # fmt: skip
        errors = np.array([getattr(p, name) - getattr(BASE, name) for p in played])
        assert abs(errors.mean()) < 4 * sigma / math.sqrt(len(played))
        assert errors.std() == pytest.approx(sigma, rel=0.05)


def test_tournament_values() -> None:
    assert math.degrees(TOURNAMENT_NOISE.aim) == pytest.approx(0.125)
    assert math.degrees(TOURNAMENT_NOISE.elevation) == pytest.approx(0.1)
    assert TOURNAMENT_NOISE.speed == 0.075
    assert TOURNAMENT_NOISE.side * 0.028575 == pytest.approx(0.0005)


def test_strokes_stay_playable() -> None:
    wild = ExecutionNoise(aim=0.0, elevation=1.0, speed=10.0, side=1.0, height=1.0)
    rng = np.random.default_rng(1)
    for _ in range(300):
        played = wild.apply(Stroke(speed=0.1, aim=0.0, side=0.45), rng, PARAMS)
        assert played.speed >= 0
        assert played.elevation >= 0
        assert math.hypot(played.side, played.height) < PARAMS.miscue_limit


def test_bad_deviation() -> None:
    with pytest.raises(InvalidInputError, match="noise 'speed' must be a finite number >= 0"):
        ExecutionNoise(aim=0.0, elevation=0.0, speed=-1.0, side=0.0, height=0.0)


def test_the_game_applies_it_records_both_strokes_and_replays_exactly() -> None:
    def play() -> Match:
        match = Match(MatchConfig(race_to=1), seed=9)
        match.place_cue_ball((0.6, 0.45))
        one = match.layout[BallId.ONE]
        aim = math.atan2(one[1] - 0.45, one[0] - 0.6)
        match.strike(Stroke(speed=9.0, aim=aim), noise=TOURNAMENT_NOISE)
        return match

    first, second = play(), play()
    assert dump_record(first.record) == dump_record(second.record)
    shot = first.record.games[0].shots[0]
    assert shot.intended is not None
    assert shot.stroke is not None
    assert shot.stroke != shot.intended
    assert record_stroke(shot.intended).speed == 9.0
    record = load_record(dump_record(first.record))
    assert [p for *_, p in replay(record)] == [None]
