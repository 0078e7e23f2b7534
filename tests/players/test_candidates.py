"""The search's candidates: safeties aimed at zones on the cushions, side spin on the best pots."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from nineball import BallId
from nineball.equipment import PocketId
from nineball.game.position import Position
from nineball.physics import PhysicsParams, nine_foot
from nineball.players.aim import pocket_aim, pot_quality
from nineball.players.candidates import hidden, pots, safeties, safety_zones, with_side
from nineball.players.search import LEVELS, SearchPlayer
from nineball.rules import MatchConfig, MatchState, ShotFacts, shoot

TABLE, PARAMS = nine_foot(), PhysicsParams()

HOOKABLE = {BallId.CUE: (1.0, 0.9), BallId.ONE: (0.635, 2.2), BallId.NINE: (0.9, 1.5)}
"""The 1 near the foot cushion with no pot, the 9 halfway between it and the cue ball."""

STRAIGHT = {BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)}
"""An easy pot of the 1 into the foot-right corner."""


def _view(layout: dict[BallId, tuple[float, float]]) -> Position:
    # After a legal break with the 2-8 down: the 1 and the 9 are left, Ann to shoot.
    start = MatchState.start(MatchConfig(players=("Ann", "Bob")))
    state = shoot(start, ShotFacts.of(first_contact=1, pocketed=[2, 3, 4, 5, 6, 7, 8])).state
    state = replace(state, game=replace(state.game, push_out_allowed=False))
    return Position(state=state, layout=layout, table=TABLE, params=PARAMS)


def test_a_safety_hides_the_cue_ball_behind_a_blocker_and_drives_the_ball_to_a_cushion() -> None:
    view = _view(HOOKABLE)
    cue = HOOKABLE[BallId.CUE]
    player = SearchPlayer(LEVELS["club"])
    # no pot worth taking, and the 1 in plain sight: a safety is the play
    assert pot_quality(view, cue, BallId.ONE, player._aim_sd) < 0.1
    assert not hidden(view, cue, BallId.ONE)
    search = player._search(view, np.random.default_rng(0))
    found = safeties(search, cue)
    assert found
    hooks = []
    for candidate, result in zip(
        found, search.play_all(cue, [c.stroke for c in found]), strict=True
    ):
        # as aimed, every safety is legal and pockets nothing (one that pots is a pot)
        assert result is not None
        assert not result.ruling.fouls
        assert not result.facts.pocketed
        assert candidate.kind == "safety"
        assert candidate.safety
        after = result.after
        if hidden(after, after.layout[BallId.CUE], BallId.ONE) and BallId.ONE in result.facts.rails:
            hooks.append(candidate)
    # one of them leaves the 9 between the cue ball and the 1, which reached a cushion
    assert hooks


def test_safety_zones_keep_away_from_the_pockets() -> None:
    r = PARAMS.radius
    for ball in ((0.635, 2.2), (0.05, 1.27), (1.2, 0.1)):
        zones = safety_zones(_view(HOOKABLE), ball)
        assert len(zones) >= 18
        for cushion, (x, y) in zones:
            # on the line a ball's centre meets the named cushion on
            at = {"left": x - r, "right": TABLE.width - r - x, "head": y - r}
            assert math.isclose(at.get(cushion, TABLE.length - r - y), 0.0, abs_tol=1e-12)
            nearest = min(math.dist((x, y), TABLE.pocket_centre(p)) for p in PocketId)
            assert nearest > 0.15
    # A ball frozen to a cushion, straight across from itself and on a diamond's line: no zone
    # where it already is (there is no line to it), and safeties are still found from there.
    frozen = (TABLE.width / 4.0, TABLE.length - r)
    zones = safety_zones(_view(HOOKABLE), frozen)
    assert zones
    assert all(math.dist(zone, frozen) > 0.001 for _, zone in zones)
    # (it lies on two: a diamond's and the one straight across; a centimetre off the cushion
    # both are kept)
    assert len(zones) == len(safety_zones(_view(HOOKABLE), (frozen[0], frozen[1] - 0.01))) - 2
    layout = {**HOOKABLE, BallId.ONE: frozen}
    search = SearchPlayer(LEVELS["club"])._search(_view(layout), np.random.default_rng(0))
    assert safeties(search, layout[BallId.CUE])


@pytest.mark.parametrize("level", ["club", "advanced", "pro"])
def test_the_best_direct_pots_get_side_spin_aimed_by_simulation(level: str) -> None:
    view = _view(STRAIGHT)
    cue = STRAIGHT[BallId.CUE]
    player = SearchPlayer(LEVELS[level])
    search = player._search(view, np.random.default_rng(0))
    ranked = search.score_all(cue, pots(search, cue), 0)
    ranked.sort(key=lambda c: c.value, reverse=True)
    sided = with_side(search, cue, ranked)
    assert len(sided) == LEVELS[level].side_pots * len(LEVELS[level].sides)
    aims = {c.stroke.aim for c in ranked}
    for candidate in sided:
        stroke = candidate.stroke
        assert stroke.side in LEVELS[level].sides
        assert stroke.offset < PARAMS.miscue_limit  # never a planned miscue
        # squirt, swerve and throw are corrected: the aim is its own, and the 1 drops
        assert stroke.aim not in aims
        result = search.play(cue, stroke)
        assert result is not None
        assert BallId.ONE in result.facts.pocketed
        assert not result.ruling.fouls
        wanted = pocket_aim(TABLE, PocketId(candidate.pocket))
        error = search.leaving_error(cue, stroke, BallId.ONE, _angle(STRAIGHT[BallId.ONE], wanted))
        assert error is not None
        assert abs(error) < math.radians(0.1)
    # and the search weighs them with the rest
    assert any(c.stroke.side != 0.0 for c in player.evaluate(view, np.random.default_rng(0)))


@pytest.mark.parametrize("level", ["beginner", "amateur"])
def test_no_side_spin_below_club(level: str) -> None:
    player = SearchPlayer(LEVELS[level])
    ranked = player.evaluate(_view(STRAIGHT), np.random.default_rng(0))
    assert ranked
    assert all(c.stroke.side == 0.0 for c in ranked)


def _angle(start: tuple[float, float], end: tuple[float, float]) -> float:
    return math.atan2(end[1] - start[1], end[0] - start[0])
