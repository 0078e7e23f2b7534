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


@pytest.mark.parametrize("speed", [0.5, 2.0, 8.0])
def test_a_players_errors_grow_with_the_strokes_speed_but_not_its_elevation(speed: float) -> None:
    from nineball.players.levels import LEVELS

    noise = LEVELS["club"].noise
    assert noise.growth == 0.5
    factor = {0.5: 0.625, 2.0: 1.0, 8.0: 2.5}[speed]
    base = Stroke(speed=speed, aim=1.0, elevation=0.1, side=0.1, height=-0.2)
    rng = np.random.default_rng(2)
    played = [noise.apply(base, rng, PARAMS) for _ in range(4000)]
    for name, sigma in (("aim", noise.aim * factor), ("speed", noise.speed * factor),
                        ("side", noise.side * factor), ("height", noise.height * factor),
                        ("elevation", noise.elevation)):  # fmt: skip
        errors = np.array([getattr(p, name) - getattr(base, name) for p in played])
        assert errors.std() == pytest.approx(sigma, rel=0.05), name


def test_the_olympiads_classes_do_not_grow_and_a_growth_is_checked() -> None:
    from nineball.game.noise import NOISE_CLASSES

    for noise_class in NOISE_CLASSES.values():
        assert noise_class.noise_for_game(seed=3, game=1).growth == 0.0
    for bad in (-0.1, 1.5, math.nan, "0.5"):
        with pytest.raises(InvalidInputError, match="growth"):
            ExecutionNoise(aim=0, elevation=0, speed=0, side=0, height=0, growth=bad)  # type: ignore[arg-type]


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


def test_the_noise_classes_are_the_olympiads() -> None:
    from nineball.game import HIGH_NOISE, NOISE_CLASSES, find_noise_class

    assert list(NOISE_CLASSES) == ["tournament", "high", "variable", "none"]
    assert math.degrees(TOURNAMENT_NOISE.aim) == pytest.approx(0.125)
    assert math.degrees(TOURNAMENT_NOISE.elevation) == pytest.approx(0.1)
    assert TOURNAMENT_NOISE.speed == 0.075
    assert TOURNAMENT_NOISE.side * 0.028575 == pytest.approx(0.0005)
    assert NOISE_CLASSES["tournament"].noise_for_game(seed=3, game=7) == TOURNAMENT_NOISE
    assert NOISE_CLASSES["high"].noise_for_game(seed=3, game=7) == HIGH_NOISE
    assert HIGH_NOISE.aim == pytest.approx(5 * TOURNAMENT_NOISE.aim)
    assert NOISE_CLASSES["none"].noise_for_game(seed=3, game=1).speed == 0.0
    with pytest.raises(InvalidInputError, match="unknown noise class 'loud'"):
        find_noise_class("loud")


def test_the_variable_class_draws_a_level_for_every_two_games() -> None:
    from nineball.game import NOISE_CLASSES

    variable = NOISE_CLASSES["variable"]
    levels = [variable.factor_for_game(seed=11, game=g) for g in range(1, 41)]
    assert all(0.0 <= level <= 5.0 for level in levels)
    # Games 1-2, 3-4, ... share a level (each player breaks once at it); pairs differ.
    assert levels[0::2] == levels[1::2]
    assert len(set(levels[0::2])) == 20
    assert levels == [variable.factor_for_game(seed=11, game=g) for g in range(1, 41)]
    assert levels != [variable.factor_for_game(seed=12, game=g) for g in range(1, 41)]
    # Over many pairs the draws spread over the whole range.
    many = [variable.factor_for_game(seed=1, game=2 * p) for p in range(1, 400)]
    assert min(many) < 0.2
    assert max(many) > 4.8
    noise = variable.noise_for_game(seed=11, game=1)
    assert noise.aim == pytest.approx(levels[0] * TOURNAMENT_NOISE.aim)
