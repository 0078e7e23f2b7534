"""The batched stroke step: each outcome is play_stroke's, each match ends as Match.strike's."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball import BallId, IllegalActionError, InvalidInputError
from nineball.game import ShotOutcome, play_stroke, play_strokes, try_strokes
from nineball.game.match import Match
from nineball.game.noise import TOURNAMENT_NOISE
from nineball.game.strikes import strike_matches
from nineball.physics import Stroke, batch
from nineball.rules import MatchConfig

CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=2)


def _broken(seed: int) -> Match:
    """A match just after a break (the cue ball where it stopped, or in hand after a foul)."""
    match = Match(CONFIG, seed=seed)
    cue = (0.6, 0.45)
    one = match.layout[BallId.ONE]
    match.place_cue_ball(cue)
    match.strike(Stroke(speed=9.0, aim=math.atan2(one[1] - cue[1], one[0] - cue[0])))
    return match


def _same(a: ShotOutcome, b: ShotOutcome) -> None:
    assert a.facts == b.facts
    assert a.ruling == b.ruling
    assert a.layout == b.layout
    assert a.after == b.after
    for name in ("times", "kinds", "first", "second", "after", "final", "pocket_of"):
        x, y = getattr(a.trajectory, name), getattr(b.trajectory, name)
        assert x.tobytes() == y.tobytes(), name


def test_play_strokes_gives_play_strokes_outcomes_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    positions = []
    for seed in range(4):
        match = _broken(seed)
        position = match.position
        if position.in_hand is not None:
            position = position.place((0.3, 0.3 + 0.1 * seed))
        positions.append(position)
    strokes = [
        Stroke(speed=float(rng.uniform(0.5, 6.0)), aim=float(rng.uniform(-math.pi, math.pi)))
        for _ in range(24)
    ]
    where = [positions[i % 4] for i in range(24)]
    batch = play_strokes(where, strokes)
    for position, stroke, got in zip(where, strokes, batch, strict=True):
        _same(got, play_stroke(position, stroke))
    # one position for every stroke
    for stroke, got in zip(strokes, play_strokes(positions[0], strokes), strict=True):
        _same(got, play_stroke(positions[0], stroke))


def test_a_refused_stroke_is_its_own_error_and_the_others_are_played() -> None:
    match = _broken(1)
    position = match.position
    if position.in_hand is not None:
        position = position.place((0.3, 0.3))
    good = Stroke(speed=2.0, aim=0.3)
    miscue = Stroke(speed=2.0, aim=0.3, side=0.7)
    results = try_strokes(position, [good, miscue, good], push_outs=[False, False, True])
    assert isinstance(results[0], ShotOutcome)
    _same(results[0], play_stroke(position, good))
    with pytest.raises(InvalidInputError) as single:
        play_stroke(position, miscue)
    assert isinstance(results[1], InvalidInputError)
    assert str(results[1]) == str(single.value)
    if position.state.push_out_allowed:  # pragma: no cover - the break just played decides
        assert isinstance(results[2], ShotOutcome)
    else:
        assert isinstance(results[2], IllegalActionError)
    with pytest.raises(InvalidInputError, match=r"^stroke 1: "):
        play_strokes(position, [good, miscue])
    with pytest.raises(InvalidInputError, match="push_outs: 1 given for 2 strokes"):
        try_strokes(position, [good, good], push_outs=[False])


@pytest.mark.parametrize("small", [1, 16])
def test_strike_matches_leaves_each_match_as_its_own_strike_would(
    small: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "SMALL", small)  # compiled, or one call at a time
    batched = [_broken(seed) for seed in range(5)]
    single = [_broken(seed) for seed in range(5)]
    rng = np.random.default_rng(11)
    for _ in range(3):
        live = [i for i, m in enumerate(batched) if not m.state.is_over]
        strokes = []
        for i in live:
            if batched[i].cue_ball_in_hand:
                batched[i].place_cue_ball((0.2, 0.25))
                single[i].place_cue_ball((0.2, 0.25))
            strokes.append(Stroke(speed=float(rng.uniform(1.0, 5.0)), aim=float(rng.uniform(0, 6))))
        reports = strike_matches(
            [batched[i] for i in live], strokes, noises=[TOURNAMENT_NOISE] * len(live)
        )
        for i, stroke, report in zip(live, strokes, reports, strict=True):
            alone = single[i].strike(stroke, noise=TOURNAMENT_NOISE)
            assert report.shot == alone.shot
            _same(report.outcome, alone.outcome)
    for a, b in zip(batched, single, strict=True):
        assert a.record == b.record
        assert a.position == b.position
    with pytest.raises(InvalidInputError, match="given twice"):
        strike_matches([batched[0], batched[0]], [strokes[0], strokes[0]])
    before = batched[0].record
    with pytest.raises(InvalidInputError, match="as many strokes"):
        strike_matches([batched[0]], [])
    assert batched[0].record == before
