"""The search scores its candidates in batches and decides exactly as one stroke at a time."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from nineball import BallId
from nineball.game.match import Match
from nineball.game.position import Position
from nineball.physics import Stroke
from nineball.players.base import Decision
from nineball.players.evaluation import Search
from nineball.players.search import LEVELS, SearchPlayer
from nineball.rules import MatchConfig, MatchState, ShotFacts, shoot


def _after_break(seed: int) -> Position:
    match = Match(MatchConfig(players=("Ann", "Bob")), seed=seed)
    cue = (0.6, 0.45)
    one = match.layout[BallId.ONE]
    match.place_cue_ball(cue)
    match.strike(Stroke(speed=9.0, aim=math.atan2(one[1] - cue[1], one[0] - cue[0])))
    return match.position


def _decide(level: str, view: Position, seed: int) -> tuple[Decision, list[object]]:
    player = SearchPlayer(LEVELS[level])
    decision = player.decide(view, np.random.default_rng(seed))
    return decision, list(player.last)


def _one_at_a_time(
    self: Search, cue: tuple[float, float], strokes: list[Stroke], *, push_out: bool = False
) -> list[object]:
    return [self.play(cue, stroke, push_out=push_out) for stroke in strokes]


@pytest.mark.parametrize(("level", "seed"), [("club", 4), ("beginner", 8)])
def test_batched_scoring_decides_as_one_stroke_at_a_time(
    level: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = _after_break(seed)
    game = replace(view.state.game, push_out_allowed=False)  # a shot, not a push out
    view = replace(view, state=replace(view.state, game=game))
    batched = _decide(level, view, seed)
    with monkeypatch.context() as patch:
        patch.setattr(Search, "play_all", _one_at_a_time)
        alone = _decide(level, view, seed)
    assert batched == alone
    assert batched[1]  # candidates were scored


def test_the_lookahead_plays_its_leaves_in_batches_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # the top level's one more ply (deepen, next_value): a cut with the 9 left
    start = MatchState.start(MatchConfig(players=("Ann", "Bob")))
    state = shoot(start, ShotFacts.of(first_contact=1, pocketed=[2, 3, 4, 5, 6, 7, 8])).state
    state = replace(state, game=replace(state.game, push_out_allowed=False))
    layout = {BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)}
    view = Position(state=state, layout=layout)
    level = replace(LEVELS["max"], samples=2, shortlist=2, screen=3, finalists=1, lookahead=2)
    player = SearchPlayer(level)
    search = player._search(view, np.random.default_rng(1))
    candidate = player.evaluate(view, np.random.default_rng(1))[0]
    deep = search.deepen(view.layout[BallId.CUE], candidate, 2)
    with monkeypatch.context() as patch:
        patch.setattr(Search, "play_all", _one_at_a_time)
        search = player._search(view, np.random.default_rng(1))
        assert player.evaluate(view, np.random.default_rng(1))[0] == candidate
        assert search.deepen(view.layout[BallId.CUE], candidate, 2) == deep
